"""The layers of docs/architecture.md, checked on the import graph of ``src/puzzlesat`` (read
with ``ast``, so nothing is imported): no import circle, the library never imports argparse or
the command line and never prints, and generic code never names a family.

What counts: every ``import`` and ``from ... import`` statement, at module level or inside a
function (a deferred import is still a dependency), resolved to the module it loads. "Naming a
family" means importing its package, or a family's name as a word in a string literal or in an
identifier (split at ``_``); docstrings and comments may name families (a doctest shows real
output), code may not.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = SRC / "puzzlesat"


@lru_cache(maxsize=1)
def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (a package is its __init__)."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


@lru_cache(maxsize=None)
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(encoding="utf-8"))


def imports(name: str) -> list[tuple[str, int]]:
    """(module imported, line) of every import statement in a module, relative ones resolved;
    ``from pkg import sub`` names the submodule when there is one."""
    known = modules()
    is_package = modules()[name].name == "__init__.py"
    found = []
    typing_only = {id(inner) for node in ast.walk(tree(name)) if isinstance(node, ast.If) and _is_type_checking(node.test)
                   for statement in node.body for inner in ast.walk(statement)}  # imports a type checker alone makes
    for node in ast.walk(tree(name)):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub if sub in known else target, node.lineno))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def extensions() -> set[str]:
    """Dotted names of the C extension modules (``src/puzzlesat/**/_name.c``): they import nothing."""
    return {".".join(path.relative_to(SRC).with_suffix("").parts) for path in ROOT.rglob("*.c")}


def graph() -> dict[str, set[str]]:
    known, compiled = modules(), extensions()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name in known:
        for target, _ in imports(name):
            while target and target not in known and target not in compiled and "." in target:  # puzzlesat.x.y.Name -> puzzlesat.x.y
                target = target.rsplit(".", 1)[0]
            if target in known and target != name:
                edges[name].add(target)
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One import circle in each group of modules that import each other (in a circle or more)."""
    found, done = [], set()
    for start in sorted(edges):
        if start in done:
            continue
        reach = _reachable(edges, start)
        group = {node for node in reach if start in _reachable(edges, node)}
        done |= group or {start}
        if len(group) > 1:
            found.append(find_cycle({node: edges[node] & group for node in group}))
    return found


def _reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in edges[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def family_packages() -> list[str]:
    """The family packages: subpackages holding a ``family.py`` (the registry's rule)."""
    return sorted(path.parent.name for path in ROOT.glob("*/family.py"))


def in_cli(name: str) -> bool:
    """The command line: the cli package and ``python -m puzzlesat``."""
    return name in ("puzzlesat.cli", "puzzlesat.__main__") or name.startswith("puzzlesat.cli.")


def is_generic(name: str, families: list[str]) -> bool:
    """Outside every family package and every family's command-line adapter (cli/<family>)."""
    parts = name.split(".")
    return not (len(parts) > 1 and parts[1] in families) and not (in_cli(name) and parts[-1] in families)


def docstrings(module: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(module):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def family_names_in_code(name: str, families: list[str]) -> list[str]:
    """Where a module's code (not its docstrings or comments) names a family."""
    if not families:
        return []
    module = tree(name)
    skip = docstrings(module)
    words = re.compile(r"\b(" + "|".join(map(re.escape, families)) + r")\b", re.IGNORECASE)
    found = []
    for node in ast.walk(module):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if words.search(node.value):
                found.append(f"{name}:{node.lineno}: string {node.value[:60]!r}")
            continue
        identifiers = []
        if isinstance(node, ast.Name):
            identifiers = [node.id]
        elif isinstance(node, ast.Attribute):
            identifiers = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            identifiers = [node.name]
        elif isinstance(node, ast.arg):
            identifiers = [node.arg]
        elif isinstance(node, ast.keyword) and node.arg:
            identifiers = [node.arg]
        for identifier in identifiers:
            if set(identifier.lower().split("_")) & set(families):
                found.append(f"{name}:{node.lineno}: identifier {identifier}")
    return found


def test_the_graph_reader_sees_relative_and_deferred_imports() -> None:
    assert "puzzlesat.registry" in graph()["puzzlesat.cli.inputs"]
    assert "puzzlesat.svg" in graph()["puzzlesat.scene"]  # (a deferred import, in a method)
    assert "puzzlesat.scene" not in graph()["puzzlesat.svg"]  # (under TYPE_CHECKING only)
    assert "puzzlesat.family" in graph()["puzzlesat.registry"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert circles({"a": {"b"}, "b": {"a", "c"}, "c": set(), "d": {"e"}, "e": {"d"}}) == [["a", "b", "a"], ["d", "e", "d"]]


def test_no_import_circle() -> None:
    found = circles(graph())
    assert not found, "import circles: " + "; ".join(" -> ".join(cycle) for cycle in found)


def test_the_library_never_imports_argparse_or_the_command_line() -> None:
    wrong = [f"{name}:{line}: imports {target}" for name in modules() if not in_cli(name)
             for target, line in imports(name)
             if target == "argparse" or target.startswith("argparse.") or in_cli(target)]
    assert wrong == []


def test_the_library_never_prints() -> None:
    wrong = [f"{name}:{node.lineno}" for name in modules() if not in_cli(name)
             for node in ast.walk(tree(name))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"]
    assert wrong == []


def test_there_are_family_packages_to_check() -> None:
    assert family_packages(), "no subpackage of puzzlesat holds a family.py"


def test_generic_code_never_imports_a_family_package() -> None:
    families = family_packages()
    wrong = [f"{name}:{line}: imports {target}" for name in modules() if is_generic(name, families)
             for target, line in imports(name)
             if target.split(".")[:2] in (["puzzlesat", family] for family in families)]
    assert wrong == []


def test_generic_code_never_names_a_family() -> None:
    families = family_packages()
    wrong = [place for name in modules() if is_generic(name, families) for place in family_names_in_code(name, families)]
    assert wrong == []


def test_the_name_check_finds_a_family_in_code_but_not_in_docstrings(tmp_path, monkeypatch) -> None:
    text = '"""Reads roller levels."""\nKIND = "roller"\ndef pick(roller_methods):\n    return roller_methods\n'
    monkeypatch.setitem(modules(), "puzzlesat.fake", tmp_path / "fake.py")
    (tmp_path / "fake.py").write_text(text)
    tree.cache_clear()
    try:
        found = family_names_in_code("puzzlesat.fake", ["roller"])
    finally:
        tree.cache_clear()
    assert [place.split(": ", 1)[1] for place in found] == ["string 'roller'", "identifier roller_methods", "identifier roller_methods"]
