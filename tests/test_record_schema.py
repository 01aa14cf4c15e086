"""The JSON record schema (docs/record.schema.json) holds for every record the command line
prints, for every family: solve --json, verify --json, generate --json and error records; and
the README's table of keys lists exactly the schema's keys."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puzzlesat import registry
from puzzlesat.cli import main

from .samples import GENERATE, SAMPLES
from .schema import SCHEMA_PATH, assert_valid, validator

FAMILIES = registry.families()
IDS = [family.name for family in FAMILIES]
README = Path(__file__).resolve().parents[1] / "README.md"


def printed(capsys) -> list[dict]:
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert records, "no record printed"
    for record in records:
        assert_valid(record)
    return records


def sample_file(tmp_path, family) -> Path:
    path = tmp_path / f"sample{family.extensions[0] if family.extensions else '.txt'}"
    path.write_text(SAMPLES[family.name][0] + "\n")
    return path


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_solve_records(family, tmp_path, capsys) -> None:
    path = sample_file(tmp_path, family)
    assert main(["solve", str(path), "--family", family.name, "--json", "--time-limit", "30"]) == 0
    (record,) = printed(capsys)
    assert record["family"] == family.name and record["status"] == "solved" and record["objective"] == str(family.objective)


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_verify_records(family, tmp_path, capsys) -> None:
    path = sample_file(tmp_path, family)
    assert main(["verify", str(path), "--family", family.name, "--json", "--time-limit", "30"]) == 0
    (record,) = printed(capsys)
    assert record["status"] == "solved" and "solved_by" in record


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_error_records(family, tmp_path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("\x01 this is no puzzle \x02\n")
    assert main(["verify", str(bad), "--family", family.name, "--json"]) == 1
    (record,) = printed(capsys)
    assert record["status"] == "error" and record["family"] == family.name and record["error"]
    missing = tmp_path / "missing.txt"
    assert main(["solve", str(missing), "--family", family.name, "--json"]) == 1
    (record,) = printed(capsys)
    assert record["status"] == "error" and "cannot read file" in record["error"]


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_generate_records(family, capsys) -> None:
    assert main(["generate", family.name, *GENERATE[family.name], "--count", "1", "--seed", "1", "--json"]) == 0
    (record,) = printed(capsys)
    assert record["status"] == "generated" and isinstance(record["puzzle"], str) and record["seed"] is not None


def test_the_schema_refuses_what_it_should() -> None:
    base = {"family": "x", "source": "s", "index": 0, "status": "solved", "error": None, "seconds": 0.1}
    assert not list(validator().iter_errors(base))
    for wrong in ({"status": "unsatisfiable"}, {"moves": "UDLR"}, {"size": {"rows": 3, "cols": 4}},
                  {"stated_minimum_match": "same"}, {"stated_answer": {"valid": True}}):
        assert list(validator().iter_errors({**base, **wrong})), wrong
    assert list(validator().iter_errors({k: v for k, v in base.items() if k != "seconds"}))


def readme_keys() -> list[str]:
    """The keys of the README's table of JSON record keys, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### JSON records", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, re.M)


def test_the_readme_table_lists_exactly_the_schema_keys() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert readme_keys() == list(schema["properties"])
