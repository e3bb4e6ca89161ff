"""Events, resolution bookkeeping, and the outbox of posts and PMs awaiting publication."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from engine.core import Audience, Event, GameState, PhaseId
from engine.store.models import (
    EventRow,
    Game,
    OutboxItem,
    OutboxKind,
    OutboxStatus,
    PhaseRecord,
    PhaseStatus,
    utcnow,
)
from engine.store.repo.base import (
    InvalidTransition,
    MarkerTaken,
    NotFound,
    RepoBase,
    get_game_row,
    get_phase_row,
)
from engine.store.repo.games import apply_state
from forums.records import Cursor


@dataclass(frozen=True)
class OutboxDraft:
    """A rendered post or PM, before it is stored in the outbox."""

    kind: OutboxKind
    bbcode: str
    marker: str
    recipients: Sequence[str] = ()
    subject: str | None = None


def _replace_events(s: Session, ph: PhaseRecord, events: Iterable[Event]) -> None:
    s.execute(delete(EventRow).where(EventRow.phase_id == ph.id))
    for seq, ev in enumerate(events, 1):
        s.add(
            EventRow(
                game_id=ph.game_id,
                phase_id=ph.id,
                seq=seq,
                type=ev.type,
                fields=dict(ev.fields),
                audience=ev.audience,
                recipients=list(ev.to),
            )
        )


class OutboxRepo(RepoBase):
    def save_events(self, game_id: int, phase: PhaseId | str, events: Iterable[Event]) -> None:
        """Replace the phase's events (a phase resolved again gets a fresh list)."""
        with self._sessions.begin() as s:
            _replace_events(s, get_phase_row(s, game_id, phase), events)

    def events(
        self, game_id: int, phase: PhaseId | str, *, audience: Audience | None = None
    ) -> list[Event]:
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            query = select(EventRow).where(EventRow.phase_id == phase_id)
            if audience is not None:
                query = query.where(EventRow.audience == audience)
            rows = s.scalars(query.order_by(EventRow.seq))
            return [Event(r.type, dict(r.fields), r.audience, tuple(r.recipients)) for r in rows]

    def resolve_phase(
        self,
        game_id: int,
        phase: PhaseId | str,
        events: Iterable[Event],
        state: GameState,
        *,
        in_play: Iterable[str] | None = None,
    ) -> PhaseRecord:
        """Store a resolution in one go: events, the state after, and the game's state.

        A resolved phase may be resolved again (after a host fix) until it is published.
        """
        with self._sessions.begin() as s:
            ph = get_phase_row(s, game_id, phase)
            if ph.status is PhaseStatus.PUBLISHED:
                raise InvalidTransition(f"phase {ph.phase} is already published")
            _replace_events(s, ph, events)
            ph.state_after = state.to_json()
            ph.status, ph.resolved_at = PhaseStatus.RESOLVED, utcnow()
            ph.frozen_at = ph.frozen_at or ph.resolved_at
            apply_state(s, get_game_row(s, game_id), state, in_play)
        return ph

    def publish_phase(self, game_id: int, phase: PhaseId | str) -> PhaseRecord:
        with self._sessions.begin() as s:
            ph = get_phase_row(s, game_id, phase)
            if ph.status is not PhaseStatus.RESOLVED:
                raise InvalidTransition(f"phase {ph.phase} is {ph.status}, not resolved")
            ph.status, ph.published_at = PhaseStatus.PUBLISHED, utcnow()
        return ph

    def enqueue(
        self, game_id: int, phase: PhaseId | str | None, items: Iterable[OutboxDraft]
    ) -> list[OutboxItem]:
        """Store drafts; a draft under an existing draft's marker replaces its content."""
        out = []
        with self._sessions.begin() as s:
            if phase is None:
                get_game_row(s, game_id)
            phase_id = self._phase_id(s, game_id, phase) if phase is not None else None
            for draft in items:
                row = s.scalar(select(OutboxItem).where(OutboxItem.marker == draft.marker))
                if row is None:
                    row = OutboxItem(game_id=game_id, marker=draft.marker)
                    s.add(row)
                elif row.status is not OutboxStatus.DRAFT or row.game_id != game_id:
                    raise MarkerTaken(f"marker {draft.marker!r} is taken ({row.status})")
                row.phase_id, row.kind = phase_id, draft.kind
                row.recipients, row.subject = list(draft.recipients), draft.subject
                row.bbcode, row.status = draft.bbcode, OutboxStatus.DRAFT
                out.append(row)
        return out

    def approve(
        self, game_id: int, phase: PhaseId | str | None, *, markers: Iterable[str] | None = None
    ) -> list[OutboxItem]:
        """The host approves the phase's drafts (None: the game's drafts of no phase), or
        only those of them with these `markers`."""
        with self._sessions.begin() as s:
            query = select(OutboxItem).where(
                OutboxItem.game_id == game_id, OutboxItem.status == OutboxStatus.DRAFT
            )
            if markers is not None:
                query = query.where(OutboxItem.marker.in_(list(markers)))
            if phase is None:
                query = query.where(OutboxItem.phase_id.is_(None))
            else:
                query = query.where(OutboxItem.phase_id == self._phase_id(s, game_id, phase))
            rows = list(s.scalars(query.order_by(OutboxItem.id)))
            now = utcnow()
            for row in rows:
                row.status, row.approved_at = OutboxStatus.APPROVED, now
        return rows

    def discard_drafts(self, game_id: int, markers: Iterable[str]) -> int:
        """Delete the drafts under these markers (what a new resolution no longer says);
        an item approved or sent is never touched. Returns how many went."""
        with self._sessions.begin() as s:
            rows = self._unsent(s, game_id, markers, (OutboxStatus.DRAFT,))
            for row in rows:
                s.delete(row)
        return len(rows)

    def unapprove(self, game_id: int, markers: Iterable[str]) -> int:
        """Approved items not yet sent go back to drafts (what they say no longer holds);
        returns how many."""
        with self._sessions.begin() as s:
            rows = self._unsent(s, game_id, markers, (OutboxStatus.APPROVED, OutboxStatus.FAILED))
            for row in rows:
                row.status, row.approved_at = OutboxStatus.DRAFT, None
        return len(rows)

    @staticmethod
    def _unsent(
        s: Session, game_id: int, markers: Iterable[str], statuses: tuple[OutboxStatus, ...]
    ) -> list[OutboxItem]:
        """The game's items under `markers` in one of `statuses` whose send never began."""
        query = select(OutboxItem).where(
            OutboxItem.game_id == game_id,
            OutboxItem.marker.in_(list(markers)),
            OutboxItem.status.in_(statuses),
            OutboxItem.sending_at.is_(None),
        )
        return list(s.scalars(query))

    def pending(
        self, game_id: int | None = None, *, max_attempts: int | None = None
    ) -> list[OutboxItem]:
        """Approved items not yet posted, oldest first, and failed ones: all of them (the
        service never gives up on what players are owed; its backoff spaces the tries), or
        those tried fewer than `max_attempts` times."""
        failed = OutboxItem.status == OutboxStatus.FAILED
        if max_attempts is not None:
            failed = failed & (OutboxItem.attempts < max_attempts)
        query = select(OutboxItem).where(or_(OutboxItem.status == OutboxStatus.APPROVED, failed))
        if game_id is not None:
            query = query.where(OutboxItem.game_id == game_id)
        with self._sessions() as s:
            return list(s.scalars(query.order_by(OutboxItem.id)))

    def outbox(
        self,
        game_id: int,
        phase: PhaseId | str | None = None,
        *,
        markers: Iterable[str] | None = None,
    ) -> list[OutboxItem]:
        """Every item of the game (or of one phase), whatever its status; only those under
        these `markers`, if given (a few known items, however long the game has run)."""
        with self._sessions() as s:
            query = select(OutboxItem).where(OutboxItem.game_id == game_id)
            if phase is not None:
                query = query.where(OutboxItem.phase_id == self._phase_id(s, game_id, phase))
            if markers is not None:
                query = query.where(OutboxItem.marker.in_(list(markers)))
            return list(s.scalars(query.order_by(OutboxItem.id)))

    def markers_posted_as(self, game_id: int, kind: OutboxKind, board_id: str) -> list[str]:
        """The markers of a game's items of `kind` the board holds as `board_id` (two items
        on one id: the board merged a post into the one before it)."""
        with self._sessions() as s:
            query = select(OutboxItem.marker).where(
                OutboxItem.game_id == game_id,
                OutboxItem.kind == kind,
                OutboxItem.board_id == board_id,
            )
            return list(s.scalars(query.order_by(OutboxItem.id)))

    def find_by_marker(self, marker: str) -> OutboxItem | None:
        with self._sessions() as s:
            return s.scalar(select(OutboxItem).where(OutboxItem.marker == marker))

    def mark_sending(
        self, marker: str, at: datetime | None = None, *, look_from: Cursor | None = None
    ) -> OutboxItem:
        """Record that a send starts: from now on the item may be on the board, after
        `look_from` (a cursor from before the send; the first send's is kept)."""
        with self._sessions.begin() as s:
            row = self._due(s, marker)
            if row.status not in (OutboxStatus.APPROVED, OutboxStatus.FAILED):
                raise InvalidTransition(f"outbox item {marker!r} is {row.status}")
            if row.sending_at is None:
                row.sending_at = at or utcnow()
                row.look_from = look_from.data if look_from is not None else None
        return row

    def sent_cursor(self, game_id: int) -> Cursor | None:
        """Where the publisher's last look at the sent box ended."""
        with self._sessions() as s:
            data = s.scalar(select(Game.sent_cursor).where(Game.id == game_id))
        return Cursor(data) if data is not None else None

    def save_sent_cursor(self, game_id: int, cursor: Cursor) -> None:
        with self._sessions.begin() as s:
            s.execute(update(Game).where(Game.id == game_id).values(sent_cursor=cursor.data))

    def mark_posted(self, marker: str, board_id: str) -> OutboxItem:
        """Record that the board has the item; repeating it with the same id is harmless."""
        with self._sessions.begin() as s:
            row = self._due(s, marker)
            if row.status is OutboxStatus.POSTED and row.board_id == board_id:
                return row
            if row.status not in (OutboxStatus.APPROVED, OutboxStatus.FAILED):
                raise InvalidTransition(f"outbox item {marker!r} is {row.status}")
            row.status, row.board_id, row.posted_at = OutboxStatus.POSTED, board_id, utcnow()
            row.attempts += 1
        return row

    def mark_failed(self, marker: str, error: str) -> OutboxItem:
        with self._sessions.begin() as s:
            row = self._due(s, marker)
            if row.status not in (OutboxStatus.APPROVED, OutboxStatus.FAILED):
                raise InvalidTransition(f"outbox item {marker!r} is {row.status}")
            row.status, row.last_error = OutboxStatus.FAILED, error
            row.attempts += 1
        return row

    @staticmethod
    def _due(s: Session, marker: str) -> OutboxItem:
        row = s.scalar(select(OutboxItem).where(OutboxItem.marker == marker).with_for_update())
        if row is None:
            raise NotFound(f"no outbox item with marker {marker!r}")
        return row
