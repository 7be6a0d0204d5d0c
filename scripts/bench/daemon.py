"""Daemon benchmarks for scripts/bench/bench.py (imported by it; standard library only).

  B16 daemon idle     `tonearm serve --output null` (its own HOME, XDG directories and runtime
                      directory, no session bus) left alone for BENCH_SECONDS once it answers
                      `mpc status` on its MPD socket, vs `mpd --no-daemon` with a null output and an
                      empty music directory, left alone as long once it answers: CPU user+sys over
                      the window (from /proc/PID/stat), the threads' run time and wake-ups over it
                      (/proc/PID/task/*/schedstat: an idle mpd may not reach stat's 10 ms tick),
                      resident memory at the end (VmRSS) and the peak (VmHWM).
  B17 Snapcast        a private snapserver per player, nothing listening to it; `tonearm serve --output
                      snapcast:tcp://...` feeding its TCP source (server mode, 48000:16:2 PCM), vs mpd
                      writing to a `fifo` output (48000:16:2) that a second snapserver's `pipe://`
                      source reads; both playing the same 10 min MP3 queued with `mpc add` + `mpc play`.
                      CPU user+sys of the player over BENCH_SECONDS once it plays and its snapserver
                      reports the stream `playing`; the snapserver's own CPU over the same window.

One process at a time, the same window for both; the stream's state is read from snapserver's
JSON-RPC (Server.GetStatus) before and after the window, so a player that stopped feeding it does
not pass as a cheap one.
"""
import json
import os
import shutil
import socket
import subprocess
import time

import bench as B
from bench import BenchError, say, spawn, reap, stop_reap, tail, fmt_s, fmt_mb, RATE, CHANNELS

SAMPLE_FORMAT = f"{RATE}:16:{CHANNELS}"
MP3 = "a.mp3"  # bench.py's first generated input (10 min, 128 kbps, 48 kHz stereo)


# ----------------------------------------------------------------------------- processes

def proc_status(pid, key):
    """A /proc/PID/status field in KiB (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise BenchError(f"no {key} for process {pid}")


def cpu_now(pid):
    return B.proc_usage(pid)[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mpc_try(sock, *args):
    r = subprocess.run(["mpc", "-h", sock, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
    return r.returncode, r.stdout + r.stderr


def wait_for(what, check, proc, log, timeout=30.0):
    deadline = time.monotonic() + timeout
    while True:
        if reap(proc, os.WNOHANG) is not None:
            raise BenchError(f"{what}: the process exited ({proc.returncode}):\n{tail(log)}")
        if check():
            return
        if time.monotonic() > deadline:
            raise BenchError(f"{what} within {timeout:.0f} s:\n{tail(log)}")
        time.sleep(0.05)


def stop(proc):
    if proc is not None and proc.returncode is None:
        stop_reap(proc)


def serve_environment(d):
    """Tonearm's environment with d as its home: HOME, XDG data/state/cache/config and a 0700
    runtime directory in d, no session bus, the C locale."""
    runtime = os.path.join(d, "run")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    os.chmod(runtime, 0o700)
    env = dict(os.environ, LANG="C", HOME=d, XDG_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=os.path.join(d, "data"), XDG_STATE_HOME=os.path.join(d, "state"),
               XDG_CACHE_HOME=os.path.join(d, "cache"), XDG_CONFIG_HOME=os.path.join(d, "config"),
               DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent/tonearm-bench-bus")
    for k in ("LC_ALL", "TONEARM_MPD_PASSWORD", "JOURNAL_STREAM", "PULSE_SERVER"):
        env.pop(k, None)
    return env


class Serve:
    """`tonearm serve` with a home of its own: HOME, XDG data/state/cache/config and a 0700 runtime
    directory (where its MPD socket is) in d; no session bus; its log on stderr to d/serve.log."""

    def __init__(self, tonearm, d, output, music):
        self.dir = d
        self.socket = os.path.join(d, "run", "tonearm", "mpd.sock")
        self.log = os.path.join(d, "serve.log")
        env = serve_environment(d)
        self.argv = [tonearm, "serve", "--output", output, "--music-directory", music]
        with open(self.log, "ab") as lf:
            self.proc = spawn(self.argv, stdout=lf, stderr=lf, env=env)
        try:
            wait_for("tonearm serve did not answer `mpc status` on its socket",
                     lambda: os.path.exists(self.socket) and mpc_try(self.socket, "status")[0] == 0, self.proc, self.log)
        except BaseException:
            stop(self.proc)
            raise


class SnapServer:
    """A private snapserver on loopback (client, control and HTTP-less ports of its own) with one
    stream from `source` (a URI without its query) named `name`, 48000:16:2 PCM."""

    def __init__(self, d, source, name, query=""):
        os.makedirs(os.path.join(d, "data"), exist_ok=True)
        self.dir = d
        self.control = free_port()
        self.log = os.path.join(d, "snapserver.log")
        self.name = name
        conf = os.path.join(d, "snapserver.conf")
        with open(conf, "w") as f:
            f.write(f"[server]\ndatadir = {d}/data\n"
                    f"[stream]\nbind_to_address = 127.0.0.1\nport = {free_port()}\n"
                    f"source = {source}?name={name}&sampleformat={SAMPLE_FORMAT}&codec=pcm{query}\n"
                    "buffer = 1000\n"
                    f"[tcp]\nenabled = true\nbind_to_address = 127.0.0.1\nport = {self.control}\n"
                    "[http]\nenabled = false\n[logging]\nfilter = *:info\n")
        with open(self.log, "ab") as lf:
            self.proc = spawn(["snapserver", "-c", conf], stdout=lf, stderr=lf)
        try:
            wait_for("snapserver did not open its control port", self.answers, self.proc, self.log)
        except BaseException:
            stop(self.proc)
            raise

    def answers(self):
        try:
            socket.create_connection(("127.0.0.1", self.control), timeout=1).close()
            return True
        except OSError:
            return False

    def stream_status(self):
        """The stream's status from Server.GetStatus ("playing", "idle", ...)."""
        with socket.create_connection(("127.0.0.1", self.control), timeout=5) as s:
            s.sendall(b'{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}\r\n')
            buf = b""
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue
                    if msg.get("id") == 1:
                        streams = msg["result"]["server"]["streams"]
                        return next((st.get("status") for st in streams if st.get("id") == self.name), "absent")
        raise BenchError("snapserver did not answer Server.GetStatus")


