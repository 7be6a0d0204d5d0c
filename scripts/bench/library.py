"""Library benchmarks for scripts/bench/bench.py (imported by it; standard library only).

  B7 feed import     `tonearm podcast add URL` of a generated 5,000-episode RSS feed served from
                     loopback, into a fresh library each run: wall time (launch to exit, so it
                     includes the fetch, the parse and the SQLite transaction) and peak RSS; median
                     of BENCH_RUNS. Beside it, Python's ElementTree parsing the same bytes in memory
                     (no fetch, no storage) as a floor for reference.
  B8 errors summary  `tonearm errors --json` over 100,000 stored error events (written straight into
                     the library's SQLite file, retention raised to keep them all): wall time, median
                     of BENCH_RUNS, and the count it reports, checked.
  B13 episode download  `tonearm podcast download` of a 100 MB episode from loopback against `curl -o`
                     of the same URL from the same server (sendfile, so the server is not the limit),
                     interleaved: throughput (transfer time: Tonearm's own figure, curl's time_total) as a ratio of curl's, goal >= 0.8x, and
                     Tonearm's peak RSS, goal under 80 MB (the file streams to disk); both files checked
                     byte for byte against the source.
"""
import hashlib
import http.server
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import threading
import time
import uuid
import xml.etree.ElementTree as ET

import bench as B
from bench import BenchError, say, fmt_s, fmt_ms, fmt_mb

EPISODES = 5000
EVENTS = 100_000


def make_feed(count):
    items = []
    for i in range(count):
        items.append(
            f"<item><guid isPermaLink=\"false\">ep-{i}</guid><title>Episode {i}: a title of ordinary length</title>"
            f"<description>&lt;p&gt;Show notes for episode {i}, with a link and some words.&lt;/p&gt;</description>"
            f"<pubDate>Tue, 10 Jun 2003 04:{i % 60:02d}:00 GMT</pubDate><itunes:duration>{i % 3}:{i % 60:02d}:07</itunes:duration>"
            f"<enclosure url=\"https://cdn.example.org/audio/{i}.mp3\" length=\"{1000000 + i}\" type=\"audio/mpeg\"/></item>")
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" "
            "xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Benchmark Feed</title>"
            "<link>https://example.org/</link><description>5,000 episodes</description>"
            + "".join(items) + "</channel></rss>\n").encode()


class _Feed(http.server.BaseHTTPRequestHandler):
    body = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


def serve(body):
    _Feed.body = body
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Feed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_tonearm(tonearm, argv, data_home, log):
    """Runs one command to its end: (wall s, peak RSS KB, stdout).

    The peak comes from GNU time, not from this process's wait4: Linux keeps the largest resident
    size a process had before exec, and a child spawned from Python starts as Python (vfork), so
    wait4 here would report Python's own peak (tens of MB once the feed is parsed) whenever the
    command's is smaller. GNU time's child starts from GNU time's few hundred KB."""
    env = dict(os.environ, XDG_DATA_HOME=data_home, LANG="C")
    with tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as measured:
        start = time.perf_counter()
        with open(log, "ab") as out:
            p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", measured.name, tonearm] + argv,
                                 stdout=subprocess.PIPE, stderr=out, stdin=subprocess.DEVNULL, env=env)
            stdout = p.stdout.read()
            _, status, _ = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise BenchError(f"tonearm {' '.join(argv[:2])} exited {code}; see {log}: {B.tail(log)}")
        peak = int(measured.read().split()[-1])
    return wall, peak, stdout


def bench_feed_import(tonearm, work, runs, table):
    body = make_feed(EPISODES)
    server = serve(body)
    url = f"http://127.0.0.1:{server.server_address[1]}/feed.xml"
    log = os.path.join(work, "b7.log")
    walls, rss, floors, list_rss = [], [], [], []
    try:
        for run in range(runs):
            home = os.path.join(work, f"b7-{run}")
            wall, peak, _ = run_tonearm(tonearm, ["podcast", "add", url], home, log)
            _, listing_rss, listed = run_tonearm(tonearm, ["podcast", "list", "--json"], home, log)
            list_rss.append(listing_rss)
            count = json.loads(listed)[0]["episodeCount"]
            if count != EPISODES:
                raise BenchError(f"imported {count} episodes, expected {EPISODES}")
            walls.append(wall)
            rss.append(peak)
            start = time.perf_counter()
            root = ET.fromstring(body)
            if len(root.findall("./channel/item")) != EPISODES:
                raise BenchError("ElementTree found the wrong number of items")
            floors.append(time.perf_counter() - start)
    finally:
        server.shutdown()
    wall, floor = statistics.median(walls), statistics.median(floors)
    say(f"B7 import walls {[round(w, 3) for w in walls]}, peak RSS {[round(r / 1024, 1) for r in rss]} MB")
    table.absolute(f"B7 add a {EPISODES}-episode feed ({len(body) // 1024} KiB) from loopback, wall (median of {runs})",
                   fmt_ms(wall), wall, 1.0, "1 s")
    table.absolute("B7 peak RSS (max)", fmt_mb(max(rss)), max(rss) / 1024, 50.0, "50 MB")
    # The same binary opening the same library and printing a one-line list: the RSS floor
    # (shared libraries and the runtime) that every command starts from.
    table.note("B7 RSS floor: `tonearm podcast list --json` on the imported library (max)", f"tonearm {fmt_mb(max(list_rss))}",
               "", f"import adds {(max(rss) - max(list_rss)) / 1024:.1f} MB")
    table.note("B7 reference: Python ElementTree parse of the same bytes in memory (median)", f"tonearm {fmt_ms(wall)}",
               f"ElementTree {fmt_ms(floor)}", f"ratio {wall / floor:.2f} (info)")


