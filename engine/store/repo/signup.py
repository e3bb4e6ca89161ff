"""Sign-up threads: their posts, the list they make, the host's decisions, the GM's answers."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from engine.store.models import (
    Signup,
    SignupDecision,
    SignupEntry,
    SignupMessage,
    SignupPost,
    SubstituteOffer,
)
from engine.store.repo.base import NotFound, RepoBase


@dataclass(frozen=True)
class ReadPost:
    """A post of the sign-up thread as one read brought it."""

    post_id: str
    number: int
    author: str
    posted_at: datetime
    text: str
    marker: str | None = None
    deleted: bool = False


class SignupRepo(RepoBase):
    def signup(self, board_id: int, thread_id: str) -> Signup:
        """The sign-up thread's row, made on first use (with its own marker key)."""
        query = select(Signup).where(Signup.board_id == board_id, Signup.thread_id == thread_id)
        with self._sessions() as s:
            found = s.scalars(query).first()
        if found is not None:
            return found
        try:
            with self._sessions.begin() as s:
                row = Signup(
                    board_id=board_id, thread_id=thread_id, marker_key=secrets.token_hex(32)
                )
                s.add(row)
            return row
        except IntegrityError:  # another process made it meanwhile
            with self._sessions() as s:
                return s.scalars(query).one()

    def get_signup(self, signup_id: int) -> Signup:
        with self._sessions() as s:
            row = s.get(Signup, signup_id)
            if row is None:
                raise NotFound(f"no sign-up with id {signup_id}")
            return row

    def record_signup_read(
        self,
        signup_id: int,
        posts: Sequence[ReadPost],
        cursor: Mapping[str, Any] | None,
        seen_at: datetime,
    ) -> int:
        """Keep what a read of the thread brought; returns how many posts are new or changed."""
        changed = 0
        with self._sessions.begin() as s:
            known = {
                r.post_id: r
                for r in s.scalars(select(SignupPost).where(SignupPost.signup_id == signup_id))
            }
            for p in posts:
                row = known.get(p.post_id)
                if row is None:
                    s.add(
                        SignupPost(
                            signup_id=signup_id,
                            post_id=p.post_id,
                            number=p.number,
                            author=p.author,
                            posted_at=p.posted_at,
                            text=p.text,
                            marker=p.marker,
                            deleted=p.deleted,
                            seen_at=seen_at,
                        )
                    )
                    changed += 1
                elif (row.text, row.deleted, row.author) != (p.text, p.deleted, p.author):
                    row.edits += int(row.text != p.text)
                    row.text, row.deleted, row.author = p.text, p.deleted, p.author
                    row.marker, row.seen_at = p.marker, seen_at
                    changed += 1
            row_s = s.get(Signup, signup_id)
            assert row_s is not None
            if cursor is not None:
                row_s.cursor = dict(cursor)
        return changed

    def signup_posts(self, signup_id: int) -> list[SignupPost]:
        with self._sessions() as s:
            query = (
                select(SignupPost)
                .where(SignupPost.signup_id == signup_id)
                .order_by(SignupPost.posted_at, SignupPost.number)
            )
            return list(s.scalars(query))

    def signup_entries(self, signup_id: int) -> list[SignupEntry]:
        with self._sessions() as s:
            query = (
                select(SignupEntry)
                .where(SignupEntry.signup_id == signup_id)
                .order_by(SignupEntry.status, SignupEntry.place)
            )
            return list(s.scalars(query))

    def save_signup_list(
        self,
        signup_id: int,
        entries: Sequence[tuple[str, str, int, datetime | None, str | None]],
        *,
        answered: Mapping[str, str],
        messages: Sequence[tuple[str, str]],
        at: datetime,
    ) -> None:
        """The list as it stands now, the posts answered, and the GM's posts it calls for,
        in one transaction: a crash leaves either all of it or none (then the next read
        finds the same changes and queues the same answers)."""
        with self._sessions.begin() as s:
            s.execute(delete(SignupEntry).where(SignupEntry.signup_id == signup_id))
            s.flush()
            for name, status, place, joined_at, post_id in entries:
                s.add(
                    SignupEntry(
                        signup_id=signup_id,
                        name=name,
                        status=status,
                        place=place,
                        joined_at=joined_at,
                        post_id=post_id,
                    )
                )
            if answered:
                rows = s.scalars(
                    select(SignupPost).where(
                        SignupPost.signup_id == signup_id, SignupPost.post_id.in_(list(answered))
                    )
                )
                for row in rows:
                    row.answered = answered[row.post_id]
            taken = set(
                s.scalars(
                    select(SignupMessage.marker).where(
                        SignupMessage.marker.in_([m for m, _ in messages])
                    )
                )
            )
            for marker, bbcode in messages:
                if marker not in taken:
                    s.add(
                        SignupMessage(
                            signup_id=signup_id,
                            marker=marker,
                            bbcode=bbcode,
                            status="queued",
                            created_at=at,
                        )
                    )

    def queue_signup_message(self, signup_id: int, marker: str, bbcode: str, at: datetime) -> bool:
        """Queue one GM post (the list); False if its marker is taken already."""
        return bool(self._add_messages(signup_id, [(marker, bbcode)], at))

    def _add_messages(
        self, signup_id: int, messages: Sequence[tuple[str, str]], at: datetime
    ) -> int:
        added = 0
        with self._sessions.begin() as s:
            for marker, bbcode in messages:
                if s.scalar(select(SignupMessage.id).where(SignupMessage.marker == marker)):
                    continue
                s.add(
                    SignupMessage(signup_id=signup_id, marker=marker, bbcode=bbcode, created_at=at)
                )
                added += 1
        return added

    def signup_messages(self, signup_id: int, *, unsent: bool = False) -> list[SignupMessage]:
        with self._sessions() as s:
            query = select(SignupMessage).where(SignupMessage.signup_id == signup_id)
            if unsent:
                query = query.where(SignupMessage.status != "posted")
            return list(s.scalars(query.order_by(SignupMessage.id)))

    def signup_message_status(
        self, message_id: int, status: str, at: datetime, post_id: str | None = None
    ) -> None:
        with self._sessions.begin() as s:
            row = s.get(SignupMessage, message_id)
            if row is None:
                raise NotFound(f"no sign-up message with id {message_id}")
            row.status = status
            row.sent_at = row.sent_at or at
            if post_id is not None:
                row.post_id = post_id

    def decide_signup(self, signup_id: int, name: str, decision: str, at: datetime) -> None:
        """The host approves or refuses `name`'s join (`[signup] approve`)."""
        key = name.casefold()
        with self._sessions.begin() as s:
            row = s.scalars(
                select(SignupDecision).where(
                    SignupDecision.signup_id == signup_id, SignupDecision.name == key
                )
            ).first()
            if row is None:
                s.add(SignupDecision(signup_id=signup_id, name=key, decision=decision, at=at))
            else:
                row.decision, row.at = decision, at

    def signup_decisions(self, signup_id: int) -> dict[str, str]:
        with self._sessions() as s:
            rows = s.scalars(select(SignupDecision).where(SignupDecision.signup_id == signup_id))
            return {r.name: r.decision for r in rows}

    def set_signup_times(self, signup_id: int, **times: datetime | None) -> None:
        """`closed_at`, `written_at` or `list_posted_at` of the sign-up."""
        with self._sessions.begin() as s:
            row = s.get(Signup, signup_id)
            if row is None:
                raise NotFound(f"no sign-up with id {signup_id}")
            for key, value in times.items():
                if key not in ("closed_at", "written_at", "list_posted_at"):
                    raise ValueError(key)
                setattr(row, key, value)

    # -- seats offered to the reserve ----------------------------------------------------

    def offer_seat(
        self,
        game_id: int,
        *,
        seat: str,
        leaving: str,
        candidate: str,
        reason: str,
        at: datetime,
        expires: datetime,
    ) -> SubstituteOffer:
        with self._sessions.begin() as s:
            row = SubstituteOffer(
                game_id=game_id,
                seat=seat,
                leaving=leaving,
                candidate=candidate,
                reason=reason,
                status="offered",
                offered_at=at,
                expires_at=expires,
            )
            s.add(row)
        return row

    def offers(
        self, game_id: int, *, seat: str | None = None, status: str | None = None
    ) -> list[SubstituteOffer]:
        with self._sessions() as s:
            query = select(SubstituteOffer).where(SubstituteOffer.game_id == game_id)
            if seat is not None:
                query = query.where(SubstituteOffer.seat == seat)
            if status is not None:
                query = query.where(SubstituteOffer.status == status)
            return list(s.scalars(query.order_by(SubstituteOffer.id)))

    def answer_offer(
        self, offer_id: int, status: str, at: datetime, pm_id: str | None = None
    ) -> None:
        """The offer's end: accepted, declined, expired or cancelled (once)."""
        with self._sessions.begin() as s:
            row = s.get(SubstituteOffer, offer_id)
            if row is None:
                raise NotFound(f"no offer with id {offer_id}")
            if row.status != "offered":
                return
            row.status, row.answered_at, row.answer_pm = status, at, pm_id
