"""Every example in docs/*.md and examples/*/README.md runs: the docs cannot drift from the code.

- A ```python block runs as it stands; blocks of one page share one namespace, in page order,
  so a page reads like one session. A block holding ``>>>`` prompts runs as a doctest (its
  printed output is compared, with ELLIPSIS and NORMALIZE_WHITESPACE).
- A ```console block runs each ``$ puzzlesat ...`` line through the real command-line entry
  point and expects exit status 0 (other lines, such as ``pip install``, are not run).
- Every relative link in those pages, README.md and encodings/*.md points at a file that exists.
- Fenced blocks inside list items (indented) are run too.

Examples run in a fresh temporary folder that sees the checkout's ``examples/`` and ``docs/``,
so they may write pictures and files freely.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import re
import shlex
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
FENCE = re.compile(r"^([ \t]*)```([\w+-]*)[^\n]*\n(.*?)^\1```[ \t]*$", re.S | re.M)  # also inside list items
LINKED = [*PAGES, ROOT / "README.md", *sorted((ROOT / "encodings").glob("*.md")), *sorted((ROOT / "examples").glob("*/README.md"))]
RUN = [*PAGES, *sorted((ROOT / "examples").glob("*/README.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def code_blocks(text: str) -> list[tuple[str, str, int]]:
    """(language, code, line number) of every fenced block (an indented one dedented)."""
    return [(m.group(2).lower(), textwrap.dedent(m.group(3)), text.count("\n", 0, m.start()) + 2) for m in FENCE.finditer(text)]


def test_the_docs_exist() -> None:
    names = {page.name for page in PAGES}
    for required in ("index.md", "getting-started.md", "numberlink.md", "roller.md", "swap.md", "encodings.md", "sat-vs-search.md"):
        assert required in names, f"docs/{required} is missing"


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    for name in ("examples", "docs", "tests"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", RUN, ids=[p.relative_to(ROOT).as_posix() for p in RUN])
def test_python_examples_run(page: Path, sandbox) -> None:
    text = page.read_text(encoding="utf-8")
    namespace: dict = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for language, code, line in code_blocks(text):
        if language not in ("python", "py", "pycon"):
            continue
        where = f"{page.relative_to(ROOT)}:{line}"
        if ">>>" in code:
            test = doctest.DocTestParser().get_doctest(code, namespace, where, str(page), line - 1)
            out = io.StringIO()
            result = runner.run(test, out=out.write, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy: carry its names to later blocks
            assert result.failed == 0, f"{where}: doctest failed\n{out.getvalue()}"
        else:
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(code, where, "exec"), namespace)
            except Exception as exc:  # report the block, not just the traceback
                pytest.fail(f"{where}: example raised {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("page", RUN, ids=[p.relative_to(ROOT).as_posix() for p in RUN])
def test_console_examples_run(page: Path, sandbox, capsys) -> None:
    from puzzlesat.cli import main

    text = page.read_text(encoding="utf-8")
    for language, code, line in code_blocks(text):
        if language not in ("console", "sh", "shell", "bash"):
            continue
        for offset, raw in enumerate(code.splitlines()):
            command = raw.strip()
            if command.startswith("$ "):
                command = command[2:]
            words = shlex.split(command, comments=True)
            if words[:1] == ["puzzlesat"]:
                argv = words[1:]
            elif words[:3] == ["python", "-m", "puzzlesat"]:
                argv = words[3:]
            else:
                continue
            status = main(argv)
            output = capsys.readouterr()
            if any(word.endswith(".png") for word in argv) and importlib.util.find_spec("matplotlib") is None:
                # PNG is the optional 'plot' extra: without it the command must refuse clearly.
                assert status == 2 and "needs matplotlib" in output.err, f"{page.relative_to(ROOT)}:{line + offset}: `{command}`"
                continue
            assert status == 0, f"{page.relative_to(ROOT)}:{line + offset}: `{command}` exited {status}\n{output.out[-2000:]}\n{output.err[-2000:]}"


@pytest.mark.parametrize("page", LINKED, ids=[p.relative_to(ROOT).as_posix() for p in LINKED])
def test_relative_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        assert (page.parent / target).resolve().exists(), f"{page.relative_to(ROOT)}: link to {target} points at nothing"


def test_the_readme_example_prints_what_it_says(sandbox) -> None:
    blocks = [code for language, code, _ in code_blocks((ROOT / "README.md").read_text(encoding="utf-8")) if language == "python"]
    assert blocks, "README.md has no Python example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {"__name__": "readme"})
    assert out.getvalue().splitlines() == ["unique", "B B B B", "B A A A", "B B B A"]
