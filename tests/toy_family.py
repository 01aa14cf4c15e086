"""A toy fourth family, "parity": every verb of the record in one file of about 200 lines, to show
that a family is a checklist. A row of bits, a move ``i`` flips bits i and i+1 (with ``--wrap``,
the last move flips the last bit and the first); answer: the fewest moves that make every bit 0.
Native text: one row of ``0``/``1`` per line after a ``# parity`` line; ``dots`` writes
``.``/``#``; ``byte`` (hex) holds at most 8 bits, so a longer row cannot be written in it.
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass

from puzzlesat.errors import CannotExpress, ParseError
from puzzlesat.family import Family, Format, Generated, Method, Objective, Option, Violation
from puzzlesat.scene import Rect, Scene


@dataclass(frozen=True)
class Row:
    bits: tuple[int, ...]
    name: str | None = None


def moves_of(row: Row, wrap: bool) -> list[int]:
    return list(range(len(row.bits) if wrap and len(row.bits) > 2 else len(row.bits) - 1))


def apply(bits: tuple[int, ...], move: int) -> tuple[int, ...]:
    flipped = list(bits)
    for i in (move, (move + 1) % len(bits)):
        flipped[i] ^= 1
    return tuple(flipped)


def bfs(row: Row, wrap: bool) -> list[int] | None:
    """Fewest moves to all zeros, by breadth-first search (None: none exists)."""
    seen = {row.bits: []}
    queue = deque([row.bits])
    while queue:
        bits = queue.popleft()
        if not any(bits):
            return seen[bits]
        for move in moves_of(row, wrap):
            after = apply(bits, move)
            if after not in seen:
                seen[after] = seen[bits] + [move]
                queue.append(after)
    return None


def check(row: Row, moves: list[int], wrap: bool) -> list[Violation]:
    bits = row.bits
    for step, move in enumerate(moves, 1):
        if move not in moves_of(row, wrap):
            return [Violation("no-move", f"move {step} ({move}) is not a move of this row", step=step)]
        bits = apply(bits, move)
    return [] if not any(bits) else [Violation("not-zero", f"{sum(bits)} bits are still 1")]


def parse_row(line: str, fmt: str, number: int, source: str | None) -> Row | ParseError:
    text = line.strip()
    if fmt == "dots":
        text = text.replace(".", "0").replace("#", "1")
    elif fmt == "byte":
        text = format(int(text, 16), "08b") if re.fullmatch(r"0x[0-9a-f]{1,2}", text) else "?"
    if not re.fullmatch(r"[01]{2,}", text):
        return ParseError(f"a row of 0 and 1 (two or more) expected, not {text!r}", line=number, source=source)
    return Row(tuple(int(bit) for bit in text), name=None)


def load(text, *, source=None, fmt=None, options=None):
    fmt = fmt or detect_format(text) or "native"
    return [parse_row(line, fmt, number, source) for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.startswith("# ")]


def detect_format(text):
    rows = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("# ")]
    for name, pattern in (("native", r"[01]+"), ("dots", r"[.#]+"), ("byte", r"0x[0-9a-f]+")):
        if rows and all(re.fullmatch(pattern, row) for row in rows):
            return name
    return None


def format_row(row, *, fmt="native"):
    bits = "".join(map(str, row.bits))
    if fmt == "byte":
        if len(bits) > 8:
            raise CannotExpress(f"byte holds 8 bits; this row has {len(bits)}, so {len(bits) - 8} would be lost")
        return hex(int(bits, 2)) + "\n"
    return ("# parity\n" + bits if fmt == "native" else bits.replace("0", ".").replace("1", "#")) + "\n"


def solve_record(row, *, options, time_limit=None):
    wrap = bool(options.get("wrap"))
    method = options.get("method") or "bfs"
    moves = bfs(row, wrap) if method == "bfs" else None
    if method == "sweep":  # the baseline: flip left to right while a 1 is left
        moves, bits = [], row.bits
        for i in range(len(bits) - 1):
            if bits[i]:
                moves.append(i)
                bits = apply(bits, i)
        moves = moves if not any(bits) else None
    if moves is not None and check(row, moves, wrap):
        raise AssertionError("the toy's solver broke its own rules")
    status = "solved" if moves is not None else ("unsolvable" if method == "bfs" else "unknown")
    return {"status": status, "objective": "fewest-moves", "size": {"width": len(row.bits), "height": 1},
            "name": row.name, "rules": "wrap" if wrap else None, "method": method,
            "answer": None if moves is None else " ".join(map(str, moves)),
            "moves": None if moves is None else [str(m) for m in moves], "moves_count": None if moves is None else len(moves),
            "unique": None, "optimal": status == "solved" and method == "bfs", "lower_bound": len(moves) if moves is not None and method == "bfs" else None,
            "solved_by": None, "reason": "an odd number of 1 bits and no wrap" if status == "unsolvable" else None,
            "stated_minimum": None, "stated_minimum_match": None, "stated_answer": None,
            "encode_seconds": 0.0, "solve_seconds": 0.0}


def verify_record(row, *, options, time_limit=None, answer=None):
    record = solve_record(row, options=options, time_limit=time_limit)
    if answer is not None:
        source, text = answer
        try:
            moves = [int(move) for move in text.split()]
        except ValueError:
            problems = [Violation("bad-text", f"not a list of moves: {text!r}")]
        else:
            problems = check(row, moves, bool(options.get("wrap")))
        record["stated_answer"] = {"source": source, "valid": not problems, "violations": [str(p) for p in problems],
                                   "same": text.split() == record["moves"], "too_long": None}
    return record


def passed(record):
    stated = record.get("stated_answer") or {"valid": True}
    return stated["valid"] and (record["status"] == "unsolvable" or (record["status"] == "solved" and record["optimal"]))


def show(row, record, *, verb, colour, where=None):
    where = where or record["source"]
    if record["status"] != "solved":
        text = f"{record['status']}" + (f": {record['reason']}" if record.get("reason") else "")
    else:
        text = f"solved in {record['moves_count']} moves" + (", proven minimum" if record["optimal"] else "")
    if record.get("stated_answer") is not None:
        text += "; stated answer " + ("valid" if record["stated_answer"]["valid"] else "INVALID")
    text = f"{where} ({len(row.bits)}x1): {text}, {record['seconds']:.3f}s"
    if verb == "verify":
        return text
    bits = "".join(map(str, row.bits))
    return text + "\n" + (bits.replace("1", "\x1b[31m1\x1b[0m") if colour else bits)


def render(row, answer=None, *, title=""):
    scene = Scene(20 * len(row.bits), 40 if answer is not None else 20, title=title)
    for i, bit in enumerate(row.bits):
        scene.add(Rect(20 * i, 0, 20, 20, fill="#222222" if bit else "#eeeeee", cls="cell"))
    for move in answer or ():
        scene.add(Rect(20 * move + 5, 25, 30, 10, fill="#cc3333", cls="move"))
    return scene


def make(size, *, seed, time_limit=None, options=None, on_try=None):
    rng = random.Random(seed)
    width = size[0] if size else 6
    wanted = (options or {}).get("ones")
    for tries in range(1, 1001):
        bits = tuple(rng.randint(0, 1) for _ in range(width))
        if sum(bits) % 2 == 0 and any(bits) and (wanted is None or sum(bits) == wanted):
            moves = bfs(Row(bits), False)
            return Generated(Row(bits), tuple(moves), seed, tries, facts={"moves_count": len(moves), "optimal": True})
        if on_try is not None:
            on_try(tries)
    raise ValueError(f"no row of {width} bits with {wanted} ones drawn in 1000 tries")


def generated_record(made):
    moves = [str(m) for m in made.answer]
    return {"status": "generated", "objective": "fewest-moves", "seed": made.seed, "tries": made.tries,
            "puzzle": format_row(made.puzzle), "answer": " ".join(moves), "moves": moves, "moves_count": len(moves),
            "size": {"width": len(made.puzzle.bits), "height": 1}, "unique": None, "optimal": True}


def ones(text):
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a number of 1 bits")
    return int(text)


FAMILY = Family(
    name="parity", summary="a row of bits to clear, two neighbours flipped per move", extensions=(".parity",),
    objective=Objective.FEWEST_MOVES,
    formats=(Format("native", "rows of 0 and 1"), Format("dots", "rows of . and #"),
             Format("byte", "a hex byte per row (8 bits at most)", aliases=("hex",))),
    methods=(Method("bfs", "exact", "breadth-first search"), Method("sweep", "baseline", "flip left to right")),
    options=(Option("wrap", "--wrap", "the last move flips the last bit and the first"),),
    generate_options=(Option("ones", "--ones", "1 bits in each row", kind="value", default=None, convert=ones, metavar="N"),),
    sniff=lambda text: text.lstrip().startswith("# parity"), load=load, format=format_row, detect_format=detect_format,
    solve_record=solve_record, verify_record=verify_record, passed=passed,
    answer_of=lambda row, record: None if record.get("moves") is None else [int(m) for m in record["moves"]],
    show=show, render=render, size_text=lambda row: f"{len(row.bits)}x1", make=make,
    pack_entry=lambda made: format_row(made.puzzle), generated_record=generated_record,
    capabilities=frozenset({"answer-files"}), sniff_order=-1,
    generate_example="example: puzzlesat generate parity --size 6x1 --count 3 --seed 1",
)
