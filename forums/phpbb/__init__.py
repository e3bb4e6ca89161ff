"""phpBB 3.x adapter: page parsing (pure) and, beside it, the HTTP client and `Board`.

The HTTP side (`PhpbbBoard`, `PhpbbClient`, httpx) is imported when first used: reading a
saved page or an exported thread (`forumgm tally`) needs none of it.
"""

from typing import TYPE_CHECKING, Any

from forums.board import register_engine
from forums.html import html_to_postbody
from forums.phpbb.dates import detect_timezone, parse_board_time
from forums.phpbb.forms import PageKind, classify

if TYPE_CHECKING:
    from forums.phpbb.board import PhpbbBoard
    from forums.phpbb.client import PhpbbClient

register_engine("phpbb", "forums.phpbb.board:PhpbbBoard")

_LAZY = {"PhpbbBoard": "forums.phpbb.board", "PhpbbClient": "forums.phpbb.client"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PageKind",
    "PhpbbBoard",
    "PhpbbClient",
    "classify",
    "detect_timezone",
    "html_to_postbody",
    "parse_board_time",
]
