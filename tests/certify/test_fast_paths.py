"""The array paths of certifying and checking against their plain counterparts: numbers written
as text (numtext), the binary LRAT trace read back (certify/lrat.py), and the checker's
replay of a proof text read at once from the file's numbers (proofcheck/lrat.py) against the
line-by-line replay over lists of clauses, on tampered proofs too."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzlesat.certify.lrat import ProofSolver, _numbers
from puzzlesat.certify.numtext import lines_text
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.numberlink.relaxed import Formula
from puzzlesat.proofcheck import lrat


def test_lines_text_writes_what_str_writes() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 40)
        values = [rng.choice([0, rng.randint(-10 ** rng.randint(0, 15), 10 ** rng.randint(0, 15))]) for _ in range(n)]
        ends = sorted(set(rng.sample(range(n), rng.randint(0, n)) + [n - 1]))
        expected = "".join(str(v) + ("\n" if i in ends else " ") for i, v in enumerate(values))
        assert lines_text(np.array(values), np.array(ends)) == expected


def test_binary_trace_numbers_read_back() -> None:
    def varint(x: int) -> list[int]:
        out = []
        while x >= 128:
            out.append((x & 127) | 128)
            x >>= 7
        return out + [x]

    rng = random.Random(3)
    for _ in range(200):
        numbers = [rng.choice([0, 97, 100, rng.randint(0, 2 ** rng.randint(1, 50))]) for _ in range(rng.randint(1, 30))]
        assert _numbers(bytes(b for x in numbers for b in varint(x))).tolist() == numbers


def _certificate():
    """A formula (the relaxed rules of a small board, its first answer blocked) and CaDiCaL's
    trimmed proof that nothing is left."""
    formula = Formula(Puzzle.from_rows(["A..B", "....", "..C.", "A.BC"]), Rules(no_self_touch=True))
    with ProofSolver() as solver:
        solver.add(formula.clauses)
        while solver.solve(time_limit=None):
            answer, repairs = formula.examine(solver.model())
            for item in repairs:
                solver.add(formula.add(item))
            if not repairs:
                solver.add(formula.add(("answer", answer)))
        return formula, solver.proof()


def _tampered(proof: list[str], rng: random.Random) -> list[str]:
    lines = list(proof)
    i = rng.randrange(len(lines))
    tokens = lines[i].split()
    end = tokens.index("0", 1)
    kind = rng.randrange(5)
    if kind == 0 and end > 1:
        del tokens[rng.randrange(1, end)]  # a literal dropped
    elif kind == 1 and len(tokens) - end > 2:
        del tokens[rng.randrange(end + 1, len(tokens) - 1)]  # a hint dropped
    elif kind == 2 and len(tokens) - end > 3:
        j = rng.randrange(end + 1, len(tokens) - 2)
        tokens[j], tokens[j + 1] = tokens[j + 1], tokens[j]  # two hints swapped
    elif kind == 3:
        tokens[rng.randrange(len(tokens) - 1)] = str(rng.randint(-40, 40))  # a number changed
    else:
        lines = lines[:i]  # cut short
        return lines or ["1 0 0"]
    lines[i] = " ".join(tokens)
    return lines


def test_text_and_flat_replay_agree_with_the_line_replay_on_tampered_proofs() -> None:
    formula, proof = _certificate()
    clauses = formula.clauses
    lits, starts = formula.arrays()
    flat = lrat.Flat(lits.tolist(), starts.tolist(), False)
    assert lrat.check(flat, "".join(line + "\n" for line in proof)).valid
    rng = random.Random(11)
    refused = 0
    for _ in range(200):
        lines = _tampered(proof, rng)
        plain = lrat.check(clauses, lines)
        fast = lrat.check(flat, "".join(line + "\n" for line in lines))
        assert (fast.valid, fast.reason) == (plain.valid, plain.reason)
        refused += not plain.valid
    assert refused > 50


@pytest.mark.parametrize("text", ["5 2 0 1 2 0\n6 0 5 3 4 0", "5 2 0 1 2 0\n\n6 0 5 3 4 0\n", "c note\n5 2 0 1 2 0\n6 0 5 3 4 0\n",
                                  "5 2 0 1 2 0 6 0 5 3 4 0\n", "5 2 0 1 2 0\n6 0 5 3 4 0 \n"])
def test_other_proof_texts_are_read_line_by_line(text: str) -> None:
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert lrat.check(formula, text).valid == lrat.check(formula, text.splitlines()).valid
    assert lrat.check(formula, text).reason == lrat.check(formula, text.splitlines()).reason


def test_a_number_past_int64_is_read_as_written() -> None:
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    text = "5 2 0 1 99999999999999999999999 0\n6 0 5 3 4 0\n"
    assert lrat.check(formula, text).reason == lrat.check(formula, text.splitlines()).reason
    assert "99999999999999999999999" in lrat.check(formula, text).reason


def test_a_formula_file_with_the_clauses_in_another_order_is_checked_by_its_own_numbers(tmp_path) -> None:
    # (certificates written before the rows were grouped by kind list the same clauses in another order)
    from puzzlesat.certify import certify
    from puzzlesat.proofcheck import check_certificate

    directory = tmp_path / "cert"
    assert certify(Puzzle.from_rows(["A..B", "....", "..C.", "A.BC"]), family="numberlink", options={"no_self_touch": True},
                   directory=str(directory))["certificate"]
    lines = (directory / "formula.cnf").read_text().splitlines(keepends=True)
    head = next(i for i, line in enumerate(lines) if line.startswith("p cnf")) + 1
    clauses = lines[head:]
    order = list(range(len(clauses)))
    random.Random(5).shuffle(order)  # the clause first numbered order[k] + 1 now stands at k + 1
    moved = {old + 1: new + 1 for new, old in enumerate(order)}
    proof = (directory / "proof.lrat").read_text()
    (directory / "formula.cnf").write_text("".join(lines[:head] + [clauses[old] for old in order]))
    assert not check_certificate(str(directory)).confirmed  # the proof's numbers no longer fit

    def renumbered(line: str) -> str:
        tokens = line.split()
        end = tokens.index("0", 1)
        return " ".join(tokens[:end + 1] + [str(moved.get(int(h), int(h))) for h in tokens[end + 1:-1]] + ["0"])

    (directory / "proof.lrat").write_text("".join(renumbered(line) + "\n" for line in proof.splitlines()))
    check = check_certificate(str(directory))
    assert check.confirmed, check.reason
    lines[-1] = lines[-1].replace(" 0", " 1 0", 1)  # and a clause changed is still refused
    (directory / "formula.cnf").write_text("".join(lines[:head] + [clauses[old] for old in order[:-1]] + [lines[-1]]))
    assert "not the puzzle's formula" in check_certificate(str(directory)).reason
