"""The Swap lower bounds are admissible (never above the true distance to the goal) and
consistent (one swap changes them by at most one), checked against exhaustive breadth-first
search over every reachable state of small random levels; the unsolvability proofs are checked
the same way."""

from __future__ import annotations

import itertools
import random
from collections import deque

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from puzzlesat.swap import bounds, layout_bounds, match_bounds
from puzzlesat.swap.compiled import Task
from puzzlesat.swap.generate import draw_level
from puzzlesat.swap.model import Goal, Level

STATE_LIMIT = 6000  # skip levels whose reachable state space is larger (keeps the test fast)


def state_space(task: Task) -> dict[tuple[int, ...], list[tuple[int, ...]]] | None:
    """Every state reachable from the start, with its neighbours (None when too many)."""
    start = tuple(task.start)
    graph: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    todo = deque([start])
    seen = {start}
    while todo:
        state = todo.popleft()
        nbrs = []
        for i, j in task.legal_swaps(state):
            child = list(state)
            child[i], child[j] = child[j], child[i]
            child_t = tuple(child)
            nbrs.append(child_t)
            if child_t not in seen:
                if len(seen) >= STATE_LIMIT:
                    return None
                seen.add(child_t)
                todo.append(child_t)
        graph[state] = nbrs
    return graph


def distances_to_goal(task: Task, graph) -> dict[tuple[int, ...], int]:
    """Exact distance to the nearest goal state (the swap relation is symmetric)."""
    dist = {s: 0 for s in graph if task.is_goal(s)}
    todo = deque(dist)
    while todo:
        s = todo.popleft()
        for t in graph[s]:
            if t not in dist:
                dist[t] = dist[s] + 1
                todo.append(t)
    return dist


def small_levels(goal: str, count: int, seed: int):
    rng = random.Random(seed)
    sizes = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)]
    made = 0
    while made < count:
        kind = "cluster" if goal == "touch" else goal
        level = draw_level(rng, goal=kind, size=rng.choice(sizes))
        if goal == "touch":
            level = Level(level.start, Goal.touch())
        task = Task.from_level(level)
        graph = state_space(task)
        if graph is None:
            continue
        made += 1
        yield task, graph


@pytest.mark.parametrize("goal", ["match", "cluster", "touch"])
def test_bounds_are_admissible_and_consistent_by_exhaustive_search(goal):
    checked_states = 0
    for task, graph in small_levels(goal, 40, seed={"match": 1, "cluster": 2, "touch": 3}[goal]):
        dist = distances_to_goal(task, graph)
        reason = bounds.unreachable_reason(task)
        if reason is not None:
            assert tuple(task.start) not in dist, reason  # a proof of unsolvability is right
        values = {s: bounds.lower_bound(task, s) for s in graph}
        for s, d in dist.items():
            assert values[s] <= d, (task, s, values[s], d)
            checked_states += 1
        # (the cluster bound is consistent where its regions are enumerated: always on these boards)
        for s, nbrs in graph.items():
            for t in nbrs:
                assert abs(values[s] - values[t]) <= 1
        if goal == "match":
            ab = bounds.AssignmentBound(task)
            for s, d in dist.items():
                assert bounds.mismatch_bound(task, s) <= bounds.cycle_bound(task, s) <= d
                assert ab.bound(s) <= d
    assert checked_states > 500


def connected(task: Task, cells: set[int]) -> bool:
    todo = [next(iter(cells))]
    seen = set(todo)
    while todo:
        for b in task.neighbours[todo.pop()]:
            if b in cells and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen == cells


def connected_sets(task: Task, size: int, known: dict) -> list[set[int]]:
    """Every connected set of ``size`` cells, by brute force over all sets (kept in ``known``)."""
    if size not in known:
        known[size] = [set(cells) for cells in itertools.combinations(range(len(task.cells)), size) if connected(task, set(cells))]
    return known[size]


