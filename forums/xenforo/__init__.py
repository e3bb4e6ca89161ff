"""XenForo 2.x / 1.x adapter: page parsing (pure), the HTML `Board` and the REST API `Board`."""

from forums.board import register_engine
from forums.xenforo.api import XenforoApiBoard, xenforo_board
from forums.xenforo.board import XenforoBoard
from forums.xenforo.body import xf_body
from forums.xenforo.conversations import parse_conversation_list, parse_conversation_view
from forums.xenforo.pages import PageKind, classify
from forums.xenforo.thread import parse_thread_page

register_engine("xenforo", xenforo_board)

__all__ = [
    "PageKind",
    "XenforoApiBoard",
    "XenforoBoard",
    "classify",
    "parse_conversation_list",
    "parse_conversation_view",
    "parse_thread_page",
    "xenforo_board",
    "xf_body",
]
