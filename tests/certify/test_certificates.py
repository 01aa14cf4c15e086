"""Certificates of small puzzles of every family are written and confirmed by the independent
checker; a tampered proof, a tampered formula and a wrong claim are each refused with a reason."""

from __future__ import annotations

import json
import os
import random

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from puzzlesat.certify import certify
from puzzlesat.numberlink import parse
from puzzlesat.numberlink.model import Puzzle
from puzzlesat.proofcheck import check_certificate, check_tree, drat
from puzzlesat.roller.model import Level as RollerLevel
from puzzlesat.swap.model import Level as SwapLevel

EXAMPLE_5X5 = parse(open(os.path.join(os.path.dirname(__file__), "..", "..", "examples", "numberlink", "first_5x5.nl")).read())
CASES = {
    "numberlink unique": ("numberlink", EXAMPLE_5X5, {}, "unique"),
    "numberlink no-self-touch": ("numberlink", EXAMPLE_5X5, {"no_self_touch": True}, None),
    "numberlink may-leave-empty": ("numberlink", Puzzle.from_rows(["A.A", "B.B"]), {"no_self_touch": True, "allow_empty": True}, None),
    "numberlink found unsolvable": ("numberlink", Puzzle.from_rows(["A#.A", "B..B"]), {"no_self_touch": True, "allow_empty": True}, None),
    "numberlink unsolvable": ("numberlink", Puzzle.from_rows(["AB", "BA"]), {}, "unsolvable"),
    "roller minimum": ("roller", RollerLevel.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"]), {}, "minimum"),
    "roller unsolvable": ("roller", RollerLevel.from_rows(["o..", "#.#", "..."]), {}, "unsolvable"),
    "swap minimum": ("swap", SwapLevel.from_rows(["T1R B1G T1R", "T1G T1R B1G"], goal=["G R G", "R G R"]), {}, "minimum"),
    "swap touch": ("swap", SwapLevel.from_rows(["T1R T1G T1R T1G"], goal="touch"), {}, "minimum"),
    "swap cluster": ("swap", SwapLevel.from_rows(["T1R T1G", "T1G T1R"], goal="cluster"), {}, "minimum"),
    "swap unsolvable": ("swap", SwapLevel.from_rows(["T1R ### T1G"], goal=["G # R"]), {}, "unsolvable"),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("certificates")
    out = {}
    for name, (family, puzzle, options, claim) in CASES.items():
        directory = str(root / name.replace(" ", "-"))
        out[name] = (directory, certify(puzzle, claim, family=family, options=options, time_limit=30, directory=directory))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_certificates_of_every_family_are_confirmed(written, name: str) -> None:
    directory, record = written[name]
    assert record["certificate"] == directory, record
    check = check_certificate(directory)
    assert check.confirmed, check.reason
    expected = CASES[name][3] or ("unsolvable" if "unsolvable" in name else "unique")
    assert check.claim.split()[0] == expected


def test_the_numberlink_answer_is_unique_only_when_it_is(tmp_path) -> None:
    record = certify(Puzzle.from_rows(["A..", "...", "..A"]), "unique", family="numberlink", time_limit=30, directory=str(tmp_path))
    assert record["certificate"] is None and record["reason"].startswith("not unique") and record["second"]
    assert not os.path.exists(tmp_path / "manifest.json")


def test_a_claim_that_cannot_be_certified_says_why(tmp_path) -> None:
    # unsolvable (the cell below the room is never painted), but finite only past 300 moves
    room = RollerLevel.from_rows(["#" * 14, "#o" + "." * 11 + "#"] + ["#" + "." * 12 + "#"] * 10 + ["#" * 10 + ".###", "#" * 14])
    record = certify(room, family="roller", time_limit=10, directory=str(tmp_path))
    assert record["certificate"] is None and "past the 300 attempted" in record["reason"]
    assert not os.path.exists(tmp_path / "manifest.json")


def _read_json(path) -> dict:
    with open(path) as file:
        return json.load(file)


def _write_json(path, manifest: dict) -> None:
    with open(path, "w") as file:
        json.dump(manifest, file)


def _copy(directory: str, target) -> str:
    os.makedirs(target)
    for name in os.listdir(directory):
        with open(os.path.join(directory, name)) as src, open(target / name, "w") as dst:
            dst.write(src.read())
    return str(target)


def _proof_path(directory: str) -> str:
    return os.path.join(directory, _read_json(os.path.join(directory, "manifest.json"))["proof"])


def test_a_tampered_proof_is_refused(written, tmp_path) -> None:
    copy = _copy(written["roller minimum"][0], tmp_path / "c")
    with open(_proof_path(copy)) as f:
        lines = f.read().splitlines()
    with open(_proof_path(copy), "w") as f:  # keep only the final empty clause
        f.write(lines[-1] + "\n")
    check = check_certificate(copy)
    assert len(lines) > 1 and not check.confirmed and "proof is refused" in check.reason


@pytest.mark.parametrize("name", ["numberlink unique", "swap minimum"])
def test_a_proof_with_a_lemma_changed_is_refused(written, tmp_path, name) -> None:
    copy = _copy(written[name][0], tmp_path / "c")
    with open(_proof_path(copy)) as f:
        lines = f.read().splitlines()
    tokens = lines[0].split()
    end = tokens.index("0", 1)
    for changed in (tokens[:end - 1] + tokens[end:],  # a literal dropped from the first lemma (a stronger claim)
                    tokens[:end + 1] + tokens[end + 2:]):  # its first hint dropped
        with open(_proof_path(copy), "w") as f:
            f.write("\n".join([" ".join(changed)] + lines[1:]) + "\n")
        check = check_certificate(copy)
        assert end > 1 and not check.confirmed and "proof is refused" in check.reason, (changed, check.reason)


def test_a_tampered_formula_is_refused(written, tmp_path) -> None:
    copy = _copy(written["swap minimum"][0], tmp_path / "c")
    path = os.path.join(copy, "formula.cnf")
    with open(path) as f:
        lines = f.read().splitlines()
    first = next(i for i, line in enumerate(lines) if line and line[0] not in "cp")
    lines[first] = "1 " + lines[first]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    check = check_certificate(copy)
    assert not check.confirmed and "not the puzzle's formula" in check.reason


def test_a_dropped_clause_is_refused_even_with_its_proof(written, tmp_path) -> None:
    copy = _copy(written["numberlink unique"][0], tmp_path / "c")
    path = os.path.join(copy, "formula.cnf")
    nv, clauses = drat.parse_dimacs(open(path).read().splitlines())
    CNF(from_clauses=clauses[:-1]).to_file(path)  # the blocking clause removed
    check = check_certificate(copy)
    assert not check.confirmed and "not the puzzle's formula" in check.reason


@pytest.mark.parametrize("change,words", [
    (lambda m: m.update(moves=m["moves"] + 1), "claim is wrong"),
    (lambda m: m.update(moves=m["moves"] + 1, bound=m["bound"] + 1, answer=m["answer"] + "U"), "does not replay"),
    (lambda m: m.update(answer=m["answer"][:-1]), "claim is wrong"),
])
def test_a_wrong_minimum_is_refused(written, tmp_path, change, words) -> None:
    copy = _copy(written["roller minimum"][0], tmp_path / "c")
    path = os.path.join(copy, "manifest.json")
    manifest = _read_json(path)
    change(manifest)
    _write_json(path, manifest)
    check = check_certificate(copy)
    assert not check.confirmed and words in check.reason, check.reason


def test_a_wrong_unique_claim_is_refused(written, tmp_path) -> None:
    # claim "unsolvable" with the proof of "unique": the formula without the block is satisfiable
    copy = _copy(written["numberlink unique"][0], tmp_path / "c")
    path = os.path.join(copy, "manifest.json")
    manifest = _read_json(path)
    manifest["claim"] = "unsolvable"
    _write_json(path, manifest)
    check = check_certificate(copy)
    assert not check.confirmed and "blocks an answer" in check.reason
    manifest["additions"] = [item for item in manifest["additions"] if item != ["answer"]]
    _write_json(path, manifest)
    check = check_certificate(copy)
    assert not check.confirmed and "not the puzzle's formula" in check.reason
    manifest["claim"], manifest["additions"] = "unique", manifest["additions"] + [["answer"]]
    manifest["answer"] = {"A": [[0, 0], [1, 0], [2, 0]], "B": [[0, 2], [2, 2]]}
    _write_json(path, manifest)
    check = check_certificate(copy)
    assert not check.confirmed and "breaks the rules" in check.reason


def test_an_unsolvable_claim_with_too_small_a_bound_is_refused(written, tmp_path) -> None:
    copy = _copy(written["roller unsolvable"][0], tmp_path / "c")
    path = os.path.join(copy, "manifest.json")
    manifest = _read_json(path)
    manifest["bound"] = 1
    _write_json(path, manifest)
    check = check_certificate(copy)
    assert not check.confirmed and "needs no plan up to" in check.reason


def test_check_tree_finds_every_certificate(written) -> None:
    root = os.path.dirname(next(iter(written.values()))[0])
    checks = check_tree(root)
    assert len(checks) == len(CASES) and all(c.confirmed for c in checks)


# -- the DRAT checker on its own ---------------------------------------------------------------

def _pigeons(n: int) -> list[list[int]]:
    var = lambda p, h: p * n + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(n)] for p in range(n + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(n) for p in range(n + 1) for q in range(p + 1, n + 1)]
    return clauses


def _proof(clauses) -> list[str]:
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as s:
        assert s.solve() is False
        return s.get_proof()


def _dimacs(clauses) -> list[str]:
    return [f"p cnf {max(abs(l) for c in clauses for l in c)} {len(clauses)}"] + [" ".join(map(str, c)) + " 0" for c in clauses]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_drat_confirms_solver_proofs_of_pigeonholes(n: int) -> None:
    clauses = _pigeons(n)
    assert drat.check(_dimacs(clauses), _proof(clauses)).valid


def test_drat_confirms_random_unsat_formulas_and_refuses_them_weakened() -> None:
    rng = random.Random(1)
    checked = 0
    while checked < 10:
        clauses = [[rng.choice([-1, 1]) * rng.randint(1, 30) for _ in range(3)] for _ in range(150)]
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            if s.solve():
                continue
        proof = _proof(clauses)
        assert drat.check(_dimacs(clauses), proof).valid
        # dropping clauses until satisfiable: the same proof must then be refused
        weaker = list(clauses)
        while True:
            weaker.pop(rng.randrange(len(weaker)))
            with Solver(bootstrap_with=weaker) as s:
                if s.solve():
                    break
        assert not drat.check(_dimacs(weaker), proof).valid
        checked += 1


def test_drat_accepts_a_rat_lemma() -> None:
    # x3 is fresh: "3" is not RUP but RAT on 3 (no clause holds -3); then the proof goes on by RUP
    formula = ["p cnf 2 4", "1 2 0", "-1 2 0", "1 -2 0", "-1 -2 0"]
    outcome = drat.check(formula, ["3 0", "2 0", "0"])
    assert outcome.valid and outcome.rat_lemmas == 1
    # here the resolvent of "3" with "-3 1" is "3 1", which is not RUP: refused
    refused = drat.check(["p cnf 3 2", "-3 1 0", "-3 -1 0"], ["3 0", "0"])
    assert not refused.valid and refused.reason == "lemma 1 (3) is neither RUP nor RAT"


def test_drat_past_its_time_limit_confirms_nothing_and_says_so() -> None:
    clauses = _pigeons(6)
    proof = _proof(clauses)
    assert sum(1 for line in proof if not line.startswith("d")) >= 128
    outcome = drat.check(_dimacs(clauses), proof, time_limit=0)
    assert not outcome.valid and outcome.reason.startswith("out of time")


def test_export_formula_as_the_export_command_writes_it() -> None:
    from puzzlesat.certify import export_formula

    def sat(cnf) -> bool:
        with Solver(bootstrap_with=cnf.clauses) as s:
            return s.solve()

    assert not sat(export_formula(EXAMPLE_5X5, family="numberlink", exclude_answer=True))
    assert sat(export_formula(Puzzle.from_rows(["A..", "...", "..A"]), family="numberlink", exclude_answer=True))
    with pytest.raises(ValueError, match="no answer to exclude"):
        export_formula(Puzzle.from_rows(["AB", "BA"]), family="numberlink", exclude_answer=True)
    level = CASES["roller minimum"][1]
    cnf = export_formula(level, family="roller")  # the bound defaults to the proven minimum, 4
    assert sat(cnf) and "at most 4 moves" in cnf.comments[0]
    assert not sat(export_formula(level, family="roller", moves=3))
    with pytest.raises(ValueError, match="excludes no answer"):
        export_formula(level, family="roller", exclude_answer=True)


def test_a_manifest_naming_files_outside_its_directory_is_refused(written, tmp_path) -> None:
    copy = _copy(written["swap minimum"][0], tmp_path / "c")
    path = os.path.join(copy, "manifest.json")
    manifest = _read_json(path)
    manifest["proof"] = "../elsewhere.drat"
    _write_json(path, manifest)
    check = check_certificate(copy)
    assert not check.confirmed and "must lie in its directory" in check.reason


def test_stacks_of_layers_are_certified_with_vias_too(tmp_path) -> None:
    from puzzlesat.numberlink.multilayer.model import Puzzle as Stack, Via
    from puzzlesat.registry import get_family

    family = get_family("numberlink")
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "numberlink", "two_layers_4x4x2.nl")
    stack = family.load(open(path).read(), source=path, fmt=None, options=family.defaults())[0]
    record = certify(stack, family="numberlink", time_limit=30, directory=str(tmp_path / "stack"))
    assert record["claim"] == "unique" and record["certificate"], record
    check = check_certificate(str(tmp_path / "stack"))
    assert check.confirmed, check.reason
    # one via: A passes it; the only answer covering every cell
    with_vias = Stack.from_layers([["A..", "..."], ["...", ".A."]], vias=[Via("a", [(0, 1, 0), (1, 1, 0)])])
    record = certify(with_vias, family="numberlink", time_limit=10, directory=str(tmp_path / "vias"))
    assert record["claim"] == "unique" and record["certificate"], record
    check = check_certificate(str(tmp_path / "vias"))
    assert check.confirmed, check.reason
    # the via taken away from the manifest's puzzle: its answer breaks the rules of the stack left
    path = tmp_path / "vias" / "manifest.json"
    manifest = _read_json(path)
    manifest["puzzle"] = family.format(Stack.from_layers([["A..", "..."], ["...", ".A."]]), fmt="layers")
    _write_json(path, manifest)
    assert not check_certificate(str(tmp_path / "vias")).confirmed


