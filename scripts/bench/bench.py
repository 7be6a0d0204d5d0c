#!/usr/bin/env python3
"""Tonearm benchmarks against real peers, on the same generated input, in one run.

  B1 render        tonearm render (3 x 10 min MP3, two 10 s equal-power crossfades) -> WAV
                   vs ffmpeg acrossfade=qsin; wall time, median of BENCH_RUNS, interleaved.
  B2 playback cost BENCH_SECONDS of one MP3 to a null output, real time: tonearm vs mpv vs mpd;
                   CPU seconds (user+sys) and peak RSS of the player process.
  B3 first audio   launch -> first sample above -40 dBFS on a private PulseAudio null sink's
                   monitor, recorded with parecord from before launch; tonearm vs mpv;
                   median of BENCH_TTFA_RUNS, interleaved.

B4 to B6 are in radio.py, B7 and B8 in library.py, B9 in terminal.py, B10 in listening.py, B12 in hls.py,
B14 and B15 (memory soaks) in soak.py, B16 and B17 (`tonearm serve`: idle, feeding Snapcast) in daemon.py,
B18 (a timer session's bells and cost) in layers.py, B19 (library search) in search.py, B20 and B21 (the music
index and its search, vs mpd) in music.py.

Standard library only. Everything measured is printed; nothing is assumed. After the run the
results are written to docs/BENCHMARKS.md (report.py; `--report PATH` elsewhere, `--no-report`
not at all): rows of the benchmarks that produced figures replace theirs, the other rows and the
file's "Notes" section are kept. Exit status: 0 when every benchmark ran (targets missed or not),
1 when one could not run at all.
"""
import argparse
import array
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import report  # scripts/bench/report.py: writes docs/BENCHMARKS.md

RATE = 48000
CHANNELS = 2
STAGE_SECONDS = 600
CROSSFADE = 10

DEVNULL = subprocess.DEVNULL


def say(msg):
    print(f"bench: {msg}", flush=True)


def env_int(name, default, minimum):
    raw = os.environ.get(name, "")
    try:
        value = int(raw) if raw else default
    except ValueError:
        raise SystemExit(f"bench: {name} must be an integer, got {raw!r}")
    return max(minimum, value)


class BenchError(Exception):
    pass


# ----------------------------------------------------------------------------- process helpers

def spawn(argv, **kw):
    kw.setdefault("stdin", DEVNULL)
    try:
        return subprocess.Popen(argv, **kw)
    except OSError as e:
        raise BenchError(f"cannot run {argv[0]}: {e}")


def reap(proc, flags=0):
    """os.wait4 on a Popen child; returns (exit code or -signal, rusage) or None with WNOHANG."""
    pid, status, usage = os.wait4(proc.pid, flags)
    if pid == 0:
        return None
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code  # so Popen does not try to reap it again
    return code, usage


def wait_reap(proc, timeout):
    deadline = time.monotonic() + timeout
    while True:
        r = reap(proc, os.WNOHANG)
        if r is not None:
            return r
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def stop_reap(proc, sig=signal.SIGTERM, grace=5.0):
    """Sends sig, waits up to grace seconds, then SIGKILL. Returns (code, rusage)."""
    try:
        os.kill(proc.pid, sig)
    except ProcessLookupError:
        pass
    r = wait_reap(proc, grace)
    if r is None:
        os.kill(proc.pid, signal.SIGKILL)
        r = reap(proc)
    return r


def cpu_seconds(usage):
    return usage.ru_utime + usage.ru_stime


def tail(path, lines=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


def first_line(argv):
    try:
        out = subprocess.run(argv, stdin=DEVNULL, capture_output=True, text=True, timeout=20)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0].strip() if text else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


# ----------------------------------------------------------------------------- formatting

def fmt_s(x):
    return f"{x:.2f} s"


def fmt_ms(x):
    return f"{x * 1000:.0f} ms"


def fmt_mb(kb):
    return f"{kb / 1024:.1f} MB"


