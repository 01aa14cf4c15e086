"""Pictures of Roller levels and answers: walls, the start, painted cells and the route.

``render(level, moves)`` returns a :class:`~puzzlesat.scene.Scene` (save as ``.svg`` or
``.png``). Walls are dark squares (``class="wall"``), floor cells light; with an answer, every
cell the ball paints is coloured (``class="painted"``, one per cell), floor it misses is marked
(``class="unpainted"``), and each move is one numbered arrow from stop to stop
(``<g class="move" id="move-N">``, N its place in ``moves``, as :func:`.verify.verify` counts; a
move against a wall draws nothing), coloured from blue (first) to red (last). Opposite moves over
the same stretch are drawn side by side, not on top of each other. The ball's start is a
circle (``class="start"``), its last stop a ring (``class="finish"``).

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#####", "#o..#", "#.#.#", "#...#", "#####"])
>>> scene = render(level, "RDLU")
>>> scene.count("move"), scene.count("painted"), scene.count("wall"), scene.count("unpainted")
(4, 8, 17, 0)
>>> render(level, "RD").count("unpainted")
3
"""

from __future__ import annotations

from ..errors import require_type
from ..grid import Cell
from ..results import SolveResult
from ..scene import Arrow, Circle, Group, Line, Rect, Scene, Text, check_cell_size, text_width
from .model import DELTAS, Level, slide
from .verify import move_string

WALL_FILL = "#2f3e4e"
FLOOR_FILL = "#f3efe4"
PAINT_FILL = "#8fd6c9"
UNPAINTED_MARK = "#d62728"
BALL_FILL = "#f5a623"
GRID_STROKE = "#d9d3c3"


def step_colour(step: int, steps: int) -> str:
    """From blue (first move) through purple to red (last move).

    >>> step_colour(0, 5), step_colour(4, 5)
    ('#1f4fd6', '#d62a1f')
    """
    t = step / (steps - 1) if steps > 1 else 0.0
    start, end = (0x1F, 0x4F, 0xD6), (0xD6, 0x2A, 0x1F)
    r, g, b = (round(a + (z - a) * t) for a, z in zip(start, end))
    return f"#{r:02x}{g:02x}{b:02x}"


def assign_lanes(segments: list[tuple[Cell, Cell]]) -> list[tuple[int, int]]:
    """For each straight move (from, to), a lane and the number of lanes of its cluster, so that
    moves overlapping on the same row or column are drawn side by side.

    >>> assign_lanes([((0, 0), (0, 3)), ((0, 3), (0, 1)), ((1, 0), (3, 0)), ((0, 5), (0, 7))])
    [(0, 2), (1, 2), (0, 1), (0, 1)]
    """
    lines: dict[tuple, list[tuple[int, int, int]]] = {}
    for index, (a, b) in enumerate(segments):
        if a[0] == b[0]:
            key, lo, hi = ("row", a[0]), min(a[1], b[1]), max(a[1], b[1])
        else:
            key, lo, hi = ("col", a[1]), min(a[0], b[0]), max(a[0], b[0])
        lines.setdefault(key, []).append((lo, hi, index))
    result: list[tuple[int, int]] = [(0, 1)] * len(segments)
    for intervals in lines.values():
        intervals.sort()
        cluster: list[tuple[int, int, int]] = []
        reach = None

        def close(cluster: list[tuple[int, int, int]]) -> None:
            ends: list[int] = []  # per lane, where its last interval ends
            placed = []
            for lo, hi, index in cluster:
                lane = next((k for k, end in enumerate(ends) if end <= lo), len(ends))
                if lane == len(ends):
                    ends.append(hi)
                else:
                    ends[lane] = hi
                placed.append((index, lane))
            for index, lane in placed:
                result[index] = (lane, len(ends))

        for lo, hi, index in intervals:
            if reach is not None and lo >= reach:
                close(cluster)
                cluster = []
            cluster.append((lo, hi, index))
            reach = hi if reach is None or lo >= reach else max(reach, hi)
        close(cluster)
    return result


