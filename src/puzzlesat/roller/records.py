"""The JSON records of Roller's ``solve``, ``verify`` and ``generate`` (``docs/record.schema.json``).

A record says what was proven: ``status`` ("solved", "unsolvable", "unknown"), the ``answer``
as one string over U D L R and as ``moves`` (one letter each), ``optimal`` (the minimum is
proven), ``lower_bound``, and what the level's file states: ``stated_minimum`` (its par, or
the length of the valid answer it ships), ``stated_minimum_match`` ("equal", "better" = ours
is shorter, "worse" = the stated count is below our proven minimum or bound, or the level is
proven unsolvable; null when nothing proven bears on it) and ``stated_answer`` (the shipped
answer, or the entry of a ``verify --answers`` table, checked by :func:`~.verify.verify`).
Extras: ``start`` ([row, col]) and ``start_rule`` (how a start the file did not store was chosen).

The verbs' ``options`` (a mapping): ``start`` ("bottom-left" / "row-major", the start of
levels whose file stores none; read by :func:`load`) and ``method`` (the solver method of
:func:`solve_record` and :func:`verify_record`; None or absent: the default).

>>> from puzzlesat.roller.formats import parse
>>> level = parse("# par: 4\\n#####\\n#o..#\\n#.#.#\\n#...#\\n#####")
>>> record = solve_record(level, options={}, time_limit=10)
>>> record["status"], record["moves_count"], record["optimal"], record["stated_minimum_match"]
('solved', 4, True, 'equal')
>>> passed(record)
True
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import NotAPuzzle, ParseError, UnverifiedAnswer, require_valid
from ..family import Generated
from ..results import Status, stated_minimum_match
from . import formats
from .answers import is_answer_line, parse_answers
from .model import MOVES, Level
from .sniff import answers_kind, has_grid
from .verify import verify

OBJECTIVE = "fewest-moves"
STATUS = {Status.SOLVED: "solved", Status.UNSATISFIABLE: "unsolvable", Status.UNKNOWN: "unknown"}


# -- loading ------------------------------------------------------------------------------------
def load(text: str, *, source: str, fmt: str | None = None, options: Mapping[str, Any] | None = None) -> list[Level | ParseError]:
    """The levels of one input; in a file of several, a level that cannot be read is its
    ParseError (reported as an error record) and the others are still checked. A TabTale answer
    table (or a solver's log around one) is :class:`~puzzlesat.errors.NotAPuzzle`.

    >>> [level.floor_count for level in load("#####\\n#o..#\\n#####", source="a.roller")]
    [3]
    >>> load("001.xml,0,1,3\\n", source="solution.txt")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.NotAPuzzle: 1: a TabTale answer file (1 answer: level file, seconds, moves with 1=R 2=L 3=U 4=D), not a level; check its answers with 'puzzlesat verify LEVELS --answers solution.txt' or read them with puzzlesat.roller.read_answers
    """
    options = options or {}
    kind = answers_kind(text) if fmt is None else None
    if kind is not None and not has_grid(text):  # answer lines and no level grid
        raise NotAPuzzle(f"{kind}, not a level; check its answers with 'puzzlesat verify LEVELS --answers {source}' "
                         "or read them with puzzlesat.roller.read_answers", line=1)
    if fmt is None and source.lower().endswith(".roller"):
        fmt = "native"
    return formats.parse_each(text, fmt=fmt, start=options.get("start"), source=source)


# -- what the file states -----------------------------------------------------------------------
def stated_facts(level: Level) -> tuple[int | None, list[str] | None]:
    """The move count the level's file states (its par, else the length of its valid shipped
    answer) and the faults of the shipped answer (None when it ships none)."""
    faults = None if level.known_answer is None else [str(v) for v in verify(level, level.known_answer)]
    if level.par is not None:
        return level.par, faults
    if level.known_answer is not None and not faults:
        return len(level.known_answer), faults
    return None, faults


def _stated_answer(level: Level, faults: list[str] | None, answer: str | None, source: str | None) -> dict[str, Any] | None:
    if level.known_answer is None or faults is None:
        return None
    valid = not faults
    return {
        "source": source,
        "valid": valid,
        "violations": faults,
        "same": None if answer is None else answer == level.known_answer,
        "too_long": None if not valid or level.par is None else len(level.known_answer) > level.par,
    }


# -- solve and verify ---------------------------------------------------------------------------
def stopped_short(result: Any) -> str | None:
    """Why a search ended with no proven answer before any time limit, or None: A* stops when it
    holds a million states (its memory cap), and its answer is "unknown" then too."""
    stats = result.stats or {}
    if result.status is Status.UNKNOWN and stats.get("out_of") == "memory":
        return f"A* stopped at its memory cap, {stats.get('states', 0):,} states stored"
    return None


def solve_record(level: Level, *, options: Mapping[str, Any] | None = None, time_limit: Any = None,
                 answer_source: str | None = None) -> dict[str, Any]:
    """The record of ``solve``: ``options["method"]`` picks the method (None: the default).
    ``answer_source``: the file the level's ``known_answer`` came from (``verify --answers``),
    None when the level's own file states it."""
    from .solve import solve

    options = options or {}
    result = solve(level, time_limit=time_limit, method=options.get("method"))
    moves = result.solution if result.status is Status.SOLVED else None
    if moves is not None:
        require_valid(verify(level, moves), f"roller method {result.method!r}")  # (solve checks too: a second line of defence)
    status = STATUS[result.status]
    stated, faults = stated_facts(level)
    lower_bound = result.lower_bound
    if status == "solved" and result.optimal and moves is not None:
        lower_bound = len(moves)
    return {
        "status": status,
        "objective": OBJECTIVE,
        "size": {"width": level.width, "height": level.height},
        "name": level.name,
        "rules": None,
        "method": result.method,
        "answer": moves,
        "moves": None if moves is None else list(moves),
        "moves_count": None if moves is None else len(moves),
        "unique": None,
        "optimal": bool(result.optimal and status == "solved"),
        "lower_bound": lower_bound,
        "solved_by": None,
        "reason": (result.stats or {}).get("reason") if status == "unsolvable" else stopped_short(result),
        "stated_minimum": stated,
        "stated_minimum_match": stated_minimum_match(status, None if moves is None else len(moves), stated, optimal=bool(result.optimal), lower_bound=lower_bound),
        "stated_answer": _stated_answer(level, faults, moves, answer_source),
        "encode_seconds": round(result.timings.encode, 4),
        "solve_seconds": round(result.timings.solve, 4),
        "start": list(level.start),
        "start_rule": level.start_rule,
    }


