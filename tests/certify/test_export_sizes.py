"""The exported Numberlink formula's size formula (encodings/numberlink.md, "The exported
formula") against the formula as built."""

from __future__ import annotations

from math import comb

import pytest

from puzzlesat.numberlink.export import export_cnf
from puzzlesat.numberlink.model import Rules
from tests.numberlink.test_counts import ALL_RULES, CASES


def expected_size(puzzle, rules: Rules, exclude: bool) -> tuple[int, int]:
    ends = puzzle.endpoints()
    free = set(puzzle.free_cells())
    n = {c: len(list(puzzle.neighbours(c))) for c in free}
    inner = [c for c in free if c not in ends]
    used = [c for c in inner if n[c]]
    K, I = len(puzzle.labels), len(inner)
    b = max(1, I.bit_length())
    E_ii = E_ei = E_same = E_diff = 0
    for u in free:
        for v in ((u[0], u[1] + 1), (u[0] + 1, u[1])):
            if v in free:
                if u in ends and v in ends:
                    E_same += ends[u] == ends[v]
                    E_diff += ends[u] != ends[v]
                elif u in ends or v in ends:
                    E_ei += 1
                else:
                    E_ii += 1
    E = E_ii + E_ei + E_same + E_diff
    Q = sum(1 for r in range(puzzle.height - 1) for c in range(puzzle.width - 1)
            if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= free)
    nst = rules.no_self_touch
    variables = E + (K + b) * len(used) + (2 * E_ii + E_ei) + 2 * E_ii * b
    clauses = (sum(1 + comb(n[c], 2) for c in ends) + sum(comb(n[c], 3) + n[c] for c in inner)
               + E_diff + nst * E_same + (K + nst) * E_ei + (2 + nst) * K * E_ii
               + 2 * E_ii * (b * b + b + 2) + 2 * E_ei
               + (len(inner) + sum(1 for c in inner if not n[c]) if rules.cover_all else sum(n[c] for c in inner))
               + (4 * Q if nst else Q) + exclude)
    return variables, clauses


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_the_size_formula_matches_the_export(rules: Rules) -> None:
    for name, puzzle in CASES:
        cnf = export_cnf(puzzle, rules=rules)
        assert (cnf.nv, len(cnf.clauses)) == expected_size(puzzle, rules, False), name
