"""The measurements of the Numberlink rework (#46 step 2): the side-by-side run with the Go peer
(its answers checked, not trusted), the tuning/test split of the public sets, and the fresh sets
(remade from their seeds). The timings themselves are benchmarks, not tests."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from benchmarks import numberlink_peer, numberlink_unseen
from puzzlesat import numberlink
from puzzlesat.numberlink import Rules


def test_the_split_is_the_parity_of_the_first_byte_of_the_canonical_texts_sha256() -> None:
    puzzles = [numberlink.parse(text) for text in ("A.A\nB.B", "AB\n..\nAB", "A..B\n....\nA..B", "A.B\n...\nB.A", "A#A\nB.B")]
    for puzzle in puzzles:
        digest = hashlib.sha256(numberlink_unseen.canonical_text(puzzle).encode()).digest()
        assert numberlink_unseen.half(puzzle) == ("test" if digest[0] % 2 else "tuning")
    assert numberlink_unseen.canonical_text(puzzles[4]) == "3 2\n1 # 1\n2 . 2\n"
    relabelled = numberlink.parse("Z.Z\nQ.Q")  # (the same puzzle, other labels: the same half)
    assert numberlink_unseen.canonical_text(relabelled) == numberlink_unseen.canonical_text(puzzles[0])


def test_the_fresh_sets_hold_what_their_seeds_draw_certified_under_no_self_touch_rules() -> None:
    fresh = numberlink_unseen.fresh_puzzles()
    assert sorted(fresh) == [f"fresh-{n}x{n}" for n in numberlink_unseen.FRESH_SIZES]
    assert all(len(puzzles) == numberlink_unseen.FRESH_PER_SIZE for puzzles in fresh.values())
    name, puzzle = fresh["fresh-15x15"][1]
    assert name == f"seed {numberlink_unseen.fresh_seed(15, 1)}"
    drawn = numberlink.generate(15, 15, seed=numberlink_unseen.fresh_seed(15, 1), rules=Rules(no_self_touch=True))
    assert drawn.puzzle == puzzle and drawn.unique is True


def _fake_peer(folder: Path, output: str) -> str:
    """A stand-in for the Go binary: reads its input, prints ``output``."""
    path = folder / "peer"
    path.write_text(f"#!/bin/sh\ncat > /dev/null\nprintf '{output}'\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_the_peers_answers_are_read_back_and_verified_not_trusted(tmp_path) -> None:
    puzzles = [numberlink.parse("A.A\nB.B"), numberlink.parse("A.A\nB.B"), numberlink.parse("A.A\nB.B")]
    path = numberlink_peer.write_file(puzzles, tmp_path, "two.txt")
    assert numberlink.read(path) == puzzles  # (the file both sides read)
    peer = _fake_peer(tmp_path, "3 2\\nAAA\\nBBB\\n\\n3 2\\nAAB\\nBBB\\n\\nIMPOSSIBLE\\n\\n")  # right, wrong, none
    measured = numberlink_peer.peer_run(peer, path, puzzles)
    assert (measured["puzzles"], measured["answered"], measured["verified"], measured["exit"]) == (3, 2, 1, 0)
    assert measured["seconds"] > 0 and measured["peak_mb"] > 0


def test_our_side_runs_in_a_child_through_the_public_api(tmp_path) -> None:
    puzzles = [numberlink.parse("A.A\nB.B"), numberlink.parse("A..B\n....\nA..B"), numberlink.parse("A.B\n...\nA.B")]
    path = numberlink_peer.write_file(puzzles, tmp_path, "ours.txt")
    measured = numberlink_peer.ours_in_child(path, "unique", "default", None)  # unique, several, none (colouring parity)
    assert (measured["puzzles"], measured["answered"], measured["verified"], measured["none"]) == (3, 2, 2, 1)
    assert (measured["unique"], measured["multiple"], measured["undecided"]) == (1, 1, 0)
    assert measured["peak_mb"] > 0 and measured["process_s"] >= measured["seconds"]


def test_absent_data_is_said_and_skipped(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PUZZLESAT_SHARED_DATA", str(tmp_path))
    assert list(numberlink_peer.run(peer=None)) == []
    assert "data set absent" in capsys.readouterr().err
    assert numberlink_unseen.public_puzzles("janko") == []
    assert not os.listdir(tmp_path)


def test_the_unseen_benchmark_runs_the_halves_named(tmp_path, monkeypatch) -> None:
    only_fresh = list(numberlink_unseen.groups(quick=True, halves=("fresh",)))
    assert [(name, which, len(puzzles)) for name, which, puzzles in only_fresh] == [
        (f"fresh-{n}x{n}", "fresh", numberlink_unseen.QUICK_PUZZLES) for n in numberlink_unseen.FRESH_SIZES]
    monkeypatch.setenv("PUZZLESAT_SHARED_DATA", str(tmp_path))  # (no public set: nothing else to run)
    assert list(numberlink_unseen.groups(quick=True, halves=("tuning", "test"))) == []
    assert numberlink_unseen._halves("test, fresh") == ("test", "fresh")
    with pytest.raises(Exception, match="not tuning2"):
        numberlink_unseen._halves("tuning2")


def test_the_budget_table_counts_each_puzzle_from_the_budget_it_was_decided_within() -> None:
    def row(seconds: float, decided: bool) -> dict:
        return {"set": "fresh-20x20", "half": "fresh", "seconds": seconds, "decided": decided, "time_limit": 30.0}

    rows = [row(0.5, True), row(12.0, True), row(29.0, True), row(30.0, False)]
    lines = numberlink_unseen.budget_table(rows).splitlines()
    assert lines[0].endswith("10 s    20 s    30 s")  # the budgets up to the limit only
    assert lines[1].split()[2:] == ["1", "2", "3", "of", "4"]
    assert numberlink_unseen.budget_table([{**r, "time_limit": 5.0} for r in rows]) == ""


def test_the_proof_table_finds_seeds_of_both_fresh_sets_and_sets_phases_only_in_its_phases_variant(monkeypatch) -> None:
    from puzzlesat.numberlink.search import Search

    preferred: list[int] = []
    kept_prefer = Search.prefer

    def prefer_counted(self, *args, **kwargs):
        preferred.append(1)
        return kept_prefer(self, *args, **kwargs)

    monkeypatch.setattr(Search, "prefer", prefer_counted)
    lines = numberlink_unseen.proof_table(["4700015000", "4600015000", "123"], conflicts=200_000).splitlines()
    rows = [line.split() for line in lines[1:] if "not a seed" not in line]
    assert [(row[0], " ".join(row[2:-3])) for row in rows] == [
        ("4700015000", "as today"), ("4700015000", "phases"), ("4600015000", "as today"), ("4600015000", "phases")]
    verdicts = {row[0]: {r[-3] for r in rows if r[0] == row[0]} for row in rows}
    assert verdicts == {"4700015000": {"unique"}, "4600015000": {"several"}}  # the puzzle's, whichever the phases
    assert len(preferred) == 2  # once per puzzle: the "phases" variant only
    assert lines[-1].split()[0] == "123" and "not a seed" in lines[-1]