def stated_moves(text: str, source: str, name: str) -> str | None:
    """The answer a ``verify --answers`` file gives the level named ``name``: its entry in a
    TabTale answer table (None when it has none, or an empty one: the submitter gave up), or
    the whole text when it is one answer over U D L R (spaces and commas between letters allowed;
    an empty text, as an empty entry, is no answer).

    >>> stated_moves("001.xml,0,1,3\\n002.xml,0,4\\n", "answers.txt", "002.xml")
    'D'
    >>> stated_moves("R D L U\\n", "ring.txt", "ring"), stated_moves("", "ring.txt", "ring")
    ('RDLU', None)
    """
    table = answer_table(text, source)
    if table is not None:
        return table.get(name) or None
    letters = "".join(text.replace(",", " ").split()).upper()
    if not letters:
        return None
    if letters.strip(MOVES):
        raise ParseError("neither a TabTale answer table (001.xml,0,1,3) nor one answer over U D L R", source=source)
    return letters


def verify_record(level: Level, *, options: Mapping[str, Any] | None = None, time_limit: Any = None,
                  answer: tuple[str, str] | None = None) -> dict[str, Any]:
    """The record of ``verify``: the same facts as solve (solvable or not, proven minimum, the
    stated minimum's match), and the stated answer checked.

    ``answer`` (``verify --answers FILE``): ``(source, text)`` of a TabTale answer table, whose
    entry for the level (by the level's name, its file name for TMX levels) is checked as the
    level's stated answer (``stated_answer["source"]`` is the file), or of one answer. When the
    solver stopped with no answer, or a longer one, a valid stated answer is the answer
    (``solved_by``: "stated answer"), and it is the proven minimum when it is as short as the
    proven lower bound (as Numberlink's and Swap's ``verify`` use a stated answer)."""
    source = None
    if answer is not None:
        source, text = answer
        moves = stated_moves(text, source, level.name)
        if moves is None:
            source = None  # the table has no answer for this level: the file's own (if any) is checked
        else:
            level = Level(level.rows, level.start, name=level.name, par=level.par, known_answer=moves, start_rule=level.start_rule)
    record = solve_record(level, options=options, time_limit=time_limit, answer_source=source)
    stated = level.known_answer
    if record["stated_answer"] is None or not record["stated_answer"]["valid"] or stated is None:
        return record
    lower = record["lower_bound"]
    if lower is not None and len(stated) < lower:
        raise UnverifiedAnswer(f"the stated answer of {len(stated)} moves is valid, but roller method {record['method']!r} "
                               f"proved at least {lower}: a fault in the solver")
    if record["optimal"] or record["status"] not in ("solved", "unknown"):
        return record
    if record["moves_count"] is not None and record["moves_count"] <= len(stated):
        return record
    optimal = lower is not None and len(stated) <= lower
    lower = len(stated) if optimal else lower
    record.update(status="solved", answer=stated, moves=list(stated), moves_count=len(stated), optimal=optimal,
                  lower_bound=lower, solved_by="stated answer")
    record["stated_answer"]["same"] = True
    record["stated_minimum_match"] = stated_minimum_match("solved", len(stated), record["stated_minimum"], optimal=optimal, lower_bound=lower)
    return record


