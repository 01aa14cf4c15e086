"""Every registered family keeps the contract (``puzzlesat.family.Family``): its record has
every verb, its package has the same public verbs with the same signatures, and they work the
same way on a small sample, so the command line, the benchmark runner and these tests loop over
the registry without naming a family. A failing test names the family and what it lacks."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from puzzlesat import SolveResult, Status, registry
from puzzlesat.errors import CannotExpress
from puzzlesat.cli import build_parser, main
from puzzlesat.family import Family, Objective, Violation
from puzzlesat.scene import Scene

from .samples import SAMPLES
from .schema import assert_valid

FAMILIES = registry.families()
IDS = [family.name for family in FAMILIES]
P = inspect.Parameter

# The package verbs every family exports (``puzzlesat.<name>``), with what their signatures promise.
PACKAGE_VERBS = ("parse", "format", "detect_format", "read", "solve", "verify", "generate", "render")


def record_problems(family: Family) -> list[str]:
    """What a family's record lacks: each verb of ``Family`` must be callable (an optional one,
    such as ``answer_table``, may be None); its formats, methods and options of the contract's kinds."""
    problems = []
    for field in dataclasses.fields(Family):
        value = getattr(family, field.name)
        optional = field.default is None  # (answer_table and the like: a verb a family may leave out)
        if field.type.startswith("Callable") and not callable(value) and not (optional and value is None):
            problems.append(f"{family.name}: the verb {field.name} is not callable")
    if "native" not in family.format_names():
        problems.append(f"{family.name}: no native format")
    if not family.exact_methods and family.methods:
        problems.append(f"{family.name}: no exact method")
    if not isinstance(family.objective, Objective):
        problems.append(f"{family.name}: objective {family.objective!r} is not an Objective")
    for option in (*family.options, *family.generate_options):
        if not option.flag.startswith("--") or option.kind not in ("flag", "choice", "value"):
            problems.append(f"{family.name}: option {option.name} ({option.flag}, {option.kind}) is not a command-line option")
    return problems


def _keyword(parameters, name: str, kinds=(P.KEYWORD_ONLY,)) -> bool:
    return name in parameters and parameters[name].kind in kinds


def package_problems(family: Family) -> list[str]:
    """What a family's package lacks of the public verbs, or where a signature differs."""
    try:
        package = importlib.import_module(f"puzzlesat.{family.name}")
    except ImportError:
        return [f"{family.name}: no package puzzlesat.{family.name}"]
    missing = [verb for verb in PACKAGE_VERBS if not callable(getattr(package, verb, None))]
    if missing:
        return [f"{family.name}: puzzlesat.{family.name} lacks the verb {verb}" for verb in missing]
    problems = []
    exported = getattr(package, "__all__", PACKAGE_VERBS)
    problems += [f"{family.name}: {verb} is not in puzzlesat.{family.name}.__all__" for verb in PACKAGE_VERBS if verb not in exported]
    sig = {verb: inspect.signature(getattr(package, verb)).parameters for verb in PACKAGE_VERBS}
    either = (P.KEYWORD_ONLY, P.POSITIONAL_OR_KEYWORD)
    for verb in ("parse", "format", "read"):
        if not _keyword(sig[verb], "fmt", either):
            problems.append(f"{family.name}: {verb} takes no fmt=")
    if not _keyword(sig["solve"], "method") or not _keyword(sig["solve"], "time_limit"):
        problems.append(f"{family.name}: solve is not solve(puzzle, *, method=, time_limit=)")
    positional = [n for n, p in sig["verify"].items() if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD) and p.default is P.empty]
    if len(positional) != 2:
        problems.append(f"{family.name}: verify is not verify(puzzle, answer) (it takes {', '.join(positional)})")
    first_two = [n for n, p in sig["generate"].items() if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)][:2]
    if first_two != ["width", "height"] or not _keyword(sig["generate"], "seed"):
        problems.append(f"{family.name}: generate is not generate(width, height, *, seed=)")
    if not _keyword(sig["render"], "title", either) or len([n for n in sig["render"] if n != "title"]) < 2:
        problems.append(f"{family.name}: render is not render(puzzle, answer=None, *, title=)")
    if getattr(package, "Violation", Violation) is not Violation:
        problems.append(f"{family.name}: its Violation is not puzzlesat.family.Violation")
    if getattr(package, "FAMILY", None) is not family:
        problems.append(f"{family.name}: puzzlesat.{family.name}.FAMILY is not the registry's record")
    return problems


def test_registry_finds_every_family_by_name_and_ending() -> None:
    assert FAMILIES, "no family registered"
    for family in FAMILIES:
        assert registry.get_family(family.name) is family
        for ending in family.extensions:
            assert registry.family_for_path(f"some/file{ending}") is family


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_family_record_has_every_verb(family) -> None:
    assert record_problems(family) == []


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_family_package_has_the_same_verbs_and_signatures(family) -> None:
    assert package_problems(family) == []


