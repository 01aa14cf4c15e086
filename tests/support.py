"""Helpers for tests: paths to the public data in ../shared/data (skip cleanly when absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("PUZZLESAT_SHARED_DATA", ROOT.parent / "shared" / "data"))
TEST_DATA = Path(__file__).resolve().parent / "data"


def shared_path(*parts: str) -> Path:
    """A path inside ../shared/data; the calling test is skipped when it is not there."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"public data not present: {path}")
    return path
