"""Everyday-listening benchmark for scripts/bench/bench.py (imported by it; standard library only).

  B10 speech at 1.5x   BENCH_SECONDS of a synthesised speech episode (espeak-ng, MP3) to a null output
                       at 1.5x, pitch kept: Tonearm (libsonic) against mpv --speed=1.5 (its own
                       scaletempo2) and against Tonearm at 1x, CPU user+sys from the same run
                       (goal: at most 0.7x mpv's CPU).
  B11 loudness scan    integrated loudness (EBU R128) of a 60-minute speech episode, wall time of
                       `tonearm loudness` (tags absent, nothing kept: decoded and measured whole, in
                       parts on every core) against FFmpeg's ebur128 filter on the same file, for a
                       stereo 128 kbit/s and a mono 64 kbit/s MP3 (goal: under 2 s).
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


def hour_episodes(work):
    """A 60-minute speech episode as podcasts publish it: stereo 128 kbit/s and mono 64 kbit/s MP3."""
    wav = os.path.join(work, "b11-phrase.wav")
    text = "Welcome back to the programme. Today we talk about rivers, bridges and the people who build them. " * 20
    r = subprocess.run(["espeak-ng", "-w", wav, text], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"espeak-ng could not speak: {r.stderr.strip()}")
    episodes = {}
    for name, args in (("stereo 128k", ["-ac", "2", "-b:a", "128k"]), ("mono 64k", ["-ac", "1", "-b:a", "64k"])):
        mp3 = os.path.join(work, f"b11-{name.replace(' ', '-')}.mp3")
        r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-stream_loop", "-1", "-i", wav, "-t", "3600", "-ar", "44100"]
                           + args + [mp3], stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if r.returncode != 0:
            raise BenchError(f"ffmpeg could not make the episode: {r.stderr.strip()}")
        episodes[name] = mp3
    return episodes


def bench_loudness(tonearm, work, runs, table):
    if shutil.which("espeak-ng") is None:
        raise BenchError("espeak-ng is not installed")
    for name, mp3 in hour_episodes(work).items():
        walls = {"tonearm": [], "ffmpeg": []}
        for run in range(runs):
            data = os.path.join(work, f"b11-data-{name.replace(' ', '-')}-{run}")  # nothing kept from a previous run
            argv = ["env", f"XDG_DATA_HOME={data}", tonearm, "loudness", mp3]
            wall, _ = B.timed_run(argv, os.path.join(work, "b11-tonearm.log"))
            walls["tonearm"].append(wall)
            argv = ["ffmpeg", "-nostdin", "-nostats", "-i", mp3, "-af", "ebur128=framelog=verbose", "-f", "null", "-"]
            wall, _ = B.timed_run(argv, os.path.join(work, "b11-ffmpeg.log"))
            walls["ffmpeg"].append(wall)
        ours, peer = min(walls["tonearm"]), min(walls["ffmpeg"])
        say(f"  B11 {name}: tonearm {ours:.2f} s, ffmpeg ebur128 {peer:.2f} s (best of {runs})")
        label = f"B11 loudness of a 60-min episode ({name}), wall"
        table.absolute(label, B.fmt_s(ours), ours, 2.0, "2 s")
        table.add(label, B.fmt_s(ours), "ffmpeg ebur128", B.fmt_s(peer), ours / max(peer, 1e-6))


def benchmarks(tonearm, work, table, seconds, runs=3):
    return [("B10", "B10 speech at 1.5x", lambda: bench_speed(tonearm, work, seconds, table)),
            ("B11", "B11 loudness scan", lambda: bench_loudness(tonearm, work, runs, table))]
