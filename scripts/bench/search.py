"""Library search benchmark for scripts/bench/bench.py (imported by it; standard library only).

  B19 search         `tonearm search WORDS --json` over a library of 10,000 episodes (100 podcasts),
                     every one with a transcript of BENCH_SEARCH_CUES lines (default 120, so 1.2
                     million indexed lines), English and Russian words drawn from a Zipf-like
                     vocabulary. The library is created by Tonearm (so its schema and FTS5 triggers
                     are the shipped ones) and filled straight into its SQLite file; the triggers
                     index every row as the store's own writes would. Four searches: a phrase said
                     in one line only, a word said in a third of all lines (and nowhere else), a
                     Russian word said in a tenth, a word in 100 episode titles; wall time launch to exit, median of BENCH_RUNS
                     (at least 5), each checked against what it must find. Beside it, the launch
                     floor (`tonearm search` of a word in no document) and the same FTS5 queries
                     from Python's sqlite3 in process, for reference.
"""
import json
import os
import random
import re
import sqlite3
import statistics
import time

import bench as B
from bench import BenchError, say, fmt_ms

PODCASTS = 100
EPISODES_PER_PODCAST = 100
ENGLISH = ("the and of to a in that is it you was for on are with as his they be at one have this from or had by word but what "
           "some we can out other were all there when up use your how said an each she which do their time if will way about many "
           "then them write would like so these her long make thing see him two has look more day could go come did number sound "
           "no most people my over know water than call first who may down side been now find kernel scheduler garden coffee "
           "river mountain music history science penguin compiler memory network station").split()
RUSSIAN = ("и в не на я быть он с что а по это она этот к но они мы как из у который то за свой что весь год от так о для ты же "
           "все тот мочь вы человек такой его сказать только или ещё бы себя один как уже до время если сам когда другой вот "
           "говорить наш мой знать стать при чтобы дело жизнь кто первый очень два день её новый рука даже во со раз где там "
           "музыка история наука город планировщик память").split()
VOCABULARY = ENGLISH + RUSSIAN
PHRASE = "albatross yodels quietly"  # said once, in one line of one episode


def weights(n):
    return [1.0 / (rank + 1) ** 0.9 for rank in range(n)]


def fill_library(path, cues_per_episode):
    """Podcasts, episodes and transcripts written the way the store writes them."""
    rng = random.Random(19)
    cum = list(weights(len(VOCABULARY)))
    planted = rng.randrange(PODCASTS * EPISODES_PER_PODCAST)
    db = sqlite3.connect(path)
    try:
        db.execute("BEGIN")
        episode_id = 0
        for p in range(PODCASTS):
            db.execute("INSERT INTO podcast (id, title, author, summary, feedURL, addedAt) VALUES (?, ?, ?, ?, ?, ?)",
                       (p + 1, f"Podcast {p} about {rng.choice(ENGLISH)}", "Bench Author", "A podcast made up for the benchmark.",
                        f"https://feeds.example.org/{p}.xml", time.time()))
            for e in range(EPISODES_PER_PODCAST):
                episode_id += 1
                title = " ".join(rng.choices(VOCABULARY, cum, k=5)) + (" lighthouse" if e == 7 else "")
                notes = " ".join(rng.choices(VOCABULARY, cum, k=40))
                db.execute("INSERT INTO episode (id, podcastId, guid, title, summary, feedOrder, transcriptURL, transcriptType) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, 'vtt')",
                           (episode_id, p + 1, f"g{episode_id}", title, notes, e, f"https://cdn.example.org/{episode_id}.vtt"))
                cues = []
                for c in range(cues_per_episode):
                    text = " ".join(rng.choices(VOCABULARY, cum, k=12))
                    # Words said only in transcripts, in many lines: the lines step is what they measure.
                    if rng.random() < 0.33:
                        text += " meanwhile"
                    if rng.random() < 0.1:
                        text += " впрочем"
                    if episode_id - 1 == planted and c == cues_per_episode // 2:
                        text = f"and then the {PHRASE} over the bay"
                    cues.append({"start": c * 5.0, "end": c * 5.0 + 4.5, "text": text})
                db.execute("INSERT INTO transcript (episodeId, url, format, cues, fetchedAt) VALUES (?, ?, 'vtt', ?, ?)",
                           (episode_id, f"https://cdn.example.org/{episode_id}.vtt", json.dumps({"timed": True, "cues": cues}),
                            time.time()))
        db.commit()
        lines = db.execute("SELECT COUNT(*) FROM cueSearch").fetchone()[0]
        db.execute("VACUUM")
    finally:
        db.close()
    return planted + 1, lines


