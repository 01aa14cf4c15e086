"""Jobs: one unit of batch work (solve, verify or generate one puzzle), as plain data that
pickles to a worker process or a Dask worker, with a key that names its result.

A job holds the puzzle as the family's canonical text (``FAMILY.format(puzzle, fmt="native")``,
or the first format that can write it, e.g. ``layers`` for a stack), so the key says exactly
what was solved; the puzzle object rides along (``puzzle``, left out of comparisons) so a job
made from a file gives the very record the command line gives, name and stated rules included.

>>> from puzzlesat.numberlink import parse
>>> job = Job.of("numberlink", "solve", parse("A.A"), source="a.nl", options={"allow_empty": True})
>>> job.text, job.fmt, job.options
('A . A', 'native', (('allow_empty', True),))
>>> job.key == Job.of("numberlink", "solve", parse("A.A"), source="b.nl", index=3, options={"allow_empty": True}).key
True
>>> job.key == Job.of("numberlink", "verify", parse("A.A"), options={"allow_empty": True}).key
False
>>> gen = Job.generate("numberlink", (5, 5), seed=7, options={"method": "unionfind"})
>>> gen.verb, gen.seed, gen.size, len(gen.key)
('generate', 7, (5, 5), 64)
>>> Job.call("textwrap:shorten", {"text": "one two", "width": 5}).function
'textwrap:shorten'
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from .. import __version__
from ..errors import CannotExpress, ParseError
from ..registry import Family, detect_family, get_family

VERBS = ("solve", "verify", "generate", "call")  # (call: any named function, e.g. a benchmark's rows)


def sorted_options(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """Options as a sorted tuple of (name, value), lists made tuples (hashable, one order)."""
    return tuple(sorted((name, tuple(value) if isinstance(value, list) else value) for name, value in (options or {}).items()))


@dataclass(frozen=True)
class Job:
    """One puzzle to solve or verify, or one puzzle to generate.

    ``text`` / ``fmt``: the puzzle in the family's canonical text (solve, verify); ``seed`` and
    ``size``: what generate draws; ``source`` and ``index``: where the puzzle came from (or
    where a generated one goes); ``options``: the family's options by name, sorted;
    ``method``: the solving (or generating) method, None for the family's default;
    ``time_limit``: seconds for this job in its worker, None for none; ``answer``: a stated
    answer ``(source, text)`` for verify to check; ``proof``: a folder where the worker writes
    the certificate of the record's claim (``puzzlesat.certify.certify_record``), None for none;
    ``error``: a puzzle that could not be read (the job's record is an error record, nothing runs);
    ``function``: a call job's ``"module:name"``, called with ``options`` as its keyword
    arguments (:meth:`call`)."""

    family: str
    verb: str
    text: str | None = None
    fmt: str = "native"
    seed: int | None = None
    size: tuple[int, ...] | None = None
    source: str = "-"
    index: int | None = 0
    options: tuple[tuple[str, Any], ...] = ()
    method: str | None = None
    time_limit: float | None = None
    answer: tuple[str | None, str] | None = None
    error: str | None = None
    function: str | None = None
    proof: str | None = None
    puzzle: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.verb not in VERBS:
            raise ValueError(f"a job's verb is one of {', '.join(VERBS)}, not {self.verb!r}")
        if (self.verb == "call") != (self.function is not None):
            raise ValueError("a call job, and only a call job, names its function")
        if self.verb == "generate" and self.seed is None:
            raise ValueError("a generate job needs a seed")
        if self.verb in ("solve", "verify") and self.text is None and self.error is None and self.puzzle is None:
            raise ValueError(f"a {self.verb} job needs the puzzle's text (or, run in this process, the puzzle)")

    @classmethod
    def of(cls, family: str | Family, verb: str, puzzle: Any, *, source: str = "-", index: int | None = 0,
           options: Mapping[str, Any] | None = None, method: str | None = None, time_limit: float | None = None,
           answer: tuple[str | None, str] | None = None, proof: str | None = None) -> "Job":
        """The job of solving or verifying ``puzzle`` (an object of the family)."""
        record = get_family(family) if isinstance(family, str) else family
        text, fmt = canonical_text(record, puzzle)
        return cls(record.name, verb, text, fmt, source=source, index=index, options=sorted_options(options),
                   method=method, time_limit=time_limit, answer=answer, proof=proof, puzzle=puzzle)

    @classmethod
    def generate(cls, family: str | Family, size: tuple[int, ...] | None, *, seed: int, source: str = "-",
                 index: int | None = 0, options: Mapping[str, Any] | None = None, method: str | None = None,
                 time_limit: float | None = None) -> "Job":
        """The job of generating one puzzle of ``size`` with ``seed``."""
        name = family if isinstance(family, str) else family.name
        return cls(name, "generate", seed=seed, size=None if size is None else tuple(size), source=source, index=index,
                   options=sorted_options(options), method=method, time_limit=time_limit)

    @classmethod
    def call(cls, function: str, arguments: Mapping[str, Any] | None = None, *, family: str = "", source: str = "-",
             index: int | None = 0, time_limit: float | None = None) -> "Job":
        """The job of calling ``function`` (``"module:name"``, imported where the job runs) with
        ``arguments`` as keyword arguments (plain data that pickles). It gives a row (a dict, say),
        or a list or iterator of them, which the job's record holds as ``rows`` (those given before a
        failure too); its status is "done", or "error". ``time_limit`` is not passed: it says
        when a worker running the job may be stopped (as for any job)."""
        return cls(family, "call", source=source, index=index, options=sorted_options(arguments), time_limit=time_limit,
                   function=function)

    @property
    def key(self) -> str:
        """sha256 (hex) over what decides the record: family, verb, the puzzle's text (or seed
        and size), the stated answer, the options (rules included), the method, the certificate's
        folder and the puzzlesat version. Where the puzzle came from is not part of it."""
        what = {"family": self.family, "verb": self.verb, "text": self.text, "fmt": self.fmt, "seed": self.seed,
                "size": self.size, "answer": None if self.answer is None else self.answer[1], "error": self.error,
                "options": [[name, value] for name, value in self.options], "method": self.method,
                "time_limit": self.time_limit, "version": __version__,
                **({"function": self.function} if self.function is not None else {}),
                **({"proof": self.proof} if self.proof is not None else {})}  # (the keys of other jobs unchanged)
        return hashlib.sha256(json.dumps(what, sort_keys=True, default=repr).encode()).hexdigest()

    def options_dict(self) -> dict[str, Any]:
        """The options as the family's verbs take them (``method`` among them when set)."""
        found = dict(self.options)
        if self.method is not None:
            found["method"] = self.method
        return found


