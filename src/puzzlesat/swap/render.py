"""Pictures of Swap levels and answers: start and goal side by side, then one frame per move.

``render(level, moves)`` returns a :class:`~puzzlesat.scene.Scene` (save as ``.svg`` or
``.png``). A square is a tile in its colour (``class="square"``) with its figure drawn as the
directions it moves in (tower: four orthogonal spokes, bishop: four diagonal ones, queen: all
eight), its scope as the number in the middle and its colour letter in the corner; walls are dark
(``class="wall"``). On the start board, a square whose colour differs from a *match* goal
wears a badge in the colour it must become (``class="mismatch"``). With an answer, a strip of frames follows: frame N is
the board before move N, the moving square's arrow drawn from its cell to the target
(``<g class="move" id="move-N">``, dashed red when the move is illegal), and a last frame shows
the board reached. Boards are ``<g class="board">`` with ids ``start``, ``goal``, ``frame-N`` and
``final``.

>>> from puzzlesat.swap.model import Level
>>> level = Level.from_rows(["T1R B1G", "T1G T1R"], goal=["R G", "R G"])
>>> scene = render(level, ["1,0>1,1"])
>>> scene.count("move"), scene.count("board"), scene.count("mismatch")
(1, 4, 2)
"""

from __future__ import annotations

import math
from typing import Iterable, Optional

from ..errors import require_count, require_type
from ..grid import Cell
from ..results import SolveResult
from ..scene import PALETTE, Arrow, Circle, Group, Line, Rect, Scene, Text, check_cell_size, text_colour_on, text_width
from .model import Board, Level, Move, MoveLike, Square, apply_swap, is_goal, parse_moves
from .moves import is_legal, mover_of

# The original game's colours (R B Y G O M), then the shared palette for any other letter.
NAMED_COLOURS = {"R": "#e23b3b", "B": "#3a6fe0", "Y": "#f2c81f", "G": "#3bb35a", "O": "#f08a24", "M": "#c03fc0"}
WALL_FILL = "#2f3640"
FRAME_STROKE = "#b5b5b5"
MISMATCH_STROKE = "#d0021b"


def colour_fill(letter: str) -> str:
    """The fill drawn for colour letter ``letter``.

    >>> colour_fill("R"), colour_fill("A") == colour_fill("A")
    ('#e23b3b', True)
    """
    if letter in NAMED_COLOURS:
        return NAMED_COLOURS[letter]
    return PALETTE[(ord(letter) - ord("A")) % len(PALETTE)]


def _figure_glyph(group: Group, square: Square, x: float, y: float, size: float, *, detailed: bool) -> None:
    """Spokes in the figure's directions, and in detail the scope number and colour letter."""
    ink = text_colour_on(colour_fill(square.colour))
    spoke = size * 0.38
    hub = size * (0.22 if detailed else 0.1)
    width = max(0.8, size * (0.06 if detailed else 0.08))
    from .model import FIGURE_DIRECTIONS

    for dr, dc in FIGURE_DIRECTIONS[square.figure]:
        length = spoke if dr == 0 or dc == 0 else spoke * 0.92
        norm = math.hypot(dr, dc)
        ux, uy = dc / norm, dr / norm
        group.add(Line(x + ux * hub, y + uy * hub, x + ux * length, y + uy * length, stroke=ink, stroke_width=width))
    if detailed:
        group.add(Text(x, y, str(square.scope), size=size * 0.3, fill=ink, bold=True, cls="scope"))
        group.add(Text(x - size * 0.5 + size * 0.1, y - size * 0.5 + size * 0.14, square.colour, size=size * 0.19, fill=ink,
                       anchor="start", cls="colour-letter"))
    else:
        group.add(Circle(x, y, hub * 0.8, fill=ink))


