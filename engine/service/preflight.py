"""Before a game's start is queued: the GM can log in to the board and the game thread is there.

A thread that does not exist used to be noticed only when the opening post failed, after the
role PMs had gone out: the players had their roles and no thread. `forumgm game start` and
`forumgm game validate --online` ask the board first, reading one page of the thread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.i18n import L_, error_line, said_of
from engine.service.logins import LoginHeld
from forums.board import Board
from forums.errors import BoardError, BoardUnavailable, CaptchaRequired, LoginFailed, NotFound


class NotReady(Exception):
    """The board cannot take the game now; the message (a `Said` line, the board's own text
    in it shown in the host's language too) says what and what to do."""


@dataclass(frozen=True)
class Ready:
    gm: str
    """The GM's name as the board shows it."""
    title: str | None
    """The thread's title, where the adapter reads one."""
    unchecked: tuple[tuple[str, str], ...] = ()
    """(player, why) for each name the board could not look up (vBulletin searches names
    of 3 letters or more): the host checks those accounts himself."""


async def board_ready(
    board: Board,
    thread: str,
    *,
    url: str,
    gm: str,
    game_file: str,
    players: Sequence[str] = (),
) -> Ready:
    """Log in as the GM, read the first page of `thread` and look up each of `players` (a
    role PM to a name with no account fails on every run); `NotReady` says what failed."""
    try:
        me = await board.login()
    except LoginHeld as exc:  # refused before: the guard says why and what to do
        raise NotReady(said_of(exc)) from None
    except (LoginFailed, CaptchaRequired) as exc:
        raise NotReady(
            L_(
                "the board {url} refused the login of {gm!r} ({error}): check the password the "
                "game file points to, then `forumgm board login {game_file}`",
                url=url,
                gm=gm,
                error=error_line(exc),
                game_file=game_file,
            )
        ) from None
    except BoardError as exc:
        raise NotReady(
            L_(
                "cannot log in to {url} as {gm!r}: {error}; try again when the board answers",
                url=url,
                gm=gm,
                error=error_line(exc),
            )
        ) from None
    try:
        title = await _first_page_title(board, thread)
    except NotFound as exc:
        if str(exc).startswith("no thread"):
            raise NotReady(
                L_(
                    "no thread {thread!r} on {url}: create the game thread first and put its "
                    "id in [board] thread",
                    thread=thread,
                    url=url,
                )
            ) from None
        raise NotReady(
            L_(
                "no thread {thread!r} on {url} ({said}): create the game thread first and put "
                "its id in [board] thread",
                thread=thread,
                url=url,
                said=said_of(exc),
            )
        ) from None
    except BoardError as exc:
        raise NotReady(
            L_(
                "cannot read thread {thread!r} on {url}: {error}",
                thread=thread,
                url=url,
                error=error_line(exc),
            )
        ) from None
    missing = []
    unchecked: list[tuple[str, str]] = []
    for name in players:
        try:
            found = await board.find_user(name)
        except BoardUnavailable as exc:
            raise NotReady(
                L_(
                    "cannot look player {name!r} up on {url} ({error}); try again when the "
                    "board answers",
                    name=name,
                    url=url,
                    error=error_line(exc),
                )
            ) from None
        except NotFound:
            found = None
        except BoardError as exc:  # this board cannot look the name up: the host checks it
            unchecked.append((name, error_line(exc)))
            continue
        if found is None:
            missing.append(name)
    if missing:
        listed = ", ".join(repr(n) for n in missing)
        raise NotReady(
            L_(
                "no account on {url} for {listed}: every player needs a board account; write "
                "each name in [players] as the board spells it",
                url=url,
                listed=listed,
            )
        )
    return Ready(me.name, title, tuple(unchecked))


async def _first_page_title(board: Board, thread: str) -> str | None:
    """One page of the thread (the whole thread where the adapter reads no single page)."""
    view = getattr(board, "thread_view", None)
    topic_id = getattr(board, "topic_id", None)
    if view is not None and topic_id is not None:
        first: Any = await view(topic_id(thread), 1)
        title = getattr(first, "title", None)
        return title if isinstance(title, str) else None
    exists = getattr(board, "has_thread", None)
    if exists is not None and not exists(thread):  # the local board: no read of every post
        raise NotFound(f"no thread {thread!r}")
    if exists is None:
        await board.thread_posts(thread)
    return None
