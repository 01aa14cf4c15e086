"""What a non-editable install carries (issue 43, item 6): the bundled examples as package data,
found by importlib.resources and written out by ``puzzlesat examples DIR``, and the benchmarks
package beside the library, both named in the wheel's build configuration."""

from __future__ import annotations

import json
import tomllib
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path

from puzzlesat.cli import main
from puzzlesat.cli.bench import benchmark_modules, bundled_examples

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = ROOT / "src" / "puzzlesat" / "examples"


def example_files() -> list[str]:
    return sorted(str(path.relative_to(PACKAGED)) for path in PACKAGED.rglob("*") if path.is_file())


def test_the_examples_are_one_copy_inside_the_package() -> None:
    """``examples/`` of a checkout (the README's commands) is the packaged folder itself."""
    assert (ROOT / "examples").resolve() == PACKAGED.resolve()
    assert len(example_files()) >= 3 and {name.split("/")[0] for name in example_files()} == {"numberlink", "roller", "swap"}


def test_the_wheel_configuration_ships_every_example_and_the_benchmarks() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = config["package-data"]["puzzlesat"]
    left_out = [name for name in example_files() if not any(fnmatch(f"examples/{name}", glob) for glob in globs)]
    assert not left_out, f"not package data, so missing from the wheel: {left_out}"
    assert "benchmarks" in config["packages"]["find"]["include"] and config["package-dir"]["benchmarks"] == "benchmarks"


def test_importlib_resources_finds_every_bundled_example() -> None:
    found = dict(bundled_examples())
    assert sorted(found) == example_files()
    first = resources.files("puzzlesat").joinpath("examples", "numberlink", "first_5x5.nl")
    assert first.read_bytes() == found["numberlink/first_5x5.nl"].read_bytes() == (PACKAGED / "numberlink" / "first_5x5.nl").read_bytes()


def test_examples_command_writes_them_and_they_all_verify(tmp_path, capsys) -> None:
    folder = tmp_path / "mine"
    assert main(["examples", str(folder)]) == 0
    written = sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())
    assert written == example_files()
    assert all((folder / name).read_bytes() == (PACKAGED / name).read_bytes() for name in written)
    assert f"puzzlesat verify {folder}" in capsys.readouterr().out

    (folder / "roller" / "small.roller").write_text("mine\n")
    assert main(["examples", str(folder)]) == 2  # an edited file is not overwritten unasked
    assert "--force" in capsys.readouterr().err and (folder / "roller" / "small.roller").read_text() == "mine\n"
    assert main(["examples", str(folder), "--force"]) == 0
    assert (folder / "roller" / "small.roller").read_bytes() == (PACKAGED / "roller" / "small.roller").read_bytes()
    capsys.readouterr()

    assert main(["verify", str(folder), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    sources = {Path(record["source"]).relative_to(folder).as_posix() for record in records}
    assert sources == {name for name in example_files() if not name.endswith(".md")}
    assert all(record["status"] in ("solved", "unsolvable") for record in records)


def test_bench_lists_the_modules_it_can_run() -> None:
    import benchmarks.__main__ as runner

    listed = benchmark_modules()
    assert listed and set(listed) <= set(runner.MODULES) and "batch" not in listed