class Table:
    """The run's rows, kept twice: as text for the console and as Markdown cells for
    docs/BENCHMARKS.md (scripts/bench/report.py): benchmark, Tonearm, peer, ratio, target, result."""

    def __init__(self):
        self.rows = []
        self.cells = []
        self.failed = []

    def _row(self, text, cells):
        self.rows.append(text)
        self.cells.append(cells)

    def add(self, name, ours, peer_name, peer, ratio, target=None):
        if target is None:
            verdict, target_s = "info", "-"
        else:
            verdict = "met" if ratio <= target else f"MISSED ({ratio / target:.1f}x over)"
            target_s = f"<= {target:.2f}"
        self._row((name, f"tonearm {ours}", f"{peer_name} {peer}", f"ratio {ratio:.2f}", f"target {target_s}", verdict),
                  (name, ours, f"{peer_name} {peer}", f"{ratio:.2f}", "–" if target is None else f"≤ {target:.2f}",
                   "" if target is None else verdict.lower()))

    def absolute(self, name, ours, value, target, target_s):
        """A row with an absolute target (value <= target), no peer."""
        verdict = "met" if value <= target else (f"MISSED ({value / target:.1f}x over)" if target > 0 else "MISSED")
        self._row((name, f"tonearm {ours}", "-", "", f"target <= {target_s}", verdict),
                  (name, ours, "", "–", f"≤ {target_s}", verdict.lower()))

    def missed(self, name, ours, target_s, why):
        """A row with an absolute target and no figure to compare (nothing happened)."""
        self._row((name, f"tonearm {ours}", "-", "", f"target <= {target_s}", f"MISSED ({why})"),
                  (name, ours, "", "–", f"≤ {target_s}", f"missed ({why})"))

    def note(self, name, ours, peer, extra):
        tonearm = ours[len("tonearm "):] if ours.startswith("tonearm ") else ours
        self._row((name, ours, peer, extra, "", ""), (name, tonearm, peer, "", "", extra))

    def fail(self, name, why):
        self.failed.append(name)
        first = why.splitlines()[0][:120] if why else ""
        self._row((name, "COULD NOT RUN", first, "", "", ""), (name, "could not run", first, "", "", "could not run"))

    def print(self):
        if not self.rows:
            print("(no benchmark ran)", flush=True)
            return
        widths = [max(len(r[i]) for r in self.rows) for i in range(6)]
        for r in self.rows:
            cells = [c.ljust(widths[i]) for i, c in enumerate(r)]
            print(" | ".join(cells).rstrip(" |").rstrip(), flush=True)

    def measured(self):
        """Ids of the benchmarks that produced at least one row that is not a failure."""
        return {report.bench_id(c[0]) for c in self.cells if c[1] != "could not run"} - {None}


# ----------------------------------------------------------------------------- inputs

# Three different, not trivially compressible, 48 kHz stereo signals (tone + independent noise
# per channel), encoded as 128 kbps CBR MP3 by libmp3lame.
SIGNALS = {
    "a.mp3": (["-f", "lavfi", "-i", f"anoisesrc=c=pink:r={RATE}:a=0.2:d={STAGE_SECONDS}:seed=11",
               "-f", "lavfi", "-i", f"anoisesrc=c=pink:r={RATE}:a=0.2:d={STAGE_SECONDS}:seed=12",
               "-f", "lavfi", "-i", f"sine=f=220:r={RATE}:d={STAGE_SECONDS}",
               "-f", "lavfi", "-i", f"sine=f=330:r={RATE}:d={STAGE_SECONDS}"],
              "[0][2]amix=inputs=2:normalize=0[l];[1][3]amix=inputs=2:normalize=0[r];"
              "[l][r]join=inputs=2:channel_layout=stereo"),
    "b.mp3": (["-f", "lavfi", "-i", f"anoisesrc=c=white:r={RATE}:a=0.08:d={STAGE_SECONDS}:seed=21",
               "-f", "lavfi", "-i", f"anoisesrc=c=white:r={RATE}:a=0.08:d={STAGE_SECONDS}:seed=22",
               "-f", "lavfi", "-i", f"sine=f=440:r={RATE}:d={STAGE_SECONDS}:beep_factor=3",
               "-f", "lavfi", "-i", f"sine=f=554:r={RATE}:d={STAGE_SECONDS}"],
              "[0][2]amix=inputs=2:normalize=0[l];[1][3]amix=inputs=2:normalize=0[r];"
              "[l][r]join=inputs=2:channel_layout=stereo"),
    "c.mp3": (["-f", "lavfi", "-i", f"anoisesrc=c=brown:r={RATE}:a=0.3:d={STAGE_SECONDS}:seed=31",
               "-f", "lavfi", "-i", f"anoisesrc=c=brown:r={RATE}:a=0.3:d={STAGE_SECONDS}:seed=32",
               "-f", "lavfi", "-i", f"sine=f=110:r={RATE}:d={STAGE_SECONDS}",
               "-f", "lavfi", "-i", f"sine=f=165:r={RATE}:d={STAGE_SECONDS}"],
              "[0][2]amix=inputs=2:normalize=0[l];[1][3]amix=inputs=2:normalize=0[r];"
              "[l][r]join=inputs=2:channel_layout=stereo"),
}


