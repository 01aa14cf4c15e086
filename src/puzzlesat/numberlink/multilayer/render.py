"""Pictures of multi-layer Numberlink puzzles and answers: the layers side by side.

``render(puzzle, solution)`` returns a :class:`~puzzlesat.scene.Scene` (save it as ``.svg``, or
``.png`` with matplotlib). Each layer is drawn as a one-layer board (the pieces of
:mod:`puzzlesat.numberlink.render`: same cell size, same colours, a label in the same colour
on every layer) under its caption ``layer z`` (from 1, as the contest files count); many layers
wrap into rows, so that 8 layers of 72x72 make a picture about twice as wide as tall.

A path crosses layers: where it steps from layer z to layer z + 1, its cell on layer z wears a
white triangle pointing up in the cell's upper half (``class="via via-up"``: "goes on on the
next layer") and its cell on layer z + 1 one pointing down in the lower half (``class="via
via-down"``: "comes from the previous layer"); a cell passed straight through wears both,
around a dot in the path's colour (``class="path-dot"``).

In the SVG each layer is one ``<g class="layer" id="layer-z">`` holding its caption
(``class="layer-caption"``), its grid, its blocked cells (``<rect class="blocked">``), one
``<g class="path" id="path-LABEL-layer-z">`` for every path with cells on it, its endpoints
(``<g class="endpoint">``) and its via triangles. So ``count("via-up")`` is the number of steps
between layers.

>>> from puzzlesat.numberlink.multilayer.model import Puzzle, Solution
>>> puzzle = Puzzle.from_layers([["A.", "#."], [".B", "AB"]])
>>> answer = Solution.from_layers(puzzle, [["A.", "#."], ["AB", "AB"]])
>>> scene = render(puzzle, answer)
>>> scene.count("layer"), scene.count("path"), scene.count("endpoint"), scene.count("blocked")
(2, 3, 4, 1)
>>> scene.count("via-up"), scene.count("via-down")
(1, 1)
"""

from __future__ import annotations

import math

from ...errors import require_type
from ...results import SolveResult
from ...scene import Circle, Group, Polygon, Rect, Scene, Text, check_cell_size, text_width
from ..render import cell_size_for, colours_for, draw_board, endpoint, path_line
from .model import Cell, Pair, Puzzle, Solution

VIA_FILL = "white"
VIA_STROKE = "#222222"
# the shape wanted for the whole picture (width / height) when choosing how many layers go in a row
WANTED_ASPECT = 16 / 9


def layers_per_row(layers: int, panel_width: float, panel_height: float, gap: float = 0.0) -> int:
    """How many layers of ``panel_width`` x ``panel_height`` (caption included) to put in a row,
    ``gap`` apart: rows as even as they can be, and of those the picture whose shape is nearest
    16:9 (a slot left empty in the last row costing a little).

    >>> layers_per_row(2, 100, 110), layers_per_row(3, 100, 110), layers_per_row(8, 1152, 1190)
    (2, 3, 4)
    >>> layers_per_row(4, 1152, 1190), layers_per_row(5, 100, 110), layers_per_row(2, 300, 100)
    (2, 3, 1)
    """
    def cost(columns: int) -> float:
        rows = math.ceil(layers / columns)
        aspect = (columns * panel_width + (columns - 1) * gap) / (rows * panel_height + (rows - 1) * gap)
        empty = rows * columns - layers
        return abs(math.log(aspect / WANTED_ASPECT)) + 0.5 * empty / (rows * columns)

    even = {math.ceil(layers / rows) for rows in range(1, layers + 1)}
    return min(sorted(even), key=cost)


def layer_runs(cells: tuple[Cell, ...]) -> list[tuple[Cell, ...]]:
    """A path cut where it changes layer: its runs of consecutive cells on one layer, in order.

    >>> layer_runs(((0, 0, 0), (0, 0, 1), (1, 0, 1), (2, 0, 1), (2, 1, 1)))
    [((0, 0, 0), (0, 0, 1)), ((1, 0, 1),), ((2, 0, 1), (2, 1, 1))]
    """
    runs: list[tuple[Cell, ...]] = []
    for cell in cells:
        if runs and runs[-1][-1][0] == cell[0]:
            runs[-1] += (cell,)
        else:
            runs.append((cell,))
    return runs


