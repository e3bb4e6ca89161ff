"""Many games in one process: one connection per board and GM account, one inbox read.

`forumgm run` may drive a hundred games on one board. Each game keeps a board adapter of its
own (its thread's cursor and page size are its own), but the games on one board and GM
account share, through a `BoardPool`:

- one `forums.session.Session`: one HTTP client (one connection pool, one cookie jar), one
  bound on requests in flight and one spacing between them (`forums.client.BoardClient`),
  and one login — a second game finds the session logged in, and a session the board
  dropped is renewed once for all of them;
- one `SharedInbox`: the GM's inbox is read once per poll wave for all its games, not once
  per game (each game keeps only its own PMs from the page, `engine.service.inbox`);
- the local board's database engine (one file handle, not one per game).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.config import BoardAccess, GameConfig
from engine.service.inbox import GameNames, board_games
from engine.store import Store
from forums.board import Board, PMPage
from forums.records import Cursor
from forums.session import Session

Clock = Callable[[], datetime]

FRESH = timedelta(seconds=30)
"""How old an inbox page may be for another game's poll to use it (a deadline's read never
uses one fetched before the deadline)."""


@dataclass(frozen=True)
class _Read:
    at: datetime
    page: PMPage


class SharedInbox:
    """The inbox of one GM account on one board, read once for all the games that poll it.

    A read asks for the page after a cursor that must have been fetched no earlier than
    `fresh_after`; a page fetched since for the same cursor serves it, else the board is
    asked (once: games asking at the same moment wait for the one read)."""

    def __init__(self, clock: Clock, keep: timedelta = 2 * FRESH) -> None:
        self.clock = clock
        self.keep = keep
        self._reads: dict[str, _Read] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._games: tuple[datetime, int, tuple[GameNames, ...]] | None = None
        self.fetched = 0
        """How many times the board's inbox was read (the benchmark and tests count it)."""
        self.served = 0
        """How many reads a page already fetched served."""

    async def read(self, board: Board, since: Cursor | None, fresh_after: datetime) -> PMPage:
        key = json.dumps(since.data if since is not None else None, sort_keys=True, default=str)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            found = self._reads.get(key)
            if found is not None and found.at >= fresh_after:
                self.served += 1
                return found.page
            at = self.clock()
            page = await board.inbox(since=since)
            self.fetched += 1
            self._reads[key] = _Read(at, page)
            self._forget(at)
            return page

    def board_games(self, store: Store, board_id: int) -> tuple[GameNames, ...]:
        """The account's running games (`engine.service.inbox.board_games`), looked up once
        in `FRESH` for all of them: a hundred games' polls make one query, not a hundred
        (each reading every game of the board)."""
        now = self.clock()
        found = self._games
        if found is None or found[1] != board_id or now - found[0] > FRESH:
            found = self._games = (now, board_id, tuple(board_games(store, board_id)))
        return found[2]

    def _forget(self, now: datetime) -> None:
        """Drop pages too old to serve anyone (the memory of a thousand games' polls)."""
        for key, read in list(self._reads.items()):
            if now - read.at > self.keep and not self._locks[key].locked():
                del self._reads[key]
                del self._locks[key]


def _secret_key(secret: str) -> str:
    """Two game files with different passwords for one account do not share a login."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()[:16]


class BoardPool:
    """The boards of the games one process drives: what games on one board and GM account
    share (module docstring). `board(config)` hands each game its own adapter on them."""

    def __init__(self) -> None:
        self._shared: dict[tuple[str, ...], object] = {}
        self._inboxes: dict[tuple[str, ...], SharedInbox] = {}
        self.boards = 0
        """Adapters handed out."""

    @staticmethod
    def key(config: GameConfig | BoardAccess, secret: str = "") -> tuple[str, ...]:
        return (
            config.engine,
            config.url.rstrip("/"),
            config.gm_user.casefold(),
            "http" if config.allow_insecure_http else "https",
            "browser" if config.browser else "form",
            "key" if config.api_key is not None else "password",
            _secret_key(secret),
        )

    def sessions(self) -> int:
        """How many boards and accounts (connections, logins) the games share."""
        return len(self._shared)

    def board(
        self,
        config: GameConfig,
        environ: Mapping[str, str] | None = None,
        *,
        clock: Clock | None = None,
        secret: str = "",
    ) -> Board:
        from engine.service.build import make_board

        key = self.key(config, secret)
        shared = self._shared.get(key)
        board = make_board(config, environ, clock=clock, shared=shared)
        if shared is None:
            found = _shareable(board)
            if found is not None:
                self._shared[key] = found
        self.boards += 1
        return board

    def inbox(self, config: GameConfig, clock: Clock, secret: str = "") -> SharedInbox:
        key = self.key(config, secret)
        found = self._inboxes.get(key)
        if found is None:
            found = self._inboxes[key] = SharedInbox(clock)
        return found


def _shareable(board: Board) -> object | None:
    """What the next games' adapters on this board take from this one: a web board's session,
    the local board's database engine."""
    session = getattr(board, "session", None)
    if isinstance(session, Session):
        return session
    db = getattr(board, "db", None)
    if board.engine == "local" and db is not None:
        return db
    return None
