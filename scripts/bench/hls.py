"""HLS radio benchmark for scripts/bench/bench.py (imported by it; standard library only).

  B12 HLS radio  a live HLS stream made by ffmpeg's hls muxer (AAC 128 kbit/s in MPEG-TS, 2 s
                 segments, a sliding playlist of 6) served from its folder by Python's http.server
                 on loopback: launch -> first sample above -40 dBFS on a private PulseAudio null
                 sink (median of BENCH_TTFA_RUNS, interleaved), then BENCH_SECONDS of it to a null
                 output (CPU user+sys, peak RSS); tonearm vs mpv on the same playlist.
"""
import functools
import http.server
import os
import statistics
import subprocess
import threading
import time

import bench as B
import radio as R
from bench import BenchError, say, spawn, fmt_ms, fmt_s, fmt_mb, RATE

SEGMENT_SECONDS = 2


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class LiveHLS:
    """ffmpeg writing a live HLS stream into a folder, and a loopback HTTP server for it."""

    def __init__(self, work):
        self.dir = os.path.join(work, "hls")
        os.makedirs(self.dir, exist_ok=True)
        self.encoder = R.track(spawn(
            ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
             "-i", f"sine=frequency=440:sample_rate={RATE}", "-ac", "2", "-c:a", "aac", "-b:a", "128k",
             "-f", "hls", "-hls_time", str(SEGMENT_SECONDS), "-hls_list_size", "6",
             "-hls_flags", "delete_segments+omit_endlist",
             "-hls_segment_filename", os.path.join(self.dir, "seg%d.ts"), os.path.join(self.dir, "live.m3u8")],
            stderr=subprocess.DEVNULL))
        handler = functools.partial(Quiet, directory=self.dir)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/live.m3u8"
        deadline = time.monotonic() + 30
        while self.segments() < 4:
            if self.encoder.poll() is not None:
                raise BenchError(f"ffmpeg's hls muxer exited with {self.encoder.returncode}")
            if time.monotonic() > deadline:
                raise BenchError("no HLS playlist with 4 segments after 30 s")
            time.sleep(0.2)

    def segments(self):
        try:
            with open(os.path.join(self.dir, "live.m3u8")) as f:
                return sum(1 for line in f if line.startswith("#EXTINF"))
        except OSError:
            return 0

    def stop(self):
        self.server.shutdown()
        R.finish(self.encoder)


def bench_hls(tonearm, work, runs, seconds, table):
    say(f"B12 HLS radio: a live playlist from ffmpeg's hls muxer ({SEGMENT_SECONDS} s AAC/MPEG-TS segments) on "
        f"loopback; first audio (median of {runs}, interleaved) and {seconds} s to a null output")
    hls = LiveHLS(work)
    try:
        say(f"  playlist: {hls.url}")
        with R.Sink(work, "pulse-b12") as sink:
            cmds = {
                "tonearm": ([tonearm, "play", hls.url, "--output", "pulse", "--events", "jsonl"],
                            lambda l: b'"state":"playing"' in l),
                "mpv": (["mpv", "--no-config", "--vo=null", "--ao=pulse", "--term-playing-msg=BENCH-PLAYING", hls.url],
                        lambda l: l.startswith(b"BENCH-PLAYING")),
            }
            audible = {"tonearm": [], "mpv": []}
            for i in range(runs + 1):
                for who in (["tonearm", "mpv"] if i % 2 == 0 else ["mpv", "tonearm"]):
                    argv, marker = cmds[who]
                    a, _ = B.first_audio(sink.recorder, argv, sink.pulse.client_env, marker,
                                         os.path.join(work, f"b12-{who}.log"), timeout=30.0)
                    say(f"    {'warm-up' if i == 0 else f'run {i}/{runs}':9s} {who:8s} first audio {fmt_ms(a):>7s}")
                    if i > 0:
                        audible[who].append(a)
        mt, mm = statistics.median(audible["tonearm"]), statistics.median(audible["mpv"])
        table.add(f"B12 HLS first audio, loopback live playlist (median of {runs})", fmt_ms(mt), "mpv", fmt_ms(mm), mt / mm)
        cost = {}
        for who, argv in (("tonearm", [tonearm, "play", hls.url, "--output", "null"]),
                          ("mpv", ["mpv", "--no-config", "--ao=null", "--vo=null", hls.url])):
            cpu, kb, _ = B.run_for(argv, seconds, os.path.join(work, f"b12-cost-{who}.log"))
            cost[who] = (cpu, kb)
            say(f"    {who:8s} CPU {cpu:.2f} s over {seconds} s, peak RSS {fmt_mb(kb)}")
        (tc, tk), (pc, pk) = cost["tonearm"], cost["mpv"]
        table.add(f"B12 HLS {seconds} s null out, CPU user+sys", fmt_s(tc), "mpv", fmt_s(pc), tc / pc if pc > 0 else float("inf"))
        table.add(f"B12 HLS {seconds} s null out, peak RSS", fmt_mb(tk), "mpv", fmt_mb(pk), tk / pk)
    finally:
        hls.stop()


def benchmarks(tonearm, work, table, ttfa_runs, seconds):
    return [("B12", "B12 HLS radio", lambda: bench_hls(tonearm, work, ttfa_runs, seconds, table))]