def cell_size_for(level: Level) -> float:
    longest = max(level.width, level.height)
    return float(max(10, min(48, 900 // longest)))


def render(level: Level, moves: str | None = None, *, cell_size: float | None = None, title: str | None = None) -> Scene:
    """Draw ``level`` and, when ``moves`` (a string over U D L R, or a list of such letters, as
    :func:`.verify.verify` takes) is given, the painted floor and the route as numbered arrows;
    ``title`` adds a caption. ``moves`` may also be a solve result.

    >>> from puzzlesat.roller.model import Level
    >>> level = Level.from_rows(["o..", "##."])
    >>> scene = render(level, "RD")
    >>> scene.count("move"), scene.count("painted"), scene.count("unpainted")
    (2, 4, 0)
    >>> render(level).to_svg().startswith("<svg")
    True
    """
    require_type(level, Level, "level")
    if isinstance(moves, SolveResult):  # render(puzzle, solve(puzzle)) works too
        moves = moves.solution
    if moves is not None:
        moves = move_string(moves)  # ["R", "D"] too, as verify takes it
        unknown = sorted(set(moves) - set(DELTAS))
        if unknown:
            raise ValueError(f"moves hold {''.join(unknown)!r}, which are not moves (U D L R)")
    check_cell_size(cell_size)
    cell = cell_size or cell_size_for(level)
    margin = cell * 0.4
    caption = cell * 1.0 if title else 0.0
    width = level.width * cell + 2 * margin
    if title:
        width = max(width, margin + text_width(title, min(cell * 0.5, 18)) + margin)
    scene = Scene(width, level.height * cell + 2 * margin + caption,
                  title=title or level.name or f"Roller {level.width}x{level.height}")
    left, top = margin, margin + caption
    if title:
        scene.add(Text(left, margin + caption / 2, title, size=min(cell * 0.5, 18), anchor="start", cls="caption"))

    def centre(rc: Cell) -> tuple[float, float]:
        return (left + (rc[1] + 0.5) * cell, top + (rc[0] + 0.5) * cell)

    moves = "".join(moves) if moves is not None else None
    painted: set[Cell] = {level.start}
    stops: list[tuple[Cell, Cell, str, int]] = []  # (from, to, direction, place in moves) of each real move
    if moves is not None:
        position = level.start
        for number, direction in enumerate(moves, start=1):
            stop, cells = slide(level, position, direction)
            painted.update(cells)
            if cells:
                stops.append((position, stop, direction, number))
            position = stop

    board = Group(cls="board")
    board.add(Rect(left, top, level.width * cell, level.height * cell, fill=FLOOR_FILL, cls="floor"))
    for r, row in enumerate(level.rows):
        for c, ch in enumerate(row):
            if ch != ".":
                board.add(Rect(left + c * cell, top + r * cell, cell, cell, fill=WALL_FILL, cls="wall"))
    scene.add(board)

    if moves is not None:
        paint = Group(cls="paint")
        for (r, c) in sorted(painted):
            paint.add(Rect(left + c * cell, top + r * cell, cell, cell, fill=PAINT_FILL, cls="painted"))
        scene.add(paint)

    grid = Group(cls="grid")
    for r, row in enumerate(level.rows):
        for c, ch in enumerate(row):
            if ch == ".":
                grid.add(Rect(left + c * cell, top + r * cell, cell, cell, fill=None, stroke=GRID_STROKE, stroke_width=max(0.5, cell * 0.03)))
    scene.add(grid)

    if moves is not None:
        missed = Group(cls="missed")
        for cell_rc in level.floor_cells:
            if cell_rc not in painted:
                x, y = centre(cell_rc)
                d = cell * 0.22
                mark = Group(cls="unpainted", title=f"unpainted {cell_rc}")
                mark.add(Line(x - d, y - d, x + d, y + d, stroke=UNPAINTED_MARK, stroke_width=cell * 0.08))
                mark.add(Line(x - d, y + d, x + d, y - d, stroke=UNPAINTED_MARK, stroke_width=cell * 0.08))
                missed.add(mark)
        scene.add(missed)

    sx, sy = centre(level.start)
    scene.add(Circle(sx, sy, cell * 0.34, fill=BALL_FILL, stroke="#7a4f00", stroke_width=cell * 0.05, cls="start"))

    if stops:
        route = Group(cls="route")
        lanes = assign_lanes([(a, b) for a, b, _, _ in stops])
        for step, (a, b, direction, number) in enumerate(stops):
            colour = step_colour(number - 1, len(moves))
            (x1, y1), (x2, y2) = centre(a), centre(b)
            lane, lane_count = lanes[step]
            spacing = cell * min(0.24, 0.72 / max(1, lane_count - 1))
            offset = (lane - (lane_count - 1) / 2) * spacing
            dr, dc = DELTAS[direction]
            ox, oy = (offset, 0.0) if dc == 0 else (0.0, offset)  # vertical moves shift in x, horizontal in y
            shrink = cell * 0.2
            x1s, y1s = x1 + dc * shrink + ox, y1 + dr * shrink + oy
            x2s, y2s = x2 - dc * shrink + ox, y2 - dr * shrink + oy
            move = Group(cls="move", id=f"move-{number}", title=f"move {number}: {direction} {a} -> {b}")
            move.add(Arrow(x1s, y1s, x2s, y2s, stroke=colour, stroke_width=max(1.0, cell * 0.07), head=cell * 0.3))
            label = str(number)
            radius = cell * (0.2 if len(label) < 3 else 0.25)
            # numbers of side-by-side moves sit at staggered points along them, not side by side
            t = min(0.75, max(0.25, 0.5 + (lane - (lane_count - 1) / 2) * 0.3))
            t = t if dr + dc > 0 else 1 - t  # measured from the top or left end, whatever the direction
            mx, my = x1s + (x2s - x1s) * t, y1s + (y2s - y1s) * t
            if abs(x2 - x1) + abs(y2 - y1) <= cell * 1.01:  # a one-cell move: the number goes beside the arrow
                side = 1 if offset >= 0 else -1
                mx, my = mx + (side * (radius + cell * 0.08) if dc == 0 else 0), my + (side * (radius + cell * 0.08) if dr == 0 else 0)
            move.add(Circle(mx, my, radius, fill="white", stroke=colour, stroke_width=max(0.6, cell * 0.04), cls="step"))
            move.add(Text(mx, my, label, size=cell * (0.26 if len(label) < 3 else 0.2), fill=colour, bold=True))
            route.add(move)
        scene.add(route)
        fx, fy = centre(stops[-1][1])
        scene.add(Circle(fx, fy, cell * 0.36, fill=None, stroke=BALL_FILL, stroke_width=cell * 0.08, cls="finish"))
    return scene


def level_svg(level: Level) -> str:
    """The level drawn as SVG text (Jupyter shows a Level with it inline)."""
    return render(level).to_svg()
