"""Pictures of Numberlink puzzles and answers: coloured paths, labelled endpoints, shaded blocks.

``render(puzzle, solution)`` returns a :class:`~puzzlesat.scene.Scene`; save it as ``.svg``
(no dependency) or ``.png`` (matplotlib). In the SVG every path is one ``<g class="path">``,
every endpoint one ``<g class="endpoint">`` and every blocked cell one ``<rect class="blocked">``.
Colours follow the label order while there are few labels; on big boards paths that touch get
different colours (greedy colouring of the touching graph), so neighbours never blend.

>>> from puzzlesat.numberlink.model import Puzzle, Solution
>>> puzzle = Puzzle.from_rows(["A.B", "..#", "A.B"])
>>> answer = Solution.from_rows(puzzle, ["ABB", "AB#", "ABB"])
>>> scene = render(puzzle, answer)
>>> scene.count("path"), scene.count("endpoint"), scene.count("blocked")
(2, 4, 1)
>>> scene.to_svg().count('class="path"')
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from ..errors import require_type
from ..grid import Cell
from ..results import SolveResult
from ..scene import PALETTE, Circle, Group, Line, Point, Polyline, Rect, Scene, Text, check_cell_size, text_colour_on, text_width
from .model import ONE_LAYER_HINT, Pair, Puzzle, Solution

if TYPE_CHECKING:
    from .multilayer.model import Puzzle as LayeredPuzzle, Solution as LayeredSolution

BLOCKED_FILL = "#3b3b3b"
GRID_STROKE = "#c8c8c8"
BORDER_STROKE = "#555555"


def cell_size_for(puzzle: Puzzle | LayeredPuzzle) -> float:
    """Units per cell: large on small boards, about 24 at 50x50, at least 8 on huge ones (for a
    stack of layers, by the size of one layer)."""
    longest = max(puzzle.width, puzzle.height)
    return float(max(8, min(40, 1200 // longest)))


def colours_for(puzzle: Puzzle | LayeredPuzzle, solution: Solution | LayeredSolution | None = None) -> dict[str, str]:
    """A colour per label: palette order when the palette suffices, else a greedy colouring in
    which touching paths (or, without an answer, nearby endpoints) differ.

    A multi-layer puzzle works too: its cells ``(layer, row, col)`` touch only on one layer
    (each layer is drawn apart), and a label keeps its colour on every layer.

    >>> from puzzlesat.numberlink.model import Puzzle
    >>> colours_for(Puzzle.from_rows(["AB", "AB"]))
    {'A': '#e6194b', 'B': '#3cb44b'}
    """
    labels = list(puzzle.labels)
    if len(labels) <= len(PALETTE):
        return {label: PALETTE[i] for i, label in enumerate(labels)}
    # a cell is (row, col), or (layer, row, col): the last two places are the row and column
    owner: dict[tuple[int, ...], str] = {}
    if solution is not None:
        for label, cells in solution.paths:
            for cell in cells:
                owner[cell] = label
    else:
        # without an answer, let each endpoint claim a small square around it
        for pair in puzzle.pairs:
            for (*layer, r, c) in (pair.start, pair.end):
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        owner.setdefault((*layer, r + dr, c + dc), pair.label)
    touching: dict[str, set[str]] = {label: set() for label in labels}
    for (*layer, r, c), label in owner.items():
        for dr, dc in ((1, 0), (0, 1), (1, 1), (1, -1)):
            other = owner.get((*layer, r + dr, c + dc))
            if other is not None and other != label and other in touching and label in touching:
                touching[label].add(other)
                touching[other].add(label)
    colours: dict[str, str] = {}
    used = {colour: 0 for colour in PALETTE}
    for label in labels:
        taken = {colours[n] for n in touching[label] if n in colours}
        free = [colour for colour in PALETTE if colour not in taken] or list(PALETTE)
        choice = min(free, key=lambda colour: used[colour])
        colours[label] = choice
        used[choice] += 1
    return colours


def render(puzzle: Puzzle, solution: Solution | None = None, *, cell_size: float | None = None, title: str | None = None) -> Scene:
    """Draw ``puzzle`` (and ``solution``'s paths when given) as a scene; ``title`` adds a caption.

    ``solution`` may also be a solve result.

    >>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
    >>> answer = Solution.from_rows(puzzle, ["AAA", "BBB"])
    >>> render(puzzle).count("path"), render(puzzle, answer).count("path")
    (0, 2)
    >>> scene = render(puzzle, title="tiny")
    >>> scene.to_svg().startswith("<svg"), scene.count("endpoint")
    (True, 4)
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    if isinstance(solution, SolveResult):  # render(puzzle, solve(puzzle)) works too
        solution = solution.solution
    if solution is not None:
        require_type(solution, Solution, "solution")
        solution.check_on_board(puzzle)
    check_cell_size(cell_size)
    cell = cell_size or cell_size_for(puzzle)
    margin = cell * 0.5
    caption = cell * 1.2 if title else 0.0
    width = puzzle.width * cell + 2 * margin
    if title:
        width = max(width, margin + text_width(title, min(cell * 0.6, 18)) + margin)
    height = puzzle.height * cell + 2 * margin + caption
    scene = Scene(width, height, title=title or puzzle.name or f"Numberlink {puzzle.width}x{puzzle.height}")
    left, top = margin, margin + caption

    def centre(cell_rc: Cell) -> tuple[float, float]:
        return (left + (cell_rc[1] + 0.5) * cell, top + (cell_rc[0] + 0.5) * cell)

    if title:
        scene.add(Text(left, margin + caption / 2 - cell * 0.1, title, size=min(cell * 0.6, 18), anchor="start", cls="caption"))

    draw_board(scene, puzzle.width, puzzle.height, puzzle.blocked, left=left, top=top, cell=cell)
    colours = colours_for(puzzle, solution)
    if solution is not None:
        for label, cells in solution.paths:
            colour = colours.get(label, "#777777")
            group = Group(cls="path", id=f"path-{label}", title=f"{label}: {len(cells)} cells")
            if len(cells) >= 2:
                group.add(path_line([centre(rc) for rc in cells], colour, cell))
            scene.add(group)

    for pair in puzzle.pairs:
        colour = colours.get(pair.label, "#777777")
        for end in (pair.start, pair.end):
            scene.add(endpoint(*centre(end), pair.label, colour, cell))
    return scene


# -- pieces of a board, shared with the multi-layer pictures (numberlink.multilayer.render) ----
def draw_board(target: Scene | Group, width: int, height: int, blocked: Iterable[Cell], *, left: float, top: float, cell: float) -> None:
    """Add to ``target`` a ``width`` x ``height`` board whose top left corner is at
    (``left``, ``top``): the grid lines (``<g class="grid">``), the ``blocked`` cells
    ``(row, col)`` shaded (``<rect class="blocked">`` in ``<g class="blocked-cells">``) and the
    border.

    >>> scene = Scene(100, 60)
    >>> draw_board(scene, 3, 2, {(1, 2)}, left=5, top=5, cell=20)
    >>> scene.count("grid"), scene.count("blocked"), scene.count("border")
    (1, 1, 1)
    """
    grid = Group(cls="grid")
    for r in range(1, height):
        grid.add(Line(left, top + r * cell, left + width * cell, top + r * cell, stroke=GRID_STROKE, stroke_width=max(0.5, cell * 0.03)))
    for c in range(1, width):
        grid.add(Line(left + c * cell, top, left + c * cell, top + height * cell, stroke=GRID_STROKE, stroke_width=max(0.5, cell * 0.03)))
    target.add(grid)

    shaded = Group(cls="blocked-cells")
    for (r, c) in sorted(blocked):
        shaded.add(Rect(left + c * cell, top + r * cell, cell, cell, fill=BLOCKED_FILL, cls="blocked"))
    target.add(shaded)
    target.add(Rect(left, top, width * cell, height * cell, fill=None, stroke=BORDER_STROKE,
                    stroke_width=max(1.0, cell * 0.08), cls="border"))


def path_line(points: Sequence[Point], colour: str, cell: float) -> Polyline:
    """A path's line through cell centres (``class="path-line"``), about a third of a cell wide.

    >>> path_line([(10, 10), (30, 10)], "#e6194b", 50).stroke_width
    18.0
    """
    return Polyline(points, stroke=colour, stroke_width=cell * 0.36, cls="path-line")


def endpoint(x: float, y: float, label: str, colour: str, cell: float) -> Group:
    """An endpoint centred on (``x``, ``y``): a disc in the label's colour with the label written
    on it (``<g class="endpoint">``); long labels get smaller letters.

    >>> mark = endpoint(10, 10, "12", "#000075", 20)
    >>> mark.cls, mark.children[1].text, mark.children[1].fill
    ('endpoint', '12', 'white')
    """
    size = cell * min(0.55, 1.15 / max(1, len(label)))
    group = Group(cls="endpoint", title=label)
    group.add(Circle(x, y, cell * 0.4, fill=colour, stroke="white", stroke_width=cell * 0.04))
    group.add(Text(x, y, label, size=size, fill=text_colour_on(colour), bold=True))
    return group


def puzzle_svg(puzzle: Puzzle) -> str:
    """The puzzle drawn as SVG text (Jupyter shows a Puzzle with it inline)."""
    return render(puzzle).to_svg()


def solution_svg(solution: Solution) -> str:
    """An answer drawn on the smallest board that holds its paths (Jupyter shows a Solution with it)."""
    cells = [cell for _, path in solution.paths for cell in path] or [(0, 0)]
    board = Puzzle(max(c for _, c in cells) + 1, max(r for r, _ in cells) + 1, tuple(Pair(label, path[0], path[-1]) for label, path in solution.paths if len(path) > 1))
    return render(board, solution).to_svg()
