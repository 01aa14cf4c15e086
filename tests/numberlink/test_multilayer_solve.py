"""The multi-layer (3-D) Numberlink SAT solver against an independent brute-force enumerator,
the clause counts of ``encodings/numberlink-multilayer.md`` against the built encoding, stray
cycles, search-free refutations and time limits.

The enumerator below shares nothing with the SAT code: it lists every system of simple paths
(one per pair, in order, by depth-first search over cells with six-neighbour steps) and applies
the rules directly.
"""

from __future__ import annotations

import random
import time
from math import comb

import pytest

from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer.model import Pair, Puzzle, Solution
from puzzlesat.numberlink.engine.first import _route
from puzzlesat.numberlink.engine.probes import empty_cell_variant, shrunk as _shrunk
from puzzlesat.numberlink.engine.state import State
from puzzlesat.numberlink.multilayer.solve import encode, contradiction, count, is_unique, solve
from puzzlesat.numberlink.multilayer.verify import verify
from puzzlesat.results import Status, Uniqueness
from puzzlesat.sat import SatSolver
from puzzlesat.timing import Deadline
from tests.support import shared_path

ALL_RULES = [Rules(), Rules(no_self_touch=True), Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)]
SIX = ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))


def _cells(puzzle: Puzzle) -> set:
    return {(z, r, c) for z in range(puzzle.layers) for r in range(puzzle.height) for c in range(puzzle.width)} - set(puzzle.blocked)


def brute_force_answers(puzzle: Puzzle, rules: Rules) -> set[Solution]:
    """Every answer, by plain enumeration of simple paths. With ADC 2016 vias the via rules are
    applied directly: a step between layers only between two cells of one via, never sideways
    from a via's inner cell, and at the end every via passed whole by one line, no line through
    two (nothing shared with the model's step rule or the SAT code)."""
    free = _cells(puzzle)
    endpoint_of = {cell: pair.label for pair in puzzle.pairs for cell in (pair.start, pair.end)}
    via_of = {cell: via.name for via in puzzle.vias for cell in via.cells}
    middle = {cell for via in puzzle.vias for cell in via.cells[1:-1]}
    answers: set[Solution] = set()

    def steps(cell):
        out = []
        for dz, dr, dc in SIX:
            n = (cell[0] + dz, cell[1] + dr, cell[2] + dc)
            if not puzzle.vias:
                out.append(n)
            elif dz:
                if cell in via_of and via_of.get(n) == via_of[cell]:
                    out.append(n)
            elif cell not in middle and n not in middle:
                out.append(n)
        return out

    def vias_passed_whole(paths: dict) -> bool:
        if not puzzle.vias:
            return True
        passed_by: dict[str, list[str]] = {}
        for label, path in paths.items():
            names = {via_of[a] for a, b in zip(path, path[1:]) if a[0] != b[0]}
            if len(names) > 1:
                return False
            for name in names:
                passed_by.setdefault(name, []).append(label)
        for via in puzzle.vias:
            if len(passed_by.get(via.name, [])) != 1:
                return False
            path = paths[passed_by[via.name][0]]
            where = [path.index(cell) if cell in path else None for cell in via.cells]
            if None in where or sorted(where) != list(range(min(where), min(where) + len(where))):
                return False
        return True

    def touches_itself(path: list) -> bool:
        where = {cell: i for i, cell in enumerate(path)}
        return any(abs(i - where.get(n, i + 1)) != 1 for i, cell in enumerate(path) for n in steps(cell) if n in where)

    def place(index: int, used: set, chosen: dict) -> None:
        if index == len(puzzle.pairs):
            if not (rules.cover_all and used != free) and vias_passed_whole(chosen):
                answers.add(Solution.from_mapping(chosen))
            return
        pair = puzzle.pairs[index]
        path, on_path = [pair.start], {pair.start}

        def extend(cell) -> None:
            for step in steps(cell):
                if step not in free or step in used or step in on_path:
                    continue
                if step == pair.end:
                    full = path + [step]
                    if not (rules.no_self_touch and touches_itself(full)):
                        chosen[pair.label] = tuple(full)
                        place(index + 1, used | set(full), chosen)
                        del chosen[pair.label]
                    continue
                if step in endpoint_of:
                    continue
                path.append(step)
                on_path.add(step)
                extend(step)
                path.pop()
                on_path.discard(step)

        extend(pair.start)

    place(0, set(), {})
    return answers