def plain_groups(task: Task, colours) -> dict[int, list[set[int]]]:
    """Each colour's orthogonally connected groups, found in cell order."""
    out: dict[int, list[set[int]]] = {}
    seen: set[int] = set()
    for i, colour in enumerate(colours):
        if i not in seen:
            group, todo = {i}, [i]
            while todo:
                for b in task.neighbours[todo.pop()]:
                    if colours[b] == colour and b not in group:
                        group.add(b)
                        todo.append(b)
            seen |= group
            out.setdefault(colour, []).append(group)
    return out


def plain_steps(task: Task, sources) -> dict[int, int]:
    """Steps from the nearest of ``sources`` to every cell reached across orthogonal neighbours,
    by breadth-first search."""
    dist = {i: 0 for i in sources}
    todo = deque(sources)
    while todo:
        a = todo.popleft()
        for b in task.neighbours[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


def plain_distances(task: Task) -> list[list[int]]:
    """Steps between every two cells (the swap graph of a board of towers of scope 1);
    UNREACHABLE_DISTANCE between walled-off parts."""
    table = []
    for source in range(len(task.cells)):
        dist = plain_steps(task, [source])
        table.append([dist.get(target, bounds.UNREACHABLE_DISTANCE) for target in range(len(task.cells))])
    return table


def plain_fill(task: Task, held: set[int], size: int, known: dict) -> int:
    """The least total distance of a matching of the cells of a connected set of ``size`` cells
    to distinct squares among ``held`` (SciPy's assignment, every square free to move, none
    assumed to stay), over every such set (brute force); UNREACHABLE_DISTANCE when there is none."""
    distance = np.array(plain_distances(task))
    squares = sorted(held)
    costs = []
    for region in connected_sets(task, size, known):
        block = distance[np.ix_(sorted(region), squares)]
        rows, columns = linear_sum_assignment(block)
        costs.append(int(block[rows, columns].sum()))
    return min(costs, default=bounds.UNREACHABLE_DISTANCE)  # (no such set: never gathers)


def plain_cluster_bound(task: Task, colours, exact_sizes=(), known=None, part_sizes=None) -> int:
    """The cluster bound by plain search over cell indices, the reference for the bit-set one on
    boards of towers of scope 1: per split colour of a size in ``exact_sizes``, the least total
    distance of a matching of all its squares to the cells of a connected region of that size
    (:func:`plain_fill`); else the relaxation (the first version in bounds.py): the squares
    outside its largest group, or, when fewer, the fewest other cells on a path between two of
    its groups, and, for a size that ``part_sizes`` maps to a smaller one, the larger of that
    and the least cost of filling a connected set of the smaller size (:func:`plain_fill`)."""
    needs = []
    known = {} if known is None else known
    for colour, groups in plain_groups(task, colours).items():
        if len(groups) < 2:
            continue
        held = set().union(*groups)
        if len(held) in exact_sizes:
            needs.append(plain_fill(task, held, len(held), known))
            continue
        sizes = [len(group) for group in groups]
        best = sum(sizes) - max(sizes)
        for group in groups:
            dist = {i: 0 for i in group}
            todo = deque(group)
            while todo:
                a = todo.popleft()
                for b in task.neighbours[a]:
                    if b in dist:
                        continue
                    if colours[b] == colour:  # another group, across dist[a] other cells
                        best = min(best, dist[a])
                        continue
                    dist[b] = dist[a] + 1
                    todo.append(b)
        if part_sizes and len(held) in part_sizes:
            best = max(best, plain_fill(task, held, part_sizes[len(held)], known))
        needs.append(best)
    return max((sum(needs) + 1) // 2, max(needs)) if needs else 0


def plain_lonely_cells(task: Task, colours) -> int:
    return sum(not any(colours[b] == colours[a] for b in task.neighbours[a]) for a in range(len(colours)))


def plain_guide(task: Task, colours, goal: str) -> int:
    """LayoutBound.guide by plain breadth-first search over cell indices."""
    total = 0
    groups_of = plain_groups(task, colours)  # (in cell order: the first of equally large groups is kept)
    for colour in set(colours):
        held = [i for i in range(len(colours)) if colours[i] == colour]
        if goal == "touch":
            for i in held:
                if not any(colours[b] == colour for b in task.neighbours[i]):
                    dist = plain_steps(task, [i])
                    others = [j for j in held if j != i]
                    nearest = min((dist[j] for j in others if j in dist), default=max(dist.values()) + 1)
                    total += max(1, nearest - 1) if others else 1  # (a colour of one square: 1)
            continue
        groups = groups_of[colour]
        if len(groups) > 1:
            largest = max(groups, key=len)
            dist = plain_steps(task, sorted(largest))
            far = max(dist.values()) + 1  # (cells walls cut off)
            total += sum(dist.get(j, far) for j in held if j not in largest)
    return total


@pytest.mark.slow
def test_bit_set_layout_bounds_agree_with_plain_search():
    """LayoutBound (bit sets, a colour's need cached per cell set) and its guide against the
    plain versions on random layouts of random boards with walls, up to 8x8, 2-6 colours, its
    caches reused across layouts of one board: the cluster need on boards of up to 16 cells
    against every connected region (brute force) where LayoutBound enumerates them, elsewhere
    against the relaxation (without ``fill_parts``; with it, see the next test)."""
    rng = random.Random(29)
    checked = exact = 0
    for _ in range(200):
        height, width = rng.randint(1, 8), rng.randint(1, 8)
        if rng.random() < 0.5:
            height, width = min(height, 4), min(width, 4)
        rows = [" ".join("###" if rng.random() < 0.15 else f"T1{rng.choice('RGBYMO'[:rng.randint(2, 6)])}"
                         for _ in range(width)) for _ in range(height)]
        if all(set(row.split()) == {"###"} for row in rows):
            continue
        task = Task.from_rows(rows)
        layout_bound = bounds.LayoutBound(task)
        touching = bounds.LayoutBound(Task.from_rows(rows, goal="touch"))
        known: dict[int, list[set[int]]] = {}
        for _ in range(20):
            colours = [rng.randrange(len(task.colours)) for _ in task.cells]
            sizes = {colours.count(x) for x in set(colours)}
            exact_sizes = {size for size in sizes if layout_bound.regions(size) is not None}
            if len(task.cells) > 16 and any(size > 3 for size in exact_sizes):
                continue  # (regions enumerated on a board too large for the brute force)
            assert layout_bound.cluster(colours) == plain_cluster_bound(task, colours, exact_sizes, known), (rows, colours)
            assert layout_bound.lonely(colours) == plain_lonely_cells(task, colours), (rows, colours)
            assert layout_bound.guide(colours) == plain_guide(task, colours, "cluster"), (rows, colours)
            assert touching.guide(colours) == plain_guide(task, colours, "touch"), (rows, colours)
            goal_met = all(count == 1 for count in task.group_counts(colours) if count)
            assert (layout_bound.guide(colours) == 0) == goal_met == (layout_bound.cluster(colours) == 0)
            assert (touching.guide(colours) == 0) == (plain_lonely_cells(task, colours) == 0)
            assert touching.values(colours) == ((plain_lonely_cells(task, colours) + 9) // 10, touching.guide(colours))
            assert layout_bound.values(colours) == (layout_bound.cluster(colours), layout_bound.guide(colours))
            checked += 1
            exact += bool(exact_sizes)
    assert checked > 2500 and exact > 1000, (checked, exact)


def test_past_the_region_limit_the_part_filling_bound_agrees_with_plain_search(monkeypatch):
    """LayoutBound with ``fill_parts`` (the bounds of a level's start), with a region limit small
    enough to be passed on boards of up to 16 cells: a colour past it needs the larger of the
    counting relaxation and the least filling of a connected part of the largest size still
    enumerated, each against brute force; that is never above the exact need (every region,
    brute force), and the filling alone changes by at most one per swap of two neighbouring
    cells (consistent)."""
    rng = random.Random(31)
    checked = 0
    for limit in (3, 12, 60):
        monkeypatch.setattr(layout_bounds, "REGION_LIMIT", limit)
        for _ in range(60):
            height, width = rng.randint(2, 4), rng.randint(2, 4)
            rows = [" ".join("###" if rng.random() < 0.12 else f"T1{rng.choice('RGB'[:rng.randint(2, 3)])}"
                             for _ in range(width)) for _ in range(height)]
            task = Task.from_rows(rows)
            if len(task.cells) < 3:
                continue
            layout_bound = bounds.LayoutBound(task, fill_parts=True)
            known: dict[int, list[set[int]]] = {}
            for _ in range(8):
                colours = [rng.randrange(len(task.colours)) for _ in task.cells]
                sizes = {colours.count(x) for x in set(colours)}
                past = {size for size in sizes if layout_bound.regions(size) is None}
                if not past:
                    continue
                part_sizes = {}
                for size in past:
                    part = size - 1
                    while part > 1 and layout_bound.regions(part) is None:
                        part -= 1
                    if layout_bound.regions(part) is not None:
                        part_sizes[size] = part
                exact = plain_cluster_bound(task, colours, sizes, known)
                value = layout_bound.cluster(colours)
                assert value == plain_cluster_bound(task, colours, sizes - past, known, part_sizes), (rows, colours, limit)
                assert value <= exact, (rows, colours, limit)
                masks = layout_bound.masks(colours)
                for a in range(len(task.cells)):
                    for b in task.neighbours[a]:
                        if b > a and colours[a] != colours[b]:  # (each neighbouring pair once)
                            swapped = list(colours)
                            swapped[a], swapped[b] = swapped[b], swapped[a]
                            for before, after in zip(masks, layout_bound.masks(swapped)):
                                size = before.bit_count()
                                if size in past and len(layout_bound.groups(before)) > 1 and len(layout_bound.groups(after)) > 1:
                                    assert abs(layout_bound._part_need(before, size) - layout_bound._part_need(after, size)) <= 1
                checked += 1
    assert checked > 300, checked


def test_cycle_bound_is_exact_for_unrestricted_swaps():
    """With every transposition allowed, mismatches minus the cycle packing is the distance."""
    rng = random.Random(5)
    for _ in range(60):
        n = rng.randint(2, 7)
        colours = rng.randint(2, 4)
        start = tuple(rng.randrange(colours) for _ in range(n))
        goal = list(start)
        rng.shuffle(goal)
        goal = tuple(goal)
        # breadth-first search over colour strings with arbitrary swaps
        dist = {start: 0}
        todo = deque([start])
        while goal not in dist:
            s = todo.popleft()
            for i, j in itertools.combinations(range(n), 2):
                if s[i] != s[j]:
                    t = list(s)
                    t[i], t[j] = t[j], t[i]
                    t = tuple(t)
                    if t not in dist:
                        dist[t] = dist[s] + 1
                        todo.append(t)
        arcs: dict = {}
        for a, g in zip(start, goal):
            if a != g:
                arcs[(a, g)] = arcs.get((a, g), 0) + 1
        assert sum(arcs.values()) - bounds.max_cycle_packing(arcs) == dist[goal]


def test_assignment_matches_brute_force():
    rng = random.Random(9)
    for _ in range(80):
        n = rng.randint(1, 6)
        cost = [[rng.randint(0, 9) for _ in range(n)] for _ in range(n)]
        brute = min(sum(cost[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
        assert bounds.min_cost_assignment(cost) == brute


@pytest.mark.skipif(bounds.scipy_assignment() is None, reason="SciPy not installed")
def test_scipy_and_our_own_assignment_give_the_same_bounds(monkeypatch):
    """Colours of SCIPY_FROM_SQUARES squares or more are matched by SciPy, smaller ones by our
    own Hungarian method: either way every bound is the same, on random states of expert-sized
    match levels."""
    from puzzlesat.swap.stepcost import StepCostBound, half_costs

    rng = random.Random(5)
    checked = 0
    for n in range(6):
        task = Task.from_level(draw_level(rng, goal="match", size=(rng.randint(4, 6), rng.randint(4, 6))))
        states = []
        for _ in range(40):
            state = list(task.start)
            rng.shuffle(state)  # (the bounds take any state with the start's squares)
            states.append(state)
        values = {}
        for threshold in (1, 10**6):  # SciPy for every colour, then for none
            monkeypatch.setattr(bounds, "SCIPY_FROM_SQUARES", threshold)  # (read there by stepcost)
            monkeypatch.setattr(match_bounds, "SCIPY_FROM_SQUARES", threshold)  # (read there by AssignmentBound)
            assignment, step_cost = bounds.AssignmentBound(task), StepCostBound(task, costs=half_costs(task))
            values[threshold] = [(assignment.bound(s), step_cost.bound(s)) for s in states]
        assert values[1] == values[10**6], n
        checked += len(states)
    assert checked == 240


def test_a_cluster_colour_that_can_never_gather_is_proven_unsolvable():
    """Reds in two walled-off halves (every 2-cell region needs a red from the other half), and
    reds with no 2-cell region at all: the cluster need is infinite, which proves it without
    trying every layout (the layout check agrees here, where there are few)."""
    split = Task.from_rows(["T1R T1G ### T1R T1G"])
    apart = Task.from_rows(["T1R ### T1R", "### T1G ###"])
    for task in (split, apart):
        assert bounds.cluster_bound(task, task.start) >= bounds.UNREACHABLE_DISTANCE
        assert bounds.no_goal_layout(task)
        assert "can never gather" in bounds.unreachable_reason(task)
    joined = Task.from_rows(["T1R T1G T1G T1R T1G"])  # two swaps: R G G R G -> G R G R G -> G G R R G
    assert bounds.unreachable_reason(joined) is None and bounds.cluster_bound(joined, joined.start) == 2


def test_components_split_by_figures_that_cannot_move():
    task = Task.from_rows(["B1R T1G T1R", "B1G B1G B1R"], goal=["R G R", "G G R"])
    # the bishops on row 1 only reach row 0 diagonally; the tower row reaches down
    assert len(set(bounds.swap_components(task))) == 1
    stuck = Task.from_rows(["B1R B1G"], goal=["G R"])
    assert bounds.unreachable_reason(stuck) is not None
    assert bounds.unreachable_reason(Task.from_rows(["T1R T1G T1G"], goal="touch")) is not None


@pytest.mark.parametrize("goal", ["match", "cluster", "touch"])
def test_search_minimum_equals_breadth_first_distance(goal):
    """The exact search (with its pruning of commuting swaps) finds the BFS distance, and proves
    unsolvability exactly when no goal state is reachable."""
    from puzzlesat.swap.search import search

    for task, graph in small_levels(goal, 30, seed={"match": 21, "cluster": 22, "touch": 23}[goal]):
        dist = distances_to_goal(task, graph)
        outcome = search(task, time_limit=30)
        start = tuple(task.start)
        if start in dist:
            assert outcome.status == "solved" and len(outcome.swaps) == dist[start]
        else:
            assert outcome.status == "unsatisfiable"


def random_figure_levels(count: int, seed: int):
    """Small match levels with every figure type, scopes 1-3 and walls (more queens and bishops
    than the original generator deals, so the step costs differ between classes)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        rows, cols = rng.choice([(2, 3), (3, 2), (3, 3), (2, 4)])
        tokens = []
        for _ in range(rows * cols):
            if rng.random() < 0.12:
                tokens.append("###")
            else:
                tokens.append(rng.choice("TTBQ") + str(rng.choice([1, 1, 2, 3])) + rng.choice("RGY"[: rng.choice([2, 3])]))
        colours = [t[-1] for t in tokens if t != "###"]
        if len(colours) < 3:
            continue
        rng.shuffle(colours)
        dealt = iter(colours)
        goal = ["#" if t == "###" else next(dealt) for t in tokens]
        task = Task.from_rows(
            [" ".join(tokens[r * cols:(r + 1) * cols]) for r in range(rows)],
            goal=[" ".join(goal[r * cols:(r + 1) * cols]) for r in range(rows)],
        )
        if task.is_goal(task.start):
            continue
        graph = state_space(task)
        if graph is None:
            continue
        made += 1
        yield task, graph


@pytest.mark.slow
def test_step_cost_bound_is_admissible_and_consistent_by_exhaustive_search():
    """The LP-chosen step costs never give a bound above the BFS distance, change by at most one
    per swap, meet every pair constraint in integers, and beat half costs somewhere."""
    from puzzlesat.swap.stepcost import SCALE, StepCostBound, half_costs, legal_class_pairs, present_classes, swap_edges

    def levels():
        yield from small_levels("match", 40, seed=31)
        yield from random_figure_levels(60, seed=32)

    checked, optimised, stronger = 0, 0, 0
    for task, graph in levels():
        dist = distances_to_goal(task, graph)
        step = StepCostBound(task)
        half = StepCostBound(task, costs=half_costs(task))
        optimised += step.optimised
        classes = present_classes(task)
        for e, edge in enumerate(swap_edges(task)):
            for a, b in legal_class_pairs(task, edge, classes[edge[0]]):
                assert step.costs[(a, e)] + step.costs[(b, e)] <= SCALE
        values = {s: step.bound(s) for s in graph}
        for s, d in dist.items():
            assert values[s] <= d, (task, s, values[s], d)
            assert half.bound(s) <= d
            stronger += values[s] > max(half.bound(s), bounds.lower_bound(task, s))
            checked += 1
        for s, nbrs in graph.items():
            for t in nbrs:
                assert abs(values[s] - values[t]) <= 1
    assert checked > 2000 and optimised >= 50 and stronger > 0, (checked, optimised, stronger)


def test_weighted_lp_keeps_the_best_bound_and_raises_the_cost_sum(monkeypatch):
    """One LP with the cost sum weighted in (COST_WEIGHT) gives, at start and at other states,
    the bound of the LP that maximises the bound alone (within the integer rounding), and a cost
    sum at least as large: the old two-stage "best bound, then largest sum" in one solve."""
    from puzzlesat.swap import stepcost

    def total_and_sum(task, costs, state):
        bound = stepcost.StepCostBound(task, costs=costs)
        return bound.total(bound.keys(state)), sum(bound.costs.values())

    compared = raised = 0
    for task, graph in random_figure_levels(12, seed=41):
        states = [tuple(task.start), *random.Random(compared).sample(sorted(graph), min(5, len(graph)))]
        for state in states:
            costs = stepcost.optimised_costs(task, at=state)
            if costs is None:
                continue
            weighted, weighted_sum = total_and_sum(task, costs, state)
            with monkeypatch.context() as patch:  # the bound alone, no weight on the cost sum
                patch.setattr(stepcost, "COST_WEIGHT", 0.0)
                plain, plain_sum = total_and_sum(task, stepcost.optimised_costs(task, at=state), state)
            slack = 2 * len(task.cells)  # the integer rounding: 1/SCALE per cost at most on a path
            assert weighted >= plain - slack, (task, state, weighted, plain)
            assert weighted_sum >= plain_sum - slack, (task, state, weighted_sum, plain_sum)
            raised += weighted_sum > plain_sum + slack
            compared += 1
    assert compared >= 40 and raised > 0, (compared, raised)


def test_the_lp_is_given_up_at_the_edge_where_its_time_runs_out(monkeypatch):
    """Building the LP checks its time at every edge: an edge of a board with many distinct
    squares holds a constraint per pair of its classes (an 8x8 board of 46 classes took 2.3 s to
    build with a 0.25 s share when the time was checked every 256 edges, so a 1 s limit
    answered after 2.4 s). Here the time runs out after the first edge."""
    from puzzlesat.swap import stepcost

    class RunsOutAfterOneEdge:
        checks = 0

        def remaining(self):
            return 10.0

        def expired(self):
            self.checks += 1
            return self.checks > 1

    clock = RunsOutAfterOneEdge()
    monkeypatch.setattr(stepcost, "Deadline", type("FakeDeadline", (), {"of": staticmethod(lambda limit: clock)}))
    task = Task.from_rows(["T1G T1R Q1Y", "Q1G T1R B1Y"], goal=["R R Y", "G G Y"])
    assert len(stepcost.swap_edges(task)) > 2
    assert stepcost.optimised_costs(task, time_limit=10) is None
    assert clock.checks == 2
