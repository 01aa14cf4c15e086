"""Reproducible generation (#45): the same seed and options give the same puzzle whatever the
machine's load: a Numberlink certificate is decided by work (solver conflicts), never by
seconds; every family's pack entry for a seed repeats byte for byte, also beside busy work."""

from __future__ import annotations

import multiprocessing
import threading

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