# layers of rows; W x H x Z in the names (non-cubic boards: w/h/z swaps show)
TINY = {
    "2x2x2 corner pair": [["A.", ".."], ["..", ".A"]],
    "2x2x2 two pairs": [["A.", "B."], ["A.", "B."]],
    "2x2x2 stacked ends": [["AB", ".."], ["AB", ".."]],
    "3x2x2 two pairs": [["A..", "BB."], ["...", ".A."]],
    "3x2x2 blocked": [["A.#", "..B"], ["#.B", "A.."]],
    "2x3x2 three pairs": [["A.", "BC", ".."], ["..", "B.", "AC"]],
    "2x3x2 blocked": [["A.", "#.", "B."], [".B", ".#", ".A"]],
    "4x1x3 column": [["A..B"], ["...."], ["B..A"]],
    "1x3x3 thin": [["A", ".", "B"], [".", ".", "."], ["B", ".", "A"]],
    "3x1x2 one layer across": [["A.A"], ["..."]],
    "2x2x3 tower": [["A.", ".."], ["..", ".."], ["..", ".A"]],
    "2x2x3 blocked": [["A.", "#."], ["B.", ".."], ["A.", ".B"]],
    "2x2x3 three pairs": [[".B", ".C"], ["C.", ".."], ["A.", "BA"]],
    "2x3x2 crossing": [["B.", ".A", ".."], ["..", ".B", "A."]],
    "3x2x2 ends below": [["B..", "..#"], ["...", "ABA"]],
}

# ADC 2016 vias ("@a": a cell of via a; layers of rows of tokens), counted like the rest
VIA_BOARDS = {
    "3x2x2 one via": [["A . B", ". @a B"], [". . .", ". @a A"]],
    "3x2x2 one via, A beside it": [["A @a B", ". . B"], [". @a .", ". A ."]],
    "2x3x2 two vias": [["A @a", ". .", "B @b"], [". @a", "A B", ". @b"]],
    "2x3x2 a via and a flat pair": [["A @a", "B .", ". B"], [". @a", "A .", ". ."]],
    "2x2x3 tall via": [["A .", "@a ."], [". .", "@a ."], [". .", "@a A"]],
    "3x2x3 tall via, a flat pair": [["A . .", "@a . ."], [". B .", "@a . B"], [". . .", "@a . A"]],
    "4x2x2 blocked": [["A . # B", "@a B . ."], [". . . .", "@a # . A"]],
    "2x2x2 two vias, stacked ends": [["A B", "@a @b"], ["A B", "@a @b"]],
    "1x3x2 column": [["A", "@a", "."], [".", "@a", "A"]],
    "2x2x2 covered": [["A .", "@a ."], [". .", "@a A"]],
}
TINY.update({name: [[row.split() for row in layer] for layer in layers] for name, layers in VIA_BOARDS.items()})


def _puzzle(name: str) -> Puzzle:
    return Puzzle.from_layers(TINY[name], name=name)


