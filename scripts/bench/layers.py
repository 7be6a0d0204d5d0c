"""Session layer benchmarks for scripts/bench/bench.py (imported by it; standard library only).

  B18 timer session   a BENCH_TIMER_MINUTES (default 60) session of one silent stage with the
                      built-in brown-noise bed and the built-in bowl struck at the start, 12 times
                      at equal intervals and at the end, played in real time to a null output
                      (`tonearm session FILE --output null --events jsonl`), while `tonearm play`
                      plays one MP3 of the same length to a null output beside it (same window,
                      same machine noise), reporting the same JSONL events (to /dev/null): both
                      pay for the same reporting, so the comparison is of the audio work. Every bell's strike is read from the events: its
                      `audioTime` (the audio clock at the strike's own frame) against the start
                      bell's plus its session time: the largest error must be <= 20 ms. The arrival
                      of each bell's event on the wall clock is printed too (it includes the report's
                      latency, up to one 43 ms block). CPU user+sys of the session vs the single
                      file over the whole run: the session must cost no more.
"""
import json
import os
import subprocess
import threading
import time

import bench as B
from bench import BenchError, say, spawn, stop_reap, reap, tail, fmt_s, RATE

TARGET_ERROR = 0.020
INTERVAL_BELLS = 12


def session_file(path, seconds):
    interval = seconds / (INTERVAL_BELLS + 1)
    with open(path, "w") as f:
        json.dump({
            "name": "bench timer",
            "stages": [{"title": "Sit", "source": "tonearm:silence", "duration": seconds}],
            "bed": {"source": "brown", "level": 0.6, "fadeIn": 5, "fadeOut": 8},
            "bells": {"sound": "bowl", "interval": interval, "strikes": 1},
        }, f)
    return interval


def make_mp3(path, seconds):
    argv = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", f"anoisesrc=c=pink:r={RATE}:a=0.2:d={seconds}:seed=5",
            "-f", "lavfi", "-i", f"sine=f=220:r={RATE}:d={seconds}",
            "-filter_complex", "[0][1]amix=inputs=2:normalize=0,aformat=channel_layouts=stereo",
            "-c:a", "libmp3lame", "-b:a", "128k", path]
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"ffmpeg could not make the MP3: {r.stderr.strip()[:300]}")


def bench_timer(tonearm, work, table):
    minutes = B.env_int("BENCH_TIMER_MINUTES", 60, 1)
    seconds = minutes * 60
    d = os.path.join(work, "b18")
    os.makedirs(d, exist_ok=True)
    session = os.path.join(d, "timer.json")
    interval = session_file(session, seconds)
    mp3 = os.path.join(d, "long.mp3")
    say(f"B18 timer session: {minutes} min, brown bed, bowl at 0, every {interval:.1f} s and at the end, "
        f"vs one {minutes} min MP3, both real time to a null output, side by side")
    make_mp3(mp3, seconds + 60)  # longer than the session and its closing, so it plays throughout
    env = dict(os.environ, HOME=d, XDG_DATA_HOME=os.path.join(d, "data"), XDG_STATE_HOME=os.path.join(d, "state"),
               XDG_CONFIG_HOME=os.path.join(d, "config"), XDG_CACHE_HOME=os.path.join(d, "cache"))
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    session_argv = [tonearm, "session", session, "--output", "null", "--events", "jsonl"]
    file_argv = [tonearm, "play", mp3, "--output", "null", "--events", "jsonl"]
    say(f"  session: {' '.join(session_argv)}")
    say(f"  file:    {' '.join(file_argv)}  (SIGTERM when the session ends)")
    file_log = os.path.join(d, "file.log")
    session_err = os.path.join(d, "session.stderr")
    bells = []  # (at, audioTime, wall)
    states = []
    with open(file_log, "ab") as fl, open(session_err, "ab") as se:
        other = spawn(file_argv, stdout=subprocess.DEVNULL, stderr=fl, env=env)
        player = spawn(session_argv, stdout=subprocess.PIPE, stderr=se, env=env, text=True)
        deadline = time.monotonic() + seconds + 120

        def watchdog():
            while player.returncode is None and time.monotonic() < deadline:
                time.sleep(1)
            if player.returncode is None:
                try:
                    player.kill()
                except ProcessLookupError:
                    pass
        threading.Thread(target=watchdog, daemon=True).start()
        for line in player.stdout:
            now = time.monotonic()
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("notice") == "bell":
                bells.append((event["at"], event.get("audioTime"), now, event.get("skipped")))
            elif event.get("event") == "state":
                states.append(event["state"])
        code, usage = reap(player)
        session_cpu = B.cpu_seconds(usage)
        if reap(other, os.WNOHANG) is not None:
            raise BenchError(f"the single-file player exited before the session ended:\n{tail(file_log)}")
        _, file_usage = stop_reap(other)
        file_cpu = B.cpu_seconds(file_usage)
    if code != 0 or not states or states[-1] != "finished":
        raise BenchError(f"the session did not finish (exit {code}, last state {states[-1] if states else None}):\n{tail(session_err)}")
    expected = INTERVAL_BELLS + 2
    if len(bells) != expected or any(b[3] for b in bells) or bells[0][0] != 0:
        raise BenchError(f"expected {expected} bells rung from 0, got {[(b[0], b[3]) for b in bells]}")
    start_audio, start_wall = bells[0][1], bells[0][2]
    errors = [abs((audio - start_audio) - at) for at, audio, _, _ in bells]
    lags = [(wall - start_wall) - at for at, _, wall, _ in bells]
    worst = max(errors)
    say(f"    {len(bells)} bells; audio-clock error: max {worst * 1000:.2f} ms, mean {1000 * sum(errors) / len(errors):.2f} ms; "
        f"event arrival vs wall clock: {min(lags) * 1000:+.0f} ... {max(lags) * 1000:+.0f} ms")
    say(f"    CPU user+sys: session {session_cpu:.2f} s, single file {file_cpu:.2f} s over {seconds} s "
        f"({100 * session_cpu / seconds:.2f} % vs {100 * file_cpu / seconds:.2f} % of a core)")
    table.absolute(f"B18 {minutes} min timer, {len(bells)} bells, max bell error (audio clock)", f"{worst * 1000:.2f} ms",
                   worst, TARGET_ERROR, "20 ms")
    table.add(f"B18 {minutes} min timer with bed and bells, CPU user+sys", fmt_s(session_cpu), "tonearm playing one file",
              fmt_s(file_cpu), session_cpu / file_cpu if file_cpu > 0 else float("inf"), 1.00)


def benchmarks(tonearm, work, table):
    return [("B18", "B18 timer session", lambda: bench_timer(tonearm, work, table))]
