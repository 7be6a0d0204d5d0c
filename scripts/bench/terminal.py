"""Terminal UI benchmark for scripts/bench/bench.py (imported by it; standard library only).

  B9 terminal UI cost   BENCH_SECONDS of one local file to a null output, twice in the same run:
                        with the full Now Playing screen open in a 120x40 tmux terminal, and headless
                        (`--no-tui`). CPU seconds of each from /proc just before the end, and the
                        difference as a share of one core (target: at most 1 %). The number of
                        bytes tmux received from the screen is printed too (redraws only on change,
                        at most 20 a second). A third run shows the level meter (`v`, redrawn up to
                        20 times a second while sound plays): its extra CPU over the screen without
                        it, as a share of one core (target: at most 1 %).
"""
import os
import shutil
import subprocess
import time

import bench as B
from bench import BenchError, say

SIZE = ("120", "40")


def tmux(sock, *args):
    r = subprocess.run(["tmux", "-L", sock, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
    if r.returncode != 0:
        raise BenchError(f"tmux {args[0]}: {r.stderr.strip()}")
    return r.stdout


def run_in_tmux(tonearm, mp3, seconds, work, keys=(), name="terminal"):
    """Plays `mp3` with the screen open, typing `keys` once it is up; returns (CPU s at the end,
    bytes drawn)."""
    sock = f"tonearm-bench-{os.getpid()}-{name}"
    drawn = os.path.join(work, f"b9-{name}.bytes")
    open(drawn, "wb").close()
    tmux(sock, "new-session", "-d", "-x", SIZE[0], "-y", SIZE[1], "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8",
         "-e", f"XDG_DATA_HOME={work}/b9-data", tonearm, "play", mp3, "--output", "null")
    try:
        tmux(sock, "set-option", "-g", "remain-on-exit", "on")
        tmux(sock, "pipe-pane", "-o", "-t", "0", f"cat >> '{drawn}'")
        pid = int(tmux(sock, "display-message", "-p", "-t", "0", "#{pane_pid}").strip())
        started = time.monotonic()
        if keys:
            # The screen reads keys once it is drawn: wait for its first bytes.
            while os.path.getsize(drawn) == 0 and time.monotonic() - started < 10:
                time.sleep(0.05)
            tmux(sock, "send-keys", "-t", "0", *keys)
        time.sleep(max(0, seconds - (time.monotonic() - started)))
        if tmux(sock, "display-message", "-p", "-t", "0", "#{pane_dead}").strip() == "1":
            raise BenchError("tonearm's screen ended before the measurement did")
        cpu, _ = B.proc_usage(pid)
        return cpu, os.path.getsize(drawn)
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], stdin=subprocess.DEVNULL, capture_output=True)


def bench_terminal(tonearm, work, seconds, table):
    if shutil.which("tmux") is None:
        raise BenchError("tmux is not installed")
    mp3 = os.path.join(work, "b9.mp3")
    # One file longer than the measurement, so neither run reaches its end.
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency=330:duration={seconds + 20}",
                        "-ac", "2", "-ar", "48000", "-b:a", "128k", mp3], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"ffmpeg could not make the input: {r.stderr.strip()}")
    log = os.path.join(work, "b9-headless.log")
    headless_cpu, _, _ = B.run_for([tonearm, "play", mp3, "--output", "null", "--no-tui"], seconds, log,
                                   env=dict(os.environ, XDG_DATA_HOME=f"{work}/b9-data"))
    screen_cpu, drawn = run_in_tmux(tonearm, mp3, seconds, work)
    meter_cpu, meter_drawn = run_in_tmux(tonearm, mp3, seconds, work, keys=("v",), name="meter")
    share = (screen_cpu - headless_cpu) / seconds * 100
    meter_share = (meter_cpu - screen_cpu) / seconds * 100
    say(f"B9 CPU headless {headless_cpu:.2f} s, with the screen {screen_cpu:.2f} s, {drawn} bytes drawn; "
        f"with the level meter {meter_cpu:.2f} s, {meter_drawn} bytes drawn")
    table.add(f"B9 {seconds} s playing with Now Playing open (120x40) vs headless, CPU", f"{screen_cpu:.2f} s", "headless",
              f"{headless_cpu:.2f} s", screen_cpu / max(headless_cpu, 1e-6))
    table.absolute("B9 terminal UI's extra CPU, share of one core", f"{share:.2f} %", share, 1.0, "1 %")
    table.note("B9 bytes sent to the terminal", f"tonearm {drawn / 1024:.0f} KiB", "", f"{drawn / seconds / 1024:.1f} KiB/s")
    table.add(f"B9 {seconds} s playing with Now Playing and its level meter shown (120x40), CPU", f"{meter_cpu:.2f} s",
              "the screen without the meter", f"{screen_cpu:.2f} s", meter_cpu / max(screen_cpu, 1e-6))
    table.absolute("B9 the level meter's extra CPU, share of one core", f"{meter_share:.2f} %", meter_share, 1.0, "1 %")
    table.note("B9 bytes sent to the terminal with the level meter", f"tonearm {meter_drawn / 1024:.0f} KiB", "",
               f"{meter_drawn / seconds / 1024:.1f} KiB/s")


def benchmarks(tonearm, work, table, seconds):
    return [("B9", "B9 terminal UI cost", lambda: bench_terminal(tonearm, work, seconds, table))]