@pytest.fixture(scope="module")
def brute() -> dict:
    return {(name, rules): brute_force_answers(_puzzle(name), rules) for name in TINY for rules in ALL_RULES}


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name", sorted(TINY))
def test_counts_match_brute_force(name: str, rules: Rules, brute: dict) -> None:
    puzzle = _puzzle(name)
    expected = brute[(name, rules)]
    result = count(puzzle, rules=rules, limit=1000)
    assert result.complete and result.method == "sat-cadical195"
    assert set(result.solutions) == expected
    assert result.count == len(expected)
    for answer in result.solutions:
        assert verify(puzzle, answer, rules) == []


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name", sorted(TINY))
def test_solve_and_uniqueness_match_brute_force(name: str, rules: Rules, brute: dict) -> None:
    puzzle = _puzzle(name)
    expected = brute[(name, rules)]
    result = solve(puzzle, rules=rules)
    assert result.status is (Status.SOLVED if expected else Status.UNSATISFIABLE)
    if expected:
        assert result.solution in expected
    unique = is_unique(puzzle, rules=rules)
    assert unique.uniqueness is {0: Uniqueness.NONE, 1: Uniqueness.UNIQUE}.get(len(expected), Uniqueness.MULTIPLE)
    assert len(set(unique.solutions)) == unique.count
    assert set(unique.solutions) <= expected


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name", sorted(TINY))
def test_counts_from_each_known_answer_match_brute_force(name: str, rules: Rules, brute: dict) -> None:
    """``count(known=...)`` starts from an answer at hand (the generator's drawn answer): from
    every answer the brute force finds, the full count and the uniqueness verdict are the same,
    and the known answer comes first."""
    puzzle = _puzzle(name)
    expected = brute[(name, rules)]
    for known in sorted(expected, key=str)[:6]:
        result = count(puzzle, rules=rules, limit=1000, known=known)
        assert result.complete and set(result.solutions) == expected and result.solutions[0] == known
        assert result.stats["first_answer"] == "known"
        unique = is_unique(puzzle, rules=rules, known=known)
        assert unique.solutions[0] == known and unique.count == min(2, len(expected))
        assert set(unique.solutions) <= expected


def test_a_known_answer_that_is_none_is_refused_by_its_violation() -> None:
    puzzle = Puzzle.from_layers([["A.A", "..."], ["...", "..."]])
    short = solve(puzzle, rules=Rules(cover_all=False)).solution  # leaves cells empty
    assert is_unique(puzzle, rules=Rules(cover_all=False), known=short).solutions[0] == short
    with pytest.raises(ValueError, match="known is not an answer of this puzzle under these rules: .*uncovered"):
        count(puzzle, known=short)
    with pytest.raises(TypeError, match="known"):
        count(puzzle, known="A.A")


