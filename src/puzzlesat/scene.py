"""A picture described once, drawn twice: the small scene every family's ``render`` returns.

A :class:`Scene` is a list of shapes (rectangles, lines, polylines, polygons, circles, text,
arrows, groups) on a canvas whose y axis points down, as in SVG. :mod:`puzzlesat.svg` writes it
as SVG text with no dependency; :mod:`puzzlesat.png` paints the same shapes with matplotlib (the
optional ``plot`` extra). Shapes carry a ``cls`` (the SVG ``class``) so that tests and style
sheets can find the paths, moves and squares of a picture.

>>> scene = Scene(40, 20, title="two cells")
>>> _ = scene.add(Rect(0, 0, 20, 20, fill="#eeeeee", cls="cell"))
>>> _ = scene.add(Text(30, 10, "A & B", size=8))
>>> svg = scene.to_svg()
>>> svg.startswith("<svg") and "A &amp; B" in svg
True
>>> scene.count("cell")
1
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence, Union

Point = tuple[float, float]

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def clean_text(text: str) -> str:
    """Text with control characters (which XML forbids and fonts lack) replaced by ``?``."""
    return _CONTROL.sub("?", str(text))


@dataclass
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 1.0
    opacity: float = 1.0
    rounded: float = 0.0
    cls: str = ""
    id: str = ""


@dataclass
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "black"
    stroke_width: float = 1.0
    dashed: bool = False
    opacity: float = 1.0
    cls: str = ""
    id: str = ""


@dataclass
class Polyline:
    """An open line through points, drawn with round caps and joins (a path on a board)."""

    points: Sequence[Point]
    stroke: str = "black"
    stroke_width: float = 1.0
    opacity: float = 1.0
    cls: str = ""
    id: str = ""


@dataclass
class Polygon:
    points: Sequence[Point]
    fill: str | None = "black"
    stroke: str | None = None
    stroke_width: float = 1.0
    opacity: float = 1.0
    cls: str = ""
    id: str = ""


@dataclass
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = "black"
    stroke: str | None = None
    stroke_width: float = 1.0
    opacity: float = 1.0
    cls: str = ""
    id: str = ""


@dataclass
class Text:
    """Text centred vertically on ``y``; ``anchor`` is "middle", "start" or "end" along x."""

    x: float
    y: float
    text: str
    size: float = 10.0
    fill: str = "black"
    anchor: str = "middle"
    bold: bool = False
    cls: str = ""
    id: str = ""


@dataclass
class Arrow:
    """A straight arrow from (x1, y1) to (x2, y2) with a filled head of length ``head``."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "black"
    stroke_width: float = 1.0
    head: float = 6.0
    opacity: float = 1.0
    cls: str = ""
    id: str = ""

    def parts(self) -> tuple[Line, Polygon]:
        """The shaft (stopping at the head's base) and the head as a triangle."""
        dx, dy = self.x2 - self.x1, self.y2 - self.y1
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        head = min(self.head, length)
        bx, by = self.x2 - ux * head, self.y2 - uy * head
        half = head * 0.5
        left = (bx - uy * half, by + ux * half)
        right = (bx + uy * half, by - ux * half)
        shaft = Line(self.x1, self.y1, bx, by, stroke=self.stroke, stroke_width=self.stroke_width, opacity=self.opacity)
        tip = Polygon([(self.x2, self.y2), left, right], fill=self.stroke, opacity=self.opacity)
        return shaft, tip


@dataclass
class Group:
    """Shapes that belong together (one path, one move, one square): one ``<g>`` in SVG."""

    children: list["Shape"] = field(default_factory=list)
    cls: str = ""
    id: str = ""
    title: str = ""

    def add(self, shape: "Shape") -> "Shape":
        self.children.append(shape)
        return shape


Shape = Union[Rect, Line, Polyline, Polygon, Circle, Text, Arrow, Group]


