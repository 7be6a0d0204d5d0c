"""Terminal UI benchmark for scripts/bench/bench.py (imported by it; standard library only).

  B9 terminal UI cost   BENCH_SECONDS of one local file to a null output, twice in the same run:
                        with the full Now Playing screen open in a 120x40 tmux terminal, and headless
                        (`--no-tui`). CPU seconds of each from /proc just before the end, and the
                        difference as a share of one core (target: at most 1 %). The number of
                        bytes tmux received from the screen is printed too (redraws only on change,
                        at most 20 a second).
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


def run_in_tmux(tonearm, mp3, seconds, work):
    """Plays `mp3` with the screen open; returns (CPU s at the end, bytes drawn)."""
    sock = f"tonearm-bench-{os.getpid()}"
    drawn = os.path.join(work, "b9-terminal.bytes")
    open(drawn, "wb").close()
    tmux(sock, "new-session", "-d", "-x", SIZE[0], "-y", SIZE[1], "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8",
         "-e", f"XDG_DATA_HOME={work}/b9-data", tonearm, "play", mp3, "--output", "null")
    try:
        tmux(sock, "set-option", "-g", "remain-on-exit", "on")
        tmux(sock, "pipe-pane", "-o", "-t", "0", f"cat >> '{drawn}'")
        pid = int(tmux(sock, "display-message", "-p", "-t", "0", "#{pane_pid}").strip())
        time.sleep(seconds)
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
    share = (screen_cpu - headless_cpu) / seconds * 100
    say(f"B9 CPU headless {headless_cpu:.2f} s, with the screen {screen_cpu:.2f} s, {drawn} bytes drawn")
    table.add(f"B9 {seconds} s playing with Now Playing open (120x40) vs headless, CPU", f"{screen_cpu:.2f} s", "headless",
              f"{headless_cpu:.2f} s", screen_cpu / max(headless_cpu, 1e-6))
    table.absolute("B9 terminal UI's extra CPU, share of one core", f"{share:.2f} %", share, 1.0, "1 %")
    table.note("B9 bytes sent to the terminal", f"tonearm {drawn / 1024:.0f} KiB", "", f"{drawn / seconds / 1024:.1f} KiB/s")


def benchmarks(tonearm, work, table, seconds):
    return [("B9", "B9 terminal UI cost", lambda: bench_terminal(tonearm, work, seconds, table))]