def answer_table(text: str, source: str) -> dict[str, str] | None:
    """The answers of a TabTale answer file (or a solver's log holding one) for ``verify
    --answers``: level file name -> moves; None when the text is not one. A text with answer
    lines that do not read (a move digit 5, letters for moves) is one: its error names the line.

    >>> answer_table("001.xml,0,1,3\\n", "solution.txt"), answer_table("#####\\n#o..#\\n#####", "a")
    ({'001.xml': 'RU'}, None)
    """
    if has_grid(text) or not any(is_answer_line(line) for line in text.splitlines()):
        return None
    try:
        return parse_answers(text)
    except ParseError as exc:
        raise exc.with_source(source) from None


def passed(record: Mapping[str, Any]) -> bool:
    """A level passes when it is proven unsolvable, or solved with a proven minimum, and every
    claim its file makes holds: a stated minimum (par, or shipped answer) is that minimum, not
    more and not less, and a stated answer replays validly in at most the par's moves."""
    stated = record.get("stated_answer") or {}
    if stated.get("valid") is False or stated.get("too_long"):
        return False
    if record.get("stated_minimum_match") in ("worse", "better"):
        return False
    return record["status"] == "unsolvable" or (record["status"] == "solved" and record["optimal"] is True)


def answer_of(level: Level, record: Mapping[str, Any]) -> str | None:
    """The answer a record holds (a move string over U D L R), or None."""
    return record.get("answer")


def blank_record() -> dict[str, Any]:
    """The keys of a record with nothing known (an error record's family keys)."""
    return {"objective": OBJECTIVE, "size": None, "name": None, "rules": None, "method": None, "answer": None, "moves": None,
            "moves_count": None, "unique": None, "optimal": None, "lower_bound": None, "solved_by": None, "reason": None,
            "stated_minimum": None, "stated_minimum_match": None, "stated_answer": None}


# -- generate -----------------------------------------------------------------------------------
def generated_record(generated: Generated) -> dict[str, Any]:
    """The record ``generate roller --json`` prints for a new level (the CLI adds family,
    source, index).

    >>> from puzzlesat.roller.family import make
    >>> record = generated_record(make((6, 5), seed=1, time_limit=None, options={"moves": (3, 4)}))
    >>> record["status"], record["answer"], record["moves"], record["optimal"], record["size"]
    ('generated', 'DRU', ['D', 'R', 'U'], True, {'width': 6, 'height': 5})
    """
    level, moves = generated.puzzle, generated.answer
    return {
        "status": "generated",
        "objective": OBJECTIVE,
        "error": None,
        "seconds": round(generated.seconds, 4),
        "name": level.name,
        "size": {"width": level.width, "height": level.height},
        "seed": generated.seed,
        "tries": generated.tries,
        "puzzle": formats.format(level),
        "answer": moves,
        "moves": list(moves),
        "moves_count": len(moves),
        "optimal": True,
        "lower_bound": len(moves),
        "unique": None,
        "start": list(level.start),
    }
