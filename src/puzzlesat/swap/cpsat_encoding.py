"""The CP-SAT model of a Swap level at one horizon (:class:`SwapEncoding`): a square class per cell
and step, one candidate swap per step, the goal after the last step, and the budgets of swaps the
lower bounds allow (``encodings/swap.md`` documents it exactly).

>>> from .compiled import Task
>>> encoding = SwapEncoding(Task.from_rows(["T1R T1G T1B"], goal=["G B R"]), 2)
>>> sorted(encoding.size())
['constraints', 'variables']
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ..timing import Deadline
from . import bounds
from .compiled import CLUSTER, MATCH, TOUCH, Task


# No LP relaxation: here it costs more than it prunes (encodings/swap.md, "Notes moved from the code")
CPSAT_PARAMETERS = {"linearization_level": 0}


class OutOfTime(Exception):
    """The time limit ran out while the model was being built."""


class SwapEncoding:
    """The CP-SAT model of ``task`` at horizon ``horizon``; owns its variables and its decoding.

    ``x[t][i][k]``: cell i holds class k after t swaps. A variable exists only where the class
    can be: some square of class k starts within t swap-graph edges of i, and (match goal) a
    goal cell of its colour lies within H - t edges; elsewhere it is the constant 0.
    ``s[t][p]``: step t (1..H) swaps candidate pair p. With ``allow_idle`` a step may swap
    nothing (idle steps come last), so feasibility means "at most H swaps".
    """

    def __init__(
        self,
        task: Task,
        horizon: int,
        *,
        allow_idle: bool = False,
        order_independent: bool = True,
        distance_budget: bool = True,
        filter_domains: bool = True,
        deadline: Deadline | None = None,
    ) -> None:
        self.task = task
        self.horizon = horizon
        self.allow_idle = allow_idle
        self.model = cp_model.CpModel()
        m = self.model
        n = len(task.cells)
        nclasses = len(task.classes)
        distance = bounds.swap_distances(task)
        far = bounds.UNREACHABLE_DISTANCE
        adjacent = bounds.swap_graph(task)
        edges = {(min(i, j), max(i, j)) for i in range(n) for j in adjacent[i]}
        pairs = [(p, i, j) for p, (i, j) in enumerate(task.pairs) if (i, j) in edges]
        self.pairs = pairs
        self.pairs_at: list[list[int]] = [[] for _ in range(n)]  # positions in self.pairs
        for q, (_, i, j) in enumerate(pairs):
            self.pairs_at[i].append(q)
            self.pairs_at[j].append(q)

        # earliest step class k can be at cell i; latest step (match) it may still be there
        earliest = [[far] * n for _ in range(nclasses)]
        for s_cell, k in enumerate(task.start):
            row = earliest[k]
            for i in range(n):
                row[i] = min(row[i], distance[s_cell][i])
        to_goal = [[0] * n for _ in range(nclasses)]
        if task.goal == MATCH:
            assert task.goal_colours is not None
            for k in range(nclasses):
                colour = task.class_colour[k]
                goals = [g for g in range(n) if task.goal_colours[g] == colour]
                for i in range(n):
                    to_goal[k][i] = min((distance[i][g] for g in goals), default=far)
        self.to_goal = to_goal

        def possible(t: int, i: int, k: int) -> bool:
            if not filter_domains:
                return earliest[k][i] < far
            return earliest[k][i] <= t and to_goal[k][i] <= horizon - t

        # x[t][i] = {class: BoolVar}; t = 0 holds constants (the start); absent classes are 0
        self.x: list[list[dict[int, object]]] = [[{task.start[i]: 1} for i in range(n)]]
        class_count = [0] * nclasses
        for k in task.start:
            class_count[k] += 1
        self.deadline = deadline
        for t in range(1, horizon + 1):
            self._check_time()
            row = [
                {k: m.new_bool_var(f"x{t}_{i}_{k}") for k in range(nclasses) if possible(t, i, k)}
                for i in range(n)
            ]
            for i in range(n):
                if not row[i]:
                    m.add_bool_or([])  # no class fits: this horizon is infeasible
                m.add_exactly_one(row[i].values())
            for k in range(nclasses):
                m.add(sum(row[i][k] for i in range(n) if k in row[i]) == class_count[k])
            self.x.append(row)

        self.s: list[list[object]] = [[]]
        self.idle: list[object] = [None]
        for t in range(1, horizon + 1):
            step = [m.new_bool_var(f"s{t}_{q}") for q in range(len(pairs))]
            if allow_idle:
                idle = m.new_bool_var(f"idle{t}")
                m.add_exactly_one(step + [idle])
                if t > 1:
                    m.add_implication(self.idle[t - 1], idle)
                self.idle.append(idle)
            else:
                m.add_exactly_one(step)
                self.idle.append(None)
            self.s.append(step)

        for t in range(1, horizon + 1):
            self._check_time()
            before, after, step = self.x[t - 1], self.x[t], self.s[t]
            for q, (p, i, j) in enumerate(pairs):
                s = step[q]
                # precondition: the class at i reaches j, or the class at j reaches i
                movers = [v for k, v in before[i].items() if task.forward[p] >> k & 1]
                movers += [v for k, v in before[j].items() if task.backward[p] >> k & 1]
                if any(isinstance(v, int) for v in movers):
                    pass  # the start's class reaches: always allowed at step 1
                elif movers:
                    m.add_bool_or(movers).only_enforce_if(s)
                else:
                    m.add(s == 0)
                # effects: the classes cross over
                for k, b in before[j].items():
                    self._imply(s, b, after[i].get(k, 0))
                for k, b in before[i].items():
                    self._imply(s, b, after[j].get(k, 0))
            # frame: an untouched cell keeps its class
            for w in range(n):
                touching = [step[q] for q in self.pairs_at[w]]
                for k, b in before[w].items():
                    a = after[w].get(k, 0)
                    clause = [*touching] + ([] if isinstance(a, int) else [a])
                    if isinstance(b, int):
                        m.add_bool_or(clause)
                    else:
                        m.add_bool_or([b.Not(), *clause])

        if order_independent:
            self._order_independent_swaps()
        if task.goal == MATCH and distance_budget:
            self._distance_budget()
        self._goal()

    # ---------------------------------------------------------------- helpers
    def _check_time(self) -> None:
        if self.deadline is not None and self.deadline.expired():
            raise OutOfTime
    def _imply(self, s, a, b) -> None:
        """s and a -> b, where a and b may be constants 0/1."""
        if isinstance(b, int) and b:
            return
        clause = [s.Not()]
        if isinstance(a, int):
            if not a:
                return
        else:
            clause.append(a.Not())
        if not isinstance(b, int):
            clause.append(b)
        self.model.add_bool_or(clause)

    def _order_independent_swaps(self) -> None:
        """Consecutive swaps on disjoint cells commute: keep only the order with the smaller
        pair first; and never undo the previous swap."""
        m = self.model
        pairs = self.pairs
        for t in range(1, self.horizon):
            self._check_time()
            step, nxt = self.s[t], self.s[t + 1]
            # later[q] = some pair with index >= q is used at step t (suffix OR)
            later = [m.new_bool_var(f"later{t}_{q}") for q in range(len(pairs))]
            for q in range(len(pairs)):
                # later[q] -> step[q] or later[q+1]; and step[q] -> later[q]; later[q+1] -> later[q]
                tail = [later[q + 1]] if q + 1 < len(pairs) else []
                m.add_bool_or([later[q].Not(), step[q], *tail])
                m.add_implication(step[q], later[q])
                if tail:
                    m.add_implication(tail[0], later[q])
            for q, (_, i, j) in enumerate(pairs):
                m.add_bool_or([step[q].Not(), nxt[q].Not()])
                if q + 1 >= len(pairs):
                    continue
                sharing = [step[r] for r in set(self.pairs_at[i]) | set(self.pairs_at[j]) if r > q]
                m.add_bool_or([nxt[q].Not(), later[q + 1].Not(), *sharing])

    def _distance_budget(self) -> None:
        """After t steps the squares' distances to the nearest goal cell of their colour sum to
        at most 2 (H - t) (a swap moves two squares one edge each), and per colour to at most
        H - t (a swap moves one square of a colour)."""
        task = self.task
        for t in range(1, self.horizon):
            self._check_time()
            per_colour: dict[int, list] = {}
            for i, row in enumerate(self.x[t]):
                for k, var in row.items():
                    d = self.to_goal[k][i]
                    if d:
                        per_colour.setdefault(task.class_colour[k], []).append(d * var)
            left = self.horizon - t
            self.model.add(sum(sum(terms) for terms in per_colour.values()) <= 2 * left)
            for terms in per_colour.values():
                self.model.add(sum(terms) <= left)
        self._assignment_dual_budget()
        self._cycle_budget()

    def _cycle_budget(self) -> None:
        """The colour-cycle bound, linearised: with A[a][b] the cells of colour a whose goal is
        b != a, m = sum A and P = sum over a < b of min(A[a][b], A[b][a]) (the 2-cycles), a
        cycle packing has at most P + (m - 2P) / 3 cycles, so at least (2m - P) / 3 swaps
        remain: 3 (H - t) >= 2m - P after t steps."""
        task, m = self.task, self.model
        assert task.goal_colours is not None
        ncol = max([*task.goal_colours, *task.class_colour]) + 1
        n = len(task.cells)
        for t in range(1, self.horizon):
            self._check_time()
            arcs: dict[tuple[int, int], list] = {}
            for i, row in enumerate(self.x[t]):
                g = task.goal_colours[i]
                for k, var in row.items():
                    a = task.class_colour[k]
                    if a != g:
                        arcs.setdefault((a, g), []).append(var)
            mismatched = sum(sum(v) for v in arcs.values())
            two_cycles = []
            for a in range(ncol):
                for b in range(a + 1, ncol):
                    if (a, b) in arcs and (b, a) in arcs:
                        low = m.new_int_var(0, n, f"two{t}_{a}_{b}")
                        m.add_min_equality(low, [sum(arcs[(a, b)]), sum(arcs[(b, a)])])
                        two_cycles.append(low)
            m.add(2 * mismatched - sum(two_cycles) <= 3 * (self.horizon - t))

    def _assignment_dual_budget(self) -> None:
        """The assignment bound through fixed dual potentials: for each colour X, the optimal
        duals (row[i], column[j]) of the start's square-to-goal-cell assignment, extended to
        every cell as pot[i] = min_j (d(i, j) - column[j]), give by weak duality
        cost_X(any state) >= sum of pot over the cells holding X + sum(column): a linear lower
        bound, exact at the start. After t steps it must be at most 2 (H - t) over all colours
        and H - t per colour."""
        task = self.task
        assert task.goal_colours is not None
        distance = bounds.swap_distances(task)
        n = len(task.cells)
        potential: dict[int, list[int]] = {}
        constant: dict[int, int] = {}
        for colour in set(task.goal_colours):
            sources = [i for i in range(n) if task.class_colour[task.start[i]] == colour]
            targets = [j for j in range(n) if task.goal_colours[j] == colour]
            if len(sources) != len(targets) or not sources:
                return
            _, _, column = bounds.assignment_with_potentials([[distance[i][j] for j in targets] for i in sources])
            potential[colour] = [min(distance[i][j] - column[q] for q, j in enumerate(targets)) for i in range(n)]
            constant[colour] = sum(column)
        for t in range(1, self.horizon):
            per_colour: dict[int, list] = {}
            for i, row in enumerate(self.x[t]):
                for k, var in row.items():
                    colour = task.class_colour[k]
                    if potential[colour][i]:
                        per_colour.setdefault(colour, []).append(potential[colour][i] * var)
            left = self.horizon - t
            self.model.add(sum(sum(terms) for terms in per_colour.values()) + sum(constant.values()) <= 2 * left)
            for colour, terms in per_colour.items():
                self.model.add(sum(terms) + constant[colour] <= left)

    def _colour_at_end(self) -> list[dict[int, object]]:
        task, m = self.task, self.model
        last = self.x[self.horizon]
        out = []
        for i, row in enumerate(last):
            by_colour: dict[int, list] = {}
            for k, var in row.items():
                by_colour.setdefault(task.class_colour[k], []).append(var)
            cell = {}
            for c, vars_ in by_colour.items():
                if len(vars_) == 1:
                    cell[c] = vars_[0]
                else:
                    v = m.new_bool_var(f"colour{i}_{c}")
                    m.add(v == sum(vars_))
                    cell[c] = v
            out.append(cell)
        return out

    def _goal(self) -> None:
        task, m = self.task, self.model
        if self.horizon == 0:  # nothing moves: the start must already meet the goal
            if not task.is_goal(task.start):
                m.add_bool_or([])
            return
        n = len(task.cells)
        last = self.x[self.horizon]
        if task.goal == MATCH:
            assert task.goal_colours is not None
            for i in range(n):
                for k, var in last[i].items():
                    if task.class_colour[k] != task.goal_colours[i]:
                        m.add(var == 0)
            return
        colour = self._colour_at_end()
        if task.goal == TOUCH:
            for i in range(n):
                for c, var in colour[i].items():
                    m.add_bool_or([colour[nb][c] for nb in task.neighbours[i] if c in colour[nb]]).only_enforce_if(var)
            return
        assert task.goal == CLUSTER
        count = [0] * len(task.colours)
        for k in task.start:
            count[task.class_colour[k]] += 1
        for c in range(len(task.colours)):
            if count[c] <= 1:
                continue
            cells = [i for i in range(n) if c in colour[i]]
            # root = the first cell (in index order) holding colour c
            reached = {}
            seen_before = None
            for i in cells:
                root = m.new_bool_var(f"root{c}_{i}")
                if seen_before is None:
                    m.add(root == colour[i][c])
                    seen_before = colour[i][c]
                else:
                    m.add_bool_and([colour[i][c], seen_before.Not()]).only_enforce_if(root)
                    m.add_bool_or([colour[i][c].Not(), seen_before, root])
                    prefix = m.new_bool_var(f"prefix{c}_{i}")
                    m.add_max_equality(prefix, [seen_before, colour[i][c]])
                    seen_before = prefix
                reached[i] = root
            # flood fill: after d rounds, cells of colour c within distance d of the root
            for d in range(1, count[c]):
                grown = {}
                for i in cells:
                    r = m.new_bool_var(f"reach{c}_{d}_{i}")
                    m.add_implication(r, colour[i][c])
                    m.add_bool_or(
                        [reached[i], *(reached[nb] for nb in task.neighbours[i] if nb in reached)]
                    ).only_enforce_if(r)
                    grown[i] = r
                reached = grown
            for i in cells:
                m.add_implication(colour[i][c], reached[i])

    # ---------------------------------------------------------------- decoding
    def decode(self, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
        swaps = []
        for t in range(1, self.horizon + 1):
            for q, var in enumerate(self.s[t]):
                if solver.boolean_value(var):
                    _, i, j = self.pairs[q]
                    swaps.append((i, j))
        return swaps

    def size(self) -> dict:
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}
