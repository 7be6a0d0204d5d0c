"""Memory soak benchmarks for scripts/bench/bench.py (imported by it; standard library only).

  B14 render soak     `tonearm play` of SOAK_ITEMS (200) 4 s MP3s in a row to a WAV file (render mode,
                      gapless, then with 1 s crossfades): the process's resident memory (VmRSS from
                      /proc) when the 10th, 40th, 160th and last item start, and its growth per item
                      from the 10th on; vs mpv writing the same list to a WAV file (--ao=pcm), sampled
                      at the same items. A player whose items leave nothing behind grows by ~0 MB.
  B15 reconnect soak  `tonearm play` of the loopback Icecast mount (radio.py's server) to a null output
                      in real time; the server SIGKILLed and restarted SOAK_RECONNECTS (30) times, each
                      time once the player plays again; resident memory after the 3rd and the last
                      reconnect and the growth per reconnect. No peer: neither mpv nor mpd comes back
                      after the server dies (B5).

Resident memory is sampled from /proc/PID/status while the player runs: the median of the samples
taken as each of the SOAK_WINDOW (5) items (or reconnects) up to the one named start, so one sample
taken while a deck holds a whole decoded item does not decide the figure.
"""
import json
import os
import signal
import statistics
import subprocess
import threading
import time

import bench as B
import radio as R
from bench import BenchError, say, spawn, fmt_mb, RATE, CHANNELS

ITEM_SECONDS = 4
WINDOW = 5
SOAK_TARGET_MB = 2.0        # 200 items within 2 MB of 10
RECONNECT_TARGET_MB = 1.0   # 30 reconnects within 1 MB of 3


def rss_kb(pid):
    """VmRSS of a live process in KiB; None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Samples:
    """RSS samples by ordinal (item or reconnect number), and the window medians the rows print."""

    def __init__(self):
        self.by = {}

    def take(self, n, pid):
        kb = rss_kb(pid)
        if kb is not None:
            self.by[n] = kb

    def at(self, n):
        """The median of the samples at n-WINDOW+1 .. n (those that were taken)."""
        window = [self.by[k] for k in range(max(1, n - WINDOW + 1), n + 1) if k in self.by]
        if not window:
            raise BenchError(f"no RSS sample near {n}")
        return statistics.median(window)


def make_item(work):
    path = os.path.join(work, "soak-item.mp3")
    if not os.path.exists(path):
        out = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                              "-i", f"sine=frequency=440:sample_rate={RATE}:duration={ITEM_SECONDS}",
                              "-ac", str(CHANNELS), "-c:a", "libmp3lame", "-b:a", "128k", path],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if out.returncode != 0:
            raise BenchError(f"ffmpeg could not make the soak item: {out.stderr.strip()}")
    return path


def follow_lines(proc, on_line, timeout):
    """Calls on_line(bytes) for each stdout line until EOF or `timeout` s; kills the child on timeout."""
    timer = threading.Timer(timeout, lambda: proc.poll() is None and proc.kill())
    timer.start()
    try:
        for line in proc.stdout:
            on_line(line)
    finally:
        timer.cancel()
    return B.reap(proc)


def tonearm_render(tonearm, work, items, crossfade):
    """Samples at each item's start, from the JSONL state events (the track id is argN:...)."""
    item = make_item(work)
    out = os.path.join(work, "soak-tonearm.wav")
    argv = [tonearm, "play", *([item] * items), "--output", f"wav:{out}", "--events", "jsonl"]
    if crossfade:
        argv += ["--crossfade", str(crossfade)]
    samples = Samples()
    seen = set()
    with open(os.path.join(work, "soak-tonearm.err"), "wb") as err:
        p = spawn(argv, stdout=subprocess.PIPE, stderr=err)

        def on_line(line):
            try:
                event = json.loads(line)
            except ValueError:
                return
            if event.get("event") != "state":
                return
            track = event.get("track") or event.get("to") or {}
            ident = track.get("id", "")
            if ident.startswith("arg") and ":" in ident:
                n = int(ident[3:ident.index(":")])
                if n not in seen:
                    seen.add(n)
                    samples.take(n, p.pid)

        t0 = time.perf_counter()
        code, usage = follow_lines(p, on_line, timeout=600)
        wall = time.perf_counter() - t0
    try:
        os.remove(out)
    except OSError:
        pass
    if code != 0 or len(seen) < items:
        raise BenchError(f"tonearm exited with {code} after {len(seen)} of {items} items:\n"
                         f"{B.tail(os.path.join(work, 'soak-tonearm.err'))}")
    return samples, usage.ru_maxrss, wall


def mpv_render(work, items):
    """mpv --ao=pcm on the same list; samples at each file's start (--term-playing-msg)."""
    item = make_item(work)
    playlist = os.path.join(work, "soak-list.txt")
    with open(playlist, "w") as f:
        f.write(f"{item}\n" * items)
    out = os.path.join(work, "soak-mpv.wav")
    argv = ["mpv", "--no-config", "--vo=null", "--ao=pcm", f"--ao-pcm-file={out}", "--untimed", "--gapless-audio=yes",
            f"--playlist={playlist}", "--term-playing-msg=SOAK-ITEM ${playlist-pos-1}"]
    samples = Samples()
    with open(os.path.join(work, "soak-mpv.err"), "wb") as err:
        p = spawn(argv, stdout=subprocess.PIPE, stderr=err)

        def on_line(line):
            if line.startswith(b"SOAK-ITEM "):
                samples.take(int(line.split()[1]), p.pid)

        t0 = time.perf_counter()
        code, usage = follow_lines(p, on_line, timeout=600)
        wall = time.perf_counter() - t0
    try:
        os.remove(out)
    except OSError:
        pass
    if code != 0 or len(samples.by) < items:
        raise BenchError(f"mpv exited with {code} after {len(samples.by)} of {items} items")
    return samples, usage.ru_maxrss, wall


