"""Placeholder: being written (see the issue tracker). Replaced by the real module."""
def solve(puzzle, *, rules=None, time_limit=None, solver=None): raise NotImplementedError
def count(puzzle, *, rules=None, limit=2, time_limit=None, solver=None): raise NotImplementedError
def is_unique(puzzle, *, rules=None, time_limit=None, solver=None): raise NotImplementedError
def encode(puzzle, rules=None): raise NotImplementedError
