"""Reproducible generation (#45): the same seed and options give the same puzzle whatever the
machine's load: a Numberlink certificate is decided by work (solver conflicts), a Swap proof
by A* expansions, never by seconds; every family's pack entry for a seed repeats byte for byte,
also beside busy work, under a clock that jumps or races, and from two workers (#43)."""

from __future__ import annotations

import multiprocessing
import threading

import pytest

from puzzlesat.numberlink import generate
from puzzlesat.numberlink.formats import format as format_puzzle
from puzzlesat.numberlink.generate import count_by_work
from puzzlesat.numberlink.model import Puzzle
from puzzlesat.numberlink.multilayer.generate import generate as generate_layers
from puzzlesat.registry import families

SIZES = {"numberlink": (14, 14), "roller": (8, 8), "swap": None}


def _spin(stop) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def _drawn(**options) -> str:
    made = generate(14, 14, seed=1000031, **options)
    return format_puzzle(made.puzzle) + f"\n{made.tries}"


def test_the_same_seed_gives_the_same_puzzle_every_call_even_beside_busy_work() -> None:
    first = _drawn()
    assert _drawn() == first
    stop_thread, stop_process = threading.Event(), multiprocessing.Event()
    thread = threading.Thread(target=_spin, args=(stop_thread,))
    process = multiprocessing.Process(target=_spin, args=(stop_process,))
    thread.start()
    process.start()
    try:
        assert _drawn() == first  # (the GIL shared with a busy thread, a core with a busy process)
    finally:
        stop_thread.set()
        stop_process.set()
        thread.join()
        process.join()


def test_every_family_writes_the_same_pack_entry_for_a_seed_beside_a_busy_process() -> None:
    def entries() -> list[str]:
        out = []
        for family in families():
            options = {option.name: option.default for option in family.generate_options}
            made = family.make(SIZES.get(family.name), seed=1000031, time_limit=None, options=options)
            out.append(family.pack_entry(made))
        return out

    first = entries()
    stop = multiprocessing.Event()
    process = multiprocessing.Process(target=_spin, args=(stop,))
    process.start()
    try:
        assert entries() == first
    finally:
        stop.set()
        process.join()


def test_the_uniqueness_counts_of_generation_depend_on_work_only() -> None:
    puzzle = Puzzle.from_rows(["A...B", ".....", "..C..", ".....", "A.C.B"])
    results = [count_by_work(puzzle, conflicts=50_000) for _ in range(3)]
    assert len({(r.count, r.complete, r.solutions) for r in results}) == 1
    undecided = count_by_work(puzzle, conflicts=0)
    assert undecided.complete is False and undecided.unique is None


def test_several_layers_repeat_too() -> None:
    made = [generate_layers(5, 5, 2, seed=7) for _ in range(2)]
    assert made[0].puzzle == made[1].puzzle and made[0].solution == made[1].solution


# -- Swap: every proof bounded by work (encodings/swap.md, "Reproducible generation") ------------
SWAP_PACK = ["generate", "swap", "--difficulty", "hard", "--count", "2", "--seed", "0"]  # (proven in a fraction of a second)


def _swap_pack(tmp_path, name: str, *extra: str) -> bytes:
    from puzzlesat.cli import main

    out = tmp_path / name
    assert main([*SWAP_PACK, "--out", str(out), *extra]) == 0
    return out.read_bytes()


def test_a_swap_pack_repeats_byte_for_byte_when_the_clock_jumps_or_races(tmp_path, monkeypatch, capsys) -> None:
    """Each proof had 60 s (and its phases shares of them): a clock that jumps past them, or runs
    a thousand times fast (a machine under heavy load), cut proofs short and changed the level a
    seed gives, or the plan a pack states. Now they are bounded by work."""
    from tests.clock import jump_clock_after, race_clock

    first = _swap_pack(tmp_path, "first.swap")
    with monkeypatch.context() as patch:
        jump_clock_after(patch, reads=40)
        assert _swap_pack(tmp_path, "jumped.swap") == first
    with monkeypatch.context() as patch:
        race_clock(patch, 1000.0)
        assert _swap_pack(tmp_path, "raced.swap") == first


def test_a_swap_pack_made_by_two_workers_is_byte_identical_to_one_made_by_one(tmp_path, capsys) -> None:
    """#43: a worker of the pool cannot fork the helper process that runs beams beside A*, so it
    took another path and stated another plan of the same length for the second level."""
    assert _swap_pack(tmp_path, "two.swap", "-j", "2") == _swap_pack(tmp_path, "one.swap", "-j", "1")


def test_a_swap_time_limit_ends_the_generation_and_never_changes_its_level(monkeypatch) -> None:
    from puzzlesat.swap.generate import GenerationFailed
    from puzzlesat.swap.generate import generate as generate_swap
    from tests.clock import jump_clock_after

    made = generate_swap(seed=5, time_limit=600)
    with monkeypatch.context() as patch:
        jump_clock_after(patch, reads=40)  # (the time limit passes during the first draw's proof)
        with pytest.raises(GenerationFailed, match="no level certified within 600s"):
            generate_swap(seed=5, time_limit=600)
    assert generate_swap(seed=5, time_limit=600) == made