def _random_puzzle(rng: random.Random) -> Puzzle:
    w, h, z = rng.choice([(2, 2, 2), (3, 2, 2), (2, 3, 2), (3, 1, 3), (1, 2, 3), (3, 3, 1), (2, 2, 3)])
    cells = [(a, b, c) for a in range(z) for b in range(h) for c in range(w)]
    rng.shuffle(cells)
    labels = rng.randint(1, min(3, len(cells) // 2))
    pairs = [Pair("ABC"[i], cells[2 * i], cells[2 * i + 1]) for i in range(labels)]
    rest = cells[2 * labels:]
    blocked = rest[: rng.randint(0, min(2, len(rest)))]
    return Puzzle(w, h, z, tuple(pairs), frozenset(blocked))


def test_random_boards_match_brute_force() -> None:
    """Random tiny boards (blocked cells, 1-3 pairs): counts, uniqueness and refutations agree."""
    rng = random.Random(11)
    refuted = 0
    for _ in range(30):
        puzzle = _random_puzzle(rng)
        for rules in ALL_RULES:
            expected = brute_force_answers(puzzle, rules)
            proof = contradiction(puzzle, rules)
            if proof is not None:
                refuted += 1
                assert not expected, (puzzle, rules, proof)
            result = count(puzzle, rules=rules, limit=1000)
            assert set(result.solutions) == expected, (puzzle, rules)
            assert is_unique(puzzle, rules=rules).count == min(2, len(expected))
    assert refuted > 0


# -- stray cycles ----------------------------------------------------------------------------

def test_formula_admits_a_stray_cycle_which_is_cut() -> None:
    """Cover-all: A and B joined straight on layer 1, an 8-cycle round the empty 2x2x2 block
    above them; the degree and label clauses allow it, the answers never hold it."""
    puzzle = Puzzle.from_layers([["AA", "BB"], ["..", ".."], ["..", ".."]])
    enc = encode(puzzle)
    ring = [(1, 0, 0), (1, 0, 1), (2, 0, 1), (2, 1, 1), (1, 1, 1), (1, 1, 0), (2, 1, 0), (2, 0, 0)]
    cycle = [enc.edge_var(a, b) for a, b in zip(ring, ring[1:] + ring[:1])]
    straight = [enc.edge_var((0, 0, 0), (0, 0, 1)), enc.edge_var((0, 1, 0), (0, 1, 1))]
    with SatSolver(enc.clauses()) as s:
        assert s.solve(cycle + straight)
        paths, cycles = enc.components(s.model())
        assert len(cycles) == 1 and sorted(e + 1 for e in cycles[0]) == sorted(cycle)
        assert paths["A"] == [(0, 0, 0), (0, 0, 1)]
        s.add_clauses(enc.cycle_cuts(cycles))
        assert not s.solve(cycle + straight)
    expected = brute_force_answers(puzzle, Rules())
    result = count(puzzle, limit=100)
    assert set(result.solutions) == expected and result.complete
    assert all(len(s.path("A")) + len(s.path("B")) == 12 for s in result.solutions)


@pytest.mark.parametrize("layers", [[["A..A", "...."], ["....", "...."]], [["AA.", "..."], ["...", "..."], ["...", "..."]]])
def test_cycles_are_cut_while_counting(layers) -> None:
    """Cover-all counts on open boards meet many stray cycles in the formula (six-cycles round
    2 x 3 rectangles, eight-cycles round 2 x 2 x 2 cubes) and cut them: the counts stay exact."""
    puzzle = Puzzle.from_layers(layers)
    result = count(puzzle, limit=10_000)
    assert result.complete and result.stats["cycles_cut"] > 0
    assert set(result.solutions) == brute_force_answers(puzzle, Rules())


# -- routing and shrinking (may-leave-empty) ------------------------------------------------

def test_shrinking_a_path_that_runs_beside_itself() -> None:
    """A path that runs beside itself (across a layer too) is cut short to one that does not;
    the shrunk answer is a second answer under may-leave-empty rules."""
    puzzle = Puzzle.from_layers([["A..", "...", "..."], ["...", "...", "..A"]])
    snake = ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 2), (0, 1, 1), (0, 1, 0), (1, 1, 0), (1, 1, 1), (1, 2, 1), (1, 2, 2))
    answer = Solution.from_mapping({"A": snake})
    assert verify(puzzle, answer, Rules(cover_all=False)) == []
    assert [v.code for v in verify(puzzle, answer, Rules(cover_all=False, no_self_touch=True))][:1] == ["self-touch"]
    shrunk = _shrunk(puzzle, answer)
    assert shrunk.path("A") == ((0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 1, 1), (1, 2, 1), (1, 2, 2))
    assert verify(puzzle, shrunk, Rules(cover_all=False, no_self_touch=True)) == []
    assert empty_cell_variant(puzzle, answer, grid=False) == (shrunk, "shrunk")
    straight = _shrunk(puzzle, shrunk)
    assert straight == shrunk
    second, kind = empty_cell_variant(puzzle, straight, grid=False)
    assert kind == "detour" and second != straight and verify(puzzle, second, Rules(cover_all=False)) == []


