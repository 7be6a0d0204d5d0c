"""Internet-radio benchmarks for scripts/bench/bench.py (imported by it; standard library only).

  B4 radio first audio  launch -> first sample above -40 dBFS on the private PulseAudio null sink,
                        playing a loopback Icecast 2 mount; tonearm vs mpv; median of BENCH_TTFA_RUNS.
  B5 radio reconnect    Icecast SIGKILLed while playing, restarted 2 s later (same port, then the
                        source again): time from the mount being listed again in /status-json.xsl to
                        the first sample of the *new* source's audio on the sink (the new source is a
                        different tone, told apart by zero crossings, so audio still playing from a
                        player's buffer does not count). tonearm, mpv (no reconnect options), mpv
                        with lavf reconnect options, mpd: resumed after X s / exited / stayed silent.
                        Tonearm and mpv are told to hold 4 s ahead (--buffer 4; --cache-secs 4), and
                        the audible gap is every silence of 50 ms or more on the sink from the kill
                        to the new audio (goal 0 ms: the buffer covers the outage).
  B6 radio cost         BENCH_SECONDS of the loopback mount to a null output: CPU user+sys and peak
                        RSS; tonearm vs mpv vs mpd.

The server: a private icecast2 on 127.0.0.1 and a free port, run as root with <changeowner>
icecast2/icecast and Icecast's default burst (burst-on-connect 1, burst-size 65536), fed by an
ffmpeg source client that loops a generated 30 s 128 kbit/s 48 kHz stereo MP3 tone in real time
(`-re -stream_loop -1`, stream copy) to /live.mp3.
"""
import array
import grp
import json
import os
import pwd
import random
import signal
import socket
import statistics
import subprocess
import threading
import time
import urllib.request

import bench as B
from bench import BenchError, say, spawn, reap, stop_reap, tail, fmt_ms, fmt_s, fmt_mb, RATE, CHANNELS

MOUNT = "/live.mp3"
TONE_SECONDS = 30
TONE_OLD_HZ = 440    # the source before a B5 kill
TONE_NEW_HZ = 1320   # the source after the restart
BURST_SIZE = 65536
THRESHOLD_DB = -40.0
THRESHOLD = 10 ** (THRESHOLD_DB / 20)
B5_WATCH = 20.0      # how long B5 waits for audio after the server serves again
B5_KILL_AFTER = 3.0  # seconds of steady playback before the kill
B5_RESTART_AFTER = 2.0
B6_RSS_BEFORE = 66 * 1024  # KiB: B6's peak RSS before the station directory and HLS came (66 MB)
B5_BUFFER = 4        # seconds each player is told to hold ahead (tonearm --buffer, mpv --cache-secs)

_live = []           # children still to kill and reap (cleanup())


def track(p):
    _live.append(p)
    return p


def finish(p, sig=signal.SIGTERM, grace=5.0):
    """Stops and reaps a child once; returns (code, rusage) or None when it was already reaped."""
    if p in _live:
        _live.remove(p)
    if p.returncode is not None:
        return None
    return stop_reap(p, sig, grace)


def cleanup():
    """Kills and reaps every child radio.py started that is still around (idempotent)."""
    global _ice
    while _live:
        p = _live.pop()
        if p.returncode is None:
            try:
                stop_reap(p, signal.SIGKILL, 5.0)
            except ChildProcessError:
                pass
    _ice = None


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ----------------------------------------------------------------------------- Icecast

