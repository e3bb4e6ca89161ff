"""phpBB 3.x adapter: page parsing (pure) and, beside it, the HTTP client and `Board`."""

from forums.board import register_engine
from forums.phpbb.board import PhpbbBoard
from forums.phpbb.client import PhpbbClient
from forums.phpbb.dates import detect_timezone, parse_board_time
from forums.phpbb.forms import PageKind, classify
from forums.phpbb.html import html_to_postbody

register_engine("phpbb", PhpbbBoard)

__all__ = [
    "PageKind",
    "PhpbbBoard",
    "PhpbbClient",
    "classify",
    "detect_timezone",
    "html_to_postbody",
    "parse_board_time",
]
