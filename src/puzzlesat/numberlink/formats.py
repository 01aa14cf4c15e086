"""Placeholder: being written (see the issue tracker). Replaced by the real module."""
FORMATS = ()
def detect_format(text): raise NotImplementedError
def parse(text, *, fmt=None): raise NotImplementedError
def parse_all(text, *, fmt=None, source=None): raise NotImplementedError
def parse_solution(text, puzzle, *, fmt=None): raise NotImplementedError
def read(path_or_url, *, fmt=None): raise NotImplementedError
def format(puzzle, *, fmt="native"): raise NotImplementedError
def format_solution(puzzle, solution): raise NotImplementedError
