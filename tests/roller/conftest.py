"""Fixtures for the Roller tests."""

from __future__ import annotations

import pytest

from tests.roller.oracle import install_solver, stand_in_solve


@pytest.fixture
def oracle(monkeypatch):
    """The exact BFS of tests/roller/oracle.py stands in for the real solver."""
    return install_solver(monkeypatch, stand_in_solve)
