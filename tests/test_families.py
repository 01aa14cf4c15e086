"""The family registry keeps its promise: every family has the same verbs, the same result type,
the same command-line adapter and the same time-limit convention, so the CLI, the benchmark
runner and these tests can loop over FAMILIES without naming a family."""

from __future__ import annotations

import inspect
import re
import xml.etree.ElementTree as ET

import pytest

from puzzlesat import CountResult, SolveResult, Status
from puzzlesat.cli import build_parser, detect_family
from puzzlesat.families import FAMILIES, family_for_path, get_family
from puzzlesat.scene import Scene

VERBS = ("parse", "parse_all", "read", "format", "format_all", "solve", "verify", "is_solution", "generate", "render")
CLI_FUNCTIONS = ("sniff", "load", "blank_record", "solve_record", "verify_record", "show", "passed", "render")
# (generate goes through the Family record and the one pack writer, puzzlesat.pack)
GENERATE_VERBS = ("make", "pack_entry", "generated_record")

# One small puzzle per family, in its native text, with the length of its answer where the
# family minimises moves (Numberlink answers are unique instead).
SAMPLES = {
    "numberlink": ("A.B\n...\n...\nA.B", None),
    "roller": ("#####\n#o..#\n#.#.#\n#...#\n#####", 4),
    "swap": ("start\nT1R T1G\nT1G T1R\ngoal\nR G\nR G", 1),
}

IDS = [family.name for family in FAMILIES]


def test_registry_names_and_endings() -> None:
    assert [f.name for f in FAMILIES] == ["numberlink", "roller", "swap"]
    for family in FAMILIES:
        assert get_family(family.name) is family
        for ending in family.extensions:
            assert family_for_path(f"some/file{ending}") is family


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_family_exposes_every_verb(family) -> None:
    package = family.package
    missing = [verb for verb in VERBS if not callable(getattr(package, verb, None))]
    assert not missing, f"puzzlesat.{family.name} lacks {', '.join(missing)}"
    for verb in VERBS:
        assert verb in getattr(package, "__all__", VERBS), f"puzzlesat.{family.name}.__all__ lacks {verb}"
    # long work takes keyword-only limits
    solve = inspect.signature(package.solve).parameters
    assert solve["time_limit"].kind is inspect.Parameter.KEYWORD_ONLY
    generate = inspect.signature(package.generate).parameters
    assert "seed" in generate and generate["seed"].kind is inspect.Parameter.KEYWORD_ONLY
    if family.objective == "uniqueness":
        assert callable(getattr(package, "count", None)) and callable(getattr(package, "is_unique", None))
    # the readers take the same keywords, and every family describes its violation codes
    for verb in ("parse", "parse_all"):
        assert {"fmt", "source"} <= set(inspect.signature(getattr(package, verb)).parameters), verb
    assert "fmt" in inspect.signature(package.read).parameters
    assert isinstance(package.CODES, dict) and all(isinstance(text, str) and text for text in package.CODES.values())


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_cli_adapter_has_every_function(family) -> None:
    adapter = family.cli
    missing = [name for name in CLI_FUNCTIONS if not callable(getattr(adapter, name, None))]
    assert not missing, f"puzzlesat.{family.name}.cli lacks {', '.join(missing)}"
    from puzzlesat.registry import get_family as get_record

    record = get_record(family.name)
    assert all(callable(getattr(record, verb)) for verb in GENERATE_VERBS)
    assert isinstance(record.generate_example, str) and "puzzlesat generate" in record.generate_example
    assert isinstance(adapter.blank_record(), dict)


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_same_result_type_verify_and_render(family, tmp_path) -> None:
    """parse -> solve -> verify -> render -> format -> parse, the same way in every family."""
    package = family.package
    text, length = SAMPLES[family.name]
    item = package.parse(text)
    assert detect_family(text).name == family.name
    result = package.solve(item, time_limit=30)
    assert isinstance(result, SolveResult) and result.status is Status.SOLVED
    assert package.verify(item, result.solution) == []
    if length is not None:
        assert len(result.solution) == length and result.optimal is True and result.lower_bound == length
    scene = package.render(item, result.solution)
    assert isinstance(scene, Scene)
    ET.fromstring(scene.to_svg())
    assert package.parse(package.format(item)) == item
    if family.objective == "uniqueness":
        counted = package.count(item, limit=2, time_limit=30)
        assert isinstance(counted, CountResult) and counted.complete


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_cli_records_carry_the_contract_keys(family) -> None:
    text, _ = SAMPLES[family.name]
    parser = build_parser()
    args = parser.parse_args(["solve", "-", "--family", family.name, "--time-limit", "30"])
    (item,) = family.cli.load(text, "sample", args)[:1]
    record = family.cli.solve_record(item, args)
    assert record["status"] == "solved"
    assert set(family.cli.blank_record()) <= set(record) | {"status"}
    if family.objective == "min-moves":
        for key in ("moves", "optimal", "lower_bound"):
            assert key in record
        assert record["optimal"] is True


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_answers_are_coloured_on_a_terminal_and_plain_when_piped(family) -> None:
    text, _ = SAMPLES[family.name]
    args = build_parser().parse_args(["solve", "-", "--family", family.name, "--time-limit", "30"])
    item = family.cli.load(text, "sample", args)[0]
    record = {"family": family.name, "source": "sample", "index": 0, "seconds": 0.01, "error": None}
    record.update(family.cli.solve_record(item, args))
    plain = family.cli.show(item, record, args, "solve", where=record["source"], colour=False)
    coloured = family.cli.show(item, record, args, "solve", where=record["source"], colour=True)
    assert "\x1b[" not in plain and "\x1b[" in coloured
    assert "solved" in plain


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_benchmark_runner_runs_a_module_per_family(family) -> None:
    import importlib.util

    from benchmarks.__main__ import MODULES

    assert family.name in MODULES
    spec = importlib.util.find_spec(f"benchmarks.{family.name}")
    assert spec is not None and spec.origin is not None, f"benchmarks/{family.name}.py is missing"
    source = open(spec.origin, encoding="utf-8").read()
    assert "def run(" in source and "time_limit" in source and "quick" in source


@pytest.mark.parametrize("command", ["solve", "verify", "generate", "render", "bench"])
def test_every_command_help_shows_an_example(command, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args([command, "--help"])
    assert stop.value.code == 0
    assert "example: puzzlesat" in capsys.readouterr().out


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_generate_help_per_family_shows_an_example(family, capsys) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["generate", family.name, "--help"])
    assert re.search(rf"examples?:\s+puzzlesat generate {family.name}\b", capsys.readouterr().out)


def test_python_dash_m_puzzlesat_works_like_the_command() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "puzzlesat", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage: puzzlesat" in done.stdout and "bench" in done.stdout


def test_py_typed_marker_is_shipped() -> None:
    from pathlib import Path

    import puzzlesat

    assert (Path(puzzlesat.__file__).parent / "py.typed").exists()