def generate_inputs(work):
    say(f"generating 3 x {STAGE_SECONDS // 60} min MP3 (128 kbps CBR, {RATE} Hz stereo) with ffmpeg ...")
    t0 = time.perf_counter()
    procs = []
    for name, (inputs, graph) in SIGNALS.items():
        out = os.path.join(work, name)
        argv = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *inputs,
                "-filter_complex", graph, "-c:a", "libmp3lame", "-b:a", "128k", "-ar", str(RATE), "-ac", "2", out]
        procs.append((name, spawn(argv, stderr=subprocess.PIPE)))
    for name, p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            raise BenchError(f"ffmpeg could not generate {name}: {err.decode(errors='replace').strip()}")
    paths = [os.path.join(work, n) for n in SIGNALS]
    for p in paths:
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=sample_rate,channels,bit_rate",
                                "-show_entries", "format=duration", "-of", "json", p], capture_output=True, text=True)
        info = json.loads(probe.stdout)
        st = info["streams"][0]
        say(f"  {os.path.basename(p)}: {float(info['format']['duration']):.2f} s, {st['sample_rate']} Hz, "
            f"{st['channels']} ch, {int(st['bit_rate']) // 1000} kbps, {os.path.getsize(p) / 1e6:.1f} MB")
    say(f"  generated in {time.perf_counter() - t0:.1f} s")
    return paths


# ----------------------------------------------------------------------------- B1 render

