"""The frontier counter (exact dynamic programming, touching allowed) against brute force and SAT."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from benchmarks.numberlink import load_set
from puzzlesat.numberlink import formats, frontier
from puzzlesat.numberlink.encoding import encode
from puzzlesat.numberlink.frontier import count_answers
from puzzlesat.numberlink.model import Pair, Puzzle, Rules, Solution
from puzzlesat.numberlink.engine import frontier_race, tuning, windows
from puzzlesat.numberlink.solve import count
from puzzlesat.numberlink.verify import verify
from tests.numberlink.test_counts import CASES, brute_force_answers
from tests.support import shared_path

TOUCHING_RULES = [Rules(), Rules(cover_all=False)]


def _key(solution: Solution) -> tuple:
    return tuple(sorted(solution.as_dict().items()))


@pytest.fixture(params=["packed", "bytes"])
def layout(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Frontier states packed in 64-bit words (where the slots fit) or as byte rows (forced)."""
    if request.param == "bytes":
        monkeypatch.setattr(frontier, "PACKED_MAX_SLOTS", 0)
    return request.param


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("rules", TOUCHING_RULES, ids=str)
@pytest.mark.parametrize("name,puzzle", CASES, ids=[name for name, _ in CASES])
def test_counts_match_brute_force(name: str, puzzle: Puzzle, rules: Rules, reverse: bool, layout: str) -> None:
    """Also swept from the opposite corner (``reverse``): the same counts and answers, with
    the states packed in words and as byte rows."""
    expected = brute_force_answers(puzzle, rules)
    result = count_answers(puzzle, rules, limit=len(expected) + 1, reverse=reverse)
    assert result.status == "complete"
    assert result.count == len(expected)
    assert bool(result.answers) == bool(expected)
    answers = {tuple(sorted(a.items())) for a in expected}
    for answer in result.answers:
        assert verify(puzzle, answer, rules) == [] and _key(answer) in answers
    if expected:  # with a reference: the others are counted, and one of them is read back
        reference = Solution.from_mapping(expected[0])
        others = count_answers(puzzle, rules, limit=len(expected) + 1, reference=reference, reverse=reverse)
        assert others.status == "complete" and others.count == len(expected) - 1
        if len(expected) > 1:
            assert _key(others.answers[0]) != _key(reference) and _key(others.answers[0]) in answers


def test_wide_boards_are_transposed_and_count_the_same() -> None:
    rows = ["..B..B", "....C.", "AA..C."]  # three answers
    wide = Puzzle.from_rows(rows)
    tall = Puzzle.from_rows(["".join(row[c] for row in rows) for c in range(len(rows[0]))])
    a = count_answers(wide, limit=100)
    b = count_answers(tall, limit=100)
    assert a.status == b.status == "complete" and a.count == b.count == len(brute_force_answers(wide, Rules())) == 3
    assert verify(wide, a.answers[0], Rules()) == []
    c = count_answers(wide, limit=100, reverse=True)  # transposed and turned: answers read back right
    assert c.status == "complete" and c.count == 3 and verify(wide, c.answers[0], Rules()) == []


def test_limits_give_unknown_and_no_self_touch_is_refused() -> None:
    puzzle = Puzzle.from_rows(["A.....", "......", "......", "......", "......", ".....A"])
    assert count_answers(puzzle, max_states=3).status == "unknown"
    loose = Rules(cover_all=False)
    full = count_answers(puzzle, loose, limit=50)
    forgetful = count_answers(puzzle, loose, limit=50, max_stored=20)  # counts on without the ways back
    assert full.stats["read_back"] and full.answers and not forgetful.stats["read_back"] and not forgetful.answers
    assert forgetful.status == "complete" and forgetful.count == full.count > 1
    assert count_answers(puzzle, time_limit=0.0).status == "unknown"
    with pytest.raises(ValueError):
        count_answers(puzzle, Rules(no_self_touch=True))