def bench_search(tonearm, work, runs, table):
    from library import run_tonearm
    home = os.path.join(work, "b19")
    log = os.path.join(work, "b19.log")
    cues = B.env_int("BENCH_SEARCH_CUES", 120, 10)
    run_tonearm(tonearm, ["podcast", "list", "--json"], home, log)  # creates and migrates the library
    path = os.path.join(home, "tonearm", "library.sqlite")
    started = time.perf_counter()
    planted, lines = fill_library(path, cues)
    say(f"B19 library: {PODCASTS * EPISODES_PER_PODCAST} episodes, {lines:,} transcript lines indexed in "
        f"{time.perf_counter() - started:.1f} s, {os.path.getsize(path) / 1e6:.0f} MB")

    def check_phrase(hits):
        if not hits or hits[0]["match"] != "transcript" or hits[0]["episodeID"] != planted:
            raise BenchError(f"the phrase was not found first in episode {planted}: {hits[:1]}")

    def check_many(hits):
        if len(hits) != 50 or any(h["match"] != "transcript" for h in hits):
            raise BenchError(f"a word said in a third of all lines gave {len(hits)} hits, expected the limit of 50 lines")

    def check_russian(hits):
        if len(hits) != 50 or not all(h["match"] == "transcript" and "впрочем" in h["text"] for h in hits):
            raise BenchError(f"the Russian word gave {len(hits)} hits, expected the limit of 50, each line with the word")

    def check_title(hits):
        if len(hits) < PODCASTS or any(h["match"] != "episodeTitle" for h in hits[:PODCASTS]):
            raise BenchError(f"the title word did not rank {PODCASTS} episode titles first")

    searches = [("a phrase said once", [PHRASE], check_phrase), ("a common word", ["meanwhile"], check_many),
                ("a Russian word", ["впрочем"], check_russian), ("a title word", ["lighthouse", "--limit", "500"], check_title),
                ("nothing (launch floor)", ["zzzqqq"], lambda hits: None)]
    walls = {name: [] for name, _, _ in searches}
    steps = {name: [] for name, _, _ in searches}
    tonearm_log = os.path.join(work, "b19-tonearm.log")
    for _ in range(runs):
        for name, words, check in searches:
            wall, _, out = run_tonearm(tonearm, ["search"] + words + ["--json", "--log-level", "info", "--log-file", tonearm_log], home, log)
            check(json.loads(out))
            walls[name].append(wall)
            steps[name].append(last_search_ms(tonearm_log) / 1000)
    db = sqlite3.connect(path)
    floors = {}
    for name, words, _ in searches:
        expression = " ".join(f'"{w}"*' for w in words if not w.startswith("--") and not w.isdigit())
        start = time.perf_counter()
        db.execute("SELECT episodeId FROM cueSearch WHERE cueSearch MATCH ? ORDER BY rank LIMIT 50", (expression,)).fetchall()
        floors[name] = time.perf_counter() - start
    db.close()
    for name, _, _ in searches:
        say(f"B19 {name}: search {[round(w * 1000, 1) for w in steps[name]]} ms, launch to exit {[round(w, 3) for w in walls[name]]} s, "
            f"Python's sqlite3 ranking every matching line {floors[name] * 1000:.1f} ms")
    for name, _, _ in searches[:4]:
        step = statistics.median(steps[name])
        table.absolute(f"B19 search {name}, {PODCASTS * EPISODES_PER_PODCAST:,} episodes, {lines:,} transcript lines "
                       f"(Tonearm's own time for the search, median of {runs})", fmt_ms(step), step, 0.1, "100 ms")
    table.note("B19 `tonearm search` launch to exit (median over the four)", f"tonearm {fmt_ms(statistics.median(sum((walls[n] for n, _, _ in searches[:4]), [])))}",
               f"a word in no document {fmt_ms(statistics.median(walls[searches[4][0]]))}", "includes start-up and opening the library")
    table.note("B19 reference: the same FTS5 match from Python's sqlite3, every matching line ranked (median)",
               f"tonearm {fmt_ms(statistics.median(steps[searches[1][0]]))} (common word)",
               f"sqlite3 {fmt_ms(statistics.median(floors.values()))}", f"common word {floors[searches[1][0]] * 1000:.0f} ms")


def last_search_ms(path):
    """The `ms` of the last "search answered" line Tonearm logged."""
    with open(path, encoding="utf-8", errors="replace") as f:
        found = [line for line in f if "search answered" in line]
    if not found:
        raise BenchError(f"no 'search answered' line in {path}")
    match = re.search(r"ms=([0-9.]+)", found[-1])
    if not match:
        raise BenchError(f"no ms= in {found[-1].strip()}")
    return float(match.group(1))


def benchmarks(tonearm, work, table, runs):
    return [("B19", "B19 library search", lambda: bench_search(tonearm, work, max(runs, 5), table))]
