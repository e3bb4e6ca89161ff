"""What BBCode each board engine shows as it is meant, and what a post uses instead elsewhere.

The templates write one BBCode. A stock board does not know every tag: MyBB 1.8, phpBB
3.3 and SMF 2.1 have no `[spoiler]` (a board may add one, most stock ones do not), so
`[spoiler=История голосов]…[/spoiler]` showed as plain text with its tags on a real MyBB
board. Before a post or PM goes out, `adapt` rewrites what the board's engine lacks into what
it has: a spoiler becomes its title in bold over a quote of its content. Tags are rewritten
one by one (opening and closing apart), so nesting is kept and the cost is one pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SPOILER_OPEN = re.compile(r"\[spoiler(?:=([^\]\n]{0,200}))?\]", re.IGNORECASE)
"""A title is at most 200 characters: a look past it for the «]» would make a text of many
«[spoiler=» cost the square of its length."""
_SPOILER_CLOSE = re.compile(r"\[/spoiler\]", re.IGNORECASE)
_TAG_OR_FULL_WIDTH = re.compile(r"\[[^\[\]\n]*\]|[［］]+")
"""A tag (its option included: `[spoiler=…]`, where no tag can be opened) or a run of
full-width brackets; one pass, each scan ending at the next «[»."""
_ASCII = str.maketrans({"［": "[", "］": "]"})
_SIZE = re.compile(r"\[size=[^\]\n]{0,20}\]|\[/size\]", re.IGNORECASE)
_COLOR = re.compile(r"\[colou?r=[^\]\n]{0,40}\]|\[/colou?r\]", re.IGNORECASE)


@dataclass(frozen=True)
class Dialect:
    """The BBCode one engine renders, as far as the templates use it."""

    spoiler: bool = True
    """`[spoiler]` and `[spoiler=title]` (XenForo's stock `[SPOILER]`; our local board)."""
    literal: str | None = None
    """The tag whose content the engine shows as written, BBCode and all (XenForo's
    `[PLAIN]`), if it has one. Player-written brackets reach a post as full-width «［»
    «］» (`engine.render.bbcode_safe`: no board parses them); where the engine has such a
    tag they are written as the real brackets inside it, so `Eve[/i]` reads `Eve[/i]`."""

    size: bool = True
    """`[size=N]`; FluxBB 1.5 has none (the text stays, at the board's size)."""
    color: bool = True
    """`[color=…]`; Discourse has neither it nor `[size]` (the tags would show as text, the
    marker line's among them: without them the line is plain)."""

    def adapt(self, bbcode: str) -> str:
        """`bbcode` with what this engine lacks written in what it has."""
        if not self.size:
            bbcode = _SIZE.sub("", bbcode)
        if not self.color:
            bbcode = _COLOR.sub("", bbcode)
        if self.literal is not None:
            tag = self.literal

            def literal(match: re.Match[str]) -> str:
                found = match.group(0)
                if found.startswith("["):
                    return found
                return f"[{tag}]{found.translate(_ASCII)}[/{tag}]"

            bbcode = _TAG_OR_FULL_WIDTH.sub(literal, bbcode)
        if self.spoiler:
            return bbcode

        def opening(match: re.Match[str]) -> str:
            title = (match.group(1) or "").strip().strip("\"'")
            return f"[b]{title}[/b]\n[quote]" if title else "[quote]"

        return _SPOILER_CLOSE.sub("[/quote]", _SPOILER_OPEN.sub(opening, bbcode))


DIALECTS: dict[str, Dialect] = {
    "phpbb": Dialect(spoiler=False),
    "mybb": Dialect(spoiler=False),
    "xenforo": Dialect(spoiler=True, literal="PLAIN"),
    "fluxbb": Dialect(spoiler=False, size=False),
    "punbb": Dialect(spoiler=False, size=False),  # PunBB 1.4's parser: no [size], no [s]
    "smf": Dialect(spoiler=False, literal="nobbc"),
    # Discourse reads BBCode besides Markdown: [b], [i], [s], [quote], [code], [url] and the
    # spoiler-alert plugin's [spoiler] (a stock plugin), but no [size] or [color].
    "discourse": Dialect(spoiler=True, size=False, color=False),
}
"""Stock engines' dialects; an engine not named here renders every tag the templates use."""


def dialect_for(engine: str) -> Dialect:
    return DIALECTS.get(engine, Dialect())