@pytest.mark.slow
def test_janko_uniqueness_agrees_with_sat() -> None:
    """The first 20 janko puzzles (8x8 to 11x11): unique or not, by both methods."""
    puzzles = load_set("janko")[:20]
    if not puzzles:
        pytest.skip("janko set not present")
    for name, puzzle in puzzles:
        sat = count(puzzle, limit=2, time_limit=30)
        assert sat.complete, name
        exact = count_answers(puzzle, limit=2)
        assert exact.status == "complete" and exact.count == sat.count, name
        others = count_answers(puzzle, limit=2, reference=sat.solutions[0])
        if sat.count == 1:
            assert others.status == "complete" and others.count == 0, name
        else:
            assert others.count >= 1 and others.answers[0] != sat.solutions[0], name


def test_count_uses_it_for_a_hard_uniqueness_proof() -> None:
    """HoustonWeHaveABug raetsel_158a (12x12, unique): the SAT proof took 10-20 s; the
    frontier count decides it in well under a second."""
    path = shared_path("numberlink", "HoustonWeHaveABug-FlowFree", "puzzles", "flowfree_raetsel_158a.txt")
    puzzle = formats.parse(path.read_text())
    result = count(puzzle, limit=2, time_limit=60)
    assert result.complete and result.count == 1
    assert result.stats.get("frontier") == "no second answer" and result.stats["decided_by"] == "frontier"


UNIQUE_NEEDS_PROOF = Puzzle.from_rows(["...B", ".A..", "..BA"])  # one answer


def test_count_goes_on_with_sat_when_the_frontier_process_dies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frontier_race, "_frontier_second", lambda *args, **kwargs: os._exit(1))
    monkeypatch.setattr(windows, "_window_variant", lambda *args, **kwargs: None)  # no windows first
    monkeypatch.setattr(tuning, "FRONTIER_POLL_SECONDS", 0.0)  # SAT steps of no time: the race waits for the process
    result = count(UNIQUE_NEEDS_PROOF, limit=2, time_limit=30)
    assert result.complete and result.count == 1
    assert result.stats["frontier"].startswith("failed")
    # carrying the proof alone, the global search has the direction variables (2 per edge)
    plain = encode(UNIQUE_NEEDS_PROOF)
    assert result.stats["variables"] == plain.num_vars + 2 * plain.num_edges


def _race_with_a_slow_forward_count(monkeypatch: pytest.MonkeyPatch):
    """A forward count that hangs (the reverse one runs as usual), the reverse count due at once
    and no windows before the race."""
    real = frontier_race._frontier_second

    def slow_forward(puzzle, rules, answer, deadline, reverse=False):
        if not reverse:
            time.sleep(60)  # (killed when the race stops)
        return real(puzzle, rules, answer, deadline, reverse=reverse)

    monkeypatch.setattr(frontier_race, "_frontier_second", slow_forward)
    monkeypatch.setattr(tuning, "FRONTIER_REVERSE_AFTER", 0.0)
    monkeypatch.setattr(windows, "_window_variant", lambda *args, **kwargs: None)


def test_the_reverse_sweep_decides_when_the_forward_one_is_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    _race_with_a_slow_forward_count(monkeypatch)
    started = time.perf_counter()
    result = count(UNIQUE_NEEDS_PROOF, limit=2, time_limit=30)
    assert result.complete and result.count == 1
    assert result.stats["frontier"] == "no second answer" and result.stats["frontier_sweep"] == "reverse"
    assert result.stats["decided_by"] == "frontier" and result.stats["steps"][-1][:2] == ["frontier", "unique (frontier: no second answer)"]
    assert time.perf_counter() - started < 45  # (a hang guard: the slow forward count sleeps 60 s unless stopped)


