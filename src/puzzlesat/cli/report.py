"""``puzzlesat report STORE``: the report of a results store (``--store`` of solve, verify or
generate) as Markdown and one self-contained HTML page (:mod:`puzzlesat.batch.report`), and its
records as CSV or JSON lines.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..batch import Store, StoreError


def add_report_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("store", metavar="STORE", help="a results store (FILE.sqlite) written with --store")
    p.add_argument("--out", default=None, metavar="STEM",
                   help="write STEM.md (its plots STEM-cactus.svg, STEM-size.svg beside it) and STEM.html "
                        "(default: the store's path without .sqlite)")
    p.add_argument("--csv", default=None, metavar="PATH", help="also write every record as a CSV row")
    p.add_argument("--jsonl", default=None, metavar="PATH", help="also write every record whole, one JSON line each")


def command_report(args: argparse.Namespace) -> int:
    from ..batch.report import Report, export_csv, export_jsonl

    if not os.path.isfile(args.store):  # (opening a missing store would make an empty one)
        print(f"error: no results store {args.store}", file=sys.stderr)
        return 2
    try:
        with Store(args.store) as store:
            records = list(store.records())
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stem = args.out or (args.store[:-len(".sqlite")] if args.store.endswith(".sqlite") else args.store + "-report")
    report = Report(records, title=f"puzzlesat results: {os.path.basename(args.store)}")
    written = report.write(stem)
    print(f"wrote {written['markdown']} and {written['html']} ({len(records)} record(s))")
    if args.csv:
        print(f"wrote {args.csv} ({export_csv(records, args.csv)} row(s))")
    if args.jsonl:
        print(f"wrote {args.jsonl} ({export_jsonl(records, args.jsonl)} line(s))")
    return 0