def test_the_contract_checks_name_the_family_and_the_missing_verb() -> None:
    from .toy_family import FAMILY as toy

    broken = dataclasses.replace(toy, name="broken", render=None)
    assert record_problems(broken) == ["broken: the verb render is not callable"]
    assert package_problems(toy) == ["parity: no package puzzlesat.parity"]


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_every_family_has_a_sample_for_the_generic_tests(family) -> None:
    assert family.name in SAMPLES, f"tests/samples.py has no sample of {family.name}"


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_same_result_type_verify_and_render(family, tmp_path) -> None:
    """parse -> solve -> verify -> render -> format -> parse, the same way in every family."""
    package = importlib.import_module(f"puzzlesat.{family.name}")
    text, length = SAMPLES[family.name]
    item = package.parse(text)
    assert registry.detect_family(text) is family
    result = package.solve(item, time_limit=30)
    assert isinstance(result, SolveResult) and result.status is Status.SOLVED
    assert package.verify(item, result.solution) == []
    if length is not None:
        assert len(result.solution) == length and result.optimal is True and result.lower_bound == length
        broken = package.verify(item, result.solution[:-1])  # one move short: not solved
        assert broken and all(isinstance(v, Violation) for v in broken)
    scene = package.render(item, result.solution)
    assert isinstance(scene, Scene)
    ET.fromstring(scene.to_svg())
    assert package.parse(package.format(item)) == item
    for fmt in family.writable_formats():  # every format it writes reads back, or says what it cannot hold
        try:
            text = family.format(item, fmt=fmt)
        except CannotExpress as exc:
            assert str(exc), fmt
            continue
        (again,) = family.load(text, source="written", fmt=fmt, options=family.defaults())
        # (a format of numbered pairs renames letters: then it writes the same text again)
        assert again == item or family.format(again, fmt=fmt).strip() == text.strip(), fmt


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_records_of_the_record_verbs_follow_the_schema(family) -> None:
    text, length = SAMPLES[family.name]
    (item,) = family.load(text, source="sample", fmt=None, options=family.defaults())[:1]
    record = {"family": family.name, "source": "sample", "index": 0, "error": None, "seconds": 0.01}
    record.update(family.solve_record(item, options=family.defaults(), time_limit=30))
    assert_valid(record)
    assert record["status"] == "solved" and record["objective"] == str(family.objective)
    if family.objective is Objective.FEWEST_MOVES:
        assert record["optimal"] is True and record["moves_count"] == length == len(record["moves"])
    else:
        assert record["unique"] is True and record["moves"] is None
    assert family.answer_of(item, record) is not None


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_answers_are_coloured_on_a_terminal_and_plain_when_piped(family) -> None:
    text, _ = SAMPLES[family.name]
    item = family.load(text, source="sample", fmt=None, options=family.defaults())[0]
    record = {"family": family.name, "source": "sample", "index": 0, "seconds": 0.01, "error": None}
    record.update(family.solve_record(item, options=family.defaults(), time_limit=30))
    plain = family.show(item, record, verb="solve", colour=False)
    coloured = family.show(item, record, verb="solve", colour=True)
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


@pytest.mark.parametrize("command", ["solve", "verify", "generate", "render", "convert", "bench", "examples", "export", "check-proof"])
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


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_every_family_option_is_on_the_command_line(family, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    solve_help = capsys.readouterr().out
    for option in family.options:
        assert option.flag in solve_help, f"{family.name}: {option.flag} missing from solve --help"
    with pytest.raises(SystemExit):
        main(["generate", family.name, "--help"])
    generate_help = capsys.readouterr().out
    for option in family.generate_options:
        assert option.flag in generate_help, f"{family.name}: {option.flag} missing from generate {family.name} --help"


def test_python_dash_m_puzzlesat_works_like_the_command() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "puzzlesat", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage: puzzlesat" in done.stdout and "bench" in done.stdout and "convert" in done.stdout


def test_py_typed_marker_is_shipped() -> None:
    from pathlib import Path

    import puzzlesat

    assert (Path(puzzlesat.__file__).parent / "py.typed").exists()


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_convert_writes_every_format_it_can_and_names_what_it_cannot(family, tmp_path, capsys) -> None:
    """``puzzlesat convert`` to each format the family writes: a file that reads back as the same
    puzzle, or exit 2 with a line saying what the format cannot hold (never a silent loss)."""
    text, _ = SAMPLES[family.name]
    source = tmp_path / "sample.txt"
    source.write_text(text + "\n")
    (item,) = family.load(text, source="sample", fmt=None, options=family.defaults())
    for fmt in family.writable_formats():
        out = tmp_path / f"out.{fmt}"
        code = main(["convert", str(source), "--family", family.name, "-o", str(out), "--to", fmt])
        err = capsys.readouterr().err
        if code == 2:
            assert f"cannot write {source} as {fmt}: " in err and not out.exists(), (fmt, err)
            continue
        assert code == 0, (fmt, err)
        written = out.read_bytes().decode("utf-8")  # (as written: a format of CRLF lines keeps them)
        (again,) = family.load(written, source=str(out), fmt=fmt, options=family.defaults())
        assert again == item or family.format(again, fmt=fmt).strip() == written.strip(), fmt  # (renamed labels)
    assert main(["convert", str(source), "--family", family.name, "-o", "-", "--to", "no-such-format"]) == 2
    assert f"{family.name} writes {', '.join(family.writable_formats())}" in capsys.readouterr().err


# The test files every family has, under the same names (a family may have more).
FAMILY_TEST_FILES = ("test_formats.py", "test_solve.py", "test_verify.py", "test_generate.py", "test_records.py", "test_cli.py")


@pytest.mark.parametrize("family", registry.families(), ids=lambda f: f.name)
def test_every_family_has_the_same_test_files(family) -> None:
    folder = Path(__file__).parent / family.name
    if not folder.is_dir():
        pytest.skip(f"{family.name} is not a family of this source tree")  # (e.g. one registered by a test)
    missing = [name for name in FAMILY_TEST_FILES if not (folder / name).is_file()]
    assert not missing, f"tests/{family.name}/ lacks {', '.join(missing)}"