def test_router_on_a_contest_problem() -> None:
    """ADC 2018 Q13 and Q18 (8x8x2 and 8x8x4): routed, verified, and multiple at once."""
    from puzzlesat.numberlink.multilayer.formats import read
    rules = Rules(cover_all=False)
    for name in ("Q13.txt", "Q18.txt"):
        puzzle = read(shared_path("numberlink", "dasadc-github-io-ADC2017-2018", "adc2018", "Questions", name))[0]
        routed = _route(State(puzzle, rules, solver="cadical195", limit=1, deadline=Deadline(10.0), verb="solve"), Deadline(10.0))
        assert routed is not None and verify(puzzle, routed, rules) == []
        result = solve(puzzle, rules=rules, time_limit=10)
        assert result.status is Status.SOLVED and result.stats["first_answer"] == "route"
        strict = solve(puzzle, rules=Rules(cover_all=False, no_self_touch=True), time_limit=10)
        assert verify(puzzle, strict.solution, Rules(cover_all=False, no_self_touch=True)) == []
        assert is_unique(puzzle, rules=rules, time_limit=10).uniqueness is Uniqueness.MULTIPLE


# -- refutations -----------------------------------------------------------------------------

@pytest.mark.parametrize("layers, rules, words", [
    ([["A#", "##"], ["#.", ".A"]], Rules(cover_all=False), "no free neighbour"),
    ([["A.#.A"]], Rules(cover_all=False), "different parts"),
    ([["A.B", "..#"], ["#BA", "..."]], Rules(cover_all=False), None),
    ([["A.", ".A"], ["..", ".."]], Rules(), "chessboard colours"),
    ([["AA", "##"], ["##", ".."]], Rules(), "fewer than two"),
    ([["AA", "##", ".."], ["##", "##", ".."]], Rules(), "walled off"),
])
def test_contradictions(layers, rules: Rules, words: str | None) -> None:
    puzzle = Puzzle.from_layers(layers)
    proof = contradiction(puzzle, rules)
    if words is None:
        assert proof is None
        return
    assert words in proof
    assert not brute_force_answers(puzzle, rules)
    result = solve(puzzle, rules=rules)
    assert result.status is Status.UNSATISFIABLE and result.stats["proof"] == proof
    assert count(puzzle, rules=rules).uniqueness is Uniqueness.NONE


# -- arguments and time limits ---------------------------------------------------------------

def test_argument_checks() -> None:
    puzzle = _puzzle("2x2x2 corner pair")
    with pytest.raises(TypeError, match="puzzle"):
        solve("A.A")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules"):
        count(puzzle, rules="cover-all")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit"):
        count(puzzle, limit=0)
    with pytest.raises(ValueError, match="time_limit"):
        is_unique(puzzle, time_limit=-1)
    with pytest.raises(TypeError, match="solver"):
        solve(puzzle, solver=3)  # type: ignore[arg-type]


def big_puzzle(labels: int = 1500, seed: int = 5) -> Puzzle:
    """A 72 x 72 x 8 board (the ADC maximum) with pairs at random places."""
    rng = random.Random(seed)
    cells = rng.sample([(z, r, c) for z in range(8) for r in range(72) for c in range(72)], 2 * labels)
    return Puzzle(72, 72, 8, tuple(Pair(str(i + 1), cells[2 * i], cells[2 * i + 1]) for i in range(labels)))


@pytest.mark.parametrize("verb", ["solve", "is_unique"])
def test_time_limit_on_a_big_board(verb: str) -> None:
    puzzle = big_puzzle()
    rules = Rules(cover_all=False)
    start = time.perf_counter()
    if verb == "solve":
        result = solve(puzzle, rules=rules, time_limit=0.5)
        assert result.status in (Status.UNKNOWN, Status.SOLVED)
        if result.solution is not None:
            assert verify(puzzle, result.solution, rules) == []
    else:
        counted = is_unique(puzzle, rules=rules, time_limit=0.5)
        assert counted.uniqueness in (Uniqueness.UNKNOWN, Uniqueness.MULTIPLE)
    # a hang guard only (a board this size is solved in a child process stopped at the limit;
    # how soon is for benchmarks/)
    assert time.perf_counter() - start < 0.5 + 30.0


