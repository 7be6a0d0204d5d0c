"""Music library benchmarks for scripts/bench/bench.py (imported by it; standard library only).

  B20 music index    a generated library of BENCH_MUSIC_FILES (default 10,000) tagged MP3s (100 artists,
                     10 albums each, 10 songs an album; a few Russian names) read into the index:
                     `tonearm music update` launch to exit, the first time and again with nothing
                     changed, vs mpd 0.23's `update` of the same folder (`mpc update --wait` on a
                     started mpd, its first update and an unchanged one): wall time, and CPU of the
                     process that read (tonearm's own; mpd's over the update, from /proc/PID/stat).
  B21 music search   with both daemons up on that library (`tonearm serve` and mpd, each on its unix
                     socket), the same MPD commands over one connection each: `search any` of a
                     word in one title, of a word in a third of the titles, of a Russian word,
                     `find artist`, `list album group albumartist`; median latency of BENCH_RUNS
                     (at least 5) rounds, every answer's song count checked against the library.
                     Then each daemon's resident memory with that library loaded (VmRSS, VmHWM).

The files are made from one second of ffmpeg's silence (MPEG-1 layer III, 48 kHz mono, no tag)
with an ID3v2.3 tag written here in front of it (TIT2, TPE1, TALB, TPE2, TRCK, TYER, TCON): making
10,000 files with ffmpeg would take minutes; the tag's frames are what both indexers read.
"""
import os
import random
import socket
import statistics
import struct
import subprocess
import time

import bench as B
from bench import BenchError, say, reap, tail, fmt_s, fmt_mb, fmt_ms
from daemon import Serve, proc_status, serve_environment, stop

ARTISTS = 100
ALBUMS_PER_ARTIST = 10
SONGS_PER_ALBUM = 10
WORDS = ("harbour night ferry morning river light blue window summer rain paper garden station letter mountain "
         "song dance slow fire road house winter silver moon").split()
RUSSIAN = "ветер город река ночь песня".split()
RARE = "albatross"  # in one title only
COMMON = "lantern"  # in every third title


def id3_frame(name, text):
    body = b"\x03" + text.encode("utf-8")  # encoding 3: UTF-8
    return name.encode("ascii") + struct.pack(">I", len(body)) + b"\x00\x00" + body


def id3_tag(frames):
    body = b"".join(id3_frame(n, t) for n, t in frames)
    size = len(body)
    synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    return b"ID3\x03\x00\x00" + synchsafe + body


def make_library(music, files):
    """Writes the library under music; returns what the searches must find."""
    base = os.path.join(os.path.dirname(music), "silence.mp3")
    r = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        "anullsrc=r=48000:cl=mono", "-t", "1", "-c:a", "libmp3lame", "-b:a", "32k", "-map_metadata", "-1",
                        "-id3v2_version", "0", "-write_id3v1", "0", base], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"ffmpeg could not make the silent MP3: {r.stderr.strip()}")
    with open(base, "rb") as f:
        audio = f.read()
    rng = random.Random(20)
    expected = {"rare": 0, "common": 0, "russian": 0, "artist": 0}
    made = 0
    for a in range(ARTISTS):
        artist = f"Группа {a}" if a % 10 == 3 else f"Artist {a}"
        for b in range(ALBUMS_PER_ARTIST):
            album = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {b}"
            folder = os.path.join(music, f"artist{a:03d}", f"album{b:02d}")
            os.makedirs(folder, exist_ok=True)
            for s in range(SONGS_PER_ALBUM):
                if made >= files:
                    return expected
                words = [rng.choice(WORDS) for _ in range(3)]
                if made % 3 == 0:
                    words.append(COMMON)
                    expected["common"] += 1
                if made % 10 == 5:
                    words.append(rng.choice(RUSSIAN) + " " + "ночь")
                if made == files // 2:
                    words.append(RARE)
                    expected["rare"] += 1
                title = " ".join(words)
                if "ночь" in title:
                    expected["russian"] += 1
                if artist == "Artist 42":
                    expected["artist"] += 1
                tag = id3_tag([("TIT2", title), ("TPE1", artist), ("TPE2", artist), ("TALB", album),
                               ("TRCK", f"{s + 1}/{SONGS_PER_ALBUM}"), ("TYER", str(1970 + (a + b) % 50)),
                               ("TCON", rng.choice(["Jazz", "Rock", "Folk", "Электроника"]))])
                with open(os.path.join(folder, f"{s + 1:02d} song.mp3"), "wb") as f:
                    f.write(tag + audio)
                made += 1
    return expected


