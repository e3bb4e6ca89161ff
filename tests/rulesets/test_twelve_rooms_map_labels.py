"""The host's SVG map keeps each room's name inside its cell: SVG text does not wrap, and
«Комната, из которой не хочется выходить» ran past room 1's right edge."""

from __future__ import annotations

from xml.etree import ElementTree

import rulesets
from engine.core.ruleset import Seat
from rulesets.twelve_rooms.mapview import svg_map

SVG = "{http://www.w3.org/2000/svg}"


def test_a_long_room_name_is_wrapped_inside_its_cell() -> None:
    layout = ["sticky", "isolated", "safe", "inverted", "detector", "cocoa",
              "cameras", "pistol", "megaphone", "laughter", "silence", "pass_through"]  # fmt: skip
    seats = [
        Seat("Вася", "manager", state={"room": 1}),
        Seat("Петя", "observer", state={"room": 7}),
    ]
    state, _ = rulesets.find("twelve-rooms").setup(seats, {"layout": layout}, 1)
    root = ElementTree.fromstring(svg_map(state, "ru", cell_width=230))
    bold = [t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"][1:]
    rect = next(root.iter(f"{SVG}rect"))  # room 1's cell
    bottom = float(rect.get("y", 0)) + float(rect.get("height", 0))
    room_1 = [
        t.text or "" for t in bold if float(t.get("x", 0)) < 230 and float(t.get("y", 0)) < bottom
    ]
    assert " ".join(room_1) == "1. Комната, из которой не хочется выходить"
    assert len(room_1) >= 2
    assert all(len(line) * 7.5 <= 230 - 16 for line in room_1), room_1
    # The cell grew to hold the extra line: Вася is below the name, inside the cell.
    texts = [t for t in root.iter(f"{SVG}text") if (t.text or "").startswith("*Вася")]
    assert texts and float(texts[0].get("y", 0)) < bottom