def growth_row(table, name, samples, first, last, target_mb, per, peer=None):
    """RSS at `first` and `last`, growth per unit; against the issue's bound, and the peer's growth."""
    a, b = samples.at(first), samples.at(last)
    growth = (b - a) / (last - first)
    ours = f"{fmt_mb(a)} -> {fmt_mb(b)} ({(b - a) / 1024:+.2f} MB, {growth:+.0f} KiB/{per})"
    table.absolute(f"{name}, RSS after {first} -> after {last}", ours, max(0.0, (b - a) / 1024), target_mb,
                   f"+{target_mb:.0f} MB")
    if peer is not None:
        name_p, ps = peer
        pa, pb = ps.at(first), ps.at(last)
        pgrowth = (pb - pa) / (last - first)
        table.note(f"{name}, growth per {per} vs {name_p}", f"tonearm {growth:+.0f} KiB ({fmt_mb(b)} after {last})",
                   f"{name_p} {pgrowth:+.0f} KiB ({fmt_mb(pb)} after {last})", "info")
    return a, b, growth


def bench_render_soak(tonearm, work, table, items):
    marks = [m for m in (10, 40, 160, items) if m <= items]
    say(f"B14 render soak: {items} x {ITEM_SECONDS} s MP3 in a row to a WAV file; RSS (median of the samples at "
        f"the {WINDOW} item starts up to each mark) at items {', '.join(map(str, marks))}")
    peer = None
    try:
        ms, mhwm, mwall = mpv_render(work, items)
        say(f"    mpv      {' '.join(f'#{m} {fmt_mb(ms.at(m))}' for m in marks)}; peak {fmt_mb(mhwm)}; {mwall:.1f} s")
        peer = ("mpv", ms)
    except BenchError as e:
        say(f"    mpv: could not run: {e}")
    for crossfade in (0, 1):
        label = f"B14 render {items} x {ITEM_SECONDS} s MP3 to WAV" + (f", {crossfade} s crossfades" if crossfade else ", gapless")
        try:
            ts, thwm, twall = tonearm_render(tonearm, work, items, crossfade)
        except BenchError as e:
            table.fail(label, str(e))
            continue
        say(f"    tonearm{' crossfade' if crossfade else ''} {' '.join(f'#{m} {fmt_mb(ts.at(m))}' for m in marks)}; "
            f"peak {fmt_mb(thwm)}; {twall:.1f} s")
        table.note(f"{label}, RSS at items {'/'.join(map(str, marks))}",
                   " / ".join(fmt_mb(ts.at(m)) for m in marks),
                   ("mpv " + " / ".join(fmt_mb(peer[1].at(m)) for m in marks)) if peer else "", "info")
        growth_row(table, label, ts, 10, items, SOAK_TARGET_MB, "item", peer if crossfade == 0 else None)


def bench_reconnect_soak(tonearm, work, table, reconnects):
    say(f"B15 reconnect soak: the loopback Icecast mount to a null output; icecast2 SIGKILLed and restarted "
        f"{reconnects} times, each once tonearm plays again; RSS after the reconnects")
    server = R.ice(work)
    server.start(R.TONE_OLD_HZ)
    argv = [tonearm, "play", server.url, "--output", "null", "--events", "jsonl"]
    say(f"  tonearm: {' '.join(argv)}")
    samples = Samples()
    recovered = threading.Event()
    lines = []
    err = open(os.path.join(work, "soak-radio.err"), "wb")
    p = R.track(spawn(argv, stdout=subprocess.PIPE, stderr=err))

    def reader():
        for line in p.stdout:
            lines.append(line)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            # Back after a drop: told as `recovered` whether the reconnect was heard or not.
            if event.get("event") == "notice" and event.get("notice") == "recovered":
                recovered.set()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    t0 = time.perf_counter()
    try:
        deadline = time.monotonic() + 20
        while not any(b'"state":"playing"' in l for l in lines):
            if p.poll() is not None or time.monotonic() > deadline:
                raise BenchError(f"tonearm did not play the mount: {B.tail(os.path.join(work, 'soak-radio.err'))}")
            time.sleep(0.05)
        time.sleep(2)
        for n in range(1, reconnects + 1):
            recovered.clear()
            server.kill()
            server.start_server()
            server.start_source(R.TONE_OLD_HZ)
            if not recovered.wait(60):
                raise BenchError(f"tonearm did not come back after restart {n}: "
                                 f"{b''.join(lines[-5:]).decode(errors='replace')}")
            if p.poll() is not None:
                raise BenchError(f"tonearm exited ({p.returncode}) after restart {n}")
            # A second of the new connection's audio, so its buffers are full as at every sample.
            time.sleep(1.0)
            samples.take(n, p.pid)
        wall = time.perf_counter() - t0
    finally:
        R.finish(p)
        err.close()
        server.kill()
    first = min(3, reconnects)
    say(f"    tonearm after reconnect {first}: {fmt_mb(samples.at(first))}, after {reconnects}: "
        f"{fmt_mb(samples.at(reconnects))}; {wall:.0f} s")
    label = f"B15 Icecast killed and restarted {reconnects} times, null out"
    growth_row(table, label, samples, first, reconnects, RECONNECT_TARGET_MB, "reconnect")


def benchmarks(tonearm, work, table):
    items = B.env_int("SOAK_ITEMS", 200, 20)
    reconnects = B.env_int("SOAK_RECONNECTS", 30, 6)
    return [("B14", "B14 render soak", lambda: bench_render_soak(tonearm, work, table, items)),
            ("B15", "B15 reconnect soak", lambda: bench_reconnect_soak(tonearm, work, table, reconnects))]