def run_update(tonearm, music, d, log):
    """`tonearm music update` to its end: (wall s, CPU s, peak RSS KB)."""
    env = serve_environment(d)
    start = time.perf_counter()
    with open(log, "ab") as out:
        p = B.spawn(["/usr/bin/time", "-f", "%M", "-o", os.path.join(d, "update.rss"), tonearm, "music", "update",
                     "--music-directory", music, "--json"], stdout=out, stderr=out, env=env)
        code, usage = reap(p)
    wall = time.perf_counter() - start
    if code != 0:
        raise BenchError(f"tonearm music update exited {code}:\n{tail(log)}")
    with open(os.path.join(d, "update.rss")) as f:
        peak = int(f.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, peak


def mpd_update(proc, sock):
    """`mpc update --wait` on a running mpd: (wall s, mpd's CPU s over it)."""
    cpu0 = B.proc_usage(proc.pid)[0]
    start = time.perf_counter()
    r = subprocess.run(["mpc", "-h", sock, "update", "--wait"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=1800)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        raise BenchError(f"mpc update --wait failed: {r.stderr.strip()}")
    return wall, B.proc_usage(proc.pid)[0] - cpu0


class Connection:
    """One MPD protocol connection on a unix socket, answers read to their OK."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(60)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        greeting = self.file.readline()
        if not greeting.startswith(b"OK MPD"):
            raise BenchError(f"not an MPD greeting on {path}: {greeting!r}")

    def command(self, line):
        """(seconds, lines of the answer)."""
        start = time.perf_counter()
        self.sock.sendall(line.encode("utf-8") + b"\n")
        lines = []
        while True:
            raw = self.file.readline()
            if not raw:
                raise BenchError(f"the connection closed during {line!r}")
            if raw == b"OK\n":
                return time.perf_counter() - start, lines
            if raw.startswith(b"ACK"):
                raise BenchError(f"{line!r}: {raw.decode(errors='replace').strip()}")
            lines.append(raw.decode("utf-8", errors="replace").rstrip("\n"))

    def close(self):
        self.sock.close()


def count_files(lines):
    return sum(1 for l in lines if l.startswith("file: "))


class MusicBench:
    """B20 and B21 over one generated library: B20 makes it and indexes it in both; B21, run alone,
    makes and indexes it first (unmeasured), then starts both daemons on it."""

    def __init__(self, tonearm, work, runs, table):
        self.tonearm, self.runs, self.table = tonearm, runs, table
        self.files = B.env_int("BENCH_MUSIC_FILES", ARTISTS * ALBUMS_PER_ARTIST * SONGS_PER_ALBUM, 100)
        self.d = os.path.join(work, "b20-tonearm")
        self.dm = os.path.join(work, "b20-mpd")
        self.music = os.path.join(self.dm, "music")  # start_mpd's music folder; tonearm reads the same one
        self.log = os.path.join(self.d, "update.log")
        self.expected = None
        self.indexed = False

    def make(self):
        if self.expected is not None:
            return
        os.makedirs(self.music, exist_ok=True)
        os.makedirs(self.d, exist_ok=True)
        started = time.perf_counter()
        self.expected = make_library(self.music, self.files)
        say(f"B20 music library: {self.files:,} tagged MP3s made in {time.perf_counter() - started:.1f} s under {self.music}")

    def index(self):
        """B20: both indexers over the library, first and unchanged."""
        self.make()
        first = run_update(self.tonearm, self.music, self.d, self.log)
        again = run_update(self.tonearm, self.music, self.d, self.log)
        p, sock, _ = B.start_mpd(self.dm)
        try:
            m_first = mpd_update(p, sock)
            m_again = mpd_update(p, sock)
        finally:
            B.stop_reap(p)
        self.indexed = True
        for who, (wall, cpu, *rest) in (("tonearm first", first), ("tonearm unchanged", again), ("mpd first", m_first),
                                       ("mpd unchanged", m_again)):
            say(f"    {who:18s} wall {wall:.2f} s, CPU {cpu:.2f} s" + (f", peak RSS {fmt_mb(rest[0])}" if rest else ""))
        label = f"B20 music index, {self.files:,} tagged MP3s"
        t = self.table
        t.add(f"{label}: first update, wall", fmt_s(first[0]), "mpd", fmt_s(m_first[0]), ratio(first[0], m_first[0]))
        t.add(f"{label}: first update, CPU", fmt_s(first[1]), "mpd", fmt_s(m_first[1]), ratio(first[1], m_first[1]))
        t.add(f"{label}: unchanged update, wall", fmt_s(again[0]), "mpd", fmt_s(m_again[0]), ratio(again[0], m_again[0]))
        t.note(f"{label}: peak RSS of `tonearm music update` (first)", f"tonearm {fmt_mb(first[2])}", "mpd -",
               "mpd indexes inside its daemon (B21's memory rows)")

    def search(self):
        """B21: the same MPD commands on both daemons with the library indexed, and their memory."""
        self.make()
        p, sock, _ = B.start_mpd(self.dm)  # loads the database B20 wrote, or updates it now
        try:
            if not self.indexed:
                run_update(self.tonearm, self.music, self.d, self.log)
                mpd_update(p, sock)
                self.indexed = True
            self.search_both(p, sock)
        finally:
            if p.returncode is None:
                B.stop_reap(p)

    def search_both(self, p, sock):
        files, runs, expected, table = self.files, self.runs, self.expected, self.table
        serve = Serve(self.tonearm, self.d, "null", self.music)
        try:
            ours, theirs = Connection(serve.socket), Connection(sock)
            # tonearm serve indexes at start: wait until its update (nothing changed) is over.
            deadline = time.monotonic() + 120
            while any(l.startswith("updating_db") for l in ours.command("status")[1]):
                if time.monotonic() > deadline:
                    raise BenchError("tonearm serve's start-up update did not end within 120 s")
                time.sleep(0.05)
            queries = [
                ("search a word in one title", f'search any "{RARE}"', expected["rare"]),
                ("search a word in a third of the titles", f'search any "{COMMON}"', expected["common"]),
                ("search a Russian word", 'search any "ночь"', expected["russian"]),
                ("find an artist", 'find artist "Artist 42"', expected["artist"]),
                ("list album group albumartist", "list album group albumartist", None),
            ]
            times = {name: {"tonearm": [], "mpd": []} for name, _, _ in queries}
            for _ in range(runs):
                for name, line, want in queries:
                    for who, conn in (("tonearm", ours), ("mpd", theirs)):
                        seconds, lines = conn.command(line)
                        if want is not None and count_files(lines) != want:
                            raise BenchError(f"{who} {line!r} gave {count_files(lines)} songs, the library has {want}")
                        if want is None and not any(l.startswith("Album: ") for l in lines):
                            raise BenchError(f"{who} {line!r} listed no album")
                        times[name][who].append(seconds)
            for name, line, want in queries:
                t, m = statistics.median(times[name]["tonearm"]), statistics.median(times[name]["mpd"])
                say(f"    {name}: tonearm {fmt_fine_ms(t)}, mpd {fmt_fine_ms(m)} (median of {runs})")
                table.add(f"B21 music {name} ({files:,} songs), MPD protocol, median of {runs}", fmt_fine_ms(t), "mpd", fmt_fine_ms(m),
                          ratio(t, m))
            ours.close()
            theirs.close()
            t_rss, t_hwm = proc_status(serve.proc.pid, "VmRSS"), proc_status(serve.proc.pid, "VmHWM")
            m_rss, m_hwm = proc_status(p.pid, "VmRSS"), proc_status(p.pid, "VmHWM")
            say(f"    daemons with the library: tonearm VmRSS {fmt_mb(t_rss)} (peak {fmt_mb(t_hwm)}), mpd {fmt_mb(m_rss)} (peak {fmt_mb(m_hwm)})")
            table.add(f"B21 daemon with {files:,} songs indexed, after the searches, RSS (VmRSS)", fmt_mb(t_rss), "mpd", fmt_mb(m_rss),
                      ratio(t_rss, m_rss))
            table.add(f"B21 daemon with {files:,} songs indexed, peak RSS (VmHWM)", fmt_mb(t_hwm), "mpd", fmt_mb(m_hwm), ratio(t_hwm, m_hwm))
        finally:
            stop(serve.proc)


def fmt_fine_ms(seconds):
    """Milliseconds with the precision an answer under one needs."""
    return f"{seconds * 1000:.2f} ms" if seconds < 0.01 else fmt_ms(seconds)


def ratio(a, b):
    return a / b if b > 0 else float("inf")


def benchmarks(tonearm, work, table, runs):
    bench = MusicBench(tonearm, work, max(runs, 5), table)
    return [("B20", "B20 music index", bench.index), ("B21", "B21 music search", bench.search)]
