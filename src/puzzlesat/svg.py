"""SVG text for a :class:`~puzzlesat.scene.Scene`, written directly (no dependency).

Every shape becomes one element (an arrow is one ``<g class="... arrow">`` holding its shaft and
head); ``cls`` and ``id`` become the ``class`` and ``id`` attributes, and all text and attribute
values are escaped, so labels such as ``<&>`` are safe.

>>> from puzzlesat.scene import Scene, Circle, Text
>>> scene = Scene(10, 10)
>>> _ = scene.add(Circle(5, 5, 4, fill="red", cls="dot"))
>>> _ = scene.add(Text(5, 5, '<"x">'))
>>> print(to_svg(scene, pretty=False))  # doctest: +ELLIPSIS
<svg xmlns="http://www.w3.org/2000/svg" ...<circle class="dot" cx="5" cy="5" r="4" fill="red"/>...&lt;&quot;x&quot;&gt;</text></svg>
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .shapes import Arrow, Circle, Group, Line, Polygon, Polyline, Rect, Shape, Text, clean_text

if TYPE_CHECKING:  # (the scene imports this module to draw itself)
    from .scene import Scene

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def escape(text: str) -> str:
    """Text safe inside an XML element or a double-quoted attribute (characters XML forbids
    become ``?``).

    >>> escape('a<b & "c"')
    'a&lt;b &amp; &quot;c&quot;'
    """
    text = clean_text(text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")


def number(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros.

    >>> number(3.0), number(2.456), number(-0.001)
    ('3', '2.46', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attributes(pairs: list[tuple[str, object]]) -> str:
    parts = []
    for name, value in pairs:
        if value is None or value == "":
            continue
        if isinstance(value, float) or isinstance(value, int) and not isinstance(value, bool):
            value = number(float(value))
        parts.append(f'{name}="{escape(str(value))}"')
    return (" " + " ".join(parts)) if parts else ""


def _common(shape: Shape) -> list[tuple[str, object]]:
    return [("class", shape.cls), ("id", shape.id)]


def _opacity(value: float) -> list[tuple[str, object]]:
    return [("opacity", value)] if value < 1.0 else []


def _points(points) -> str:
    return " ".join(f"{number(x)},{number(y)}" for x, y in points)


def _element(shape: Shape, indent: str, pretty: bool) -> list[str]:
    if isinstance(shape, Rect):
        attrs = _common(shape) + [("x", shape.x), ("y", shape.y), ("width", shape.width), ("height", shape.height)]
        if shape.rounded:
            attrs += [("rx", shape.rounded), ("ry", shape.rounded)]
        attrs += [("fill", shape.fill or "none"), ("stroke", shape.stroke)]
        if shape.stroke:
            attrs.append(("stroke-width", shape.stroke_width))
        return [f"{indent}<rect{_attributes(attrs + _opacity(shape.opacity))}/>"]
    if isinstance(shape, Line):
        attrs = _common(shape) + [("x1", shape.x1), ("y1", shape.y1), ("x2", shape.x2), ("y2", shape.y2),
                                  ("stroke", shape.stroke), ("stroke-width", shape.stroke_width), ("stroke-linecap", "round")]
        if shape.dashed:
            attrs.append(("stroke-dasharray", f"{number(shape.stroke_width * 3)} {number(shape.stroke_width * 2)}"))
        return [f"{indent}<line{_attributes(attrs + _opacity(shape.opacity))}/>"]
    if isinstance(shape, Polyline):
        attrs = _common(shape) + [("points", _points(shape.points)), ("fill", "none"), ("stroke", shape.stroke),
                                  ("stroke-width", shape.stroke_width), ("stroke-linecap", "round"), ("stroke-linejoin", "round")]
        return [f"{indent}<polyline{_attributes(attrs + _opacity(shape.opacity))}/>"]
    if isinstance(shape, Polygon):
        attrs = _common(shape) + [("points", _points(shape.points)), ("fill", shape.fill or "none"), ("stroke", shape.stroke)]
        if shape.stroke:
            attrs += [("stroke-width", shape.stroke_width), ("stroke-linejoin", "round")]
        return [f"{indent}<polygon{_attributes(attrs + _opacity(shape.opacity))}/>"]
    if isinstance(shape, Circle):
        attrs = _common(shape) + [("cx", shape.cx), ("cy", shape.cy), ("r", shape.r), ("fill", shape.fill or "none"), ("stroke", shape.stroke)]
        if shape.stroke:
            attrs.append(("stroke-width", shape.stroke_width))
        return [f"{indent}<circle{_attributes(attrs + _opacity(shape.opacity))}/>"]
    if isinstance(shape, Text):
        anchor = shape.anchor if shape.anchor in ("start", "middle", "end") else "middle"
        attrs = _common(shape) + [("x", shape.x), ("y", shape.y), ("font-size", shape.size), ("fill", shape.fill),
                                  ("text-anchor", anchor), ("dominant-baseline", "central")]
        if shape.bold:
            attrs.append(("font-weight", "bold"))
        return [f"{indent}<text{_attributes(attrs)}>{escape(shape.text)}</text>"]
    if isinstance(shape, Arrow):
        shaft, tip = shape.parts()
        cls = (shape.cls + " arrow").strip()
        inner = indent + ("  " if pretty else "")
        lines = [f"{indent}<g{_attributes([('class', cls), ('id', shape.id)])}>"]
        lines += _element(shaft, inner, pretty) + _element(tip, inner, pretty)
        return lines + [f"{indent}</g>"]
    if isinstance(shape, Group):
        inner = indent + ("  " if pretty else "")
        lines = [f"{indent}<g{_attributes(_common(shape))}>"]
        if shape.title:
            lines.append(f"{inner}<title>{escape(shape.title)}</title>")
        for child in shape.children:
            lines += _element(child, inner, pretty)
        return lines + [f"{indent}</g>"]
    raise TypeError(f"not a scene shape: {shape!r}")


def to_svg(scene: Scene, *, pretty: bool = True) -> str:
    """The scene as a standalone SVG document (a string)."""
    head = _attributes([
        ("xmlns", "http://www.w3.org/2000/svg"),
        ("width", scene.width), ("height", scene.height),
        ("viewBox", f"0 0 {number(scene.width)} {number(scene.height)}"),
        ("font-family", FONT),
    ])
    lines = [f"<svg{head}>"]
    inner = "  " if pretty else ""
    if scene.title:
        lines.append(f"{inner}<title>{escape(scene.title)}</title>")
    if scene.background:
        lines.append(f'{inner}<rect class="background" width="100%" height="100%" fill="{escape(scene.background)}"/>')
    for shape in scene.shapes:
        lines += _element(shape, inner, pretty)
    lines.append("</svg>")
    return ("\n" if pretty else "").join(lines) + ("\n" if pretty else "")