def test_the_reverse_sweep_gives_up_past_its_own_state_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # with a reverse cap of one child per step the reverse count ends undecided at once, so SAT
    # decides beside the hanging forward one (without the cap the reverse sweep decides, above)
    _race_with_a_slow_forward_count(monkeypatch)
    monkeypatch.setattr(tuning, "FRONTIER_REVERSE_MAX_STATES", 1)
    result = count(UNIQUE_NEEDS_PROOF, limit=2, time_limit=30)
    assert result.complete and result.count == 1
    assert "frontier_sweep" not in result.stats and result.stats["frontier"] == "overtaken by SAT"
    assert result.stats["decided_by"] == "global-sat"  # (SAT decided in the race)
    # beside a running count the global search looks for a second answer without the
    # direction variables (they slowed janko #254's second answer 2-3x)
    assert result.stats["variables"] == encode(UNIQUE_NEEDS_PROOF).num_vars
    direct = frontier.count_answers(UNIQUE_NEEDS_PROOF, limit=1, reference=result.solutions[0], reverse=True, max_states=1)
    assert direct.status == "unknown" and direct.stats["reason"] == "state limit"


def test_an_interrupt_while_the_race_stops_leaves_no_count_running() -> None:
    """Ctrl-C while the race stopped its forward count (waiting for it to end) left the reverse
    count running to its deadline: each count was killed only once the one before it was reaped."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the frontier counts run in processes of their own only where fork is available")
    race = frontier_race.FrontierRace(UNIQUE_NEEDS_PROOF, Rules(), None, None, {})
    race.counts = [frontier_race._Child(time.sleep, 60, {}) for _ in range(2)]  # (stand-ins for the two sweeps)
    forward = race.counts[0].process
    real_join = forward.join

    def interrupted_join(timeout=None):
        raise KeyboardInterrupt

    forward.join = interrupted_join
    try:
        with pytest.raises(KeyboardInterrupt):
            race.stop()
        reverse = race.counts[1].process
        reverse.join(10)
        assert reverse.exitcode is not None  # killed, not left sleeping
    finally:
        for child in race.counts:
            child.process.kill()
        real_join()
        race.counts[1].process.join()


def test_without_fork_the_count_runs_in_turn_with_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frontier_race, "_may_work_beside", lambda: False)
    monkeypatch.setattr(tuning, "FRONTIER_SAT_FIRST", 0.0)  # SAT gets no time of its own first
    monkeypatch.setattr(windows, "_window_variant", lambda *args, **kwargs: None)  # no windows first
    exact = count_answers(UNIQUE_NEEDS_PROOF, limit=2)
    result = count(UNIQUE_NEEDS_PROOF, limit=2, time_limit=30)
    assert result.complete and result.count == exact.count
    assert result.stats["frontier"] == ("no second answer" if exact.count == 1 else "second answer")


def _bands(width: int, band: int, dropped: tuple[int, ...] = ()) -> Puzzle:
    """Two bands of ``band`` rows, each with one label per column running top to bottom
    (labels of the lower band are numbered past the upper band's), so that many labels hang on
    the frontier at once; the columns in ``dropped`` have no label in the lower band and are
    left to their neighbours (some such boards have several answers, some none)."""
    pairs = [Pair(f"A{c}", (0, c), (band - 1, c)) for c in range(width)]
    pairs += [Pair(f"B{c}", (band, c), (2 * band - 1, c)) for c in range(width) if c not in dropped]
    return Puzzle(width, 2 * band, tuple(pairs))


@pytest.mark.parametrize("width,band", [(14, 7), (10, 5)])  # (at least as tall as wide: not transposed)
def test_many_labels_on_the_frontier_agree_with_sat(width: int, band: int) -> None:
    """14 labels hanging at once give 17 slot values (rows compared as bytes); the lower band's
    labels have values past 15, moved down below 16 where few are in play: every merge path,
    against SAT, with answers read back."""
    import random

    rng = random.Random(width)
    puzzles = [_bands(width, band)] + [_bands(width, band, tuple(rng.sample(range(1, width - 1), 2))) for _ in range(6)]
    counts = []
    for puzzle in puzzles:
        sat = count(puzzle, limit=2, time_limit=30)
        exact = count_answers(puzzle, limit=2)
        assert sat.complete and exact.status == "complete" and exact.count == sat.count
        counts.append(sat.count)
        if sat.count:
            others = count_answers(puzzle, limit=1, reference=sat.solutions[0])
            assert others.count == sat.count - 1
            if others.count:
                assert others.answers[0] != sat.solutions[0] and verify(puzzle, others.answers[0], Rules()) == []
    assert 2 in counts and 1 in counts  # (both kinds occur)


def test_more_labels_than_a_byte_holds() -> None:
    """300 labels: slot values need 16 bits."""
    puzzle = Puzzle(2, 300, tuple(Pair(f"L{i}", (i, 0), (i, 1)) for i in range(300)))
    result = count_answers(puzzle, limit=2)
    assert result.status == "complete" and result.count == 1 and verify(puzzle, result.answers[0], Rules()) == []


def _packed_and_byte_counts(puzzle: Puzzle, rules: Rules, limit: int, monkeypatch: pytest.MonkeyPatch):
    """The count of ``puzzle`` with states packed in words (where they fit), then as byte rows."""
    packed = count_answers(puzzle, rules, limit=limit)
    with monkeypatch.context() as patch:
        patch.setattr(frontier, "PACKED_MAX_SLOTS", 0)
        rows = count_answers(puzzle, rules, limit=limit)
    return packed, rows


@pytest.mark.parametrize("dropped", [(), (3, 9), (1, 12)], ids=str)
def test_packed_and_byte_states_merge_alike_past_thirteen_labels(dropped: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """On 14 columns (15 slots) the states are packed in words until more than 13 labels are in
    play, then unpacked into byte rows for the rest of the count, in the row where the lower
    band's labels come in. Without a reference every step keeps exactly one state per distinct
    frontier, so both layouts must keep the same number of states, not only count alike."""
    puzzle = _bands(14, 7, dropped)
    packed, rows = _packed_and_byte_counts(puzzle, Rules(), 3, monkeypatch)
    assert packed.status == rows.status == "complete"
    assert (packed.count, packed.total_states, packed.max_states) == (rows.count, rows.total_states, rows.max_states)
    for answer in packed.answers:
        assert verify(puzzle, answer, Rules()) == []


def test_packed_and_byte_states_merge_alike_on_a_board_with_many_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Janko #226 (14x14, 15 labels) has more than 13 labels in play from its middle on, where
    the packed states are unpacked into byte rows: the same number of states as byte rows
    throughout (a first version, whose byte keys in the unpacking row left out that row's new
    labels, kept 64 states too few here: different states merged)."""
    puzzles = dict(load_set("janko"))
    if "janko#226" not in puzzles:
        pytest.skip("janko set not present")
    packed, rows = _packed_and_byte_counts(puzzles["janko#226"], Rules(), 2, monkeypatch)
    assert packed.status == rows.status == "complete"
    assert packed.count == rows.count == 1
    assert (packed.total_states, packed.max_states) == (rows.total_states, rows.max_states)


def _random_paths_board(seed: int, widths: list[int], more_rows: int) -> Puzzle:
    """A board of random paths grown with union-find (leftover cells blocked), its width drawn
    from ``widths`` and its height the width or ``more_rows`` more."""
    import random

    from puzzlesat.numberlink.generate import unionfind_links

    rng = random.Random(seed)
    width = rng.choice(widths)
    height = rng.choice([width, width + more_rows])
    links, blocked = unionfind_links(width, height, rng)
    return Puzzle(width, height, tuple(Pair(str(i + 1), link[0], link[-1]) for i, link in enumerate(links)), blocked)


def test_packed_and_byte_states_merge_alike_on_random_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards of random paths (6 to 15 across, leftover cells blocked, up to 33 labels), under
    both touching rule sets (may-leave-empty on the boards up to 9 across): without a
    reference each step keeps one state per distinct frontier, so both layouts must keep
    exactly the same states and give the same count."""
    for seed in range(8):
        puzzle = _random_paths_board(seed, [6, 9, 12, 15], 3)
        for rules in TOUCHING_RULES if puzzle.width <= 9 else TOUCHING_RULES[:1]:
            packed, rows = _packed_and_byte_counts(puzzle, rules, 3, monkeypatch)
            assert packed.status == rows.status == "complete", seed
            assert (packed.count, packed.total_states, packed.max_states) == (rows.count, rows.total_states, rows.max_states), seed
            for answer in packed.answers:
                assert verify(puzzle, answer, rules) == []


# A board (random paths, seed 1177) whose only answer has, at label 6's second endpoint, the
# ends of label 6 and of label 1 alternating along the frontier: label 1 runs round label 6's
# endpoint through the visited part (a piece around that end). A first version of the
# crossing check, which ignored pieces, dropped that state and counted 0.
ROUND_AN_ENDPOINT = Puzzle.from_rows([".....55", ".#8....", "..48771", "#.....2", "..4.6.2", ".61...3", ".......", "......3"])


def test_a_path_may_run_round_another_label_s_endpoint_through_the_visited_part(layout: str) -> None:
    sat = count(ROUND_AN_ENDPOINT, limit=3, time_limit=30)
    assert sat.complete and sat.count == 1
    for reverse in (False, True):
        result = count_answers(ROUND_AN_ENDPOINT, limit=3, reverse=reverse)
        assert result.status == "complete" and result.count == 1
        assert result.answers[0] == sat.solutions[0]


def _with_states(layout: object, rows: list[list[int]]):
    """Frontier states with the given slot values, in ``layout``'s own form."""
    values = np.array(rows, dtype=np.int64)
    if isinstance(layout, frontier._PackedRows):
        words = np.zeros(len(rows), dtype=np.uint64)
        for j in range(values.shape[1]):
            words |= values[:, j].astype(np.uint64) << np.uint64(4 * j)
        return words
    return values.astype(layout.dtype)


def test_alternating_pairs_are_found_only_outside_pieces() -> None:
    """Label values 3 (the label whose pair is checked, its new end in slot 0) and 4 (a label
    with both endpoints visited); 1 and 2 are a piece's ends. Only a b a b with no piece around
    any of the four ends has no completion; nested, disjoint or straddled pairs may have one,
    and a label whose other endpoint is not visited yet (5, key 0) is no pair."""
    rows = [
        [3, 4, 3, 4, 0, 0],  # a b a b: dropped
        [3, 0, 4, 3, 0, 4],  # a b a b with gaps: dropped
        [3, 4, 4, 3, 0, 0],  # nested
        [3, 0, 3, 4, 4, 0],  # disjoint
        [3, 1, 4, 2, 3, 4],  # b's first end inside a piece: b may run round it
        [3, 5, 3, 5, 0, 0],  # 5 is not a pair
        [3, 4, 1, 3, 2, 4],  # a's other end inside a piece
    ]
    expected = [True, True, False, False, False, False, False]
    for layout in (frontier._PackedRows(6, 3), frontier._ByteRows(6, 3)):
        keys = np.zeros(layout.values, dtype=np.uint64)
        keys[4] = np.uint64(0x9E3779B97F4A7C15)
        found = frontier._crossing(layout, _with_states(layout, rows), np.zeros(len(rows), dtype=np.int64), 3, keys)
        assert found.tolist() == expected, type(layout).__name__


def test_the_crossing_check_keeps_every_answer_and_drops_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random boards (paths grown at random, leftover cells blocked), under both touching rule
    sets: the same counts, and the same counts beside a reference answer, with the check and
    without it; and on some boards it keeps fewer states."""
    fewer = 0
    for seed in range(24):
        puzzle = _random_paths_board(seed, [5, 6, 7, 8], 2)
        for rules in TOUCHING_RULES:
            checked = count_answers(puzzle, rules, limit=1000)
            with monkeypatch.context() as patch:
                patch.setattr(frontier, "_pair_keys", lambda *args: None)
                plain = count_answers(puzzle, rules, limit=1000)
                reference = plain.answers[0] if plain.answers else None
                plain_others = count_answers(puzzle, rules, limit=1000, reference=reference) if reference else None
            assert checked.status == plain.status == "complete" and checked.count == plain.count, seed
            fewer += checked.total_states < plain.total_states
            if reference is not None:
                others = count_answers(puzzle, rules, limit=1000, reference=reference)
                assert others.status == "complete" and others.count == plain_others.count, seed
    assert fewer >= 5
