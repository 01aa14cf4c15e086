"""The family contract: one record each puzzle family fills in, and the shared types its verbs
return. Generic code (the command line, the pack writer, the benchmarks, the generic tests)
reaches a family only through its :class:`Family` record, found in :mod:`puzzlesat.registry`.

A family package ``puzzlesat.<name>`` exports ``FAMILY`` (from its ``family.py``); see
``docs/architecture.md`` for the checklist of adding one.

>>> option = Option("allow_empty", "--allow-empty", "cells may stay empty")
>>> option.name, option.kind, option.default
('allow_empty', 'flag', False)
>>> Violation("uncovered", "cell (0, 1) is empty", cells=((0, 1),))
Violation(code='uncovered', message='cell (0, 1) is empty', step=None, label=None, cells=((0, 1),))
>>> str(Violation("no-move", "move 2 (L) cannot leave (3, 1)", step=2))
'no-move: move 2 (L) cannot leave (3, 1)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping

Cell = tuple[int, ...]  # (row, col), or (layer, row, col) on a stack of layers


class Objective(str, Enum):
    """What a family proves about its answers."""

    UNIQUE = "unique"  # find the answer and prove there is no other (Numberlink)
    FEWEST_MOVES = "fewest-moves"  # find a shortest answer and prove nothing shorter exists (Roller, Swap)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Violation:
    """One rule an answer breaks: a stable ``code`` (the family's ``CODES``), a sentence, and
    where: the move's number (from 1) for a sequence of moves, the path's label, the cells."""

    code: str
    message: str
    step: int | None = None
    label: str | None = None
    cells: tuple[Cell, ...] = ()

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(frozen=True)
class Format:
    """A text format a family reads: its name (``--format NAME``), other names it answers to,
    a line on what it is, and whether the family writes it too (``format(puzzle, fmt=name)``;
    a puzzle the format cannot hold is a :class:`~puzzlesat.errors.CannotExpress`)."""

    name: str
    summary: str
    aliases: tuple[str, ...] = ()
    writes: bool = True


@dataclass(frozen=True)
class Method:
    """A way to solve: ``exact`` methods prove their verdicts (unique, minimum, unsolvable);
    ``baseline`` methods are the classic algorithms kept for comparison (their verdicts are
    what that algorithm can say: a move count not proven minimal, a capped search)."""

    name: str
    kind: str  # "exact" or "baseline"
    summary: str


@dataclass(frozen=True)
class Option:
    """A setting the family's verbs take as a keyword (``name``), offered on the command line
    as ``flag``. ``kind``: "flag" (on or off), "choice" (one of ``choices``) or "value" (text
    read by ``convert``, which raises ValueError saying what is wrong)."""

    name: str
    flag: str
    help: str
    kind: str = "flag"
    default: Any = False
    choices: tuple[str, ...] = ()
    convert: Callable[[str], Any] | None = None
    metavar: str | None = None


@dataclass(frozen=True)
class Generated:
    """One certified puzzle a generator made: the puzzle, its checked answer, the seed that
    draws it again, how many boards were tried, and facts for the pack's line (e.g.
    ``{"unique": True}``, ``{"moves": 12, "optimal": True}``)."""

    puzzle: Any
    answer: Any
    seed: int
    tries: int
    facts: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class PackFolder:
    """How a family whose puzzles go one per file (as contest sets hold them) lays out a pack:
    a folder holding ``pack.txt`` (the run's first line, then one line per puzzle naming its
    puzzle file) and each puzzle's files, written whole before its line.

    - ``applies(size) -> bool``: whether a pack of this ``size`` is a folder (else one file);
    - ``names(index) -> (relative path, ...)``: the files of puzzle ``index``, its puzzle first;
    - ``files(generated, index, *, options, first_line) -> (text, ...)``: their texts, in the
      order of ``names`` (``first_line``: the pack's, which a puzzle file may repeat);
    - ``check(texts, *, options, sources) -> None``: the files of one puzzle (their texts and
      paths, in the order of ``names``) read back, its answer checked; raises ValueError (a
      ParseError is one) saying what is wrong;
    - ``summary(folder, *, options) -> str`` (optional): a closing line for the run's summary,
      e.g. how to check the folder.

    The puzzle file's text tells a puzzle from the others (a repeat is drawn again).
    """

    applies: Callable[..., bool]
    names: Callable[[int], tuple[str, ...]]
    files: Callable[..., tuple[str, ...]]
    check: Callable[..., None]
    summary: Callable[..., str] | None = None


@dataclass(frozen=True)
class Family:
    """Everything generic code needs of a puzzle family (in the spirit of Simon Tatham's
    ``struct game``): what it is, what it reads and writes, how it solves, and its verbs.

    Capabilities the command line reads: "url" (a source that ``detect_format`` finds in a
    format named or aliased "url" is a puzzle URL, read as it stands, not a file to open),
    "answer-files" (``verify --answers`` pairs answer files, one per puzzle file, by name),
    "explain" (``--explain`` on solve and verify gives the verbs ``options["explain"]``; the
    records then hold ``steps``, ``[name, outcome, seconds]`` each, which ``show`` prints) and
    "read-deadline" (``load`` takes ``deadline=``, a :class:`~puzzlesat.timing.Deadline` that
    each puzzle's reading ends by, else that puzzle is its
    :class:`~puzzlesat.errors.TimeLimitReached`: for a family whose largest puzzles take
    seconds to read; the command line gives it ``--time-limit``).

    The verbs take the puzzle object of the family and the family's options as keywords
    (``options`` below is a mapping from :attr:`Option.name` to a value):

    - ``sniff(text) -> bool``: whether a text with no telling file ending is, without doubt,
      this family's (what one of its readers reads, or a file it knows to refuse clearly);
    - ``refusal(text) -> str | None`` (optional): why ``sniff`` refuses a text, a phrase for the
      error that no family reads it;
    - ``load(text, *, source, fmt, options) -> [puzzle or ParseError]``: the puzzles of one input;
    - ``format(puzzle, *, fmt) -> str`` and ``detect_format(text) -> str | None``;
    - ``solve_record(puzzle, *, options, time_limit) -> dict``: the JSON record of ``solve``
      (``docs/record.schema.json``), the answer checked by the family's independent checker;
    - ``verify_record(puzzle, *, options, time_limit, answer=None) -> dict``: the record of
      ``verify``; ``answer`` is a stated answer ``(source, text)`` to check as well; besides the
      family's options, ``options`` holds ``answers`` (the ``--answers`` path, or None: answers
      were asked for and none pairs with this puzzle) and, for a unique-answer family,
      ``allow_multiple`` (a solved puzzle passes whether or not its answer is unique);
    - ``passed(record) -> bool``: whether ``verify`` counts the record as passed;
    - ``answer_of(puzzle, record)``: the answer object a record holds, or None;
    - ``show(puzzle, record, *, verb, colour, where=None) -> str``: the record for a person to
      read, its first line starting ``where (size): `` (``where``: the puzzle's place as the
      command line names it, ``file#index``; None: the record's source and index);
    - ``render(puzzle, answer=None, *, title="") -> Scene``;
    - ``size_text(puzzle) -> str``: "5x5", "8x8x2";
    - ``make(size, *, seed, time_limit, options, on_try=None) -> Generated``: one generated
      puzzle (``size`` a tuple of ints as ``--size`` gives it, None for the family's default);
      ``on_try`` is called after each draw with what the draws gave so far (see ``draw_note``);
    - ``pack_entry(generated) -> str``: a generated puzzle as a pack holds it (native text that
      ``load`` reads back, with what it states about its answer); the same puzzle gives the same
      text (no pack index or run seed in it), which is how a pack sees a repeat;
    - ``generated_record(generated) -> dict``;
    - ``answer_table(text, source) -> {puzzle name: answer text} | None`` (optional): a file of
      answers to many puzzles by name (Roller's TabTale answer files), for ``verify --answers``;
    - ``export_cnf(puzzle, *, options, moves=None, exclude=None) -> pysat.formula.CNF``
      (optional): the puzzle as one complete DIMACS formula with a comment line per variable
      (``moves``: the bound K of a fewest-moves family; ``exclude``: an answer to block);
    - ``export_formula(family, puzzle, *, options, moves, exclude_answer, time_limit) -> CNF``
      (optional): the formula ``puzzlesat export`` writes (``family``: this record, so that the
      family's code reaches its own verbs): a unique-answer family's rules, with
      ``exclude_answer`` its first answer blocked; a fewest-moves family's "at most ``moves``
      moves" (None: its proven minimum); ValueError saying why it cannot be written;
    - ``certify_claim(family, puzzle, claim, *, options, time_limit, directory) -> dict``
      (optional): prove ``claim`` (None: whichever holds) and write a certificate into
      ``directory`` (``puzzlesat.certify``); the record holds ``claim``, ``certificate`` (the
      directory, or None with ``reason``) and the claim's facts;
    - ``check_claim(family, puzzle, manifest) -> (formula or None, said)`` (optional): for the
      independent checker (``puzzlesat.proofcheck``), the formula a certificate's claim says is
      unsatisfiable, re-derived with ``export_cnf`` after the stated answer is checked with the
      family's checker (None when nothing rests on unsatisfiability), and a phrase saying what
      was checked; ValueError saying why the manifest does not back its claim;
    - ``pack_folder`` (optional, a :class:`PackFolder`): packs of some sizes are folders of one
      file per puzzle (multi-layer Numberlink) instead of one file of ``pack_entry`` texts;
    - ``draw_note(*on_try_arguments) -> str`` (optional): what the draws of the puzzle being made
      gave so far ("12 tries, minima 7-12"), for the progress line and the line Ctrl-C prints.
    """

    name: str
    summary: str
    extensions: tuple[str, ...]
    objective: Objective
    formats: tuple[Format, ...]
    methods: tuple[Method, ...]
    options: tuple[Option, ...]  # rules and settings of solve / verify / render
    generate_options: tuple[Option, ...]
    sniff: Callable[..., bool]
    load: Callable[..., list]
    format: Callable[..., str]
    detect_format: Callable[..., str | None]
    solve_record: Callable[..., dict]
    verify_record: Callable[..., dict]
    passed: Callable[..., bool]
    answer_of: Callable[..., Any]
    show: Callable[..., str]
    render: Callable[..., Any]
    size_text: Callable[..., str]
    make: Callable[..., Generated]
    pack_entry: Callable[..., str]
    generated_record: Callable[..., dict]
    answer_table: Callable[..., Any] | None = None
    refusal: Callable[[str], str | None] | None = None
    export_cnf: Callable[..., Any] | None = None
    export_formula: Callable[..., Any] | None = None
    certify_claim: Callable[..., dict] | None = None
    check_claim: Callable[..., Any] | None = None
    pack_folder: PackFolder | None = None  # puzzles one per file in a folder (see PackFolder), for the sizes it applies to
    draw_note: Callable[..., str] | None = None  # what make's draws gave so far, from on_try's arguments
    capabilities: frozenset[str] = frozenset()  # e.g. "count", "answer-table", "layers", "stated-answers"
    sniff_order: int = 0  # families are asked in this order; the one that reads most formats goes last
    generate_example: str = ""

    @property
    def exact_methods(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.methods if m.kind == "exact")

    @property
    def baselines(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.methods if m.kind == "baseline")

    def format_names(self) -> tuple[str, ...]:
        """Every name ``--format`` takes for this family (aliases included), lower case."""
        return tuple(name for f in self.formats for name in (f.name, *f.aliases))

    def writable_formats(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.formats if f.writes)

    def defaults(self) -> dict[str, Any]:
        """The family's options at their defaults (what a run without flags uses)."""
        return {option.name: option.default for option in self.options}

    def __repr__(self) -> str:
        return f"<Family {self.name}: {len(self.formats)} formats, methods {', '.join(m.name for m in self.methods)}>"