def _board(board: Board, left: float, top: float, cell: float, *, board_id: str, detailed: bool,
           goal_colours=None, highlight: Iterable[Cell] = ()) -> Group:
    """One board as a group of wall and square tiles."""
    group = Group(cls="board", id=board_id)
    rows, cols = len(board), len(board[0])
    group.add(Rect(left, top, cols * cell, rows * cell, fill="#ffffff", stroke=FRAME_STROKE, stroke_width=max(0.5, cell * 0.03)))
    gap = cell * 0.05
    marked = set(highlight)
    for r in range(rows):
        for c in range(cols):
            x0, y0 = left + c * cell, top + r * cell
            square = board[r][c]
            if square is None:
                group.add(Rect(x0, y0, cell, cell, fill=WALL_FILL, cls="wall"))
                continue
            tile = Group(cls="square", title=f"{r},{c}: {square} ({square.figure} scope {square.scope} colour {square.colour})")
            stroke, stroke_width = None, 1.0
            wanted = goal_colours[r][c] if goal_colours is not None else None
            if wanted is not None and wanted != square.colour:
                tile.cls = "square mismatch"
            if (r, c) in marked:
                stroke, stroke_width = "#111111", max(1.2, cell * 0.1)
                tile.cls += " swapped"
            tile.add(Rect(x0 + gap, y0 + gap, cell - 2 * gap, cell - 2 * gap, fill=colour_fill(square.colour), stroke=stroke,
                          stroke_width=stroke_width, rounded=cell * 0.12))
            _figure_glyph(tile, square, x0 + cell / 2, y0 + cell / 2, cell, detailed=detailed)
            if "mismatch" in tile.cls and detailed:
                # a badge in the goal colour: this square's colour must change to that one
                bx, by, br = x0 + cell * 0.8, y0 + cell * 0.2, cell * 0.15
                tile.add(Circle(bx, by, br, fill=colour_fill(wanted), stroke="white", stroke_width=max(1.0, cell * 0.04)))
                tile.add(Text(bx, by, wanted, size=br * 1.2, fill=text_colour_on(colour_fill(wanted)), bold=True))
            group.add(tile)
    return group


def _goal_board(level: Level, left: float, top: float, cell: float) -> Group:
    """The goal colour matrix of a *match* level: tiles in the goal colours with their letters."""
    group = Group(cls="board", id="goal")
    colours = level.goal.colours
    assert colours is not None
    group.add(Rect(left, top, level.cols * cell, level.rows * cell, fill="#ffffff", stroke=FRAME_STROKE, stroke_width=max(0.5, cell * 0.03)))
    gap = cell * 0.05
    for r, row in enumerate(colours):
        for c, colour in enumerate(row):
            x0, y0 = left + c * cell, top + r * cell
            if colour is None:
                group.add(Rect(x0, y0, cell, cell, fill=WALL_FILL, cls="wall"))
                continue
            tile = Group(cls="goal-cell", title=f"{r},{c}: {colour}")
            tile.add(Rect(x0 + gap, y0 + gap, cell - 2 * gap, cell - 2 * gap, fill=colour_fill(colour), rounded=cell * 0.12))
            tile.add(Text(x0 + cell / 2, y0 + cell / 2, colour, size=cell * 0.36, fill=text_colour_on(colour_fill(colour)), bold=True))
            group.add(tile)
    return group


def _move_arrow(board: Board, move: Move, left: float, top: float, cell: float, step: int) -> Group:
    """The arrow of one swap, from the square that moves to the cell it swaps with."""
    mover = mover_of(board, move)
    legal = mover is not None and is_legal(board, move)
    source = mover if mover is not None else move.source
    target = move.target if source == move.source else move.source
    x1, y1 = left + (source[1] + 0.5) * cell, top + (source[0] + 0.5) * cell
    x2, y2 = left + (target[1] + 0.5) * cell, top + (target[0] + 0.5) * cell
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    inset = cell * 0.18
    x1, y1, x2, y2 = x1 + ux * inset, y1 + uy * inset, x2 - ux * inset, y2 - uy * inset
    group = Group(cls="move" if legal else "move illegal", id=f"move-{step}", title=f"move {step}: {move}" + ("" if legal else " (illegal)"))
    width = max(1.2, cell * 0.09)
    group.add(Arrow(x1, y1, x2, y2, stroke="white", stroke_width=width * 2.2, head=cell * 0.42))
    group.add(Arrow(x1, y1, x2, y2, stroke="#111111" if legal else MISMATCH_STROKE, stroke_width=width, head=cell * 0.34))
    if not legal:
        group.add(Line(x1, y1, x2, y2, stroke="white", stroke_width=width * 0.5, dashed=True))
    return group


