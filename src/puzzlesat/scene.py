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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .shapes import Arrow, Circle, Group, Line, Point, Polygon, Polyline, Rect, Shape, Text, clean_text  # noqa: F401 (the scene's parts, imported from here)


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
