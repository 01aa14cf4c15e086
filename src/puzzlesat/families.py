"""The registry of puzzle families: the CLI, the benchmark runner and the generic tests loop
over it instead of naming families.

Each family is a subpackage ``puzzlesat.<name>`` with the same verbs (``parse``, ``format``,
``read``, ``solve``, ``verify``, ``generate``, ``render``) and a ``cli`` module that adapts them
to the command line (``sniff``, ``load``, ``solve_record``, ``verify_record``, ``show``,
``generate``, ``render``).

>>> [f.name for f in FAMILIES]
['numberlink', 'roller', 'swap']
>>> family_for_path("levels/easy.roller").name
'roller'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Family:
    name: str
    extensions: tuple[str, ...]  # file name endings that name this family outright
    objective: str  # "uniqueness" (find the one answer) or "min-moves" (find a proven-shortest one)

    @property
    def package(self) -> ModuleType:
        return importlib.import_module(f"puzzlesat.{self.name}")

    @property
    def cli(self) -> ModuleType:
        return importlib.import_module(f"puzzlesat.{self.name}.cli")

    def formats(self) -> tuple[str, ...]:
        """The names of the formats this family reads (its ``formats.FORMATS``)."""
        return importlib.import_module(f"puzzlesat.{self.name}.formats").FORMATS


FAMILIES: tuple[Family, ...] = (
    Family("numberlink", (".nl",), "uniqueness"),
    Family("roller", (".roller",), "min-moves"),
    Family("swap", (".swap",), "min-moves"),
)


def get_family(name: str) -> Family:
    for family in FAMILIES:
        if family.name == name:
            return family
    raise KeyError(f"unknown family {name!r} (known: {', '.join(f.name for f in FAMILIES)})")


def family_for_path(path: str) -> Family | None:
    """The family a file name's ending names outright (``.roller``, ``.swap``, ``.nl``), if any."""
    lowered = path.lower()
    for family in FAMILIES:
        if lowered.endswith(family.extensions):
            return family
    return None


def family_for_format(fmt: str) -> Family | None:
    """The one family that reads the format named ``fmt`` (``"native"`` is every family's, so
    it names none).

    >>> family_for_format("joseleite19").name, family_for_format("ADC").name, family_for_format("native")
    ('roller', 'numberlink', None)
    >>> family_for_format("layers").name   # multi-layer Numberlink
    'numberlink'
    """
    from .numberlink.multilayer.formats import FORMATS as LAYERED_FORMATS
    from .roller.formats import FORMAT_ALIASES

    names = {
        "numberlink": {*get_family("numberlink").formats(), *LAYERED_FORMATS},
        "roller": {*get_family("roller").formats(), *FORMAT_ALIASES},
        "swap": {*get_family("swap").formats(), "swap"},
    }
    fmt = fmt.strip().lower()  # (the command line reads format names in any case)
    owners = [name for name, known in names.items() if fmt in known]
    return get_family(owners[0]) if len(owners) == 1 else None


def detect_family(text: str, path: str = "") -> Family:
    """The family of a file: by its ending, else by asking each family whether the text is its
    own (most specific first: swap, roller, then numberlink, which reads the most formats)."""
    by_name = family_for_path(path)
    if by_name is not None:
        return by_name
    for name in ("swap", "roller"):
        family = get_family(name)
        if family.cli.sniff(text, path):
            return family
    return get_family("numberlink")