def via_triangle(x: float, y: float, cell: float, *, up: bool) -> Polygon:
    """The via mark of the cell centred on (``x``, ``y``): a white triangle with a dark edge in the
    upper half pointing up (the path goes on on the next layer, ``class="via via-up"``) or in the
    lower half pointing down (it comes from the previous one, ``class="via via-down"``); kept
    off the middle, where an endpoint's label is written.

    >>> via_triangle(10, 10, 20, up=True).points
    [(10, 0.6000000000000014), (5.6, 6.4), (14.4, 6.4)]
    """
    sign = -1 if up else 1
    tip, base, half = y + sign * cell * 0.47, y + sign * cell * 0.18, cell * 0.22
    return Polygon([(x, tip), (x - half, base), (x + half, base)], fill=VIA_FILL, stroke=VIA_STROKE,
                   stroke_width=max(0.5, cell * 0.05), cls="via via-up" if up else "via via-down")


def render(puzzle: Puzzle, solution: Solution | None = None, *, cell_size: float | None = None, title: str | None = None) -> Scene:
    """Draw ``puzzle``'s layers side by side (and ``solution``'s paths, with via marks where they
    change layer, when given) as a scene; ``title`` adds a caption above them all.

    ``solution`` may also be a solve result.

    >>> puzzle = Puzzle.from_layers([["A.", ".."], ["..", ".A"]])
    >>> answer = Solution.from_mapping({"A": [(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1)]})
    >>> render(puzzle).count("path"), render(puzzle, answer).count("path")
    (0, 2)
    >>> scene = render(puzzle, answer, title="tiny")
    >>> [t.text for t in scene.walk() if isinstance(t, Text) and t.cls]
    ['tiny', 'layer 1', 'layer 2']

    A puzzle with vias (ADC 2016) shows each via's cells as grey squares with its name:

    >>> from puzzlesat.numberlink.multilayer.model import Via
    >>> render(Puzzle.from_layers([["A.", ".."], ["..", ".A"]], vias=[Via("a", [(0, 1, 0), (1, 1, 0)])])).count("via-cell")
    2
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    if isinstance(solution, SolveResult):  # render(puzzle, solve(puzzle)) works too
        solution = solution.solution
    if solution is not None:
        require_type(solution, Solution, "solution", "a multi-layer answer (puzzlesat.numberlink.multilayer.Solution)")
        solution.check_on_board(puzzle)
    check_cell_size(cell_size)
    cell = cell_size or cell_size_for(puzzle)
    board_width, board_height = puzzle.width * cell, puzzle.height * cell
    margin = cell * 0.5
    gap = cell * max(1.5, 0.06 * max(puzzle.width, puzzle.height))  # between layers
    caption_size = min(max(cell * 0.6, board_width * 0.025), 36.0)
    caption_band = caption_size * 1.6  # the "layer z" line above each layer
    title_band = caption_size * 2.0 if title else 0.0
    columns = layers_per_row(puzzle.layers, board_width, caption_band + board_height, gap)
    rows = math.ceil(puzzle.layers / columns)
    width = 2 * margin + columns * board_width + (columns - 1) * gap
    if title:
        width = max(width, 2 * margin + text_width(title, caption_size))
    height = 2 * margin + title_band + rows * (caption_band + board_height) + (rows - 1) * gap
    scene = Scene(width, height, title=title or puzzle.name or f"Numberlink {puzzle.size_text}")
    if title:
        scene.add(Text(margin, margin + title_band * 0.4, title, size=caption_size, anchor="start", cls="caption"))

    colours = colours_for(puzzle, solution)
    ends = puzzle.endpoints()
    runs_on: dict[int, list[tuple[str, tuple[Cell, ...]]]] = {z: [] for z in range(puzzle.layers)}
    vias_on: dict[int, list[tuple[Cell, bool]]] = {z: [] for z in range(puzzle.layers)}  # (cell, up)
    for label, cells in (solution.paths if solution is not None else ()):
        for run in layer_runs(cells):
            runs_on[run[0][0]].append((label, run))
        for a, b in zip(cells, cells[1:]):
            if a[0] != b[0]:
                lower, upper = sorted((a, b))
                vias_on[lower[0]].append((lower, True))
                vias_on[upper[0]].append((upper, False))
    blocked_on: dict[int, set[tuple[int, int]]] = {z: set() for z in range(puzzle.layers)}
    for z, r, c in puzzle.blocked:
        blocked_on[z].add((r, c))

    for z in range(puzzle.layers):
        row, column = divmod(z, columns)
        left = margin + column * (board_width + gap)
        caption_top = margin + title_band + row * (caption_band + board_height + gap)
        top = caption_top + caption_band

        def centre(cell_zrc: Cell) -> tuple[float, float]:
            return (left + (cell_zrc[2] + 0.5) * cell, top + (cell_zrc[1] + 0.5) * cell)

        layer = Group(cls="layer", id=f"layer-{z + 1}", title=f"layer {z + 1}")
        layer.add(Text(left, caption_top + caption_band * 0.45, f"layer {z + 1}", size=caption_size, anchor="start", cls="layer-caption"))
        draw_board(layer, puzzle.width, puzzle.height, blocked_on[z], left=left, top=top, cell=cell)
        for via in puzzle.vias:  # ADC 2016: a grey square with the via's name on each of its cells
            for _, r, c in (cell_zrc for cell_zrc in via.cells if cell_zrc[0] == z):
                mark = layer.add(Group(cls="via-cell", title=f"via {via.name}"))
                inset = cell * 0.12
                mark.add(Rect(left + c * cell + inset, top + r * cell + inset, cell - 2 * inset, cell - 2 * inset,
                              fill="#e8e8e8", stroke="#888888", stroke_width=max(0.5, cell * 0.03), rounded=cell * 0.1))
                mark.add(Text(left + (c + 0.5) * cell, top + (r + 0.5) * cell, via.name, size=cell * 0.4, fill="#666666"))

        paths: dict[str, Group] = {}
        for label, run in runs_on[z]:
            colour = colours.get(label, "#777777")
            if label not in paths:
                paths[label] = layer.add(Group(cls="path", id=f"path-{label}-layer-{z + 1}"))
            if len(run) >= 2:
                paths[label].add(path_line([centre(c) for c in run], colour, cell))
            elif run[0] not in ends:  # a cell the path only passes through between layers (an endpoint has its disc)
                paths[label].add(Circle(*centre(run[0]), cell * 0.18, fill=colour, cls="path-dot"))
        for label, group in paths.items():
            cells_here = sum(len(run) for name, run in runs_on[z] if name == label)
            group.title = f"{label}: {cells_here} of {len(solution.path(label))} cells on layer {z + 1}"

        for end, label in ends.items():
            if end[0] == z:
                layer.add(endpoint(*centre(end), label, colours.get(label, "#777777"), cell))
        for via, up in vias_on[z]:
            layer.add(via_triangle(*centre(via), cell, up=up))
        scene.add(layer)
    return scene


def puzzle_svg(puzzle: Puzzle) -> str:
    """The puzzle drawn as SVG text (Jupyter shows a Puzzle with it inline)."""
    return render(puzzle).to_svg()


def solution_svg(solution: Solution) -> str:
    """An answer drawn on the smallest stack that holds its paths (Jupyter shows a Solution with it)."""
    cells = [cell for _, path in solution.paths for cell in path] or [(0, 0, 0)]
    board = Puzzle(max(c for _, _, c in cells) + 1, max(r for _, r, _ in cells) + 1, max(z for z, _, _ in cells) + 1, tuple(Pair(label, path[0], path[-1]) for label, path in solution.paths if len(path) > 1))
    return render(board, solution).to_svg()
