"""Publishing the outbox: each item carries a marker, and the board is checked for it first.

A crash between "the board accepted it" and "the store recorded it" therefore never leads
to a second post: the next run finds the marker on the board and records the item as posted.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from engine.store import OutboxDraft, Store
from engine.store.models import OutboxKind
from forums.board import Board

MARKER_PREFIX = "fgm:"
MARKER_LENGTH = 16


def make_marker(*parts: object) -> str:
    """A stable marker: the same parts (game, phase, purpose, recipient…) give the same marker."""
    raw = "|".join(str(p) for p in parts)
    return hashlib.sha256(raw.encode()).hexdigest()[:MARKER_LENGTH]


def marker_line(marker: str) -> str:
    """An unobtrusive last line that lets a restarted GM see the item already went out."""
    return f"\n[size=1][color=#999999]{MARKER_PREFIX}{marker}[/color][/size]"


def post_draft(body: str, marker: str) -> OutboxDraft:
    return OutboxDraft(OutboxKind.POST, body + marker_line(marker), marker)


def pm_draft(player: str, subject: str, body: str, marker: str) -> OutboxDraft:
    return OutboxDraft(OutboxKind.PM, body + marker_line(marker), marker, (player,), subject)


def find_markers(text: str) -> list[str]:
    found = []
    at = text.find(MARKER_PREFIX)
    while at >= 0:
        start = at + len(MARKER_PREFIX)
        found.append(text[start : start + MARKER_LENGTH])
        at = text.find(MARKER_PREFIX, start)
    return found


def retry_delay(attempts: int) -> timedelta:
    """Backoff before sending a failed item again: at once, then 1, 2, 4… minutes (at most 30)."""
    if attempts <= 1:
        return timedelta(0)
    return timedelta(minutes=min(30, 2 ** (attempts - 2)))


class Publisher:
    """Sends a game's approved outbox items to its board, at most once each."""

    def __init__(self, store: Store, board: Board, game_id: int, thread_id: str) -> None:
        self.store = store
        self.board = board
        self.game_id = game_id
        self.thread_id = thread_id
        self._not_before: dict[str, datetime] = {}
        """Failed items wait before the next try (a restarted process tries at once)."""

    async def markers_on_board(self) -> dict[str, str]:
        """Marker → board id of everything the GM account already posted or sent."""
        found: dict[str, str] = {}
        page = await self.board.thread_posts(self.thread_id)
        sent = await self.board.sent()
        bodies = [(p.body, p.id) for p in page.items] + [(m.body, m.id) for m in sent.items]
        for body, record_id in bodies:
            for marker in find_markers(body.full_text()):
                found[marker] = str(record_id)
        return found

    async def publish(self, now: datetime | None = None) -> int:
        """Send every approved (or failed, to retry) item; returns how many went out."""
        moment = now or datetime.now(UTC)
        due = [
            i
            for i in self.store.pending(self.game_id)
            if self._not_before.get(i.marker, moment) <= moment
        ]
        if not due:
            return 0
        already = await self.markers_on_board()
        sent = 0
        for item in due:
            if item.marker in already:
                self.store.mark_posted(item.marker, already[item.marker])
                continue
            try:
                if item.kind == OutboxKind.POST:
                    board_id = await self.board.reply(self.thread_id, item.bbcode)
                else:
                    subject = item.subject or ""
                    board_id = await self.board.send_pm(list(item.recipients), subject, item.bbcode)
            except Exception as exc:  # kept for a retry; the error shows in `forumgm status`
                failed = self.store.mark_failed(item.marker, f"{type(exc).__name__}: {exc}")
                self._not_before[item.marker] = moment + retry_delay(failed.attempts)
                continue
            self.store.mark_posted(item.marker, board_id)
            sent += 1
        return sent
