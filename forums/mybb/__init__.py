"""MyBB 1.8 adapter: page parsing (pure) and, beside it, the HTTP client and `Board`."""

from forums.board import register_engine
from forums.mybb.board import MybbBoard
from forums.mybb.dates import parse_mybb_time, read_clock
from forums.mybb.forms import PageKind, classify
from forums.mybb.html import mybb_postbody

register_engine("mybb", MybbBoard)

__all__ = [
    "MybbBoard",
    "PageKind",
    "classify",
    "mybb_postbody",
    "parse_mybb_time",
    "read_clock",
]
