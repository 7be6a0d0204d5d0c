"""Tests of the docs/BENCHMARKS.md writer with made-up results (no benchmark runs).

    python3 -m unittest discover -s scripts/bench -p 'test_*.py'
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench  # noqa: E402  (the Table that collects rows)
import report  # noqa: E402


def run(measured, unmeasured=(), summary="2030-01-02 03:04 UTC, `scripts/bench.sh`"):
    return {
        "summary": summary,
        "measured": measured,
        "unmeasured": unmeasured,
        "settings": "BENCH_RUNS=3",
        "machine": [("`uname -m`", "x86_64"), ("CPU", "Test CPU"), ("cores", "2 (usable 2)")],
        "tools": [("ffmpeg", "ffmpeg version 5.1")],
        "inputs": ["input: three MP3s"],
    }


def table_rows(text):
    return [line for line in text.splitlines() if line.startswith("| B")]


class TableCells(unittest.TestCase):
    def test_rows_become_markdown_cells(self):
        t = bench.Table()
        t.add("B1 render wall", "1.67 s", "ffmpeg", "3.13 s", 1.67 / 3.13, 0.70)
        t.add("B1 render CPU", "2.33 s", "ffmpeg", "3.21 s", 0.73)
        t.add("B2 RSS", "56.4 MB", "mpd", "54.0 MB", 1.04, 0.75)
        t.absolute("B8 errors", "150 ms", 0.150, 0.2, "200 ms")
        t.missed("B5 reconnect", "stayed silent", "1.50 s", "no new audio")
        t.note("B4 server floor", "icecast2 329 ms", "head 300 ms", "info (in both players' times)")
        t.note("B7 reference", "tonearm 400 ms", "ElementTree 50 ms", "ratio 8.00 (info)")
        t.fail("B3 first audio", "pulseaudio did not answer\nmore")
        self.assertEqual(t.cells, [
            ("B1 render wall", "1.67 s", "ffmpeg 3.13 s", "0.53", "≤ 0.70", "met"),
            ("B1 render CPU", "2.33 s", "ffmpeg 3.21 s", "0.73", "–", ""),
            ("B2 RSS", "56.4 MB", "mpd 54.0 MB", "1.04", "≤ 0.75", "missed (1.4x over)"),
            ("B8 errors", "150 ms", "", "–", "≤ 200 ms", "met"),
            ("B5 reconnect", "stayed silent", "", "–", "≤ 1.50 s", "missed (no new audio)"),
            ("B4 server floor", "icecast2 329 ms", "head 300 ms", "", "", "info (in both players' times)"),
            ("B7 reference", "400 ms", "ElementTree 50 ms", "", "", "ratio 8.00 (info)"),
            ("B3 first audio", "could not run", "pulseaudio did not answer", "", "", "could not run"),
        ])
        self.assertEqual(len(t.rows), len(t.cells))
        self.assertEqual(t.measured(), {"B1", "B2", "B4", "B5", "B7", "B8"})
        self.assertEqual(t.failed, ["B3 first audio"])


class ReportRun(unittest.TestCase):
    def test_the_run_says_what_ran_where(self):
        info = {"arch": "aarch64", "cpu": "Test CPU", "cores": 4, "usable": 2, "ram": "8.0 GiB", "kernel": "6.1.0",
                "tools": [("ffmpeg", "ffmpeg version `5.1`")]}
        r = bench.report_run(info, {"B8", "B7"}, "BENCH_RUNS=3", ["input: x"], ["B7", "B8"], {"B7"})
        self.assertRegex(r["summary"], r"^\d{4}-\d\d-\d\d \d\d:\d\d UTC, `scripts/bench.sh --only B7,B8`$")
        self.assertEqual(r["measured"], ["B7"])
        self.assertEqual(r["unmeasured"], ["B8"])
        self.assertEqual(r["machine"][:3], [("`uname -m`", "aarch64"), ("CPU", "Test CPU"), ("cores", "4 (usable 2)")])
        self.assertEqual(r["tools"], [("ffmpeg", "ffmpeg version `5.1`")])
        everything = bench.report_run(info, set(), "", [], ["B1"], {"B1"})
        self.assertTrue(everything["summary"].endswith(", `scripts/bench.sh`"))


class Render(unittest.TestCase):
    FULL = [
        ("B1 render wall", "1.67 s", "ffmpeg 3.13 s", "0.53", "≤ 0.70", "met"),
        ("B2 play | CPU", "0.51 s", "mpd 0.58 s", "0.88", "≤ 1.00", "met"),
        ("B10 later", "1 s", "", "–", "", ""),
        ("B7 import", "317 ms", "", "–", "≤ 1 s", "met"),
    ]

    def test_a_full_run_writes_every_row_in_id_order_and_default_notes(self):
        text = report.render("", self.FULL, run(["B1", "B2", "B7", "B10"]))
        self.assertTrue(text.startswith("# Benchmarks\n"))
        self.assertEqual(table_rows(text), [
            "| B1 render wall | 1.67 s | ffmpeg 3.13 s | 0.53 | ≤ 0.70 | met |",
            "| B2 play \\| CPU | 0.51 s | mpd 0.58 s | 0.88 | ≤ 1.00 | met |",
            "| B7 import | 317 ms |  | – | ≤ 1 s | met |",
            "| B10 later | 1 s |  | – |  |  |",
        ])
        self.assertIn("| benchmark | Tonearm | peer | ratio | target | result |\n|---|---|---|---|---|---|\n", text)
        self.assertIn("- `uname -m`: x86_64\n- CPU: Test CPU\n- cores: 2 (usable 2)\n", text)
        self.assertIn("- ffmpeg: ffmpeg version 5.1\n", text)
        self.assertIn("- Rows written by this run: B1, B2, B7, B10\n- Rows kept from before: none\n", text)
        self.assertTrue(text.endswith(report.DEFAULT_NOTES))

    def test_a_partial_run_keeps_the_other_rows_and_the_notes(self):
        notes = "## Notes\n\nB5 keeps playing the 4 s it had buffered.\n\n| B9 not a row of the table |\n"
        first = report.render("", self.FULL, run(["B1", "B2", "B7", "B10"])).replace(report.DEFAULT_NOTES, notes)
        again = report.render(first, [("B7 import", "290 ms", "", "–", "≤ 1 s", "met"),
                                      ("B3 first audio", "could not run", "no pulse", "", "", "could not run")],
                              run(["B7"], unmeasured=["B3"]))
        table = again[:again.index("## Notes")]
        self.assertEqual(table_rows(table), [
            "| B1 render wall | 1.67 s | ffmpeg 3.13 s | 0.53 | ≤ 0.70 | met |",
            "| B2 play \\| CPU | 0.51 s | mpd 0.58 s | 0.88 | ≤ 1.00 | met |",
            "| B7 import | 290 ms |  | – | ≤ 1 s | met |",
            "| B10 later | 1 s |  | – |  |  |",
        ])
        self.assertIn("- Rows written by this run: B7\n- Rows kept from before: B1, B2, B10\n", again)
        self.assertIn("- Could not run this time (their earlier rows, if any, are kept): B3\n", again)
        self.assertTrue(again.endswith(notes))

    def test_rendering_its_own_output_with_nothing_new_changes_nothing(self):
        first = report.render("", self.FULL, run(["B1", "B2", "B7", "B10"]))
        same_run = run(["B1", "B2", "B7", "B10"])
        self.assertEqual(report.render(first, self.FULL, same_run), first)

    def test_write_replaces_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "docs", "BENCHMARKS.md")
            written = report.write(path, self.FULL, run(["B1", "B2", "B7", "B10"]))
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), written)
            report.write(path, [("B1 render wall", "1.50 s", "ffmpeg 3.00 s", "0.50", "≤ 0.70", "met")], run(["B1"]))
            with open(path, encoding="utf-8") as f:
                rows = table_rows(f.read())
            self.assertEqual(rows[0], "| B1 render wall | 1.50 s | ffmpeg 3.00 s | 0.50 | ≤ 0.70 | met |")
            self.assertEqual(len(rows), 4)
            self.assertEqual(os.listdir(os.path.dirname(path)), ["BENCHMARKS.md"])

    def test_the_committed_report_parses(self):
        path = report.default_path()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        ids = report.existing_rows(text)
        # Every benchmark from B1 to the last has its rows: none lost to a partial run.
        numbers = sorted(int(b[1:]) for b in ids)
        self.assertEqual(numbers, list(range(1, numbers[-1] + 1)))
        self.assertIsNotNone(report.existing_notes(text))
        # A run that measured nothing new reproduces the committed file's table and notes.
        again = report.render(text, [], {"measured": []})
        self.assertEqual(table_rows(again), table_rows(text))
        self.assertTrue(again.endswith(report.existing_notes(text)))


if __name__ == "__main__":
    unittest.main()
