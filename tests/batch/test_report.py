"""Reports on a store: Markdown and HTML with the plots, CSV and JSON-lines exports."""

from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

from puzzlesat.batch import Store
from puzzlesat.batch.jobs import Job
from puzzlesat.batch.report import Report, export_csv, export_jsonl

from .helpers import example_jobs, local_records

VOID = {"meta", "br", "img", "hr", "input", "link"}


class _Nesting(HTMLParser):
    """Fails on a closing tag that does not close the last open one."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.seen: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.seen.append(tag)
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.seen.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()


def store_of_examples(path) -> Store:
    store = Store(path)
    for job, record in zip(example_jobs(), local_records()):
        store.put(job, record)
    late = dict(local_records()[0], source="late.txt", status="unknown", reason="time limit", seconds=3.5)
    store.put(Job.generate("numberlink", (9, 9), seed=1, source="late.txt"), late)
    return store


def test_markdown_and_html_reports_with_their_plots(tmp_path) -> None:
    with store_of_examples(tmp_path / "r.sqlite") as store:
        count = len(store)
    paths = Report.of_store(str(tmp_path / "r.sqlite")).write(str(tmp_path / "out" / "report"))
    html = open(paths["html"]).read()
    parser = _Nesting()
    parser.feed(html)
    parser.close()
    assert parser.open == [] and parser.seen.count("svg") == 2 and parser.seen.count("polyline") == 3  # a line per family
    for svg in re.findall(r"<svg.*?</svg>", html, flags=re.S):
        ElementTree.fromstring(svg)  # each plot is well-formed SVG
    assert parser.seen.count("circle") == count  # a dot per puzzle with a size
    markdown = open(paths["markdown"]).read()
    assert f"{count} records." in markdown and "![cactus plot](report-cactus.svg)" in markdown
    # a folder of one-puzzle files is a set, and so is a file of several puzzles
    assert "| examples/roller | roller | 4 | 3 | 1 | 0 |" in markdown  # (hard.roller is not in the example jobs)
    assert "| examples/roller/ring-and-snake.roller | roller | 2 | 2 | 0 | 0 |" in markdown
    assert "| late.txt | numberlink | unknown | time limit |" in markdown
    ElementTree.parse(paths["cactus"]), ElementTree.parse(paths["size"])


def test_csv_and_json_lines_hold_every_record(tmp_path) -> None:
    with store_of_examples(tmp_path / "r.sqlite") as store:
        records = list(store.records())
    assert export_csv(records, tmp_path / "r.csv") == len(records) == export_jsonl(records, tmp_path / "r.jsonl")
    rows = list(csv.DictReader(open(tmp_path / "r.csv")))
    assert [(r["source"], r["status"]) for r in rows] == [(r["source"], r["status"]) for r in records]
    assert {r["width"] for r in rows if r["family"] == "numberlink"} >= {"5", "14"}
    assert [json.loads(line) for line in open(tmp_path / "r.jsonl")] == records


def test_facts_count_unique_and_minimum_answers() -> None:
    facts = Report(local_records()).facts()
    numberlink = [r for r in local_records() if r["family"] == "numberlink"]
    assert facts["numberlink"]["unique"] == sum(r["unique"] is True for r in numberlink) == len(numberlink)
    swap = [r for r in local_records() if r["family"] == "swap"]
    assert facts["swap"]["minimum proven"] == sum(r["optimal"] is True for r in swap) > 0