# ----------------------------------------------------------------------------- B16 idle

def run_ns(pid):
    """Each live thread's (time on a CPU in ns, times it was put on a CPU), from
    /proc/PID/task/TID/schedstat: the scheduler's own account, finer than /proc/PID/stat's 10 ms
    ticks, which an idle daemon may not reach in a minute."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                fields = f.read().split()
            out[tid] = (int(fields[0]), int(fields[2]))
        except (OSError, ValueError, IndexError):
            pass
    return out


def idle_window(proc, seconds):
    """Over `seconds` from now: CPU user+sys (/proc/PID/stat); the threads' run time in s and
    times run (wake-ups), and how many threads ended in the window (their share is then missing);
    VmRSS and VmHWM at the end; and the CPU spent before the window (start-up)."""
    c0, n0 = cpu_now(proc.pid), run_ns(proc.pid)
    time.sleep(seconds)
    if reap(proc, os.WNOHANG) is not None:
        raise BenchError(f"the daemon exited ({proc.returncode}) while idle")
    c1, n1 = cpu_now(proc.pid), run_ns(proc.pid)
    ran = sum(ns - n0.get(tid, (0, 0))[0] for tid, (ns, _) in n1.items()) / 1e9
    woke = sum(n - n0.get(tid, (0, 0))[1] for tid, (_, n) in n1.items())
    ended = len(set(n0) - set(n1))
    return {"cpu": c1 - c0, "ran": ran, "woke": woke, "ended": ended, "threads": len(n1),
            "rss": proc_status(proc.pid, "VmRSS"), "hwm": proc_status(proc.pid, "VmHWM"), "start": c0}


def fmt_run(seconds):
    return f"{seconds * 1000:.1f} ms"


def ratio(a, b):
    return a / b if b > 0 else float("inf")


def bench_idle(tonearm, work, seconds, table):
    say(f"B16 daemon idle: {seconds} s once the daemon answers `mpc status` on its unix socket; null output, "
        "empty music directory; CPU from /proc/PID/stat over the window, VmRSS and VmHWM at its end")
    d = os.path.join(work, "b16-tonearm")
    music = os.path.join(d, "music")
    os.makedirs(music, exist_ok=True)
    results = {}
    serve = Serve(tonearm, d, "null", music)
    say(f"  tonearm: {' '.join(serve.argv)}  (HOME, XDG_* and XDG_RUNTIME_DIR in {d}, no session bus)")
    try:
        results["tonearm"] = idle_window(serve.proc, seconds)
    finally:
        stop(serve.proc)
    dm = os.path.join(work, "b16-mpd")
    os.makedirs(dm, exist_ok=True)
    p, sock, log = B.start_mpd(dm)
    try:
        wait_for("mpd did not answer `mpc status`", lambda: mpc_try(sock, "status")[0] == 0, p, log)
        results["mpd"] = idle_window(p, seconds)
    finally:
        stop(p)
    for who, r in results.items():
        ended = f" ({r['ended']} ended, their time not counted)" if r["ended"] else ""
        say(f"    {who:8s} start-up CPU {r['start']:.2f} s; idle CPU {r['cpu']:.2f} s over {seconds} s "
            f"({100 * r['cpu'] / seconds:.2f} % of a core), run time {fmt_run(r['ran'])} in {r['woke']} wake-ups "
            f"on {r['threads']} threads{ended}; "
            f"VmRSS {fmt_mb(r['rss'])}, VmHWM {fmt_mb(r['hwm'])}")
    t, m = results["tonearm"], results["mpd"]
    label = f"B16 daemon idle {seconds} s after its socket answers, null out"
    if m["cpu"] > 0:
        table.add(f"{label}, CPU user+sys", fmt_s(t["cpu"]), "mpd", fmt_s(m["cpu"]), ratio(t["cpu"], m["cpu"]))
    else:
        table.note(f"{label}, CPU user+sys", f"tonearm {fmt_s(t['cpu'])}", f"mpd {fmt_s(m['cpu'])}",
                   "mpd below /proc/PID/stat's 10 ms tick: no ratio")
    ended = "; ".join(f"{who}: {r['ended']} threads ended, uncounted" for who, r in results.items() if r["ended"])
    name = f"{label}, threads' run time / wake-ups (schedstat)"
    ours = f"{fmt_run(t['ran'])} / {t['woke']}"
    peer = f"mpd {fmt_run(m['ran'])} / {m['woke']}"
    if ended or m["ran"] <= 0:
        table.note(name, f"tonearm {ours}", peer, ended or "mpd never ran in the window: no ratio")
    else:
        table.add(name, ours, "mpd", f"{fmt_run(m['ran'])} / {m['woke']}", ratio(t["ran"], m["ran"]))
    table.add(f"{label}, RSS at the end (VmRSS)", fmt_mb(t["rss"]), "mpd", fmt_mb(m["rss"]), ratio(t["rss"], m["rss"]))
    table.add(f"{label}, peak RSS (VmHWM)", fmt_mb(t["hwm"]), "mpd", fmt_mb(m["hwm"]), ratio(t["hwm"], m["hwm"]))


# ----------------------------------------------------------------------------- B17 Snapcast

def link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def mp3_input(work):
    """bench.py's first input (generated here alone when B1-B3 did not run)."""
    path = os.path.join(work, MP3)
    if os.path.exists(path):
        return path
    inputs, graph = B.SIGNALS[MP3]
    say(f"  generating {MP3} ({B.STAGE_SECONDS // 60} min, 128 kbps CBR, {RATE} Hz stereo) with ffmpeg ...")
    r = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *inputs,
                        "-filter_complex", graph, "-c:a", "libmp3lame", "-b:a", "128k", "-ar", str(RATE),
                        "-ac", str(CHANNELS), path], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"ffmpeg could not generate {MP3}: {r.stderr.strip()}")
    return path


