"""The second global proof (engine/second_proof.py): it starts once the windows end while the
search beside them has not decided, the first of the two to decide wins, its answer is
verified, and no process is left behind."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from puzzlesat.child import can_fork
from puzzlesat.numberlink import formats
from puzzlesat.numberlink.engine import global_sat, probes, second_proof, tuning
from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.solve import count
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status, Uniqueness
from tests.support import ROOT

EXAMPLES = ROOT / "examples" / "numberlink"
SEVERAL = [  # (tests/numberlink/test_solve.py: a second answer the square windows miss)
    ". . . 1 1 2 2",
    ". # . . 3 . .",
    ". . 4 . . . 3",
    "5 . . . 4 . .",
    "5 . 6 7 . # .",
    "7 . . 6 . . .",
]

pytestmark = pytest.mark.skipif(not can_fork(), reason="the second proof runs in a forked process")


def _stalled(search):
    """A search beside the windows that never decides: it waits for its deadline."""
    remaining = search.deadline.remaining()
    time.sleep(60 if remaining is None else max(0.0, remaining))
    return Status.UNKNOWN, None


@pytest.fixture
def stalled_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)  # (the global search runs beside the windows)
    monkeypatch.setattr(global_sat, "_global_search", _stalled)


def test_the_second_proof_decides_when_the_search_beside_does_not(stalled_beside) -> None:
    puzzle = formats.read(EXAMPLES / "medium_10x10.nl")[0]
    result = count(puzzle, time_limit=30)
    assert result.complete and result.uniqueness is Uniqueness.UNIQUE
    assert result.stats["decided_by"] == "global-sat:second" and result.stats["second_proof"] == "unsatisfiable"
    assert not multiprocessing.active_children()


def test_a_second_answer_of_the_second_proof_is_verified(stalled_beside, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(probes, "_two_turn_variant", lambda *args: None)
    monkeypatch.setattr(tuning, "WINDOWS", ())  # (no window finds it first)
    monkeypatch.setattr(tuning, "LABEL_WINDOW_LABELS", 0)
    puzzle = formats.parse("\n".join(SEVERAL))
    result = count(puzzle, time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.stats["decided_by"] == "global-sat:second"
    first, second = result.solutions
    assert first != second and verify(puzzle, first) == [] and verify(puzzle, second) == []
    assert not multiprocessing.active_children()


def test_no_second_proof_without_time_or_under_other_rules(stalled_beside, monkeypatch: pytest.MonkeyPatch) -> None:
    """Below SECOND_PROOF_MIN_SECONDS left the search beside is waited for alone (and stays
    undecided here); the second proof applies under default rules only."""
    monkeypatch.setattr(tuning, "SECOND_PROOF_MIN_SECONDS", 1e9)
    result = count(formats.read(EXAMPLES / "medium_10x10.nl")[0], time_limit=2)
    assert result.uniqueness is Uniqueness.UNKNOWN and "second_proof" not in result.stats
    assert result.stats["global_search"] == "beside the windows: unknown"
    assert not second_proof.SECOND_PROOF.applies(formats.parse("1 . 1"), Rules(no_self_touch=True))
    assert not second_proof.SECOND_PROOF.applies(formats.parse("1 . 1"), Rules(cover_all=False))
    assert not multiprocessing.active_children()


def test_the_search_beside_decides_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the second proof stalled instead, the search beside the windows decides."""
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)
    monkeypatch.setattr(second_proof, "_second_proof", lambda puzzle, **kw: _stalled(type("S", (), {"deadline": kw["deadline"]})))
    result = count(formats.read(EXAMPLES / "medium_10x10.nl")[0], time_limit=30)
    assert result.complete and result.uniqueness is Uniqueness.UNIQUE and result.stats["decided_by"] == "global-sat"
    assert not multiprocessing.active_children()
