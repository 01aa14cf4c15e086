"""The shapes a :class:`~puzzlesat.scene.Scene` is made of (rectangles, lines, polylines,
polygons, circles, text, arrows, groups), apart from the scene so that the SVG and PNG writers
import them without importing the scene that calls them.

>>> Rect(0, 0, 20, 20, cls="cell").cls, clean_text("a" + chr(7) + "b")
('cell', 'a?b')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Sequence, Union

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
