"""The registry of puzzle families: generic code loops over :func:`families` and never names one.

A family is found three ways: a subpackage of puzzlesat holding a ``family.py`` (the built-in
families), a package installed with a ``puzzlesat.families`` entry point naming its ``Family``
record (a family of another distribution), or :func:`register` at run time (tests, notebooks).

>>> [f.name for f in families()]
['numberlink', 'roller', 'swap']
>>> family_for_path("levels/easy.roller").name
'roller'
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from .errors import ParseError
from .family import Family

_REGISTERED: dict[str, Family] = {}
_FOUND: dict[str, Family] | None = None


def _found() -> dict[str, Family]:
    """The built-in families and those of installed distributions (found once)."""
    global _FOUND
    if _FOUND is None:
        found: dict[str, Family] = {}
        here = Path(__file__).parent
        for module in pkgutil.iter_modules([str(here)]):
            if module.ispkg and (here / module.name / "family.py").exists():
                record = importlib.import_module(f"{__package__}.{module.name}.family").FAMILY
                found[record.name] = record
        try:
            from importlib.metadata import entry_points

            for point in entry_points(group="puzzlesat.families"):
                record = point.load()
                found.setdefault(record.name, record)
        except Exception:  # a broken third-party plug-in must not stop the built-in families
            pass
        _FOUND = found
    return _FOUND


def register(family: Family) -> Family:
    """Add a family (or replace one of the same name) for the rest of this process."""
    if not isinstance(family, Family):
        raise TypeError(f"register takes a Family record, not {type(family).__name__}")
    _REGISTERED[family.name] = family
    return family


def unregister(name: str) -> None:
    """Take back a family added with :func:`register`."""
    _REGISTERED.pop(name, None)


def families() -> tuple[Family, ...]:
    """Every family, by name."""
    merged = {**_found(), **_REGISTERED}
    return tuple(merged[name] for name in sorted(merged))


def get_family(name: str) -> Family:
    for family in families():
        if family.name == name:
            return family
    raise KeyError(f"unknown family {name!r} (known: {', '.join(f.name for f in families())})")


def family_for_path(path: str) -> Family | None:
    """The family a file name's ending names outright (``.roller``, ``.swap``, ``.nl``), if any."""
    lowered = str(path).lower()
    for family in families():
        if family.extensions and lowered.endswith(family.extensions):
            return family
    return None


def family_for_format(fmt: str) -> Family | None:
    """The one family that reads the format named ``fmt`` (a name several families read, such
    as ``native``, names none).

    >>> family_for_format("joseleite19").name, family_for_format("ADC").name, family_for_format("native")
    ('roller', 'numberlink', None)
    """
    fmt = fmt.strip().lower()
    owners = [family for family in families() if fmt in family.format_names()]
    return owners[0] if len(owners) == 1 else None


def detect_family(text: str, path: str = "") -> Family:
    """The family of a file: by its ending, else the first family (in ``sniff_order``) whose
    grammar the text matches without doubt; when none does, a ParseError naming the families
    tried and why each refused (nothing is guessed).

    >>> detect_family("A.B\\nA.B").name, detect_family("#####\\n#o..#\\n#####").name
    ('numberlink', 'roller')
    >>> detect_family("A.A\\nx..\\n", "u.txt")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: u.txt: no family reads this text (name the family, or use a file ending such as .nl, .roller, .swap): numberlink: line 2: label 'x' occurs once ...; roller: not a Roller grid: ...; swap: no 'start' line ...
    """
    by_name = family_for_path(path)
    if by_name is not None:
        return by_name
    reasons = []
    for family in sorted(families(), key=lambda family: family.sniff_order):
        if family.sniff(text):
            return family
        reason = family.refusal(text) if family.refusal is not None else None
        reasons.append((family.name, reason or "not its grammar"))
    endings = ", ".join(family.extensions[0] for family in families() if family.extensions)
    tried = "; ".join(f"{name}: {reason}" for name, reason in sorted(reasons))
    raise ParseError(f"no family reads this text (name the family, or use a file ending such as {endings}): {tried}",
                     source=path or None)
