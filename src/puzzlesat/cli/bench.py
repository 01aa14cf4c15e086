"""The commands ``bench`` (the benchmarks of a checkout, or those installed with the wheel) and
``examples`` (the bundled example puzzles, package data, written out to a folder)."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from ..memory import DEFAULT_SHARE, default_memory_limit
from .batching import jobs_argument, memory_argument

# Modules of benchmarks/ that bench leaves out: the report writer, and their own runs (batch needs
# 2 cores to itself, numberlink_peer a peer binary, numberlink_unseen minutes of 10 s puzzles,
# reproducible busy processes beside it)
NOT_BENCHMARKS = ("__init__", "__main__", "report", "batch", "numberlink_peer", "numberlink_unseen", "reproducible")


def _benchmark_folder() -> Path | None:
    """The ``benchmarks`` package: a source checkout's (beside ``src/``), else the one installed
    with the wheel; None when neither is there (nothing imported)."""
    checkout = Path(__file__).resolve().parents[3] / "benchmarks"
    if (checkout / "__main__.py").exists():
        return checkout
    import importlib.util

    spec = importlib.util.find_spec("benchmarks")
    origin = Path(spec.origin) if spec is not None and spec.origin else None
    return origin.parent if origin is not None and (origin.parent / "__main__.py").exists() else None


def benchmark_modules() -> list[str]:
    """The benchmark modules by file name (none imported): one per family and the comparisons
    beside them, not those of NOT_BENCHMARKS; empty when the benchmarks are not there."""
    folder = _benchmark_folder()
    return [] if folder is None else sorted(path.stem for path in folder.glob("*.py")
                                            if not path.stem.startswith("_") and path.stem not in NOT_BENCHMARKS)


def _benchmark_runner():
    """The ``benchmarks`` runner (of this checkout, or installed with the package)."""
    import importlib

    folder = _benchmark_folder()
    if folder is None:
        return None
    if str(folder.parent) not in sys.path:
        sys.path.insert(0, str(folder.parent))
    try:
        runner = importlib.import_module("benchmarks.__main__")
    except ImportError:
        return None
    return runner if hasattr(runner, "run_from_args") else None


def command_bench(args: argparse.Namespace) -> int:
    runner = _benchmark_runner()
    if runner is None:
        print("error: the benchmarks package is not installed beside puzzlesat (reinstall puzzlesat, "
              "or run python -m benchmarks in a checkout)", file=sys.stderr)
        return 2
    unknown = [name for name in args.only or () if name not in runner.MODULES]
    if unknown:
        print(f"error: unknown benchmark module(s) {', '.join(unknown)} (known: {', '.join(runner.MODULES)})", file=sys.stderr)
        return 2
    return runner.run_from_args(args)


def data_folder_argument(text: str) -> Path:
    """``bench --data DIR``: an existing folder, refused before any work otherwise.

    >>> data_folder_argument("/no/such/folder")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: no folder /no/such/folder
    """
    path = Path(text).expanduser()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"no folder {text}")
    return path.resolve()


def bundled_examples() -> list[tuple[str, resources.abc.Traversable]]:
    """The bundled example files as (relative path, file), in a stable order: package data, so
    they are there in an installed wheel as in a checkout (where ``examples/`` links to them).

    >>> paths = [name for name, _ in bundled_examples()]
    >>> "numberlink/first_5x5.nl" in paths and "roller/small.roller" in paths
    True
    """
    found = []
    for folder in (resources.files("puzzlesat") / "examples").iterdir():  # (one folder per family)
        if folder.is_dir() and not folder.name.startswith((".", "_")):
            found += [(f"{folder.name}/{item.name}", item) for item in folder.iterdir()
                      if item.is_file() and not item.name.startswith((".", "_"))]
    return sorted(found, key=lambda pair: pair[0])


def command_examples(args: argparse.Namespace) -> int:
    folder: Path = args.folder
    clashes = [name for name, _ in bundled_examples() if (folder / name).exists()]
    if clashes and not args.force:
        print(f"error: {folder} already holds {', '.join(clashes[:3])}{' ...' if len(clashes) > 3 else ''} "
              "(--force overwrites)", file=sys.stderr)
        return 2
    for name, item in bundled_examples():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.read_bytes())
    print(f"{len(bundled_examples())} example files written to {folder} (check them all: puzzlesat verify {folder})")
    return 0


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """``-j N`` and ``--memory-limit SIZE``, of ``puzzlesat bench`` and ``python -m benchmarks``."""
    parser.add_argument("-j", "--jobs", type=jobs_argument, default=None, metavar="N",
                        help="run the modules' cases through the batch engine on N worker processes (0: one per core), "
                             "rows in order (default: each module in a process of its own, one after another)")
    parser.add_argument("--memory-limit", type=memory_argument, default=default_memory_limit(), metavar="SIZE",
                        help="memory each module's process (with -j: each worker) may take, e.g. 500M, 2G, or none "
                             f"(default: {DEFAULT_SHARE:.0%}".replace("%", "%%") + " of physical memory)")
