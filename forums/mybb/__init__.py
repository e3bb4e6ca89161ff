"""MyBB 1.8 adapter: page parsing (pure) and, beside it, the HTTP client and `Board`.

The HTTP side (`MybbBoard`, httpx) is imported when first used: reading a saved page or an
exported thread (`forumgm tally`) needs none of it.
"""

from typing import TYPE_CHECKING, Any

from forums.board import register_engine
from forums.mybb.dates import parse_mybb_time, read_clock
from forums.mybb.forms import PageKind, classify
from forums.mybb.html import mybb_postbody

if TYPE_CHECKING:
    from forums.mybb.board import MybbBoard

register_engine("mybb", "forums.mybb.board:MybbBoard")


def __getattr__(name: str) -> Any:
    if name == "MybbBoard":
        from forums.mybb.board import MybbBoard

        return MybbBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MybbBoard",
    "PageKind",
    "classify",
    "mybb_postbody",
    "parse_mybb_time",
    "read_clock",
]