def test_time_limit_zero_is_unknown_at_once() -> None:
    puzzle = _puzzle("3x2x2 two pairs")
    assert solve(puzzle, time_limit=0).status is Status.UNKNOWN
    assert not count(puzzle, time_limit=0).complete


# -- size formulas (encodings/numberlink-multilayer.md, "Size formulas") ----------------------

SIZE_BOARDS = {
    "3x2x2 two pairs": [["A..", "BB."], ["...", ".A."]],
    "3x3x2 blocked": [["A.#", ".#.", "B.."], ["...", "#..", "B.A"]],
    "5x3x3 many labels": [["ABCDE", ".....", "FGHIJ"], [".....", ".##..", "....."], ["EDCBA", ".....", "JIHGF"]],
    "2x4x3 touching ends": [["AA", "..", "B#", ".."], ["..", "C.", "..", "B."], ["..", "..", "#.", "C."]],
    "5x1x4 upright": [["A...B"], ["....."], ["#...."], ["B...A"]],
    # ADC 2016 vias ("@a": a cell of via a), rows of tokens
    "4x3x3 vias": [[r.split() for r in layer] for layer in (
        ["A . @a .", "B . . @b", "C . . ."], [". . @a .", ". D . @b", ". . D ."], ["A . @a E", ". C . @b", "E . . B"])],
    "3x2x2 one via, one label": [[r.split() for r in layer] for layer in (["A . .", ". @a ."], [". . .", ". @a A"])],
}