def wait_serving(who, sock, player, snap, log):
    def ok():
        code, out = mpc_try(sock, "status")
        return code == 0 and "[playing]" in out and snap.stream_status() == "playing"
    wait_for(f"{who} did not play into snapserver (mpc [playing] and the stream `playing`)", ok, player, log)


def serving_window(who, sock, player, snap, log, seconds):
    """CPU of the player and of its snapserver over `seconds` of steady serving."""
    time.sleep(1.0)  # past the decoder's and the source connection's start
    p0, s0 = cpu_now(player.pid), cpu_now(snap.proc.pid)
    time.sleep(seconds)
    if reap(player, os.WNOHANG) is not None:
        raise BenchError(f"{who} exited ({player.returncode}) while serving:\n{tail(log)}")
    p1, s1 = cpu_now(player.pid), cpu_now(snap.proc.pid)
    status = snap.stream_status()
    code, out = mpc_try(sock, "status")
    if status != "playing" or "[playing]" not in out:
        raise BenchError(f"{who} stopped serving: snapserver says {status!r}; mpc status:\n{out}{tail(log)}")
    line = next((l for l in out.splitlines() if "[playing]" in l), "")
    say(f"    {who} after the window: snapserver stream {status}; {' '.join(line.split())}")
    return p1 - p0, s1 - s0, proc_status(player.pid, "VmHWM")


def mpd_fifo_output(path):
    return f'audio_output {{\n    type "fifo"\n    name "snapcast"\n    path "{path}"\n    format "{SAMPLE_FORMAT}"\n}}\n'


