"""Logging in on its own without locking the GM account: one refusal stops it.

A board that refuses a login (a wrong password, a CAPTCHA) soon locks the account when the
same login is tried again at every poll: phpBB put a GM behind its CAPTCHA after three
failed logins in four minutes. So every login the service makes by itself goes through
the board's guard, kept in the store for every process:

- after a refused login (`LoginFailed`, `CaptchaRequired`) the service logs in no more on
  its own, until the host acts: `forumgm board login GAME.toml` (one login, now), or a
  changed password (the guard keeps a salted hash of the refused one to tell);
- after a login that went wrong otherwise (the board down, a page it did not expect), the
  next one the running service makes waits 15 minutes (`run --once`, the host's own try,
  logs in at once);
- `forumgm status` says which board is held, why, and what to do.

A login that goes through is never held back: sessions expire and processes restart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from engine.clock import local_time
from engine.host_password import check_password, hash_secret
from engine.i18n import L_, BoardText, Said
from engine.store import Store
from engine.store.models import Board as BoardRow
from forums.errors import CaptchaRequired, LoginFailed
from forums.records import User

RETRY = timedelta(minutes=15)
"""The least time between two logins the service makes on its own after one went wrong."""
HASH_COST = (2**14, 8, 1)
"""scrypt's cost for the refused password's hash: checked at most once a step while held."""


class LoginHeld(LoginFailed):
    """The service does not log in now (a refused login, or one went wrong a moment ago)."""


def held_reason(
    row: BoardRow, game_file: str | None = None, tz: tzinfo | None = None
) -> Said | None:
    """Why the service does not log in to this board on its own, for the host (None: it does);
    its time in `tz` (the board's games' zone; UTC by default)."""
    if row.login_failed_at is None:
        return None
    how = f"forumgm board login {game_file}" if game_file else "forumgm board login GAME.toml"
    failed = row.login_failed_at
    failed = failed if failed.tzinfo is not None else failed.replace(tzinfo=UTC)
    return L_(
        "the board refused the login of {user!r} at {at} ({error}); forumgm logs in there no "
        "more until you act: check the password, then run `{how}` (or change the password the "
        "game file points to and restart forumgm run)",
        user=row.gm_user,
        at=local_time(failed, tz or UTC),
        error=BoardText(row.login_error or ""),
        how=how,
    )


class LoginGuard:
    """Stands before one board adapter's `login` (every login it makes goes through here)."""

    def __init__(
        self, store: Store, board_id: int, secret: str, clock: Callable[[], datetime]
    ) -> None:
        self.store = store
        self.board_id = board_id
        self._secret = secret
        self.clock = clock
        self._original: Callable[[], Awaitable[User]] | None = None
        self.automatic = True
        """A service running on its own (`forumgm run`): after a login that went wrong the
        next waits 15 minutes. `run --once` is the host's own try: it logs in at once (a
        refused login still waits for `forumgm board login` or another password)."""

    def install(self, board: Any) -> None:
        """Put the guard before `board.login` (the adapter's own re-logins call it too)."""
        original: Callable[[], Awaitable[User]] = board.login
        self._original = original

        async def login() -> User:
            return await self.login(original)

        board.login = login

    async def login_now(self) -> User:
        """The host's own login (`forumgm board login`): tried at once whatever was refused
        before; it lifts the hold when it goes through, and is recorded when refused."""
        if self._original is None:
            raise RuntimeError("the guard is not installed on a board")
        return await self._attempt(self._original, self.clock(), note_trouble=False)

    def _changed(self, row: BoardRow) -> bool:
        """Whether the password now is another than the one refused (the host changed it)."""
        return row.login_refused_hash is None or not check_password(
            self._secret, row.login_refused_hash
        )

    async def login(self, original: Callable[[], Awaitable[User]]) -> User:
        now = self.clock()
        row = self.store.get_board(self.board_id)
        refused = row.login_failed_at is not None
        if refused and not self._changed(row):
            raise LoginHeld(held_reason(row) or L_("login held"))
        tried = row.login_tried_at
        soon = tried is not None and now - tried < RETRY
        if self.automatic and not refused and soon and row.login_error and tried is not None:
            raise LoginHeld(
                L_(
                    "a login to {url} went wrong at {at} UTC ({error}); the next one not before "
                    "{next} UTC",
                    url=row.base_url,
                    at=f"{tried:%H:%M}",
                    error=BoardText(row.login_error),
                    next=f"{tried + RETRY:%H:%M}",
                )
            )
        return await self._attempt(original, now, note_trouble=True)

    async def _attempt(
        self, original: Callable[[], Awaitable[User]], now: datetime, *, note_trouble: bool
    ) -> User:
        """One login, recorded: refused (held until the host acts), gone wrong otherwise
        (with `note_trouble`, the service's next own login waits `RETRY`), or through
        (whatever held before is lifted)."""
        self.store.login_tried(self.board_id, now)
        try:
            user = await original()
        except (LoginFailed, CaptchaRequired) as exc:
            said = f"{type(exc).__name__}: {exc}"
            self.store.login_refused(self.board_id, now, said, hash_secret(self._secret, HASH_COST))
            raise
        except Exception as exc:
            if note_trouble:
                self.store.login_went_wrong(self.board_id, f"{type(exc).__name__}: {exc}")
            raise
        self.store.login_cleared(self.board_id)
        return user
