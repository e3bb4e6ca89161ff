"""The local rehearsal board: a real `Board` backed by its own `local_` tables."""

from forums.board import register_engine
from forums.local.board import LocalBoard, ManualClock, open_local_board
from forums.local.forum import LocalForum, Revision
from forums.local.tables import make_engine, metadata, utc_now

register_engine("local", open_local_board)

__all__ = [
    "LocalBoard",
    "LocalForum",
    "ManualClock",
    "Revision",
    "make_engine",
    "metadata",
    "open_local_board",
    "utc_now",
]