def bench_snapcast(tonearm, work, seconds, table):
    if shutil.which("snapserver") is None:
        raise BenchError("snapserver is not installed (apt-get install snapserver)")
    say(f"B17 serving a Snapcast stream: {seconds} s of a {B.STAGE_SECONDS // 60} min MP3 into a private snapserver "
        f"({SAMPLE_FORMAT} PCM, no clients), once the player plays and snapserver reports the stream playing")
    mp3 = mp3_input(work)
    results = {}

    d = os.path.join(work, "b17-tonearm")
    music = os.path.join(d, "music")
    os.makedirs(music, exist_ok=True)
    link_or_copy(mp3, os.path.join(music, MP3))
    port = free_port()
    # snapserver's URI parser takes everything after the first `/` past the host as the path:
    # the TCP source needs an empty path (`PORT/?`) before its query.
    snap = SnapServer(os.path.join(d, "snap"), f"tcp://127.0.0.1:{port}/", "Tonearm", "&mode=server")
    serve = None
    try:
        serve = Serve(tonearm, d, f"snapcast:tcp://127.0.0.1:{port}", music)
        say(f"  tonearm: {' '.join(serve.argv)}; mpc add Music/{MP3}; mpc play")
        say(f"    snapserver source tcp://127.0.0.1:{port}/?name=Tonearm&mode=server&sampleformat={SAMPLE_FORMAT}&codec=pcm")
        for args in (("add", f"Music/{MP3}"), ("play",)):
            code, out = mpc_try(serve.socket, *args)
            if code != 0:
                raise BenchError(f"mpc {' '.join(args)} against tonearm serve: {out.strip()}\n{tail(serve.log)}")
        wait_serving("tonearm", serve.socket, serve.proc, snap, serve.log)
        results["tonearm"] = serving_window("tonearm", serve.socket, serve.proc, snap, serve.log, seconds)
    finally:
        if serve is not None:
            stop(serve.proc)
        stop(snap.proc)

    dm = os.path.join(work, "b17-mpd")
    os.makedirs(os.path.join(dm, "music"), exist_ok=True)
    link_or_copy(mp3, os.path.join(dm, "music", MP3))
    fifo = os.path.join(dm, "snapfifo")
    # snapserver creates the fifo (mode=create) and reads it; mpd's fifo output writes to it paced
    # by its own clock, as the snapserver documentation's mpd set-up does.
    snap = SnapServer(os.path.join(dm, "snap"), f"pipe://{fifo}", "MPD", "&mode=create")
    p = None
    try:
        wait_for("snapserver did not create its fifo", lambda: os.path.exists(fifo), snap.proc, snap.log, 10)
        say(f"    snapserver source pipe://{fifo}?name=MPD&sampleformat={SAMPLE_FORMAT}&codec=pcm&mode=create")
        p, sock, log = B.start_mpd(dm, output=mpd_fifo_output(fifo), what=f"fifo output {SAMPLE_FORMAT}")
        B.mpc(sock, "-q", "update", "--wait")
        B.mpc(sock, "-q", "add", MP3)
        B.mpc(sock, "-q", "play")
        wait_serving("mpd", sock, p, snap, log)
        results["mpd"] = serving_window("mpd", sock, p, snap, log, seconds)
    finally:
        if p is not None:
            stop(p)
        stop(snap.proc)

    for who, (cpu, snap_cpu, hwm) in results.items():
        say(f"    {who:8s} CPU {cpu:.2f} s over {seconds} s ({100 * cpu / seconds:.1f} % of a core), "
            f"its snapserver {snap_cpu:.2f} s; peak RSS {fmt_mb(hwm)}")
    (tc, ts, th), (mc, ms, mh) = results["tonearm"], results["mpd"]
    label = f"B17 serving a Snapcast stream {seconds} s ({SAMPLE_FORMAT} PCM), 10 min MP3"
    table.add(f"{label}, CPU user+sys", fmt_s(tc), "mpd fifo -> snapserver pipe", fmt_s(mc), ratio(tc, mc))
    table.add(f"{label}, its snapserver's CPU", fmt_s(ts), "fed by mpd", fmt_s(ms), ratio(ts, ms))
    table.add(f"{label}, peak RSS (VmHWM)", fmt_mb(th), "mpd", fmt_mb(mh), ratio(th, mh))


def benchmarks(tonearm, work, table, seconds):
    return [("B16", "B16 daemon idle", lambda: bench_idle(tonearm, work, seconds, table)),
            ("B17", "B17 serving a Snapcast stream", lambda: bench_snapcast(tonearm, work, seconds, table))]
