"""Everyday-listening benchmark for scripts/bench/bench.py (imported by it; standard library only).

  B10 speech at 1.5x   BENCH_SECONDS of a synthesised speech episode (espeak-ng, MP3) to a null output
                       at 1.5x, pitch kept: Tonearm (libsonic) against mpv --speed=1.5 (its own
                       scaletempo2) and against Tonearm at 1x, CPU user+sys from the same run
                       (goal: at most 0.7x mpv's CPU).
"""
import os
import shutil
import subprocess

import bench as B
from bench import BenchError, say


def speech_episode(work, seconds):
    """An MP3 of speech longer than `seconds` at 1.5x, so no run reaches its end."""
    mp3 = os.path.join(work, "b10-speech.mp3")
    wav = os.path.join(work, "b10-phrase.wav")
    text = "The morning programme begins with the weather, then the news from the valley, and a long talk about rivers. " * 12
    r = subprocess.run(["espeak-ng", "-w", wav, text], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"espeak-ng could not speak: {r.stderr.strip()}")
    loops = 1 + int(seconds * 1.5 / 60) + 1
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-stream_loop", str(loops), "-i", wav, "-ac", "2", "-ar", "48000",
                        "-b:a", "96k", mp3], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"ffmpeg could not make the episode: {r.stderr.strip()}")
    return mp3


def bench_speed(tonearm, work, seconds, table):
    for tool in ("espeak-ng", "mpv"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} is not installed")
    mp3 = speech_episode(work, seconds)
    env = dict(os.environ, XDG_DATA_HOME=f"{work}/b10-data")
    runs = {
        "tonearm 1.5x": [tonearm, "play", mp3, "--output", "null", "--no-tui", "--speed", "1.5"],
        "mpv 1.5x": ["mpv", "--no-config", "--ao=null", "--vo=null", "--speed=1.5", mp3],
        "tonearm 1x": [tonearm, "play", mp3, "--output", "null", "--no-tui", "--speed", "1"],
    }
    cpu = {}
    for who, argv in runs.items():
        say(f"  {who}: {' '.join(argv)}  (SIGTERM after {seconds} s)")
        cpu[who], _, _ = B.run_for(argv, seconds, os.path.join(work, f"b10-{who.replace(' ', '-')}.log"), env=env)
        say(f"    {who:13s} CPU {cpu[who]:.2f} s over {seconds} s ({100 * cpu[who] / seconds:.1f} % of a core)")
    label = f"B10 speech at 1.5x, {seconds} s null out, CPU user+sys"
    ours = cpu["tonearm 1.5x"]
    table.add(label, B.fmt_s(ours), "mpv", B.fmt_s(cpu["mpv 1.5x"]), ours / max(cpu["mpv 1.5x"], 1e-6), 0.7)
    table.add(label, B.fmt_s(ours), "tonearm 1x", B.fmt_s(cpu["tonearm 1x"]), ours / max(cpu["tonearm 1x"], 1e-6))


def benchmarks(tonearm, work, table, seconds):
    return [("B10", "B10 speech at 1.5x", lambda: bench_speed(tonearm, work, seconds, table))]