def bench_errors_summary(tonearm, work, runs, table):
    home = os.path.join(work, "b8")
    log = os.path.join(work, "b8.log")
    run_tonearm(tonearm, ["errors", "--json"], home, log)  # creates and migrates the library
    path = os.path.join(home, "tonearm", "library.sqlite")
    fill_error_events(path, EVENTS)
    walls = []
    for _ in range(runs):
        wall, _, out = run_tonearm(tonearm, ["errors", "--json"], home, log)
        total = json.loads(out)["totalErrors"]
        if total != EVENTS:
            raise BenchError(f"errors --json counted {total} events, expected {EVENTS}")
        walls.append(wall)
    wall = statistics.median(walls)
    say(f"B8 errors --json walls {[round(w, 3) for w in walls]}")
    table.absolute(f"B8 `tonearm errors --json` over {EVENTS:,} events, wall incl. launch (median of {runs})",
                   fmt_ms(wall), wall, 0.2, "200 ms")


TYPES = ["Network.connectionLost", "Network.timeout", "Network.stalled", "Resource.notFound", "Network.serverUnavailable",
         "Resource.wrongContentType", "System.audioOutputLost", "Network.dnsFailure"]
OPERATIONS = ["playStation", "playEpisode", "playFile", "refreshPodcast", "addPodcast", "loadNext", "openOutput"]
RESOLUTIONS = ["automaticRetry", "manualRetry", "unresolved"]


def fill_error_events(path, count):
    """Writes `count` events the way the store does (its schema read from the file itself)."""
    db = sqlite3.connect(path)
    try:
        columns = [row[1] for row in db.execute("PRAGMA table_info(errorEvent)")]
        if not columns:
            raise BenchError(f"no errorEvent table in {path}")
        now = time.time()
        rng = random.Random(7)
        rows = []
        for i in range(count):
            ts = int(now - rng.uniform(0, 30 * 86400))
            value = {
                "id": str(uuid.UUID(int=rng.getrandbits(128))).upper(),
                "timestamp": ts,  # whole seconds since 1970, as the store writes them
                "errorType": rng.choice(TYPES),
                "operation": rng.choice(OPERATIONS),
                "userAction": None,
                "isRetryable": int(rng.random() < 0.7),
                "resolution": rng.choice(RESOLUTIONS),
            }
            rows.append(tuple(value[c] for c in columns))
        marks = ",".join("?" * len(columns))
        db.executemany(f"INSERT INTO errorEvent ({','.join(columns)}) VALUES ({marks})", rows)
        db.execute("INSERT OR REPLACE INTO setting (key, value) VALUES ('analytics.maxEvents', ?)", (str(count * 2),))
        db.commit()
    finally:
        db.close()


DOWNLOAD_BYTES = 100 * 1000 * 1000


