"""Repaint a Graphviz SVG without laying it out again.

Graphviz places the boxes once; every frame of the stepper is a copy of that one SVG with
other colours and other words in the same places, so nothing ever moves. Boxes and arrows
are found by the ``id`` the drawing gave them (``mg-n3``, ``mg-e5``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")

_SHAPES = {f"{{{SVG}}}{tag}" for tag in ("polygon", "ellipse", "path", "polyline")}
_TEXT = f"{{{SVG}}}text"
_GROUP = f"{{{SVG}}}g"


@dataclass(frozen=True)
class Paint:
    """What a frame changes in one box or arrow. ``None`` keeps what Graphviz drew."""

    stroke: str | None = None
    stroke_width: float | None = None
    dashed: bool = False
    fill: str | None = None
    font: str | None = None
    css_class: str = ""
    texts: tuple[str, ...] | None = None  # new text of each line, in order


class SvgTemplate:
    """One laid-out SVG; ``paint`` returns a repainted copy as text."""

    def __init__(self, svg: str) -> None:
        self.root = ET.fromstring(svg)
        self.groups = {g.get("id"): g for g in self.root.iter(_GROUP) if g.get("id")}
        # Let a wide graph shrink to the width of the page instead of overflowing it.
        self.root.set("style", "max-width: 100%; height: auto;")

    def paint(self, paints: dict[str, Paint]) -> str:
        # Painted in place, written out, then put back as Graphviz drew it: much cheaper
        # than copying the whole tree for every frame, since a frame changes few boxes.
        saved: list[tuple[ET.Element, dict[str, str], str | None]] = []
        try:
            for element_id, paint in paints.items():
                group = self.groups[element_id]
                saved.append((group, dict(group.attrib), group.text))
                for child in group:
                    saved.append((child, dict(child.attrib), child.text))
                _paint_group(group, paint)
            return ET.tostring(self.root, encoding="unicode")
        finally:
            for element, attributes, text in saved:
                element.attrib.clear()
                element.attrib.update(attributes)
                element.text = text


def _paint_group(group: ET.Element, paint: Paint) -> None:
    if paint.css_class:
        group.set("class", f"{group.get('class', '')} {paint.css_class}".strip())
    is_edge = "edge" in group.get("class", "")
    for child in group:
        if child.tag in _SHAPES:
            _paint_shape(child, paint, is_edge)
    if paint.texts is not None:
        texts = [child for child in group if child.tag == _TEXT]
        for element, text in zip(texts, paint.texts, strict=True):
            element.text = text
            if paint.font is not None:
                element.set("fill", paint.font)


def _paint_shape(shape: ET.Element, paint: Paint, is_edge: bool) -> None:
    if paint.stroke is not None:
        shape.set("stroke", paint.stroke)
        # An arrowhead is a filled polygon: it takes the arrow's colour.
        if is_edge and shape.get("fill") not in (None, "none"):
            shape.set("fill", paint.stroke)
    if paint.stroke_width is not None:
        shape.set("stroke-width", f"{paint.stroke_width:g}")
    if paint.dashed and not (is_edge and shape.get("fill") not in (None, "none")):
        shape.set("stroke-dasharray", "5,2")
    if paint.fill is not None and not is_edge:
        shape.set("fill", paint.fill)


def node_positions(svg: str) -> dict[str, tuple[str, ...]]:
    """The coordinates of every box's outline, by id: equal across frames when nothing
    moved (used by the tests)."""
    root = ET.fromstring(svg)
    positions = {}
    for group in root.iter(_GROUP):
        if "node" in group.get("class", "").split():
            shape = next(child for child in group if child.tag in _SHAPES)
            positions[group.get("id", "")] = tuple(
                shape.get(key, "") for key in ("points", "d", "cx", "cy", "rx", "ry")
            )
    return positions
