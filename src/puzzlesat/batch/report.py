"""Reports on a results store (``puzzlesat report STORE``): a Markdown and a self-contained HTML
page (status counts per set and family, unique / multiple / minimum statistics, a cactus plot,
seconds against board size, the slowest and the undecided puzzles), and CSV / JSON-lines
exports of every record.

>>> records = [{"family": "numberlink", "source": "set/a.nl", "index": 0, "status": "solved", "unique": True,
...             "size": {"width": 5, "height": 5}, "seconds": 0.02},
...            {"family": "roller", "source": "set/b.roller", "index": 0, "status": "unknown", "optimal": None,
...             "size": {"width": 9, "height": 9}, "seconds": 2.0, "reason": "time limit"}]
>>> report = Report(records)
>>> report.counts()[("set", "numberlink")], report.undecided()[0]["family"]
({'solved': 1}, 'roller')
>>> "| set | numberlink | 1 | 1 |" in report.markdown() and "<svg" in report.html()
True
"""

from __future__ import annotations

import csv
import json
import os
import statistics
from html import escape
from typing import Any, Iterable

from .plots import cactus, scatter
from .store import Store

DECIDED = ("solved", "unsolvable", "generated")
STATUSES = ("solved", "unsolvable", "generated", "unknown", "error", "skipped")
CSV_COLUMNS = ("family", "source", "index", "name", "status", "seconds", "width", "height", "layers", "method", "unique",
               "optimal", "moves_count", "lower_bound", "stated_minimum_match", "solved_by", "reason", "error")


def cells(record: dict[str, Any]) -> int | None:
    size = record.get("size") or {}
    if not size.get("width") or not size.get("height"):
        return None
    return size["width"] * size["height"] * (size.get("layers") or 1)


