"""The results store: one SQLite file (WAL mode) holding one committed row per finished job,
keyed by :attr:`Job.key <puzzlesat.batch.jobs.Job.key>`. Opening an existing store resumes
it; readers (a report) may open it while a batch writes. Each row is its own transaction, so a
process killed at any moment loses at most the jobs still running, and SQLite's journal keeps
the file whole (``synchronous=NORMAL``: a power cut may lose the last rows, never the file).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "results.sqlite")
>>> from puzzlesat.batch.jobs import Job
>>> job = Job.generate("numberlink", (4, 4), seed=1, source="pack.txt", index=0)
>>> with Store(path) as store:
...     store.put(job, {"family": "numberlink", "status": "generated", "seconds": 0.25})
...     store.put(job, {"family": "numberlink", "status": "generated", "seconds": 9.0})  # a key is stored once
...     len(store), store.get(job.key)["seconds"], job.key in store.keys()
True
False
(1, 0.25, True)
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, Iterable, Iterator

from .. import __version__
from .jobs import Job

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    family TEXT, verb TEXT, source TEXT, idx INTEGER, status TEXT,
    record TEXT NOT NULL, seconds REAL, version TEXT, finished REAL
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT);
"""
FORMAT = "1"  # the layout above; a store of another layout is refused, not misread
# the rows a resume runs again: errors, and puzzles stopped by a memory limit (not part of the
# job's key: a run with a larger limit may finish them)
AGAIN = "({t}status IS 'error' OR json_extract({t}record, '$.reason') IS 'memory limit')"  # ({t}: a table prefix)


class StoreError(Exception):
    """A file that is not a results store (or one of a layout this version does not read)."""


class Store:
    """A results store at ``path`` (created when absent)."""

    def __init__(self, path: str, *, timeout: float = 30.0) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            found = self._db.execute("SELECT value FROM meta WHERE name='format'").fetchone()
            if found is None:
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
            elif found[0] != FORMAT:
                raise StoreError(f"{self.path}: a results store of layout {found[0]}; this puzzlesat reads layout {FORMAT}")
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not a results store ({error})") from None

    def put(self, job: Job, record: dict[str, Any]) -> bool:
        """Store the record of a finished job (committed at once); False when its key is
        already there (the first record stays, unless it is an error or a puzzle stopped by its
        memory limit: a new record replaces an error, which may have been a worker killed or a
        run cut short, and a record made under another memory limit)."""
        cursor = self._db.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
            "family=excluded.family, verb=excluded.verb, source=excluded.source, idx=excluded.idx, status=excluded.status, "
            "record=excluded.record, seconds=excluded.seconds, version=excluded.version, finished=excluded.finished "
            "WHERE " + AGAIN.format(t="results."),
            (job.key, job.family, job.verb, job.source, job.index, record.get("status"),
             json.dumps(record), record.get("seconds"), __version__, time.time()))  # (key order kept: a resumed record prints as it first did)
        return cursor.rowcount == 1

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT record FROM results WHERE key=?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def keys(self, *, errors: bool = True) -> set[str]:
        """Every finished job's key (one query: what a resume checks against); ``errors=False``
        leaves out the jobs whose record is an error or "unknown" by its memory limit (a resume
        runs those again)."""
        query = "SELECT key FROM results" + ("" if errors else " WHERE NOT " + AGAIN.format(t=""))
        return {key for (key,) in self._db.execute(query)}

    def get_many(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The stored records of those keys that are stored."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, text in self._db.execute(f"SELECT key, record FROM results WHERE key IN ({marks})", chunk):
                found[key] = json.loads(text)
        return found

    def records(self) -> Iterator[dict[str, Any]]:
        """Every stored record, in the order they finished."""
        for (text,) in self._db.execute("SELECT record FROM results ORDER BY finished, rowid"):
            yield json.loads(text)

    def rows(self) -> Iterator[dict[str, Any]]:
        """Every row's columns (key, family, verb, source, index, status, seconds, version, finished)."""
        query = "SELECT key, family, verb, source, idx, status, seconds, version, finished FROM results ORDER BY finished, rowid"
        names = ("key", "family", "verb", "source", "index", "status", "seconds", "version", "finished")
        for row in self._db.execute(query):
            yield dict(zip(names, row))

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(store: "Store | str | None") -> tuple["Store | None", bool]:
    """(the store, whether the caller opened it and must close it) for a Store, a path or None."""
    if store is None or isinstance(store, Store):
        return store, False
    return Store(store), True
