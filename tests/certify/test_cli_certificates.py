"""The certificate commands from the command line, in process, for every family: ``export``
writes a DIMACS file whose comment lines map its variables and whose verdicts match the
puzzle's; ``solve --proof`` / ``verify --proof`` write certificates that ``check-proof``
confirms; a tampered proof makes ``check-proof`` exit 1 naming it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from puzzlesat import registry
from puzzlesat.cli import main
from puzzlesat.proofcheck import drat

from ..samples import SAMPLES
from ..schema import assert_valid

FAMILIES = [family for family in registry.families() if family.certify_claim is not None and family.name in SAMPLES]
IDS = [family.name for family in FAMILIES]


def sample_file(folder, family):
    path = folder / f"sample{family.extensions[0] if family.extensions else '.txt'}"
    path.write_text(SAMPLES[family.name][0] + "\n")
    return path


def satisfiable(path) -> bool:
    _, clauses = drat.parse_dimacs(open(path).read().splitlines())
    with Solver(bootstrap_with=clauses) as solver:
        return solver.solve()


def comments(path) -> tuple[int, dict[int, str], list[int]]:
    """(variables in the header, each commented variable's meaning, the answer variables)."""
    lines = open(path).read().splitlines()
    header = next(line for line in lines if line.startswith("p cnf"))
    meaning = {int(line.split()[2]): " ".join(line.split()[3:]) for line in lines if line.startswith("c var ")}
    answer = [int(v) for line in lines if line.startswith("c answer ") and line.split()[2].isdigit() for v in line.split()[2:]]
    return int(header.split()[2]), meaning, answer


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_export_writes_a_commented_dimacs_file_with_the_puzzle_s_verdicts(family, tmp_path, capsys) -> None:
    path = sample_file(tmp_path, family)
    moves = SAMPLES[family.name][1]
    out = tmp_path / "out.cnf"
    assert main(["export", str(path), "--family", family.name, "--cnf", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    nv, meaning, answer = comments(out)
    assert answer and all(meaning.get(v) for v in answer)  # every answer variable says what it means
    assert set(meaning) <= set(range(1, nv + 1)) and len(meaning) >= len(answer)
    assert satisfiable(out)  # the rules (Numberlink) or "at most the minimum" (fewest moves) hold
    tighter = tmp_path / "tighter.cnf"
    if moves is None:  # unique: the formula with its first answer blocked has no model
        assert main(["export", str(path), "--family", family.name, "--cnf", str(tighter), "--exclude-answer"]) == 0
        assert "excluded" in open(tighter).read()
    else:  # minimum K: no plan of K - 1 moves; a plan of K
        assert main(["export", str(path), "--family", family.name, "--cnf", str(tighter), "--moves", str(moves - 1)]) == 0
        assert main(["export", str(path), "--family", family.name, "--cnf", str(out), "--moves", str(moves)]) == 0
        assert satisfiable(out)
    assert not satisfiable(tighter)


def test_export_refuses_what_a_family_cannot_write(tmp_path, capsys) -> None:
    for family in FAMILIES:
        path = sample_file(tmp_path, family)
        wrong = ["--moves", "3"] if family.objective.value == "unique" else ["--exclude-answer"]
        assert main(["export", str(path), "--family", family.name, "--cnf", str(tmp_path / "x.cnf"), *wrong]) == 2
        assert "error: cannot export" in capsys.readouterr().err
    assert not (tmp_path / "x.cnf").exists()


@pytest.fixture(scope="module")
def proofs(tmp_path_factory) -> tuple:
    """solve --proof DIR on every family's sample (one folder per puzzle), with the records."""
    folder = tmp_path_factory.mktemp("puzzles")
    root = tmp_path_factory.mktemp("proofs")
    records = {}
    for family in FAMILIES:
        path = sample_file(folder, family)
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(["solve", str(path), "--family", family.name, "--json", "--time-limit", "30", "--proof", str(root)]) == 0
        (records[family.name],) = [json.loads(line) for line in buffer.getvalue().splitlines()]
    return root, records


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_solve_proof_writes_a_certificate_the_record_names(proofs, family) -> None:
    root, records = proofs
    record = records[family.name]
    assert_valid(record)
    expected = "unique" if SAMPLES[family.name][1] is None else "minimum"
    assert record["certificate_claim"] == expected and record["certificate_reason"] is None
    assert os.path.dirname(record["certificate"]) == str(root)
    assert os.path.isfile(os.path.join(record["certificate"], "manifest.json"))


def test_check_proof_confirms_every_certificate(proofs, capsys) -> None:
    root, records = proofs
    assert main(["check-proof", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for record in records.values():
        (line,) = [line for line in lines if line.startswith(record["certificate"] + ":")]
        assert ": confirmed: " in line and record["certificate_claim"] in line
    assert f"{len(records)} certificate(s): {len(records)} confirmed, 0 not confirmed" in lines
    assert main(["check-proof", str(root), "--json"]) == 0
    checked = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(c["directory"] for c in checked) == sorted(r["certificate"] for r in records.values())
    assert all(c["confirmed"] for c in checked)


def test_a_tampered_proof_makes_check_proof_fail_naming_it(proofs, tmp_path, capsys) -> None:
    root, records = proofs
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    # a level whose "at most K - 1 moves" is not refuted by unit propagation alone, so that a
    # proof cut to its final empty clause derives nothing
    level = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "roller", "small.roller")
    assert main(["solve", level, "--time-limit", "30", "--proof", str(copy)]) == 0
    (tampered,) = [path for path in copy.iterdir() if path.name.endswith("small.roller-0")]
    lines = (tampered / "proof.lrat").read_text().splitlines()
    assert len(lines) > 1
    (tampered / "proof.lrat").write_text(lines[-1] + "\n")  # the final empty clause alone
    capsys.readouterr()
    assert main(["check-proof", str(copy)]) == 1
    lines = capsys.readouterr().out.splitlines()
    (bad,) = [line for line in lines if "NOT confirmed" in line]
    assert bad.startswith(f"{tampered}:") and "the proof is refused" in bad
    assert sum(": confirmed: " in line for line in lines) == len(records)
    assert f"{len(records) + 1} certificate(s): {len(records)} confirmed, 1 not confirmed" in lines


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_a_tampered_formula_makes_check_proof_fail_naming_it(proofs, family, tmp_path, capsys) -> None:
    root, records = proofs
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    tampered = copy / os.path.basename(records[family.name]["certificate"])
    _, clauses = drat.parse_dimacs((tampered / "formula.cnf").read_text().splitlines())
    CNF(from_clauses=clauses[:-1]).to_file(str(tampered / "formula.cnf"))  # its last clause dropped
    assert main(["check-proof", str(copy)]) == 1
    out = capsys.readouterr().out.splitlines()
    (bad,) = [line for line in out if "NOT confirmed" in line]
    assert bad.startswith(f"{tampered}:") and "not the puzzle's formula" in bad


def test_verify_proof_adds_the_certificate_keys(tmp_path, capsys) -> None:
    family = FAMILIES[-1]
    path = sample_file(tmp_path, family)
    root = tmp_path / "certs"
    assert main(["verify", str(path), "--family", family.name, "--json", "--time-limit", "30", "--proof", str(root)]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert_valid(record)
    assert record["certificate"] and record["certificate_claim"] and record["certificate_reason"] is None
    assert main(["check-proof", str(root)]) == 0


def test_check_proof_of_a_folder_without_certificates_fails(tmp_path, capsys) -> None:
    assert main(["check-proof", str(tmp_path)]) == 1
    assert "no certificate" in capsys.readouterr().err
    assert main(["check-proof", str(tmp_path / "missing")]) == 2


def test_a_claim_that_cannot_be_certified_is_said_in_the_record(tmp_path, capsys) -> None:
    # an unsolvable level (the cell below the room is never painted) whose claim is finite only
    # past 300 moves: not attempted, and said so
    level = tmp_path / "room.roller"
    level.write_text("\n".join(["#" * 14, "#o" + "." * 11 + "#"] + ["#" + "." * 12 + "#"] * 10 + ["#" * 10 + ".###", "#" * 14]) + "\n")
    root = tmp_path / "certs"
    assert main(["solve", str(level), "--json", "--time-limit", "30", "--proof", str(root)]) == 1
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert_valid(record)
    assert record["status"] == "unsolvable" and record["certificate"] is None and "past the 300" in record["certificate_reason"]
    assert record["certificate_claim"] == "unsolvable"
    assert not root.exists()  # nothing was certified: no folder written, nothing to confirm
    assert main(["solve", str(level), "--time-limit", "30", "--proof", str(root)]) == 1  # a person reads why
    assert "no certificate of unsolvable: not certified: the claim is finite only up to" in capsys.readouterr().out


def test_export_takes_the_family_s_rule_options_and_writes_to_standard_output(tmp_path, capsys) -> None:
    family = registry.get_family("numberlink")
    path = sample_file(tmp_path, family)
    assert main(["export", str(path), "--cnf", "-"]) == 0
    plain = capsys.readouterr().out
    assert main(["export", str(path), "--cnf", "-", "--allow-empty", "--no-self-touch"]) == 0
    ruled = capsys.readouterr().out
    assert plain.splitlines()[0] == "c numberlink 4x3 rules: cover-all"
    assert ruled.splitlines()[0] == "c numberlink 4x3 rules: may-leave-empty, no-self-touch"
    assert any(line.startswith("p cnf") for line in ruled.splitlines()) and plain != ruled


def test_verify_with_workers_writes_the_certificates_one_process_writes(tmp_path, capsys) -> None:
    # -j 2: each job carries its certificate folder, and the worker that solves it certifies it
    folder = tmp_path / "puzzles"
    folder.mkdir()
    for family in FAMILIES:
        sample_file(folder, family)
    written = {}
    for jobs in ("1", "2"):
        root = tmp_path / f"certs-{jobs}"
        main(["verify", str(folder), "--json", "--time-limit", "30", "-j", jobs, "--proof", str(root)])
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
        assert len(records) == len(FAMILIES) and all(r["certificate"] and r["certificate_reason"] is None for r in records), records
        assert {os.path.dirname(r["certificate"]) for r in records} == {str(root)}
        files = {}
        for path in sorted(root.rglob("*")):
            if path.is_file():
                content = path.read_text()
                if path.name == "manifest.json":  # the same but for the seconds taken
                    content = {k: v for k, v in json.loads(content).items() if k != "seconds"}
                files[str(path.relative_to(root))] = content
        written[jobs] = files
        assert main(["check-proof", str(root)]) == 0
        assert f"{len(FAMILIES)} certificate(s): {len(FAMILIES)} confirmed, 0 not confirmed" in capsys.readouterr().out
    assert len(written["1"]) == 3 * len(FAMILIES) and written["1"] == written["2"]