@dataclass
class Scene:
    """A canvas of ``width`` x ``height`` units (y down) and the shapes drawn on it, in order."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)
    background: str | None = "white"
    title: str = ""

    def add(self, shape: Shape) -> Shape:
        self.shapes.append(shape)
        return shape

    def walk(self) -> Iterator[Shape]:
        """Every shape, groups before their children, in drawing order."""
        stack: list[Shape] = list(reversed(self.shapes))
        while stack:
            shape = stack.pop()
            yield shape
            if isinstance(shape, Group):
                stack.extend(reversed(shape.children))

    def count(self, cls: str) -> int:
        """How many shapes carry the class ``cls`` (a class list is split on spaces)."""
        return sum(cls in shape.cls.split() for shape in self.walk())

    def to_svg(self) -> str:
        from .svg import to_svg

        return to_svg(self)

    def _repr_svg_(self) -> str:  # shown inline by Jupyter
        return self.to_svg()

    def save(self, path: str | Path, *, scale: float = 1.0) -> Path:
        """Write the picture as SVG, or as PNG (needs matplotlib) when ``path`` ends in ``.png``;
        ``scale`` is PNG pixels per unit. Raises ValueError for other endings."""
        path = Path(path)
        problem = ending_problem(path)
        if problem:
            raise ValueError(problem)
        if path.suffix.lower() == ".svg":
            path.write_text(self.to_svg(), encoding="utf-8")
        else:
            from .png import write_png

            write_png(self, path, scale=scale)
        return path


# -- colours ----------------------------------------------------------------------------------
# A qualitative palette with well separated hues (Flow Free like first, then darker tones).
PALETTE: tuple[str, ...] = (
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
    "#ffe119", "#469990", "#9a6324", "#800000", "#000075", "#808000", "#fabed4", "#aaffc3",
    "#dcbeff", "#ffd8b1", "#a9a9a9", "#00a86b",
)


def check_cell_size(cell_size: object) -> None:
    """Raise a TypeError or ValueError naming ``cell_size`` (a ``render`` argument) unless it is
    None (the family's own size) or a finite number of pixels above zero.

    >>> check_cell_size(24.5)
    >>> check_cell_size("20")
    Traceback (most recent call last):
    ...
    TypeError: cell_size must be a number of pixels, not str
    >>> check_cell_size(math.inf)
    Traceback (most recent call last):
    ...
    ValueError: cell_size must be a positive number of pixels, not inf
    """
    if cell_size is None:
        return
    if isinstance(cell_size, bool) or not isinstance(cell_size, numbers.Real):  # numpy's numbers are too
        raise TypeError(f"cell_size must be a number of pixels, not {type(cell_size).__name__}")
    if not 0 < cell_size < math.inf:
        raise ValueError(f"cell_size must be a positive number of pixels, not {cell_size!r}")


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` at font size ``size`` (no font metrics:
    used to make room for captions).

    >>> text_width("abcd", 10)
    24.0
    """
    return len(text) * size * 0.6


def text_colour_on(fill: str) -> str:
    """Black or white, whichever reads better on the ``#rrggbb`` colour ``fill``.

    >>> text_colour_on("#ffe119"), text_colour_on("#000075")
    ('black', 'white')
    """
    fill = fill.lstrip("#")
    if len(fill) != 6:
        return "black"
    r, g, b = (int(fill[i : i + 2], 16) / 255 for i in (0, 2, 4))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if luminance > 0.5 else "white"


def png_scale(scene: Scene, *, smallest: float = 800.0, largest: float = 4000.0) -> float:
    """Pixels per unit for a PNG whose longer side is at least ``smallest`` pixels (small
    boards get crisp, big ones stay as drawn) and at most ``largest`` (huge boards shrink).

    >>> png_scale(Scene(200, 100)), png_scale(Scene(1200, 1000)), png_scale(Scene(8000, 10))
    (4.0, 1.0, 0.5)
    """
    longest = max(scene.width, scene.height, 1.0)
    return min(max(1.0, smallest / longest), largest / longest)


PICTURE_ENDINGS = (".svg", ".png")


def ending_problem(path: Path) -> str | None:
    if path.suffix.lower() not in PICTURE_ENDINGS:
        return f"cannot write {path.name!r}: the picture file must end in .svg or .png"
    return None