# -- the LRAT proofs and their checker on their own ---------------------------------------------

def _lrat_proof(batches) -> list[str]:
    """The trimmed LRAT proof of the clauses of ``batches``, added batch by batch with a solve
    between (the first batches satisfiable): originals come after lemmas, as in a certificate."""
    from puzzlesat.certify.lrat import ProofSolver

    with ProofSolver() as solver:
        for batch in batches:
            solver.add(batch)
            verdict = solver.solve(time_limit=None)
        assert verdict is False
        return solver.proof()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_lrat_confirms_solver_proofs_of_pigeonholes(n: int) -> None:
    from puzzlesat.proofcheck import lrat

    clauses = _pigeons(n)
    assert lrat.check(clauses, _lrat_proof([clauses])).valid


def test_lrat_confirms_incremental_proofs_and_refuses_them_weakened() -> None:
    # units first (they propagate as they come, so lemmas are numbered among the originals), then
    # a satisfiable part, then the rest: the proof's numbers must still name the right clauses
    from puzzlesat.proofcheck import lrat

    rng = random.Random(2)
    checked = 0
    while checked < 8:
        clauses = [[rng.choice([-1, 1]) * rng.randint(1, 25) for _ in range(3)] for _ in range(130)]
        units = [[rng.choice([-1, 1]) * v] for v in rng.sample(range(1, 26), 3)]
        formula = units + clauses
        with Solver(name="cadical195", bootstrap_with=formula) as s:
            if s.solve():
                continue
        with Solver(name="cadical195", bootstrap_with=formula[:60]) as s:
            if not s.solve():
                continue
        proof = _lrat_proof([formula[:60], formula[60:]])
        assert proof is not None and lrat.check(formula, proof).valid
        weaker = list(formula)
        while True:  # clauses dropped until satisfiable (each replaced by a fresh variable, so numbers stay)
            i = rng.randrange(len(weaker))
            weaker[i] = [100 + i]
            with Solver(bootstrap_with=weaker) as s:
                if s.solve():
                    break
        assert not lrat.check(weaker, proof).valid
        checked += 1


def test_lrat_refuses_rat_hints_missing_clauses_and_disorder() -> None:
    from puzzlesat.proofcheck import lrat

    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert lrat.check(formula, ["5 2 0 1 2 0", "6 0 5 3 4 0"]).valid
    assert "RAT" in lrat.check(formula, ["5 2 0 -1 2 0", "6 0 5 3 4 0"]).reason
    assert "names no clause" in lrat.check(formula, ["5 2 0 1 9 0", "6 0 5 3 4 0"]).reason
    assert "does not come after" in lrat.check(formula, ["4 2 0 1 2 0", "6 0 4 3 4 0"]).reason
    assert "names no clause" in lrat.check(formula, ["5 2 0 1 2 0", "5 d 5 0", "6 0 5 3 4 0"]).reason
    assert lrat.check(formula, ["5 2 0 1 2 0"]).reason == "the proof ends without deriving the empty clause"
