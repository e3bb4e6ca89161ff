"""Text a reader cannot see: a colour close to the post's background, tiny sizes, reversed by a
bidi override.

Boards render such text (a player can type `[color=#ffffff]`, `[size=1]` or U+202E around a
name), but a reader sees nothing, or something else, where the parser would read a vote.
Adapters flag it `TextRun.hidden`; the parser holds what only hidden text says for the host.

- Colour: judged against the background the post is shown on (`Look`): prosilver shows
  posts alternately on #ECF3F7 (`bg1`) and #E1EBF2 (`bg2`) and PMs on white; MyBB's
  default theme shows posts on white (`.tborder`); XenForo's default styles on #FEFEFE
  (2.x) or white (1.x). A colour whose CIE76 distance (ΔE, in CIELAB) from that background
  is under 10 is hidden: on white that is every grey from #E3E3E3 up (#dddddd is read), and
  on prosilver's `bg2` #E1EBF2 itself, and white. Hex, `rgb()`/`rgba()`, `hsl()`/`hsla()`
  and named colours are read; a colour with alpha is laid over the background first, and
  alpha below 0.3 or `transparent` is hidden whatever the background. Where the background
  is not known (the local board, scenarios) the colour must be readable on every one.
- Size: under 6 px (or 5 pt, 0.4 em, 40 %). A bare BBCode number is read as the board
  reads it: phpBB's percent (`[size=20]` is 20 %), MyBB's pt, XenForo's 1–7 scale (its
  smallest, 1, counts as hidden); where the board is not known, as the smallest of these
  readings, so `[size=2]` … `[size=39]` are hidden there. `[font=1px]` (a font argument
  that holds a tiny size) is hidden too.
- Bidi: text inside a right-to-left override (U+202E, or `<bdo dir="rtl">`) is shown
  reversed; the controls themselves are dropped from the text.
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

_NAMED = {
    "white": (255, 255, 255), "snow": (255, 250, 250), "ivory": (255, 255, 240),
    "ghostwhite": (248, 248, 255), "whitesmoke": (245, 245, 245), "azure": (240, 255, 255),
    "mintcream": (245, 255, 250), "seashell": (255, 245, 238), "floralwhite": (255, 250, 240),
    "honeydew": (240, 255, 240), "aliceblue": (240, 248, 255), "lavenderblush": (255, 240, 245),
    "oldlace": (253, 245, 230), "linen": (250, 240, 230), "cornsilk": (255, 248, 220),
    "lightyellow": (255, 255, 224), "lightcyan": (224, 255, 255), "beige": (245, 245, 220),
    "lavender": (230, 230, 250), "gainsboro": (220, 220, 220), "lightgray": (211, 211, 211),
    "lightgrey": (211, 211, 211), "silver": (192, 192, 192), "mistyrose": (255, 228, 225),
    "antiquewhite": (250, 235, 215), "papayawhip": (255, 239, 213),
    "blanchedalmond": (255, 235, 205), "bisque": (255, 228, 196),
    "lemonchiffon": (255, 250, 205), "lightgoldenrodyellow": (250, 250, 210),
    "powderblue": (176, 224, 230), "lightblue": (173, 216, 230),
    "paleturquoise": (175, 238, 238), "lightsteelblue": (176, 196, 222),
    "pink": (255, 192, 203), "peachpuff": (255, 218, 185), "moccasin": (255, 228, 181),
    "wheat": (245, 222, 179), "navajowhite": (255, 222, 173), "thistle": (216, 191, 216),
    "palegoldenrod": (238, 232, 170), "black": (0, 0, 0), "red": (255, 0, 0),
    "green": (0, 128, 0), "blue": (0, 0, 255), "yellow": (255, 255, 0),
    "gray": (128, 128, 128), "grey": (128, 128, 128),
}  # fmt: skip
RGB = tuple[float, float, float]
WHITE: RGB = (255, 255, 255)
HIDDEN_DISTANCE = 10.0
"""A colour nearer than this (CIE76 ΔE) to the background is hidden."""
_FAR = 40
"""A colour this far (0–255) from a light background in one channel is more than
`HIDDEN_DISTANCE` from it (40 in blue alone is ΔE 20 from white): it is read without CIELAB.
Every background of `Look` is light (L* above 90)."""
_HEX = re.compile(r"#?([0-9a-f]{3,8})")
_RGB = re.compile(
    r"rgba?\(\s*([\d.]+%?)[\s,]+([\d.]+%?)[\s,]+([\d.]+%?)(?:[\s,/]+([\d.]+%?))?\s*\)"
)
_HSL = re.compile(
    r"hsla?\(\s*(-?[\d.]+)(?:deg)?[\s,]+([\d.]+)%[\s,]+([\d.]+)%(?:[\s,/]+([\d.]+%?))?\s*\)"
)
_SIZE = re.compile(r"(-?[\d.]+)\s*(px|pt|em|rem|%|)")
_FONT_SIZE = re.compile(r"(?<![\w.])(-?[\d.]+)\s*(px|pt|em|rem|%)(?![\w])")
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


def _alpha(text: str | None) -> float:
    if not text:
        return 1.0
    return float(text.rstrip("%")) / 100 if text.endswith("%") else float(text)


def parse_color(value: str) -> tuple[RGB, float] | None:
    """A CSS or BBCode colour as (red, green, blue) 0–255 and alpha 0–1; None if unknown."""
    text = value.strip().strip("\"'").lower().replace("!important", "").strip()
    if text == "transparent":
        return WHITE, 0.0
    try:
        if text in _NAMED:
            return _NAMED[text], 1.0
        if (m := _RGB.fullmatch(text)) is not None:
            rgb = (_channel(m.group(1)), _channel(m.group(2)), _channel(m.group(3)))
            return rgb, _alpha(m.group(4))
        if (m := _HSL.fullmatch(text)) is not None:
            hue = float(m.group(1)) % 360 / 360
            sat, light = min(float(m.group(2)), 100) / 100, min(float(m.group(3)), 100) / 100
            r, g, b = colorsys.hls_to_rgb(hue, light, sat)
            return (r * 255, g * 255, b * 255), _alpha(m.group(4))
        if (m := _HEX.fullmatch(text)) is not None and len(m.group(1)) in (3, 4, 6, 8):
            digits = m.group(1)
            if len(digits) in (3, 4):
                digits = "".join(c * 2 for c in digits)
            rgb = (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
            return rgb, int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
    except ValueError:  # "1.2.3" matched as a number: not a colour
        return None
    return None


@lru_cache(maxsize=4096)
def _lab(rgb: RGB) -> RGB:
    """sRGB (0–255) → CIELAB under D65."""

    def linear(c: float) -> float:
        c = min(max(c, 0.0), 255.0) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def color_distance(one: RGB, other: RGB) -> float:
    """CIE76 ΔE between two colours: about 2.3 is the smallest difference people notice."""
    a, b = _lab(one), _lab(other)
    return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5


def invisible_color(value: str, backgrounds: Sequence[RGB] = (WHITE,)) -> bool:
    """A text colour that cannot be read on one of `backgrounds` (a white page unless told)."""
    return _invisible_color(value, tuple(backgrounds))


@lru_cache(maxsize=4096)
def _invisible_color(value: str, backgrounds: tuple[RGB, ...]) -> bool:
    """`invisible_color`, kept per colour and backgrounds: a post repeats its colours, and a
    crafted one of thousands of colour tags costs one reading of each colour."""
    parsed = parse_color(value)
    if parsed is None:
        return False
    rgb, alpha = parsed
    if alpha < 0.3:
        return True
    for ground in backgrounds:
        shown = tuple(alpha * c + (1 - alpha) * g for c, g in zip(rgb, ground, strict=True))
        if max(abs(c - g) for c, g in zip(shown, ground, strict=True)) >= _FAR:
            continue  # far off in one channel: no need of CIELAB to tell
        if color_distance(shown, ground) < HIDDEN_DISTANCE:  # type: ignore[arg-type]
            return True
    return False


BARE_READINGS = ("percent", "pt", "scale", "px", "any")


@lru_cache(maxsize=4096)
def tiny_size(value: str, *, bare: str) -> bool:
    """A font size too small to read. `bare` says what a unitless number is: phpBB's BBCode
    percent, MyBB's pt, XenForo's 1–7 scale, CSS px, or "any" of the BBCode readings (the
    board is not known: hidden if it is tiny in one of them)."""
    m = _SIZE.fullmatch(value.strip().strip("\"'").lower())
    if m is None:
        return value.strip().lower() in ("0",)
    try:
        number = float(m.group(1))
    except ValueError:
        return False
    unit = m.group(2)
    if unit:
        return number < _MIN[unit]
    if bare == "percent":
        return number < _MIN["%"]
    if bare == "pt":
        return number < _MIN["pt"]
    if bare == "scale":
        return number <= 1
    if bare == "any":
        return number < _MIN["%"]  # phpBB's percent: the smallest reading of a bare number
    return number < _MIN["px"]


@lru_cache(maxsize=4096)
def tiny_font(value: str) -> bool:
    """A `[font=…]` argument that sets a tiny size (`1px`, `bold 2px serif`): some boards
    write the argument into a CSS `font`; a family name alone is never tiny."""
    return any(
        tiny_size(number + unit, bare="px")
        for number, unit in _FONT_SIZE.findall(value.strip().strip("\"'").lower())
    )


@dataclass(frozen=True)
class Look:
    """How a board's default style shows a post: on which background (by the classes of the
    post's element, else any of `backgrounds`) and what a bare `[size=N]` means."""

    name: str
    backgrounds: tuple[RGB, ...]
    bare_size: str
    classes: Mapping[str, RGB] = field(default_factory=dict)
    """A class of the post's element (or of one around the text) → the background it gives."""

    def background_of(self, classes: Sequence[str]) -> tuple[RGB, ...]:
        for name in classes:
            if name in self.classes:
                return (self.classes[name],)
        return self.backgrounds