def canonical_text(family: Family, puzzle: Any) -> tuple[str, str]:
    """(text, format): the puzzle in ``native``, else the first format that writes it."""
    names = ["native"] + [name for name in family.writable_formats() if name != "native"]
    for name in names:
        try:
            return family.format(puzzle, fmt=name), name
        except (CannotExpress, ValueError):
            continue
    raise CannotExpress(f"no {family.name} format writes this puzzle")


def jobs_from_text(text: str, *, verb: str, source: str = "-", family: str | Family | None = None, fmt: str | None = None,
                   options: Mapping[str, Any] | None = None, method: str | None = None,
                   time_limit: float | None = None) -> Iterator[Job]:
    """The jobs of every puzzle in one input (a file's text), in order; a puzzle that cannot be
    read (or an input with none) is a job whose record is an error record.

    >>> [(job.index, job.error is None) for job in jobs_from_text("A.A\\n\\nB..B", verb="verify", source="two.nl")]
    [(0, True), (1, True)]
    >>> [(job.index, job.error) for job in jobs_from_text("", verb="verify", source="empty.nl", family="numberlink")]
    [(None, 'empty.nl: empty input: no puzzle found')]
    """
    record = (get_family(family) if isinstance(family, str) else family) or detect_family(text, source)
    settings = {**record.defaults(), **(options or {})}
    try:
        items = record.load(text, source=source, fmt=fmt, options=settings)
        if not items:
            raise ParseError("no puzzle found in the input", source=source)
    except ParseError as error:  # the whole input: its record has no index, as the command line's
        yield Job(record.name, verb, source=source, index=None, options=sorted_options(options), method=method,
                  time_limit=time_limit, error=str(error if error.source else error.with_source(source)))
        return
    for index, item in enumerate(items):
        if isinstance(item, ParseError):
            yield Job(record.name, verb, source=source, index=index, options=sorted_options(options), method=method,
                      time_limit=time_limit, error=str(item))
        else:
            yield Job.of(record, verb, item, source=source, index=index, options=options, method=method, time_limit=time_limit)