def render(level: Level, moves: str | Iterable[MoveLike] | None = None, *, cell_size: float | None = None,
           title: str | None = None, frames_per_row: int | None = None) -> Scene:
    """Draw ``level`` (start and goal) and, when ``moves`` is given, one frame per move and the
    board reached; ``title`` adds a caption. ``moves`` may also be a solve result.

    >>> level = Level.from_rows(["T1R T1G"], goal=["G R"])
    >>> render(level).count("board"), render(level, ["0,0>0,1"]).count("board")  # + frame, end
    (2, 4)
    >>> render(level, title="tiny").to_svg().startswith("<svg")
    True
    """
    require_type(level, Level, "level")
    if isinstance(moves, SolveResult):  # render(puzzle, solve(puzzle)) works too
        moves = moves.solution
    if frames_per_row is not None:
        require_count(frames_per_row, "frames_per_row")
    check_cell_size(cell_size)
    cell = cell_size or float(max(28, min(56, 360 // max(level.rows, level.cols))))
    small = max(14.0, cell * 0.5)
    margin = cell * 0.4
    label = max(11.0, cell * 0.3)
    caption = cell * 0.8 if title else 0.0
    board_w, board_h = level.cols * cell, level.rows * cell
    top = margin + caption + label * 1.6
    left = margin

    move_list: Optional[tuple[Move, ...]] = parse_moves(moves) if moves is not None else None
    for number, move in enumerate(move_list or (), start=1):
        off = [cell for cell in move.cells if not (0 <= cell[0] < level.rows and 0 <= cell[1] < level.cols)]
        if off:
            raise ValueError(f"move {number} ({move}) leaves the {level.rows}x{level.cols} board at {off[0]}: nothing to draw")
    boards: list[Board] = [level.start]
    for move in move_list or ():
        boards.append(apply_swap(boards[-1], move.source, move.target))

    shapes: list = []
    if title:
        shapes.append(Text(left, margin + caption / 2, title, size=min(cell * 0.45, 20), anchor="start", cls="caption"))
    goal_colours = level.goal.colours if level.goal.kind == "match" else None
    shapes.append(Text(left, top - label * 0.8, "start", size=label, anchor="start", bold=True))
    shapes.append(_board(level.start, left, top, cell, board_id="start", detailed=True, goal_colours=goal_colours))
    goal_left = left + board_w + cell * 0.8
    if level.goal.kind == "match":
        shapes.append(Text(goal_left, top - label * 0.8, "goal", size=label, anchor="start", bold=True))
        shapes.append(_goal_board(level, goal_left, top, cell))
        right = goal_left + board_w
    else:
        rule = {"cluster": "every colour one connected group", "touch": "every square touches its colour"}[level.goal.kind]
        shapes.append(Text(goal_left, top - label * 0.8, f"goal: {level.goal.kind}", size=label, anchor="start", bold=True))
        shapes.append(Text(goal_left, top + label, rule, size=label * 0.9, anchor="start", cls="goal-rule"))
        right = goal_left + max(board_w, len(rule) * label * 0.55)
    bottom = top + board_h
    legend = "spokes: + tower, x bishop, * queen; number = scope" + ("; badge = goal colour" if goal_colours else "")
    shapes.append(Text(left, bottom + label * 1.1, legend, size=label * 0.8, anchor="start", fill="#555555", cls="legend"))
    bottom += label * 2.0
    width = max(right, left + len(legend) * label * 0.8 * 0.55) + margin
    if title:
        width = max(width, left + text_width(title, min(cell * 0.45, 20)) + margin)

    if move_list is not None:
        frame_w, frame_h = level.cols * small, level.rows * small
        gap = small * 0.7
        captions = [f"{k + 1}: {move}" for k, move in enumerate(move_list)] + ["end"]
        # frames stand a caption's width apart at least: on a narrow board "1: 0,0>1,0" is wider
        # than the frame above it, and captions one frame-width apart ran into each other
        pitch = max([frame_w] + [text_width(text, label * 0.8) for text in captions]) + gap
        per_row = frames_per_row or max(3, int((width - 2 * margin + gap) // pitch))
        frames = len(move_list) + 1
        verdict = "goal reached" if is_goal(level, boards[-1]) else "goal NOT reached"
        header = f"{len(move_list)} move{'s' if len(move_list) != 1 else ''}: {verdict}"
        shapes.append(Text(left, bottom + label * 0.9, header, size=label, anchor="start", bold=True, cls="moves-summary"))
        y0 = bottom + label * 2.0
        for k in range(frames):
            row, col = divmod(k, per_row)
            fx = left + col * pitch
            fy = y0 + row * (frame_h + label * 1.7)
            caption_text = captions[k]
            if k < len(move_list):
                move = move_list[k]
                board_group = _board(boards[k], fx, fy, small, board_id=f"frame-{k + 1}", detailed=False, highlight=move.cells)
                shapes.append(board_group)
                shapes.append(_move_arrow(boards[k], move, fx, fy, small, k + 1))
            else:
                shapes.append(_board(boards[k], fx, fy, small, board_id="final", detailed=False, goal_colours=goal_colours))
            shapes.append(Text(fx, fy + frame_h + label * 0.6, caption_text, size=label * 0.8, anchor="start", cls="frame-caption"))
        rows_used = math.ceil(frames / per_row)
        bottom = y0 + rows_used * (frame_h + label * 1.7)
        width = max(width, left + min(frames, per_row) * pitch - gap + margin)

    scene = Scene(width, bottom + margin * 0.5, title=title or level.name or f"Swap {level.rows}x{level.cols}")
    for shape in shapes:
        scene.add(shape)
    return scene


def level_svg(level: Level) -> str:
    """The level drawn as SVG text (Jupyter shows a Level with it inline)."""
    return render(level).to_svg()