_BG1: RGB = (0xEC, 0xF3, 0xF7)
_BG2: RGB = (0xE1, 0xEB, 0xF2)
PHPBB = Look(
    "phpbb",
    (_BG1, _BG2),
    "percent",
    # prosilver: topic posts alternate bg1/bg2 (bg3 is its third row colour); a PM is shown
    # on white (`.cp-main .pm`). A reported post's colour is seen by moderators only.
    {"pm": WHITE, "bg1": _BG1, "bg2": _BG2, "bg3": (0xCA, 0xDC, 0xEB)},
)
MYBB = Look("mybb", (WHITE,), "pt")
"""MyBB 1.8's default theme: posts in `.tborder` on white; `[size=N]` is N pt."""
SMF = Look("smf", ((0xF0, 0xF4, 0xF7), (0xFD, 0xFD, 0xFD)), "scale")
"""SMF 2.1's Curve2: posts on `.windowbg`, #F0F4F7 or #FDFDFD row by row; `[size=1]`–`[size=7]`."""
XENFORO = Look("xenforo", ((0xFE, 0xFE, 0xFE), WHITE), "scale")
"""XenForo's default styles: content on #FEFEFE (2.x) or white (1.x); `[SIZE=1]`–`[SIZE=7]`."""
ANY = Look("any", (*PHPBB.backgrounds, *MYBB.backgrounds, *XENFORO.backgrounds), "any")
"""A board not known (the local board, scenarios): readable on each look, in each reading."""


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