def wav_seconds(path):
    """Duration of a PCM WAV from its fmt and data chunks (data size clamped to the file)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(12)
        if head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            raise BenchError(f"{path} is not a WAV file")
        block_align = rate = None
        while True:
            hdr = f.read(8)
            if len(hdr) < 8:
                raise BenchError(f"{path}: no data chunk")
            cid, clen = hdr[:4], int.from_bytes(hdr[4:], "little")
            if cid == b"fmt ":
                fmt = f.read(clen)
                rate = int.from_bytes(fmt[4:8], "little")
                block_align = int.from_bytes(fmt[12:14], "little")
                if clen % 2:
                    f.read(1)
            elif cid == b"data":
                start = f.tell()
                data = min(clen, size - start) if clen not in (0, 0xFFFFFFFF) else size - start
                return data / block_align / rate, rate, block_align
            else:
                f.seek(clen + (clen % 2), 1)


def timed_run(argv, log, cwd=None):
    with open(log, "ab") as lf:
        t0 = time.perf_counter()
        p = spawn(argv, stdout=lf, stderr=lf, cwd=cwd)
        code, usage = reap(p)
        wall = time.perf_counter() - t0
    if code != 0:
        raise BenchError(f"{' '.join(argv[:3])} ... exited with {code}:\n{tail(log)}")
    return wall, usage


def bench_render(tonearm, work, inputs, runs, table):
    a, b, c = inputs
    session = os.path.join(work, "session.json")
    with open(session, "w") as f:
        json.dump({"name": "bench", "crossfade": CROSSFADE, "curve": "equal-power",
                   "stages": [{"title": "A", "source": a}, {"title": "B", "source": b}, {"title": "C", "source": c}]},
                  f, indent=2)
    out_t = os.path.join(work, "render-tonearm.wav")
    out_f = os.path.join(work, "render-ffmpeg.wav")
    cmds = {
        "tonearm": [tonearm, "render", session, "--output", f"wav:{out_t}"],
        "ffmpeg": ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", a, "-i", b, "-i", c,
                   "-filter_complex",
                   f"[0][1]acrossfade=d={CROSSFADE}:c1=qsin:c2=qsin[ab];[ab][2]acrossfade=d={CROSSFADE}:c1=qsin:c2=qsin",
                   out_f],
    }
    outs = {"tonearm": out_t, "ffmpeg": out_f}
    say(f"B1 render: session = 3 stages x {STAGE_SECONDS // 60} min, two {CROSSFADE} s equal-power crossfades")
    say(f"  tonearm: {' '.join(cmds['tonearm'])}")
    say(f"  ffmpeg:  {' '.join(cmds['ffmpeg'])}")
    walls = {"tonearm": [], "ffmpeg": []}
    cpus = {"tonearm": [], "ffmpeg": []}
    rss = {"tonearm": [], "ffmpeg": []}
    lengths = {}
    for i in range(runs):
        order = ["tonearm", "ffmpeg"] if i % 2 == 0 else ["ffmpeg", "tonearm"]
        for who in order:
            if os.path.exists(outs[who]):
                os.unlink(outs[who])
            wall, usage = timed_run(cmds[who], os.path.join(work, f"b1-{who}.log"), cwd=work)
            walls[who].append(wall)
            cpus[who].append(cpu_seconds(usage))
            rss[who].append(usage.ru_maxrss)
            secs, rate, align = wav_seconds(outs[who])
            lengths[who] = (secs, rate, align)
            os.unlink(outs[who])
            say(f"  run {i + 1}/{runs} {who:8s} wall {wall:6.2f} s  cpu {cpu_seconds(usage):6.2f} s "
                f"(user {usage.ru_utime:.2f} + sys {usage.ru_stime:.2f})  peak RSS {fmt_mb(usage.ru_maxrss)}  "
                f"output {secs:.3f} s @ {rate} Hz, {align} B/frame")
    mt, mf = statistics.median(walls["tonearm"]), statistics.median(walls["ffmpeg"])
    name = f"B1 render {3 * STAGE_SECONDS // 60} min, 2 crossfades, wall (median of {runs})"
    table.add(name, fmt_s(mt), "ffmpeg", fmt_s(mf), mt / mf, 0.70)
    ct, cf = statistics.median(cpus["tonearm"]), statistics.median(cpus["ffmpeg"])
    table.add("B1 render CPU user+sys (median)", fmt_s(ct), "ffmpeg", fmt_s(cf), ct / cf)
    rt, rf = max(rss["tonearm"]), max(rss["ffmpeg"])
    table.add("B1 render peak RSS (max)", fmt_mb(rt), "ffmpeg", fmt_mb(rf), rt / rf)
    lt, lf = lengths["tonearm"][0], lengths["ffmpeg"][0]
    expected = 3 * STAGE_SECONDS - 2 * CROSSFADE
    table.note("B1 output length (expected ~%d s)" % expected, f"tonearm {lt:.3f} s", f"ffmpeg {lf:.3f} s",
               f"diff {lt - lf:+.3f} s" + ("" if abs(lt - lf) < 1.0 else "  <- lengths differ by > 1 s"))


# ----------------------------------------------------------------------------- B2 playback cost

def run_for(argv, seconds, log, env=None):
    """Runs a real-time player for `seconds`, then SIGTERM. Returns (cpu s, peak RSS KB, code)."""
    with open(log, "ab") as lf:
        p = spawn(argv, stdout=lf, stderr=lf, env=env)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            r = reap(p, os.WNOHANG)
            if r is not None:
                raise BenchError(f"{os.path.basename(argv[0])} exited early ({r[0]}) after "
                                 f"{seconds - (deadline - time.monotonic()):.1f} s of {seconds} s:\n{tail(log)}")
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))
        code, usage = stop_reap(p)
    return cpu_seconds(usage), usage.ru_maxrss, usage


def mpc(sock, *args, timeout=60):
    r = subprocess.run(["mpc", "-h", sock, *args], stdin=DEVNULL, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise BenchError(f"mpc {' '.join(args)} failed: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout


MPD_NULL_OUTPUT = 'audio_output {\n    type "null"\n    name "null"\n}\n'


def start_mpd(d, output=MPD_NULL_OUTPUT, env=None, what="null output"):
    """Starts `mpd --no-daemon` with its config, database, log and unix socket in d (music in d/music).
    Returns (process, socket path, log path) once the socket exists; the caller stops it."""
    music = os.path.join(d, "music")
    os.makedirs(music, exist_ok=True)
    sock = os.path.join(d, "mpd.sock")
    conf = os.path.join(d, "mpd.conf")
    log = os.path.join(d, "mpd.log")
    with open(conf, "w") as f:
        f.write(f'music_directory "{music}"\n'
                f'db_file "{d}/mpd.db"\n'
                f'log_file "{log}"\n'
                f'bind_to_address "{sock}"\n'
                'auto_update "no"\n'
                'zeroconf_enabled "no"\n'
                + output)
    say(f"  mpd:     mpd --no-daemon {conf}  ({what}, unix socket; mpc update/add/play)")
    # A socket file left by an earlier mpd in the same directory would end the wait below at once,
    # before the new mpd listens.
    if os.path.exists(sock):
        os.remove(sock)
    with open(os.path.join(d, "mpd.stderr"), "ab") as ef:
        p = spawn(["mpd", "--no-daemon", conf], stdout=ef, stderr=ef, env=env)
    try:
        deadline = time.monotonic() + 15
        while not os.path.exists(sock):
            if reap(p, os.WNOHANG) is not None:
                raise BenchError(f"mpd exited at start-up:\n{tail(os.path.join(d, 'mpd.stderr'))}{tail(log)}")
            if time.monotonic() > deadline:
                raise BenchError("mpd did not open its socket within 15 s")
            time.sleep(0.02)
    except BaseException:
        if p.returncode is None:
            stop_reap(p)
        raise
    return p, sock, log


def proc_usage(pid):
    """(CPU user+sys seconds, VmHWM KB) of a live process, from /proc."""
    with open(f"/proc/{pid}/status") as f:
        hwm = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14, 15)
    return cpu, hwm


def run_mpd(work, mp3, seconds):
    d = os.path.join(work, "mpd")
    os.makedirs(os.path.join(d, "music"), exist_ok=True)
    shutil.copyfile(mp3, os.path.join(d, "music", os.path.basename(mp3)))
    p, sock, log = start_mpd(d)
    try:
        mpc(sock, "-q", "update", "--wait")
        mpc(sock, "-q", "add", os.path.basename(mp3))
        mpc(sock, "-q", "play")
        time.sleep(seconds)
        status = mpc(sock, "status")
        cpu, hwm = proc_usage(p.pid)
        if "[playing]" not in status:
            raise BenchError(f"mpd is not playing after {seconds} s:\n{status}{tail(log)}")
        elapsed = [l for l in status.splitlines() if "[playing]" in l][0]
        say(f"    mpd status after {seconds} s: {' '.join(elapsed.split())}")
        return cpu, hwm
    finally:
        if p.returncode is None:
            stop_reap(p)


def bench_playback(tonearm, work, mp3, seconds, table):
    say(f"B2 real-time playback cost: {seconds} s of {os.path.basename(mp3)} to a null output, one player at a time")
    cmds = {
        "tonearm": [tonearm, "play", mp3, "--output", "null"],
        "mpv": ["mpv", "--no-config", "--ao=null", "--vo=null", mp3],
    }
    say(f"  tonearm: {' '.join(cmds['tonearm'])}  (SIGTERM after {seconds} s)")
    say(f"  mpv:     {' '.join(cmds['mpv'])}  (SIGTERM after {seconds} s)")
    results = {}
    errors = {}
    for who in ("tonearm", "mpv", "mpd"):
        try:
            if who == "mpd":
                cpu, kb = run_mpd(work, mp3, seconds)
            else:
                cpu, kb, usage = run_for(cmds[who], seconds, os.path.join(work, f"b2-{who}.log"))
            results[who] = (cpu, kb)
            say(f"    {who:8s} CPU {cpu:.2f} s over {seconds} s ({100 * cpu / seconds:.1f} % of a core), peak RSS {fmt_mb(kb)}")
        except BenchError as e:
            errors[who] = str(e)
            say(f"    {who}: could not run: {e}")
    label = f"B2 play {seconds} s null out"
    for peer in ("mpd", "mpv"):
        if "tonearm" in errors or peer in errors:
            why = errors.get("tonearm") or errors.get(peer)
            table.fail(f"{label}, CPU + RSS vs {peer}", why)
            continue
        (tc, tk), (pc, pk) = results["tonearm"], results[peer]
        table.add(f"{label}, CPU user+sys", fmt_s(tc), peer, fmt_s(pc), tc / pc if pc > 0 else float("inf"),
                  1.00 if peer == "mpd" else None)
        table.add(f"{label}, peak RSS", fmt_mb(tk), peer, fmt_mb(pk), tk / pk, 0.75 if peer == "mpd" else None)


# ----------------------------------------------------------------------------- B3 first audio

class Pulse:
    def __init__(self, work, name="pulse"):
        self.dir = os.path.join(work, name)
        for sub in ("home", "runtime"):
            os.makedirs(os.path.join(self.dir, sub), mode=0o700, exist_ok=True)
        self.sock = os.path.join(self.dir, "native")
        self.server = f"unix:{self.sock}"
        with open(os.path.join(self.dir, "pulse.pa"), "w") as f:
            f.write(f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.sock}\n"
                    f"load-module module-null-sink sink_name=test rate={RATE} channels={CHANNELS}\n"
                    "set-default-sink test\n")
        env = dict(os.environ)
        for k in ("PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"):
            env.pop(k, None)
        env.update(HOME=os.path.join(self.dir, "home"), XDG_RUNTIME_DIR=os.path.join(self.dir, "runtime"),
                   XDG_CONFIG_HOME=os.path.join(self.dir, "home", ".config"))
        self.base_env = dict(env)
        self.client_env = dict(env, PULSE_SERVER=self.server)
        self.log = os.path.join(self.dir, "pulseaudio.log")
        self.proc = None
        self.rec = None

    def start(self):
        with open(self.log, "ab") as lf:
            self.proc = spawn(["pulseaudio", "-n", "-F", os.path.join(self.dir, "pulse.pa"), "--exit-idle-time=-1",
                               "--disallow-exit", "--daemonize=no", "--system=no", "--use-pid-file=no",
                               "--realtime=no", "--high-priority=no", "--log-target=stderr"],
                              stdout=DEVNULL, stderr=lf, env=self.base_env)
        deadline = time.monotonic() + 10
        while True:
            if reap(self.proc, os.WNOHANG) is not None:
                raise BenchError(f"pulseaudio exited at start-up:\n{tail(self.log)}")
            r = subprocess.run(["pactl", "info"], env=self.client_env, stdin=DEVNULL, capture_output=True)
            if r.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise BenchError(f"pulseaudio did not answer within 10 s:\n{tail(self.log)}")
            time.sleep(0.05)

    def stop(self):
        if self.proc is not None and self.proc.returncode is None:
            stop_reap(self.proc)


class Recorder:
    """parecord on test.monitor; a thread reads it continuously and, when armed, reports the
    monotonic time of the first sample whose magnitude exceeds the threshold."""

    def __init__(self, pulse, threshold):
        self.threshold = threshold
        self.proc = spawn(["parecord", "--device=test.monitor", "--latency-msec=5", "--raw", "--format=float32le",
                           f"--rate={RATE}", f"--channels={CHANNELS}"],
                          stdout=subprocess.PIPE, stderr=open(os.path.join(pulse.dir, "parecord.log"), "ab"),
                          env=pulse.client_env)
        self.lock = threading.Lock()
        self.armed = False
        self.hit = None
        self.last_loud = 0.0
        self.bytes = 0
        self.event = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        fd = self.proc.stdout.fileno()
        frame = 4 * CHANNELS
        pending = b""
        while True:
            chunk = os.read(fd, 65536)
            now = time.perf_counter()
            if not chunk:
                return
            self.bytes += len(chunk)
            data = pending + chunk
            usable = len(data) - len(data) % 4
            pending = data[usable:]
            samples = array.array("f")
            samples.frombytes(data[:usable])
            if not samples:
                continue
            peak = max(max(samples), -min(samples))
            if peak > self.threshold:
                self.last_loud = now
                with self.lock:
                    if self.armed and self.hit is None:
                        first = next(i for i, v in enumerate(samples) if v > self.threshold or v < -self.threshold)
                        frames_after = (len(samples) - first) // CHANNELS
                        self.hit = now - frames_after / RATE
                        self.event.set()

    def arm(self):
        with self.lock:
            self.hit = None
            self.event.clear()
            self.armed = True

    def disarm(self):
        with self.lock:
            self.armed = False

    def wait_silence(self, quiet=0.3, timeout=10):
        deadline = time.monotonic() + timeout
        while time.perf_counter() - self.last_loud < quiet:
            if time.monotonic() > deadline:
                raise BenchError("the sink did not go silent between runs")
            time.sleep(0.05)

    def stop(self):
        if self.proc.returncode is None:
            stop_reap(self.proc)


def first_audio(recorder, argv, env, marker, log, timeout=15.0):
    """Launch -> first loud sample (and launch -> the player's own start signal on stdout)."""
    recorder.wait_silence()
    recorder.arm()
    signal_at = [None]
    with open(log, "ab") as lf:
        t0 = time.perf_counter()
        p = spawn(argv, stdout=subprocess.PIPE, stderr=lf, env=env)

        def watch():
            for line in p.stdout:
                if signal_at[0] is None and marker(line):
                    signal_at[0] = time.perf_counter()
                lf.write(line)

        w = threading.Thread(target=watch, daemon=True)
        w.start()
        got = recorder.event.wait(timeout)
        recorder.disarm()
        hit = recorder.hit
        time.sleep(0.05)
        r = reap(p, os.WNOHANG)
        if r is None:
            stop_reap(p)
        w.join(5)
    if not got or hit is None:
        raise BenchError(f"{os.path.basename(argv[0])}: no sound above threshold within {timeout} s "
                         f"(exit {p.returncode}):\n{tail(log)}")
    return hit - t0, (signal_at[0] - t0) if signal_at[0] else None


def bench_first_audio(tonearm, work, mp3, runs, table):
    threshold_db = -40.0
    threshold = 10 ** (threshold_db / 20)
    say(f"B3 time to first audio: launch -> first sample above {threshold_db:.0f} dBFS on the monitor of a private "
        f"PulseAudio null sink ({RATE} Hz), recorded by parecord --latency-msec=5 started before launch; "
        f"{runs} runs each + 1 warm-up, interleaved")
    pulse = Pulse(work)
    pulse.start()
    recorder = None
    try:
        recorder = Recorder(pulse, threshold)
        deadline = time.monotonic() + 10  # an idle null sink's monitor starts delivering after ~2 s
        while recorder.bytes < RATE * CHANNELS * 4 // 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        if recorder.bytes == 0:
            raise BenchError(f"parecord delivers no data:\n{tail(os.path.join(pulse.dir, 'parecord.log'))}")
        cmds = {
            "tonearm": ([tonearm, "play", mp3, "--output", "pulse", "--events", "jsonl"],
                        lambda l: b'"state":"playing"' in l),
            "mpv": (["mpv", "--no-config", "--vo=null", "--ao=pulse", "--term-playing-msg=BENCH-PLAYING", mp3],
                    lambda l: l.startswith(b"BENCH-PLAYING")),
        }
        say(f"  tonearm: {' '.join(cmds['tonearm'][0])}")
        say(f"  mpv:     {' '.join(cmds['mpv'][0])}")
        say(f"  (both with PULSE_SERVER={pulse.server}; own signal: tonearm's first \"state\":\"playing\" line, "
            "mpv's --term-playing-msg)")
        audible = {"tonearm": [], "mpv": []}
        own = {"tonearm": [], "mpv": []}
        for i in range(runs + 1):
            order = ["tonearm", "mpv"] if i % 2 == 0 else ["mpv", "tonearm"]
            for who in order:
                argv, marker = cmds[who]
                a, s = first_audio(recorder, argv, pulse.client_env, marker, os.path.join(work, f"b3-{who}.log"))
                tag = "warm-up" if i == 0 else f"run {i}/{runs}"
                say(f"    {tag:9s} {who:8s} first audio {fmt_ms(a):>7s}   own start signal "
                    f"{fmt_ms(s) if s is not None else 'none':>7s}")
                if i > 0:
                    audible[who].append(a)
                    if s is not None:
                        own[who].append(s)
        mt, mm = statistics.median(audible["tonearm"]), statistics.median(audible["mpv"])
        table.add(f"B3 first audio, local MP3, launch -> -40 dBFS (median of {runs})", fmt_ms(mt), "mpv", fmt_ms(mm),
                  mt / mm, 0.50)
        if len(own["tonearm"]) == runs and len(own["mpv"]) == runs:
            st, sm = statistics.median(own["tonearm"]), statistics.median(own["mpv"])
            table.add("B3 launch -> own start signal read from its stdout pipe (median)", fmt_ms(st), "mpv", fmt_ms(sm), st / sm)
        else:
            table.note("B3 launch -> player's own start signal", "not seen on every run", "", "")
    finally:
        if recorder:
            recorder.stop()
        pulse.stop()


# ----------------------------------------------------------------------------- main

def machine_info(tonearm):
    """What the run ran on: architecture, CPU model, cores, memory, kernel and tool versions."""
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {
        "arch": os.uname().machine,
        "cpu": model,
        "cores": os.cpu_count(),
        "usable": len(os.sched_getaffinity(0)),
        "ram": mem,
        "kernel": os.uname().release,
        "tools": [
            ("tonearm", f"{first_line([tonearm, '--version'])} ({tonearm})"),
            ("ffmpeg", first_line(["ffmpeg", "-version"])),
            ("mpv", first_line(["mpv", "--version"])),
            ("mpd", first_line(["mpd", "--version"])),
            ("pulseaudio", first_line(["pulseaudio", "--version"])),
            ("icecast2", first_line(["icecast2", "-v"])),
            ("snapserver", first_line(["snapserver", "-v"])),
            ("tmux", first_line(["tmux", "-V"])),
        ],
    }


def machine_lines(info):
    return [
        f"machine: {info['arch']}, nproc {info['cores']} (usable {info['usable']}), CPU {info['cpu']}, RAM {info['ram']}, "
        f"kernel {info['kernel']}",
    ] + [f"{name + ':':8s} {version}" for name, version in info["tools"]]


def report_run(info, only, settings, inputs, asked, measured):
    """The `run` argument of report.render for this run."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    command = "`scripts/bench.sh" + (f" --only {','.join(sorted(only))}" if only else "") + "`"
    return {
        "summary": f"{when}, {command}",
        "measured": sorted(measured),
        "unmeasured": sorted(set(asked) - set(measured)),
        "settings": settings,
        "machine": [("`uname -m`", info["arch"]), ("CPU", info["cpu"]),
                    ("cores", f"{info['cores']} (usable {info['usable']})"), ("RAM", info["ram"]),
                    ("kernel", info["kernel"])],
        "tools": info["tools"],
        "inputs": inputs,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tonearm", required=True)
    ap.add_argument("--only", default="", help="comma-separated subset to run, e.g. B4,B5,B6 (default: all)")
    ap.add_argument("--report", default=report.default_path(),
                    help="the Markdown report to write (default: docs/BENCHMARKS.md); rows of benchmarks "
                         "that did not run are kept from it")
    ap.add_argument("--no-report", action="store_true", help="print the results only")
    args = ap.parse_args()
    only = {x.strip().upper() for x in args.only.split(",") if x.strip()}
    radio_on = os.environ.get("BENCH_RADIO", "1") != "0"
    sys.modules.setdefault("bench", sys.modules[__name__])  # so radio.py's `import bench` is this module
    import radio
    import library
    import terminal
    import listening
    import hls
    import soak
    import daemon
    import layers
    import search
    import music

    def wanted(key):
        if key in ("B4", "B5", "B6", "B12", "B15") and not radio_on and key not in only:
            return False
        return not only or key in only
    tonearm = os.path.abspath(args.tonearm)
    runs = env_int("BENCH_RUNS", 3, 1)
    seconds = env_int("BENCH_SECONDS", 60, 5)
    ttfa_runs = env_int("BENCH_TTFA_RUNS", 7, 1)
    work = tempfile.mkdtemp(prefix="tonearm-bench-")
    say(f"work directory {work} (BENCH_RUNS={runs} BENCH_SECONDS={seconds} BENCH_TTFA_RUNS={ttfa_runs} "
        f"BENCH_RADIO={'1' if radio_on else '0'}{' --only ' + ','.join(sorted(only)) if only else ''})")
    info = machine_info(tonearm)
    machine = machine_lines(info)
    for line in machine:
        say(line)
    table = Table()
    asked = []
    try:
        inputs = None
        if wanted("B1") or wanted("B2") or wanted("B3"):
            try:
                inputs = generate_inputs(work)
            except BenchError as e:
                say(f"cannot generate inputs: {e}")
                return 1
        benches = [("B1", "B1 render", lambda: bench_render(tonearm, work, inputs, runs, table)),
                   ("B2", "B2 playback cost", lambda: bench_playback(tonearm, work, inputs[0], seconds, table)),
                   ("B3", "B3 first audio", lambda: bench_first_audio(tonearm, work, inputs[0], ttfa_runs, table))]
        benches += radio.benchmarks(tonearm, work, table, ttfa_runs=ttfa_runs, seconds=seconds)
        benches += library.benchmarks(tonearm, work, table, runs=runs)
        benches += terminal.benchmarks(tonearm, work, table, seconds=seconds)
        benches += listening.benchmarks(tonearm, work, table, seconds=seconds, runs=runs)
        benches += hls.benchmarks(tonearm, work, table, ttfa_runs=ttfa_runs, seconds=seconds)
        benches += soak.benchmarks(tonearm, work, table)
        benches += daemon.benchmarks(tonearm, work, table, seconds=seconds)
        benches += layers.benchmarks(tonearm, work, table)
        benches += search.benchmarks(tonearm, work, table, runs=runs)
        benches += music.benchmarks(tonearm, work, table, runs=runs)
        for key, name, fn in benches:
            if not wanted(key):
                continue
            asked.append(key)
            try:
                fn()
            except BenchError as e:
                say(f"{name} could not run: {e}")
                table.fail(name, str(e))
            except Exception as e:  # a bug in the harness still must not hide the other results
                traceback.print_exc()
                table.fail(name, f"{type(e).__name__}: {e}")
        radio.cleanup()
    finally:
        radio.cleanup()
        if os.environ.get("BENCH_KEEP") == "1":
            say(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    print()
    print("== Tonearm benchmarks (same generated input for every player, this run) ==")
    for line in machine:
        print(line)
    inputs = [f"input: 3 different {STAGE_SECONDS // 60} min MP3s, 128 kbps CBR, {RATE} Hz stereo (tone + noise, "
              f"generated by ffmpeg/libmp3lame); {RATE} Hz everywhere, so no player resamples"] + radio.input_lines()
    for line in inputs:
        print(line)
    print("ratio = tonearm / peer; lower is better for every metric")
    print()
    table.print()
    print(flush=True)
    if not args.no_report:
        measured = table.measured() & set(asked)
        if measured:
            settings = (f"BENCH_RUNS={runs} BENCH_SECONDS={seconds} BENCH_TTFA_RUNS={ttfa_runs} "
                        f"BENCH_RADIO={'1' if radio_on else '0'}; Tonearm release build, Swift runtime linked "
                        "statically as shipped")
            report.write(args.report, table.cells, report_run(info, only, settings, inputs, asked, measured))
            say(f"wrote {args.report}")
        else:
            say(f"no benchmark produced a figure; {args.report} left as it was")
    if table.failed:
        print(f"bench: could not run: {', '.join(table.failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
