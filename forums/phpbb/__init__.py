"""phpBB 3.x adapter: page parsing (pure) and, beside it, the HTTP client and `Board`."""

from forums.phpbb.dates import detect_timezone, parse_board_time
from forums.phpbb.html import html_to_postbody

__all__ = ["detect_timezone", "html_to_postbody", "parse_board_time"]
