"""Text a reader cannot see: white or near-white colour, tiny sizes, reversed by a bidi override.

Boards render such text (a player can type `[color=#ffffff]`, `[size=1]` or U+202E around a
name), but a reader sees nothing, or something else, where the parser would read a vote.
Adapters flag it `TextRun.hidden`; the parser holds what only hidden text says for the host.

- Colour: white and near-white (every channel at least 232: #eeeeee is hidden, #dddddd and
  yellow are not), `transparent`, and alpha below 0.3. Boards with a dark theme exist, but
  every board forumgm reads serves a light one by default.
- Size: under 6 px (or 5 pt, 0.4 em, 40 %); a bare BBCode number is phpBB's percent,
  MyBB's pt and XenForo's 1–7 scale at once, so only `[size=0]` and `[size=1]` count as
  hidden there (1 % in phpBB, 1 pt in MyBB, XenForo's smallest).
- Bidi: text inside a right-to-left override (U+202E, or `<bdo dir="rtl">`) is shown
  reversed; the controls themselves are dropped from the text.
"""

from __future__ import annotations

import re

_NAMED = {
    "white": (255, 255, 255), "snow": (255, 250, 250), "ivory": (255, 255, 240),
    "ghostwhite": (248, 248, 255), "whitesmoke": (245, 245, 245), "azure": (240, 255, 255),
    "mintcream": (245, 255, 250), "seashell": (255, 245, 238), "floralwhite": (255, 250, 240),
    "honeydew": (240, 255, 240), "aliceblue": (240, 248, 255), "lavenderblush": (255, 240, 245),
    "oldlace": (253, 245, 230), "linen": (250, 240, 230), "cornsilk": (255, 248, 220),
    "lightyellow": (255, 255, 224), "lightcyan": (224, 255, 255), "beige": (245, 245, 220),
}  # fmt: skip
_HEX = re.compile(r"#?([0-9a-f]{3,8})")
_RGB = re.compile(
    r"rgba?\(\s*([\d.]+%?)[\s,]+([\d.]+%?)[\s,]+([\d.]+%?)(?:[\s,/]+([\d.]+%?))?\s*\)"
)
_SIZE = re.compile(r"(-?[\d.]+)\s*(px|pt|em|rem|%|)")
_NEAR_WHITE = 232
_MIN = {"px": 6.0, "pt": 5.0, "em": 0.4, "rem": 0.4, "%": 40.0}
RLO = "\u202e"
BIDI_OPEN = frozenset("\u202a\u202b\u202d\u202e")
BIDI_CLOSE = "\u202c"
BIDI_CONTROLS = frozenset(
    "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_BIDI_RE = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")


def _channel(text: str) -> float:
    value = float(text.rstrip("%"))
    return value * 2.55 if text.endswith("%") else value


def invisible_color(value: str) -> bool:
    """A text colour that cannot be read on a white page."""
    text = value.strip().strip("\"'").lower().replace(" !important", "")
    if text in ("transparent",):
        return True
    rgb: tuple[float, float, float] | None = None
    alpha = 1.0
    if text in _NAMED:
        rgb = _NAMED[text]
    elif (m := _RGB.fullmatch(text)) is not None:
        rgb = (_channel(m.group(1)), _channel(m.group(2)), _channel(m.group(3)))
        if m.group(4):
            a = m.group(4)
            alpha = float(a.rstrip("%")) / 100 if a.endswith("%") else float(a)
    elif (m := _HEX.fullmatch(text)) is not None and len(m.group(1)) in (3, 4, 6, 8):
        digits = m.group(1)
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        rgb = (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
        if len(digits) == 8:
            alpha = int(digits[6:8], 16) / 255
    if rgb is None:
        return False
    return alpha < 0.3 or min(rgb) >= _NEAR_WHITE


def tiny_size(value: str, *, bare_is_scale: bool) -> bool:
    """A font size too small to read (`bare_is_scale`: a unitless BBCode size number)."""
    m = _SIZE.fullmatch(value.strip().strip("\"'").lower())
    if m is None:
        return value.strip().lower() in ("0",)
    try:
        number = float(m.group(1))
    except ValueError:
        return False
    unit = m.group(2)
    if not unit:
        return number <= 1 if bare_is_scale else number < _MIN["px"]
    return number < _MIN[unit]


def reading_order_pieces(text: str, depth: list[int]) -> list[tuple[str, bool]]:
    """`text` without bidi controls, cut where a right-to-left override starts or ends.

    `depth` carries the open embeddings and overrides (1 for an RTL override, 0 for others)
    from one call to the next; a line break closes them all, as it ends a paragraph.
    Each piece comes with whether it is shown reversed.
    """
    if not depth and _BIDI_RE.search(text) is None:
        return [(text, False)]
    pieces: list[tuple[str, bool]] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in BIDI_CONTROLS or ch == "\n":
            if i > start:
                pieces.append((text[start:i], any(depth)))
            start = i + 1
            if ch == "\n":
                pieces.append(("\n", False))
                depth.clear()
            elif ch in BIDI_OPEN:
                depth.append(1 if ch == RLO else 0)
            elif ch == BIDI_CLOSE and depth:
                depth.pop()
    if start < len(text):
        pieces.append((text[start:], any(depth)))
    return pieces