class _Files(http.server.BaseHTTPRequestHandler):
    """A feed with one episode and the episode's file, sent with sendfile(2)."""
    protocol_version = "HTTP/1.1"
    feed = b""
    episode = ""

    def do_GET(self):
        if self.path.startswith("/feed"):
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(len(self.feed)))
            self.end_headers()
            self.wfile.write(self.feed)
            return
        size = os.path.getsize(self.episode)
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("Content-Length", str(size))
        self.send_header("ETag", '"bench"')
        self.end_headers()
        self.wfile.flush()
        with open(self.episode, "rb") as f:
            self.connection.sendfile(f)

    def log_message(self, *args):
        pass


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def bench_download(tonearm, work, runs, table):
    curl = shutil.which("curl")
    if not curl:
        raise BenchError("curl is not installed")
    episode = os.path.join(work, "b13-episode.mp3")
    rng = random.Random(13)
    with open(episode, "wb") as f:
        for _ in range(DOWNLOAD_BYTES // (1 << 20)):
            f.write(rng.randbytes(1 << 20))
        f.write(rng.randbytes(DOWNLOAD_BYTES % (1 << 20)))
    source = sha256(episode)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    _Files.episode = episode
    _Files.feed = ("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Bench Downloads</title><item><guid>b13</guid>"
                   f"<title>Big Episode</title><enclosure url=\"{base}/episode.mp3\" length=\"{DOWNLOAD_BYTES}\" type=\"audio/mpeg\"/>"
                   "</item></channel></rss>").encode()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log = os.path.join(work, "b13.log")
    # Transfer time on both sides, request to the last byte on disk (Tonearm's own figure; curl's
    # time_total plus the fsync of its file), and each process's wall time launch to exit beside it.
    ours, theirs, rss, launches, curl_walls, curl_syncs = [], [], [], [], [], []
    try:
        for run in range(runs):
            home = os.path.join(work, f"b13-{run}")
            run_tonearm(tonearm, ["podcast", "add", f"{base}/feed.xml"], home, log)
            before = os.path.getsize(log) if os.path.exists(log) else 0
            wall, peak, _ = run_tonearm(tonearm, ["podcast", "download", "Bench Downloads"], home, log)
            with open(log, "rb") as f:
                f.seek(before)
                told = re.search(rb"Downloaded Big Episode \(.* in ([0-9.]+) s\)", f.read())
            if not told:
                raise BenchError(f"tonearm did not say how long the download took; see {log}")
            folder = os.path.join(home, "tonearm", "episodes")
            # Episode files only: `.locks` holds the downloads' lock files.
            kept = [os.path.join(folder, n) for n in os.listdir(folder) if n != ".locks"]
            if len(kept) != 1 or sha256(kept[0]) != source:
                raise BenchError(f"tonearm's download differs from the source: {os.listdir(folder)}")
            shutil.rmtree(home, ignore_errors=True)
            ours.append(float(told.group(1)))
            launches.append(wall)
            rss.append(peak)
            target = os.path.join(work, "b13-curl.mp3")
            start = time.perf_counter()
            timed = subprocess.run([curl, "-sS", "-o", target, "-w", "%{time_total}", f"{base}/episode.mp3"], check=True,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
            # curl names the file done when its last byte is written, Tonearm only once the bytes
            # are on the disk (fsync): curl's file is synced here, and that wait counts on its side.
            synced = time.perf_counter()
            descriptor = os.open(target, os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
            sync = time.perf_counter() - synced
            curl_walls.append(time.perf_counter() - start)
            theirs.append(float(timed.stdout.decode().strip()) + sync)
            curl_syncs.append(sync)
            if sha256(target) != source:
                raise BenchError("curl's download differs from the source")
            os.remove(target)
    finally:
        server.shutdown()
    mine, peer = statistics.median(ours), statistics.median(theirs)
    say(f"B13 transfer tonearm {[round(w, 3) for w in ours]} curl {[round(w, 3) for w in theirs]}; launch to exit tonearm "
        f"{[round(w, 3) for w in launches]} curl {[round(w, 3) for w in curl_walls]}; curl's fsync {[round(w, 3) for w in curl_syncs]}; peak RSS {[round(r / 1024, 1) for r in rss]} MB")
    mb = DOWNLOAD_BYTES / 1e6
    # Time ratio <= 1.25 is the same as throughput >= 0.8x curl's.
    table.add(f"B13 download a {mb:.0f} MB episode from loopback, throughput (median of {runs}; ratio is time, <= 1.25 = >= 0.8x curl)",
              f"{mb / mine:.0f} MB/s ({fmt_s(mine)})", "curl", f"{mb / peer:.0f} MB/s ({fmt_s(peer)}, with its file's fsync)", mine / peer, 1.25)
    table.note("B13 launch to exit (median), both processes", f"tonearm {fmt_s(statistics.median(launches))}",
               f"curl {fmt_s(statistics.median(curl_walls))}", "includes start-up and, for Tonearm, opening the library")
    table.absolute("B13 peak RSS while downloading (max)", fmt_mb(max(rss)), max(rss) / 1024, 80.0, "80 MB")


def benchmarks(tonearm, work, table, runs):
    return [("B7", "B7 feed import", lambda: bench_feed_import(tonearm, work, max(runs, 5), table)),
            ("B8", "B8 errors summary", lambda: bench_errors_summary(tonearm, work, max(runs, 5), table)),
            ("B13", "B13 episode download", lambda: bench_download(tonearm, work, max(runs, 3), table))]