def expected_sizes(puzzle: Puzzle, rules: Rules) -> dict[str, int]:
    """Variables and clauses per family, by the formulas of encodings/numberlink-multilayer.md,
    from board quantities only (free cells, their free neighbours, endpoints, kinds of edges,
    unit squares), never from the encoder's arrays."""
    free = _cells(puzzle)
    K = len(puzzle.pairs)
    nst, cover = rules.no_self_touch, rules.cover_all
    shift = 1 if (nst and not cover) else 0
    code = {cell: i + shift for i, pair in enumerate(puzzle.pairs) for cell in (pair.start, pair.end)}
    top = max(code.values(), default=0)
    b = top.bit_length()

    def n(cell) -> int:  # free cells a path may step to (with vias: between layers only inside one)
        z, r, c = cell
        return sum((z + dz, r + dr, c + dc) in free and puzzle.is_step(cell, (z + dz, r + dr, c + dc)) for dz, dr, dc in SIX)

    edges = [(a, (a[0] + dz, a[1] + dr, a[2] + dc)) for a in free for dz, dr, dc in ((1, 0, 0), (0, 1, 0), (0, 0, 1))
             if (a[0] + dz, a[1] + dr, a[2] + dc) in free and puzzle.is_step(a, (a[0] + dz, a[1] + dr, a[2] + dc))]
    edge_set = set(edges)
    E = len(edges)
    E_ii = sum(a not in code and b_ not in code for a, b_ in edges)
    E_ei = sum((a in code) != (b_ in code) for a, b_ in edges)
    E_same = sum(a in code and b_ in code and code[a] == code[b_] for a, b_ in edges)
    E_diff = sum(a in code and b_ in code and code[a] != code[b_] for a, b_ in edges)
    Q = 0
    for z, r, c in free:  # unit squares with (z, r, c) as their least corner, in three planes
        for d1, d2 in (((0, 1, 0), (0, 0, 1)), ((1, 0, 0), (0, 0, 1)), ((1, 0, 0), (0, 1, 0))):
            corner = {(i, j): (z + d1[0] * i + d2[0] * j, r + d1[1] * i + d2[1] * j, c + d1[2] * i + d2[2] * j) for i in (0, 1) for j in (0, 1)}
            sides = [(corner[0, 0], corner[0, 1]), (corner[1, 0], corner[1, 1]), (corner[0, 0], corner[1, 0]), (corner[0, 1], corner[1, 1])]
            Q += set(corner.values()) <= free and all(side in edge_set for side in sides)
    inner = [cell for cell in free if cell not in code]
    ends = [cell for cell in free if cell in code]
    I = len(inner)
    bit_differs = nst and K > 2 * b + 1  # ("many labels")
    out = {
        "vars": E + I * b + (E_ii * b + (0 if cover else I) if bit_differs else 0),
        "endpoint-at-least-one": sum(n(c) >= 1 for c in ends),
        "endpoint-at-most-one": sum(comb(n(c), 2) for c in ends),
        "cell-at-most-two": sum(comb(n(c), 3) for c in inner),
        "edge-equal-labels": 2 * b * E_ii,
        "edge-endpoint-label": b * E_ei,
        "edge-endpoints-differ": E_diff,
        "code-in-range": I * (b - bin(top).count("1")),
    }
    if cover:
        out["cell-at-least-two"] = sum(n(c) for c in inner if n(c) >= 2)
    else:
        out["cell-not-one"] = sum(n(c) for c in inner)
    if nst:
        if bit_differs:
            out["no-edge-some-bit-differs"] = E_ii
            out["bit-differs"] = 2 * b * E_ii
            if not cover:
                out["used-has-edge"] = I
                out["edge-uses-cell"] = sum(n(c) for c in inner)
        else:
            out["no-edge-different-labels"] = K * E_ii
        out["no-edge-not-endpoint-label"] = E_ei
        out["adjacent-endpoints-joined"] = E_same
        out["square-at-most-two"] = 4 * Q
    else:
        out["square-not-four"] = Q
    # vias: their edges on; each via barred from the labels whose ends are not on its first and
    # last layers; two vias that could take the same label differ in code (b "bit differs" each)
    allowed = {via.name: {pair.label for pair in puzzle.pairs if sorted((pair.start[0], pair.end[0])) == list(via.layer_span)}
               for via in puzzle.vias}
    sharing = sum(bool(allowed[v.name] & allowed[w.name]) for i, v in enumerate(puzzle.vias) for w in puzzle.vias[i + 1:])
    out["via-edge"] = sum(len(via.cells) - 1 for via in puzzle.vias)
    out["via-line-allowed"] = sum(K - len(allowed[via.name]) for via in puzzle.vias) if b else 0
    out["via-different-lines"] = sharing if b else 0
    out["via-bit-differs"] = 2 * b * sharing
    out["vars"] += b * sharing
    via_contradiction = b == 0 and (sharing or any(K - len(allowed[via.name]) for via in puzzle.vias))
    if any(n(c) == 0 for c in ends) or (cover and any(n(c) < 2 for c in inner)) or via_contradiction:
        out["contradiction"] = 1
    return {name: value for name, value in out.items() if value}


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name", sorted(SIZE_BOARDS))
def test_size_formulas(name: str, rules: Rules) -> None:
    puzzle = Puzzle.from_layers(SIZE_BOARDS[name])
    enc = encode(puzzle, rules)
    expected = expected_sizes(puzzle, rules)
    assert enc.num_vars == expected.pop("vars")
    assert enc.clause_counts() == expected
    assert enc.num_clauses == sum(expected.values())
    assert list(enc.answer_vars) == list(range(1, enc.num_edges + 1))


def test_many_labels_use_bit_differs() -> None:
    """The "5x3x3 many labels" board has K = 10 > 2b + 1 (b = 4), so its no-self-touch formulas
    take the bit-differs form (the may-leave-empty one with the used variables)."""
    puzzle = Puzzle.from_layers(SIZE_BOARDS["5x3x3 many labels"])
    assert "bit-differs" in encode(puzzle, Rules(no_self_touch=True)).clause_counts()
    assert "used-has-edge" in encode(puzzle, Rules(cover_all=False, no_self_touch=True)).clause_counts()
    assert "no-edge-different-labels" in encode(Puzzle.from_layers(SIZE_BOARDS["3x2x2 two pairs"]), Rules(no_self_touch=True)).clause_counts()
