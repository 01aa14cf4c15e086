"""Shared test fixtures (helpers live in tests/support.py: ``from tests.support import shared_path``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import SHARED_DATA


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.exists():
        pytest.skip(f"public data not present: {SHARED_DATA}")
    return SHARED_DATA
