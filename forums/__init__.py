"""Board adapters and the board-independent records; imports nothing else of forumgm."""

from forums.board import Board, PMPage, ThreadPage, board_factory, engines, register_engine
from forums.errors import (
    BoardError,
    BoardUnavailable,
    CaptchaRequired,
    FloodControl,
    LayoutChanged,
    LoginFailed,
    NotFound,
    SessionExpired,
)
from forums.records import Cursor, EditInfo, Link, Post, PostBody, PrivateMessage, TextRun, User

__all__ = [
    "Board",
    "BoardError",
    "BoardUnavailable",
    "CaptchaRequired",
    "Cursor",
    "EditInfo",
    "FloodControl",
    "LayoutChanged",
    "Link",
    "LoginFailed",
    "NotFound",
    "PMPage",
    "Post",
    "PostBody",
    "PrivateMessage",
    "SessionExpired",
    "TextRun",
    "ThreadPage",
    "User",
    "board_factory",
    "engines",
    "register_engine",
]
