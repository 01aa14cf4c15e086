"""Placeholder: being written (see the issue tracker). Replaced by the real module."""
def render(puzzle, solution=None, **k): raise NotImplementedError
