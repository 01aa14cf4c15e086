"""Reading honours the time limit (#45): a reader given a deadline stops a puzzle whose reading
outlasts it (TimeLimitReached, naming the line), each puzzle of a file gets the limit afresh,
the API reads without one by default, and the command line records such a puzzle as "unknown"
for the time limit instead of reading on for half a minute."""

from __future__ import annotations

import json
import time

import pytest

from puzzlesat import cli
from puzzlesat.errors import READING_TIME_LIMIT, ParseError, TimeLimitReached
from puzzlesat.numberlink import formats, multilayer
from puzzlesat.numberlink.model import Puzzle
from puzzlesat.numberlink.records import load
from puzzlesat.timing import Deadline

from .schema import assert_valid

LINES = 1100  # lines of two endpoints: past the first look at the clock (textio.CHECK_EVERY endpoints)


def _adc(lines: int = LINES) -> str:
    return f"SIZE 2X{lines}\n" + "".join(f"LINE#{k + 1} (0,{k})-(1,{k})\n" for k in range(lines))


def _dailyprogrammer(lines: int = LINES) -> str:
    return f"{lines} 2 {lines}\n" + "".join(f"({0}, {k}) ({1}, {k})\n" for k in range(lines))


def _grid(lines: int = LINES) -> str:
    return f"2 {lines}\n" + "".join(f"L{k} L{k}\n" for k in range(lines))


def _layered_adc(lines: int = LINES) -> str:
    return f"SIZE 2X{lines}X2\nLINE_NUM {lines}\n" + "".join(f"LINE#{k + 1} (0,{k},1)-(1,{k},2)\n" for k in range(lines))


def _passed() -> Deadline:
    """A deadline of 5 s that passed 10 s ago: the same limit counted afresh has time left."""
    return Deadline(5.0, started=time.perf_counter() - 10.0)


@pytest.mark.parametrize("text, fmt", [(_adc(), "adc"), (_dailyprogrammer(), "dailyprogrammer"), (_grid(), "native"),
                                       (_grid().replace(" ", ","), None)], ids=["adc", "dailyprogrammer", "native", "refused"])
def test_a_one_layer_reader_stops_at_a_passed_deadline_and_reads_without_one(text, fmt) -> None:
    if fmt is None:  # (a text that is no puzzle stays its own error, deadline or not)
        with pytest.raises(ParseError) as caught:
            formats.parse_all(text, deadline=_passed())
        assert not isinstance(caught.value, TimeLimitReached)
        return
    with pytest.raises(TimeLimitReached) as caught:
        formats.parse_all(text, fmt=fmt, source="big.txt", deadline=_passed())
    assert caught.value.line and caught.value.source == "big.txt" and "time limit" in str(caught.value)
    [puzzle] = formats.parse_all(text, fmt=fmt)  # (the API's default: no deadline)
    assert len(puzzle.pairs) == LINES


@pytest.mark.parametrize("text", [_layered_adc(), "layer 1\n" + _grid().split("\n", 1)[1] + "\nlayer 2\n" + ". .\n" * LINES],
                         ids=["adc", "layers"])
def test_the_layered_reader_stops_at_a_passed_deadline(text) -> None:
    with pytest.raises(TimeLimitReached):
        multilayer.parse(text, deadline=_passed())
    assert len(multilayer.parse(text, deadline=Deadline(60.0)).pairs) == LINES


def test_each_puzzle_of_a_file_gets_the_limit_afresh() -> None:
    """The first puzzle (with the work on the whole text) is read by the deadline given; each
    later one by the same limit counted from its start."""
    text = _grid() + "\n" + _grid()
    items = formats.parse_each(text, source="two.txt", deadline=_passed())
    assert isinstance(items[0], TimeLimitReached) and isinstance(items[1], Puzzle)
    assert [type(item) for item in load(text, source="two.txt", fmt=None, options={}, deadline=_passed())] == \
        [TimeLimitReached, Puzzle]


def test_a_small_puzzle_is_read_whatever_the_clock_says() -> None:
    assert formats.parse("A.A", deadline=Deadline(0.0)).labels == ("A",)


def test_the_command_line_records_a_puzzle_not_read_in_time_as_unknown(tmp_path, capsys) -> None:
    path = tmp_path / "Q_big.txt"
    path.write_text(_adc())
    assert cli.main(["solve", str(path), "--time-limit", "0", "--json"]) == 1  # (0: the limit has passed at the first look)
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["reason"], record["error"], record["family"]) == ("unknown", READING_TIME_LIMIT, None, "numberlink")
    assert_valid(record)
    assert cli.main(["verify", str(path), "--time-limit", "0"]) == 1
    out = capsys.readouterr().out
    assert f"{path}: unknown ({READING_TIME_LIMIT})" in out and "1 unknown" in out and "Traceback" not in out
    assert cli.main(["solve", str(path), "--json"]) == 0  # (no time limit: read and solved)
    assert json.loads(capsys.readouterr().out)["status"] == "solved"