class Report:
    """What a report says about a set of records (a store's, or any list of records)."""

    def __init__(self, records: Iterable[dict[str, Any]], *, title: str = "puzzlesat results", slowest: int = 10) -> None:
        self.records = list(records)
        self.title = title
        self.slowest_count = slowest
        packs = {r.get("source") for r in self.records if (r.get("index") or 0) > 0}
        self._packs = packs  # sources holding several puzzles: each is a set of its own

    @classmethod
    def of_store(cls, path: str, **kwargs: Any) -> "Report":
        with Store(path) as store:
            return cls(store.records(), title=kwargs.pop("title", f"puzzlesat results: {os.path.basename(path)}"), **kwargs)

    def set_of(self, record: dict[str, Any]) -> str:
        """A record's set: the file when it holds several puzzles, else the folder it is in."""
        source = str(record.get("source") or "-")
        return source if source in self._packs else (os.path.dirname(source) or ".")

    def counts(self) -> dict[tuple[str, str], dict[str, int]]:
        """(set, family) -> status -> records."""
        found: dict[tuple[str, str], dict[str, int]] = {}
        for record in self.records:
            row = found.setdefault((self.set_of(record), str(record.get("family"))), {})
            row[record.get("status")] = row.get(record.get("status"), 0) + 1
        return dict(sorted(found.items()))

    def facts(self) -> dict[str, dict[str, Any]]:
        """Per family: unique / multiple / not told (solved Numberlink), minimum proven or not and
        moves (fewest-moves families), stated minimum matched, seconds (median, max)."""
        found: dict[str, dict[str, Any]] = {}
        for family in sorted({str(r.get("family")) for r in self.records}):
            mine = [r for r in self.records if str(r.get("family")) == family]
            solved = [r for r in mine if r.get("status") in ("solved", "generated")]
            moves = [r["moves_count"] for r in solved if isinstance(r.get("moves_count"), int)]
            times = [float(r["seconds"]) for r in mine if isinstance(r.get("seconds"), (int, float))]
            found[family] = {
                "records": len(mine), "solved": len(solved),
                "unique": sum(r.get("unique") is True for r in solved), "multiple": sum(r.get("unique") is False for r in solved),
                "minimum proven": sum(r.get("optimal") is True for r in solved),
                "minimum not proven": sum(r.get("optimal") is False for r in solved),
                # (the schema's values: equal, better (we need fewer), worse)
                "stated minimum matched": sum(r.get("stated_minimum_match") in ("equal", "better") for r in mine),
                "stated minimum missed": sum(r.get("stated_minimum_match") == "worse" for r in mine),
                "moves (min / median / max)": f"{min(moves)} / {statistics.median(moves):g} / {max(moves)}" if moves else "",
                "seconds (median / max)": f"{statistics.median(times):.3g} / {max(times):.3g}" if times else "",
            }
        return found

    def slowest(self) -> list[dict[str, Any]]:
        timed = [r for r in self.records if isinstance(r.get("seconds"), (int, float))]
        return sorted(timed, key=lambda r: -r["seconds"])[: self.slowest_count]

    def undecided(self) -> list[dict[str, Any]]:
        """Puzzles with no verdict: unknown (out of time) and errors."""
        return [r for r in self.records if r.get("status") not in DECIDED and r.get("status") != "skipped"]

    def cactus_svg(self) -> str:
        by_family: dict[str, list[float]] = {}
        for record in self.records:
            if record.get("status") in DECIDED and isinstance(record.get("seconds"), (int, float)):
                by_family.setdefault(str(record.get("family")), []).append(float(record["seconds"]))
        return cactus(dict(sorted(by_family.items())))

    def size_svg(self) -> str:
        by_family: dict[str, list[tuple[float, float, bool]]] = {}
        for record in self.records:
            size = cells(record)
            if size is not None and isinstance(record.get("seconds"), (int, float)):
                by_family.setdefault(str(record.get("family")), []).append(
                    (size, float(record["seconds"]), record.get("status") in DECIDED))
        return scatter(dict(sorted(by_family.items())))

    # -- the page as tables of text, shared by Markdown and HTML ------------------------------
    def tables(self) -> list[tuple[str, list[str], list[list[str]]]]:
        """(heading, columns, rows) of every table the report shows."""
        counts = self.counts()
        shown = [s for s in STATUSES if any(s in row for row in counts.values())]
        shown += sorted({s for row in counts.values() for s in row if s not in STATUSES}, key=str)
        status_rows = [[group, family, str(sum(row.values()))] + [str(row.get(s, 0)) for s in shown]
                       for (group, family), row in counts.items()]
        facts = self.facts()
        keys = list(next(iter(facts.values())).keys()) if facts else []
        fact_rows = [[family] + [str(values[k]) for k in keys] for family, values in facts.items()]

        def place(r: dict[str, Any]) -> str:
            return f"{r.get('source')}#{r.get('index')}" if r.get("index") not in (None, 0) else str(r.get("source"))

        slow_rows = [[place(r), str(r.get("family")), str(r.get("status")), f"{r['seconds']:.3f}", _size_text(r)]
                     for r in self.slowest()]
        open_rows = [[place(r), str(r.get("family")), str(r.get("status")), str(r.get("error") or r.get("reason") or "")]
                     for r in self.undecided()]
        return [("Status per set and family", ["set", "family", "puzzles"] + shown, status_rows),
                ("Answers per family", ["family"] + keys, fact_rows),
                (f"The {self.slowest_count} slowest puzzles", ["puzzle", "family", "status", "seconds", "size"], slow_rows),
                ("Undecided puzzles (unknown, error)", ["puzzle", "family", "status", "why"], open_rows)]

    def markdown(self, *, images: tuple[str, str] | None = None) -> str:
        """The report in Markdown; ``images``: file names of the cactus and size plots to show."""
        lines = [f"# {self.title}", "", f"{len(self.records)} records.", ""]
        for heading, columns, rows in self.tables():
            lines += [f"## {heading}", ""]
            if not rows:
                lines += ["None.", ""]
                continue
            lines.append("| " + " | ".join(columns) + " |")
            lines.append("|" + "---|" * len(columns))
            lines += ["| " + " | ".join(cell.replace("|", "\\|").replace("\n", " ") for cell in row) + " |" for row in rows]
            lines.append("")
        if images:
            lines += ["## Plots", "", f"![cactus plot]({images[0]})", "", f"![seconds against board size]({images[1]})", ""]
        return "\n".join(lines)

    def html(self) -> str:
        """The report as one HTML page, its plots inline (no file or network needed)."""
        body = [f"<h1>{escape(self.title)}</h1>", f"<p>{len(self.records)} records.</p>"]
        for heading, columns, rows in self.tables():
            body.append(f"<h2>{escape(heading)}</h2>")
            if not rows:
                body.append("<p>None.</p>")
                continue
            head = "".join(f"<th>{escape(c)}</th>" for c in columns)
            cells_html = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{cells_html}</tbody></table>")
        body += ["<h2>Plots</h2>", f"<figure>{self.cactus_svg()}</figure>", f"<figure>{self.size_svg()}</figure>"]
        style = ("body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin-bottom:1em}"
                 "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}th{background:#f3f3f3}")
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{escape(self.title)}</title><style>{style}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n")

    def write(self, stem: str) -> dict[str, str]:
        """Write STEM.md (with STEM-cactus.svg and STEM-size.svg beside it) and STEM.html;
        the paths written, by kind."""
        folder, name = os.path.dirname(stem), os.path.basename(stem)
        if folder:
            os.makedirs(folder, exist_ok=True)
        paths = {"markdown": f"{stem}.md", "html": f"{stem}.html", "cactus": f"{stem}-cactus.svg", "size": f"{stem}-size.svg"}
        for kind, text in (("cactus", self.cactus_svg()), ("size", self.size_svg()), ("html", self.html()),
                           ("markdown", self.markdown(images=(f"{name}-cactus.svg", f"{name}-size.svg")))):
            with open(paths[kind], "w", encoding="utf-8") as out:
                out.write(text)
        return paths


def _size_text(record: dict[str, Any]) -> str:
    size = record.get("size") or {}
    parts = [size.get("width"), size.get("height"), size.get("layers")]
    return "x".join(str(p) for p in parts if p) if size.get("width") else ""


def csv_row(record: dict[str, Any]) -> dict[str, Any]:
    size = record.get("size") or {}
    row = {column: record.get(column) for column in CSV_COLUMNS}
    row.update(width=size.get("width"), height=size.get("height"), layers=size.get("layers"))
    return row


def export_csv(records: Iterable[dict[str, Any]], path: str) -> int:
    """One row a record (the columns of ``CSV_COLUMNS``); the rows written."""
    count = 0
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for record in records:
            writer.writerow(csv_row(record))
            count += 1
    return count


def export_jsonl(records: Iterable[dict[str, Any]], path: str) -> int:
    """Every record whole, one JSON object a line; the lines written."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, sort_keys=True) + "\n")
            count += 1
    return count