class Icecast:
    def __init__(self, work):
        self.dir = os.path.join(work, "icecast")
        self.logdir = os.path.join(self.dir, "log")
        os.makedirs(self.logdir, exist_ok=True)
        try:
            owner, group = pwd.getpwnam("icecast2"), grp.getgrnam("icecast")
        except KeyError:
            raise BenchError("user icecast2 / group icecast missing (apt-get install icecast2)")
        if os.geteuid() != 0:
            raise BenchError("the radio benchmarks run icecast2 with <changeowner>, which needs root")
        os.chmod(work, 0o711)  # icecast2 must reach its directory inside the (0700) work directory
        self.port = free_port()
        self.password = f"src-{random.getrandbits(32)}"
        self.url = f"http://127.0.0.1:{self.port}{MOUNT}"
        self.config = os.path.join(self.dir, "icecast.xml")
        with open(self.config, "w") as f:
            f.write(f"""<icecast>
  <location>bench</location><admin>bench@localhost</admin>
  <limits>
    <clients>50</clients><sources>4</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout><burst-on-connect>1</burst-on-connect>
    <burst-size>{BURST_SIZE}</burst-size>
  </limits>
  <authentication>
    <source-password>{self.password}</source-password><relay-password>{self.password}</relay-password>
    <admin-user>admin</admin-user><admin-password>adm-{random.getrandbits(32)}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{self.port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>1</fileserve>
  <paths>
    <basedir>{self.dir}</basedir><logdir>{self.logdir}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
  </paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  <security>
    <chroot>0</chroot>
    <changeowner><user>icecast2</user><group>icecast</group></changeowner>
  </security>
</icecast>
""")
        for path in (self.dir, self.logdir):
            os.chown(path, owner.pw_uid, group.gr_gid)
            os.chmod(path, 0o755)
        self.tones = {}
        procs = []
        for hz in (TONE_OLD_HZ, TONE_NEW_HZ):
            out = os.path.join(self.dir, f"tone-{hz}.mp3")
            self.tones[hz] = out
            procs.append(spawn(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                "-i", f"sine=frequency={hz}:sample_rate={RATE}:duration={TONE_SECONDS}",
                                "-ac", str(CHANNELS), "-ar", str(RATE), "-c:a", "libmp3lame", "-b:a", "128k", out],
                               stderr=subprocess.PIPE))
        for p in procs:
            try:
                _, err = p.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                raise BenchError("ffmpeg did not make the radio tone within 60 s")
            if p.returncode != 0:
                raise BenchError(f"ffmpeg could not make the radio tone: {err.decode(errors='replace').strip()}")
        self.server = None
        self.source = None
        self.source_started = 0.0

    def source_argv(self, hz):
        return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1",
                "-i", self.tones[hz], "-c:a", "copy", "-write_xing", "0", "-id3v2_version", "0",
                "-content_type", "audio/mpeg", "-ice_name", "Tonearm Bench Radio",
                "-f", "mp3", f"icecast://source:{self.password}@127.0.0.1:{self.port}{MOUNT}"]

    def logs(self):
        return "".join(f"--- {n}:\n{tail(os.path.join(self.dir, n), 8)}"
                       for n in ("log/error.log", "icecast.err", "ffmpeg.err"))

    def status(self, timeout=1.0):
        """True when the mount is listed, False when Icecast answers without it, None when it does not answer."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/status-json.xsl", timeout=timeout) as r:
                body = r.read().decode(errors="replace")
        except (OSError, ValueError):
            return None
        return f"{self.port}{MOUNT}" in body

    def start_server(self, timeout=15.0):
        with open(os.path.join(self.dir, "icecast.err"), "ab") as ef:
            self.server = track(spawn(["icecast2", "-c", self.config], stdout=ef, stderr=ef))
        deadline = time.monotonic() + timeout
        while self.status(0.5) is None:
            if reap(self.server, os.WNOHANG) is not None:
                raise BenchError(f"icecast2 exited at start-up ({self.server.returncode}):\n{self.logs()}")
            if time.monotonic() > deadline:
                raise BenchError(f"icecast2 did not answer within {timeout:.0f} s:\n{self.logs()}")
            time.sleep(0.02)

    def start_source(self, hz, timeout=15.0):
        """Starts the ffmpeg source; returns the perf_counter time the mount was first seen listed."""
        if self.source is not None:
            finish(self.source, signal.SIGKILL)
        with open(os.path.join(self.dir, "ffmpeg.err"), "ab") as ef:
            self.source = track(spawn(self.source_argv(hz), stdout=subprocess.DEVNULL, stderr=ef))
        self.source_started = time.monotonic()
        deadline = time.monotonic() + timeout
        while True:
            listed = self.status(0.5)
            if listed:
                return time.perf_counter()
            if reap(self.source, os.WNOHANG) is not None:
                raise BenchError(f"the ffmpeg source exited ({self.source.returncode}):\n{self.logs()}")
            if time.monotonic() > deadline:
                raise BenchError(f"the mount was not listed within {timeout:.0f} s:\n{self.logs()}")
            time.sleep(0.01)

    def start(self, hz, settle=5.0):
        """Server + source; then waits until the source has run `settle` s (a full burst for listeners)."""
        self.kill()
        self.start_server()
        listed = self.start_source(hz)
        time.sleep(max(0.0, self.source_started + settle - time.monotonic()))
        return listed

    def kill(self):
        """SIGKILL to the server (as a crash), then the source; both reaped."""
        for attr in ("server", "source"):
            p = getattr(self, attr)
            if p is not None:
                finish(p, signal.SIGKILL)
                setattr(self, attr, None)


_ice = None


def ice(work):
    global _ice
    if _ice is None:
        _ice = Icecast(work)
        say(f"  icecast2 on 127.0.0.1:{_ice.port}{MOUNT}, burst-on-connect 1, burst-size {BURST_SIZE}; source: "
            f"{' '.join(_ice.source_argv(TONE_OLD_HZ)).replace(_ice.password, 'PASS')}")
    return _ice


# ----------------------------------------------------------------------------- PulseAudio + recorder

class ToneRecorder(B.Recorder):
    """bench.Recorder plus: silence gaps (quiet stretches of more than 50 ms, with their times) and,
    when tone-armed, the time of the first loud 10 ms block of the left channel whose zero-crossing
    count says it is the new source's tone (TONE_NEW_HZ, not TONE_OLD_HZ)."""

    BLOCK = RATE // 100

    def __init__(self, pulse, threshold):
        self.gaps = []
        self.quiet_since = None
        self.tone_armed = False
        self.tone_hit = None
        self.tone_event = threading.Event()
        self.left = array.array("f")
        split = (TONE_OLD_HZ + TONE_NEW_HZ) / RATE  # crossings per sample halfway between the two tones
        self.min_crossings = int(split * self.BLOCK)
        super().__init__(pulse, threshold)

    def loop(self):
        fd = self.proc.stdout.fileno()
        pending = b""
        while True:
            chunk = os.read(fd, 65536)
            now = time.perf_counter()
            if not chunk:
                return
            self.bytes += len(chunk)
            data = pending + chunk
            usable = len(data) - len(data) % (4 * CHANNELS)
            pending = data[usable:]
            samples = array.array("f")
            samples.frombytes(data[:usable])
            if not samples:
                continue
            peak = max(max(samples), -min(samples))
            if peak > self.threshold:
                self.last_loud = now
                if self.quiet_since is not None and now - self.quiet_since > 0.05:
                    self.gaps.append((self.quiet_since, now))
                self.quiet_since = None
                with self.lock:
                    if self.armed and self.hit is None:
                        first = next(i for i, v in enumerate(samples) if v > self.threshold or v < -self.threshold)
                        self.hit = now - ((len(samples) - first) // CHANNELS) / RATE
                        self.event.set()
            elif self.quiet_since is None:
                self.quiet_since = now - (len(samples) // CHANNELS) / RATE
            if self.tone_armed and self.tone_hit is None:
                self.left.extend(samples[0::CHANNELS])
                n = len(self.left)
                start = 0
                while n - start >= self.BLOCK:
                    blk = self.left[start:start + self.BLOCK]
                    if max(max(blk), -min(blk)) > self.threshold:
                        crossings = sum(1 for a, b in zip(blk, blk[1:]) if (a < 0) != (b < 0))
                        if crossings >= self.min_crossings:
                            self.tone_hit = now - (n - start) / RATE
                            self.tone_event.set()
                            break
                    start += self.BLOCK
                del self.left[:start]

    def arm_tone(self):
        self.left = array.array("f")
        self.tone_hit = None
        self.tone_event.clear()
        self.tone_armed = True

    def disarm_tone(self):
        self.tone_armed = False


class Sink:
    """A private PulseAudio with a null sink and a recorder on its monitor (as B3)."""

    def __init__(self, work, name):
        self.pulse = B.Pulse(work, name)
        self.recorder = None

    def __enter__(self):
        self.pulse.start()
        track(self.pulse.proc)
        self.recorder = ToneRecorder(self.pulse, THRESHOLD)
        track(self.recorder.proc)
        deadline = time.monotonic() + 10  # an idle null sink's monitor starts delivering after ~2 s
        while self.recorder.bytes < RATE * CHANNELS * 4 // 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.recorder.bytes == 0:
            raise BenchError(f"parecord delivers no data:\n{tail(os.path.join(self.pulse.dir, 'parecord.log'))}")
        return self

    def __exit__(self, *exc):
        if self.recorder is not None:
            finish(self.recorder.proc)
        finish(self.pulse.proc)
        return False


# ----------------------------------------------------------------------------- B4 first audio

def server_floor(server, probes=5):
    """Icecast's own latency: connect -> response head and -> first body byte, raw socket, median."""
    heads, bodies = [], []
    for _ in range(probes):
        t0 = time.perf_counter()
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.settimeout(5)
            s.sendall(f"GET {MOUNT} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            got, t_head = b"", None
            while True:
                c = s.recv(65536)
                if not c:
                    raise BenchError("icecast2 closed the probe connection before any body byte")
                got += c
                if t_head is None and b"\r\n\r\n" in got:
                    t_head = time.perf_counter()
                if t_head is not None and got.split(b"\r\n\r\n", 1)[1]:
                    bodies.append(time.perf_counter() - t0)
                    heads.append(t_head - t0)
                    break
        time.sleep(0.1)
    return statistics.median(heads), statistics.median(bodies)


def bench_radio_first_audio(tonearm, work, runs, table):
    say(f"B4 radio time to first audio: launch -> first sample above {THRESHOLD_DB:.0f} dBFS on a private PulseAudio "
        f"null sink, playing a loopback Icecast mount; {runs} runs each + 1 warm-up, interleaved")
    server = ice(work)
    server.start(TONE_OLD_HZ)
    with Sink(work, "pulse-b4") as sink:
        cmds = {
            "tonearm": ([tonearm, "play", server.url, "--output", "pulse", "--events", "jsonl"],
                        lambda l: b'"state":"playing"' in l),
            "mpv": (["mpv", "--no-config", "--vo=null", "--ao=pulse", "--term-playing-msg=BENCH-PLAYING", server.url],
                    lambda l: l.startswith(b"BENCH-PLAYING")),
        }
        say(f"  tonearm: {' '.join(cmds['tonearm'][0])}")
        say(f"  mpv:     {' '.join(cmds['mpv'][0])}")
        say(f"  (both with PULSE_SERVER={sink.pulse.server})")
        floor_head, floor_body = server_floor(server)
        say(f"  icecast2 itself (raw socket GET, median of 5): response head after {fmt_ms(floor_head)}, "
            f"first body byte after {fmt_ms(floor_body)}")
        audible = {"tonearm": [], "mpv": []}
        own = {"tonearm": [], "mpv": []}
        for i in range(runs + 1):
            order = ["tonearm", "mpv"] if i % 2 == 0 else ["mpv", "tonearm"]
            for who in order:
                argv, marker = cmds[who]
                if server.status() is not True:
                    raise BenchError(f"the mount is no longer listed:\n{server.logs()}")
                a, s = B.first_audio(sink.recorder, argv, sink.pulse.client_env, marker,
                                     os.path.join(work, f"b4-{who}.log"), timeout=20.0)
                tag = "warm-up" if i == 0 else f"run {i}/{runs}"
                say(f"    {tag:9s} {who:8s} first audio {fmt_ms(a):>7s}   own start signal "
                    f"{fmt_ms(s) if s is not None else 'none':>7s}")
                if i > 0:
                    audible[who].append(a)
                    if s is not None:
                        own[who].append(s)
    mt, mm = statistics.median(audible["tonearm"]), statistics.median(audible["mpv"])
    name = f"B4 first audio, loopback Icecast, launch -> -40 dBFS (median of {runs})"
    table.add(name, fmt_ms(mt), "mpv", fmt_ms(mm), mt / mm)
    # What each player adds to the server's own latency, which neither can change.
    above_t, above_m = mt - floor_body, mm - floor_body
    table.add("B4 first audio above the server floor (player's own share)", fmt_ms(above_t), "mpv", fmt_ms(above_m),
              above_t / above_m if above_m > 0 else float("inf"), 0.50)
    table.absolute("B4 first audio, loopback Icecast, absolute", fmt_ms(mt), mt, 0.300, "300 ms")
    table.note("B4 server floor: raw GET -> icecast2's first body byte (median of 5)", f"icecast2 {fmt_ms(floor_body)}",
               f"head {fmt_ms(floor_head)}", "info (in both players' times)")
    if len(own["tonearm"]) == runs and len(own["mpv"]) == runs:
        st, sm = statistics.median(own["tonearm"]), statistics.median(own["mpv"])
        table.add("B4 launch -> own start signal read from its stdout pipe (median)", fmt_ms(st), "mpv", fmt_ms(sm), st / sm)
    else:
        table.note("B4 launch -> player's own start signal", "not seen on every run", "", "")


# ----------------------------------------------------------------------------- B5 reconnect

class Trial:
    """One B5 trial's player: a process with stdout lines time-stamped into a log (JSONL kept)."""

    def __init__(self, argv, env, log):
        self.lines = []
        self.log = open(log, "ab")
        self.proc = track(spawn(argv, stdout=subprocess.PIPE, stderr=self.log, env=env))
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        for line in self.proc.stdout:
            self.lines.append((time.perf_counter(), line))
            self.log.write(line)

    def exited(self):
        if self.proc.returncode is not None:
            return True
        return reap(self.proc, os.WNOHANG) is not None

    def stop(self):
        finish(self.proc)
        self.thread.join(5)
        self.log.close()


def mpd_pulse_output(pulse):
    return ('audio_output {\n    type "pulse"\n    name "pulse"\n'
            f'    server "{pulse.server}"\n    sink "test"\n}}\n')


def reconnect_trial(work, server, sink, who, argv=None):
    """Plays, kills the server, restarts it 2 s later with a new tone; returns a dict of what happened."""
    rec = sink.recorder
    server.start(TONE_OLD_HZ)
    rec.wait_silence()
    log = os.path.join(work, f"b5-{who.replace(' ', '-')}.log")
    mpd = trial = None
    r = {"who": who}
    try:
        rec.arm()
        t0 = time.perf_counter()
        if argv is None:  # mpd
            d = os.path.join(work, "mpd-b5")
            proc, sock, mlog = B.start_mpd(d, mpd_pulse_output(sink.pulse), env=sink.pulse.client_env,
                                           what="pulse output on the private sink")
            mpd = (track(proc), sock, mlog)
            B.mpc(sock, "-q", "add", server.url, timeout=10)
            B.mpc(sock, "-q", "play", timeout=10)
            alive = lambda: reap(proc, os.WNOHANG) is None if proc.returncode is None else False
        else:
            trial = Trial(argv, sink.pulse.client_env, log)
            alive = lambda: not trial.exited()
        if not rec.event.wait(20):
            rec.disarm()
            r["outcome"] = "never sounded before the kill (20 s)"
            return r
        rec.disarm()
        r["first_audio"] = rec.hit - t0
        time.sleep(B5_KILL_AFTER)
        if not alive():
            r["outcome"] = "exited before the kill"
            return r
        rec.gaps.clear()
        t_kill = time.perf_counter()
        server.kill()
        time.sleep(max(0.0, t_kill + B5_RESTART_AFTER - time.perf_counter()))
        rec.arm_tone()
        t_restart = time.perf_counter()
        server.start_server()
        t_serving = server.start_source(TONE_NEW_HZ)
        r.update(kill=t_kill, restart=t_restart - t_kill, serving=t_serving - t_kill)
        exited_at = None
        deadline = t_serving + B5_WATCH
        while time.perf_counter() < deadline:
            if rec.tone_event.wait(0.05):
                break
            if exited_at is None and not alive():
                exited_at = time.perf_counter()
                break
        rec.disarm_tone()
        if rec.tone_hit is not None:
            r["resumed"] = rec.tone_hit - t_serving
            time.sleep(1.0)  # let the gap list settle
        # when did the old audio stop (the sink's first silence after the kill), and how long did it last?
        gaps = [g for g in rec.gaps if g[1] > t_kill]
        if rec.quiet_since is not None and rec.quiet_since >= t_kill:
            gaps.append((rec.quiet_since, None))
        r["gaps"] = [(a - t_kill, None if b is None else b - t_kill) for a, b in gaps]
        if exited_at is not None:
            r["exited"] = exited_at - t_kill
            r["code"] = trial.proc.returncode if trial else mpd[0].returncode
        if mpd is not None:
            try:
                r["mpc"] = " / ".join(" ".join(l.split()) for l in B.mpc(mpd[1], "status", timeout=10).splitlines())
            except (BenchError, subprocess.TimeoutExpired) as e:
                r["mpc"] = f"mpc status failed: {e}"
        if trial is not None:
            r["jsonl"] = [(t - t_kill, l.decode(errors="replace").strip()) for t, l in trial.lines]
        return r
    finally:
        rec.disarm()
        rec.disarm_tone()
        if trial is not None:
            trial.stop()
        if mpd is not None:
            try:
                B.mpc(mpd[1], "-q", "stop", timeout=5)
            except (BenchError, subprocess.TimeoutExpired, OSError):
                pass
            finish(mpd[0])
        server.kill()


def states(jsonl):
    """The distinct consecutive states in tonearm's JSONL, with their times relative to the kill."""
    out = []
    for t, line in jsonl:
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("event") == "state" and (not out or out[-1][1] != ev.get("state")):
            out.append((t, ev.get("state")))
    return out


def describe(r):
    if "serving" not in r:
        return r.get("outcome", "?")
    parts = []
    if "resumed" in r:
        parts.append(f"resumed {r['resumed']:.2f} s after serving again")
    elif "exited" in r:
        parts.append(f"exited (code {r['code']}) {r['exited']:.1f} s after the kill, no new audio")
    else:
        parts.append(f"stayed silent for {B5_WATCH:.0f} s after serving again")
        if "mpc" in r:
            parts.append("mpd still running, " + ("still [playing]" if "[playing]" in r["mpc"] else "queue stopped"))
    gaps = r.get("gaps", [])
    if gaps:
        a, b = gaps[0]
        parts.append(f"old audio until +{a:.2f} s" + (f", silent until +{b:.2f} s" if b is not None else ""))
    else:
        parts.append("no silent gap on the sink")
    return "; ".join(parts)


def bench_radio_reconnect(tonearm, work, table):
    say(f"B5 radio reconnect: play {B5_KILL_AFTER:.0f} s, SIGKILL icecast2 (and its source), restart it "
        f"{B5_RESTART_AFTER:.0f} s later on the same port with a {TONE_NEW_HZ} Hz source (was {TONE_OLD_HZ} Hz); "
        f"measure mount listed again -> first loud {TONE_NEW_HZ} Hz block on the sink (watch {B5_WATCH:.0f} s)")
    server = ice(work)
    mpv = ["mpv", "--no-config", "--vo=null", "--ao=pulse", "--cache=yes", f"--cache-secs={B5_BUFFER}",
           f"--demuxer-readahead-secs={B5_BUFFER}"]
    lavf = "--stream-lavf-o=reconnect=1,reconnect_streamed=1,reconnect_delay_max=2"
    players = [
        ("tonearm", [tonearm, "play", server.url, "--output", "pulse", "--events", "jsonl", "--buffer", str(B5_BUFFER)]),
        ("mpv", mpv + [server.url]),
        ("mpv+reconnect", mpv + [lavf, server.url]),
        ("mpv+reconnect_at_eof", mpv + [lavf + ",reconnect_at_eof=1", server.url]),
        ("mpd", None),
    ]
    for who, argv in players:
        say(f"  {who}: {' '.join(argv) if argv else 'mpd (pulse output), mpc add URL, mpc play'}")
    results = {}
    with Sink(work, "pulse-b5") as sink:
        for who, argv in players:
            try:
                r = reconnect_trial(work, server, sink, who, argv)
            except BenchError as e:
                say(f"    {who}: could not run: {e}")
                results[who] = {"error": str(e)}
                continue
            results[who] = r
            say(f"    {who:20s} restart launched +{r.get('restart', 0):.2f} s, serving +{r.get('serving', 0):.2f} s "
                f"after the kill; {describe(r)}; gaps {[(round(a, 2), b and round(b, 2)) for a, b in r.get('gaps', [])]}")
            if "mpc" in r:
                say(f"      mpc status at the end: {r['mpc']}")
            if "jsonl" in r:
                for t, line in r["jsonl"]:
                    if t > -1.0 and line and '"event":"position"' not in line:
                        say(f"      {t:+7.2f} s  {line[:300]}")
    t = results.get("tonearm", {})
    if "error" in t:
        table.fail("B5 reconnect, tonearm", t["error"])
    else:
        seq = states(t.get("jsonl", []))
        after = [s for tt, s in seq if tt >= 0]
        went = "reconnecting" in after
        finished = any(s == "finished" for _, s in seq)
        value = t.get("resumed")
        name = "B5 Icecast killed, restarted 2 s later: serving again -> new audio"
        if value is None:
            table.missed(name, describe(t), "20 s", "no new audio")
        else:
            # With the buffer covering the outage, the new audio follows the old once that has
            # played: this is how long the old audio still had to go, not a wait heard.
            table.note(name, fmt_s(value), "(after the buffered old audio)", "info")
        timeline = " -> ".join(f"{s} {tt:+.2f} s" for tt, s in seq if tt >= 0)
        table.note("B5 tonearm states after the kill", timeline or "playing throughout",
                   "a visible reconnect" if went else "no visible reconnect",
                   "never finished" if not finished else "FINISHED (gave up)")
        table.note("B5 tonearm", describe(t), "", "")
        gaps = t.get("gaps", [])
        if value is not None:
            # Every silence of 50 ms or more on the sink from the kill until the new audio: what
            # the listener hears of the outage.
            heard = sum(b - a for a, b in gaps if b is not None and a < value + t.get("serving", 0))
            flag = any(s == "reconnecting" for s in after)
            table.absolute(f"B5 audible gap, {B5_BUFFER} s buffered (silences >= 50 ms on the sink)", fmt_ms(heard),
                           heard, 0.0, "0 ms")
            table.note("B5 tonearm how it went", "visible countdown" if flag else "reconnected in the background",
                       f"gaps {[(round(a, 2), b and round(b, 2)) for a, b in gaps]} s after the kill", "")
    for who, _ in players[1:]:
        r = results.get(who, {})
        if "error" in r:
            table.fail(f"B5 {who}", r["error"])
        else:
            table.note(f"B5 {who}", describe(r), r.get("mpc", "")[:90], "")


# ----------------------------------------------------------------------------- B6 cost

def bench_radio_cost(tonearm, work, seconds, table):
    say(f"B6 radio playback cost: {seconds} s of the loopback Icecast mount to a null output, one player at a time")
    server = ice(work)
    server.start(TONE_OLD_HZ)
    cmds = {
        "tonearm": [tonearm, "play", server.url, "--output", "null"],
        "mpv": ["mpv", "--no-config", "--ao=null", "--vo=null", server.url],
    }
    say(f"  tonearm: {' '.join(cmds['tonearm'])}  (SIGTERM after {seconds} s)")
    say(f"  mpv:     {' '.join(cmds['mpv'])}  (SIGTERM after {seconds} s)")
    results, errors = {}, {}
    for who in ("tonearm", "mpv", "mpd"):
        try:
            if server.status() is not True:
                raise BenchError(f"the mount is not listed:\n{server.logs()}")
            if who == "mpd":
                cpu, kb = run_mpd_stream(work, server.url, seconds)
            else:
                cpu, kb, _ = B.run_for(cmds[who], seconds, os.path.join(work, f"b6-{who}.log"))
            results[who] = (cpu, kb)
            say(f"    {who:8s} CPU {cpu:.2f} s over {seconds} s ({100 * cpu / seconds:.1f} % of a core), "
                f"peak RSS {fmt_mb(kb)}")
        except BenchError as e:
            errors[who] = str(e)
            say(f"    {who}: could not run: {e}")
    server.kill()
    label = f"B6 radio {seconds} s null out"
    for peer in ("mpd", "mpv"):
        if "tonearm" in errors or peer in errors:
            table.fail(f"{label}, CPU + RSS vs {peer}", errors.get("tonearm") or errors.get(peer))
            continue
        (tc, tk), (pc, pk) = results["tonearm"], results[peer]
        table.add(f"{label}, CPU user+sys", fmt_s(tc), peer, fmt_s(pc), tc / pc if pc > 0 else float("inf"),
                  0.50 if peer == "mpd" else None)
        table.add(f"{label}, peak RSS", fmt_mb(tk), peer, fmt_mb(pk), tk / pk)
        if peer == "mpd":
            # No higher than before HLS and the directory came (66 MB in that run).
            table.absolute(f"{label}, peak RSS, absolute", fmt_mb(tk), tk, B6_RSS_BEFORE, fmt_mb(B6_RSS_BEFORE))


def run_mpd_stream(work, url, seconds):
    p, sock, log = B.start_mpd(os.path.join(work, "mpd-b6"))
    track(p)
    try:
        B.mpc(sock, "-q", "add", url, timeout=10)
        B.mpc(sock, "-q", "play", timeout=10)
        time.sleep(seconds)
        status = B.mpc(sock, "status", timeout=10)
        cpu, hwm = B.proc_usage(p.pid)
        if "[playing]" not in status:
            raise BenchError(f"mpd is not playing after {seconds} s:\n{status}{tail(log)}")
        elapsed = [l for l in status.splitlines() if "[playing]" in l][0]
        say(f"    mpd status after {seconds} s: {' '.join(elapsed.split())}")
        return cpu, hwm
    finally:
        finish(p)


# ----------------------------------------------------------------------------- wiring

def benchmarks(tonearm, work, table, ttfa_runs, seconds):
    return [("B4", "B4 radio first audio", lambda: bench_radio_first_audio(tonearm, work, ttfa_runs, table)),
            ("B5", "B5 radio reconnect", lambda: bench_radio_reconnect(tonearm, work, table)),
            ("B6", "B6 radio cost", lambda: bench_radio_cost(tonearm, work, seconds, table))]


def input_lines():
    return [f"radio: private icecast2 on loopback, burst-on-connect 1, burst-size {BURST_SIZE}; ffmpeg source "
            f"-re -stream_loop -1 -c:a copy of a {TONE_SECONDS} s {TONE_OLD_HZ} Hz tone, 128 kbps, {RATE} Hz stereo "
            f"(B5 restarts with a {TONE_NEW_HZ} Hz tone)"]
