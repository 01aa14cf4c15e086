"""Comments say what and why; the measurements behind them live in encodings/*.md.

- Every section of encodings/*.md that the code cites (``encodings/swap.md, "Plan searches"`` or
  ``encodings/roller.md, section 8``) exists, so a citation cannot point at nothing.
- No comment in src/ keeps lab notes that belong in encodings/: no "slow machine", no "session N".
"""

from __future__ import annotations

import re

import pytest

from tests.support import ROOT

SOURCES = sorted((ROOT / "src" / "puzzlesat").rglob("*.py"))
CITATION = re.compile(r"encodings/([\w.-]+\.md)\s*,\s*(?:section (\d+)|\"([^\"]+)\")")


def _joined(text: str) -> str:
    """The text with line breaks inside comments and docstrings joined by one space."""
    return re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)


def _headings(name: str) -> list[str]:
    text = (ROOT / "encodings" / name).read_text(encoding="utf-8")
    return [line.lstrip("#").strip().replace("`", "") for line in text.splitlines() if line.startswith("#")]


def test_every_cited_encodings_section_exists() -> None:
    cited = 0
    for path in SOURCES:
        for match in CITATION.finditer(_joined(path.read_text(encoding="utf-8"))):
            name, number, title = match.groups()
            assert (ROOT / "encodings" / name).exists(), f"{path.name} cites a missing file encodings/{name}"
            headings = _headings(name)
            if number is not None:
                assert any(h.startswith(f"{number}. ") for h in headings), f"{path.name}: encodings/{name} has no section {number}"
            else:
                assert any(title.replace("`", "") in h for h in headings), f"{path.name}: encodings/{name} has no section {title!r}"
            cited += 1
    assert cited >= 20  # (the code does cite them)


@pytest.mark.parametrize("note", [r"slow machine", r"\bsession \d+"])
def test_no_lab_notes_in_the_code(note: str) -> None:
    found = [f"{path.relative_to(ROOT)}:{number}" for path in SOURCES
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(note, line, re.IGNORECASE)]
    assert not found, f"lab notes ({note!r}) belong in encodings/*.md: {found}"
