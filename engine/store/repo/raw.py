"""Posts and PMs as the board served them, and their content as of any moment."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Protocol, TypeVar

from sqlalchemy import func, select

from engine.store.codec import body_from_json, body_to_json, content_hash
from engine.store.models import RawPM, RawPMRevision, RawPost, RawPostRevision, utcnow
from engine.store.repo.base import RepoBase, get_game_row
from forums.records import EditInfo, Post, PrivateMessage


class Recorded(StrEnum):
    """What recording a post or PM found."""

    NEW = "new"
    CHANGED = "changed"
    """Its content changed, or it was deleted or restored."""
    UNCHANGED = "unchanged"


class _Revision(Protocol):
    @property
    def valid_from(self) -> datetime: ...

    @property
    def rev(self) -> int: ...


R = TypeVar("R", bound=_Revision)


def _as_of(revisions: Sequence[R], when: datetime) -> R:
    """The revision in force at `when`; the earliest known if none was yet.

    Falling back to the earliest keeps a post first seen after an edit readable; its edit
    time (later than `when`) tells the caller the content at `when` is unknown.
    """
    ordered = sorted(revisions, key=lambda r: r.rev)
    current = ordered[0]
    for rev in ordered:
        if rev.valid_from <= when:
            current = rev
    return current


class RawRepo(RepoBase):
    def record_post(self, game_id: int, post: Post, *, seen_at: datetime | None = None) -> Recorded:
        """Upsert a post by board id, adding a revision when its content hash changes."""
        seen = seen_at or utcnow()
        edit = post.edit
        # A post deleted and served without its body keeps the content it had.
        keep_content = post.deleted and not post.body.runs and post.raw is None
        digest = content_hash(post.raw, post.body)
        with self._sessions.begin() as s:
            get_game_row(s, game_id)
            row = s.scalar(
                select(RawPost).where(RawPost.game_id == game_id, RawPost.post_id == post.id)
            )
            previous = None
            if row is None:
                row = RawPost(game_id=game_id, post_id=post.id, first_seen_at=seen)
                result = Recorded.NEW
            else:
                previous = s.scalar(
                    select(RawPostRevision)
                    .where(RawPostRevision.raw_post_id == row.id)
                    .order_by(RawPostRevision.rev.desc())
                    .limit(1)
                )
                result = Recorded.UNCHANGED
                if post.deleted != row.deleted:
                    result = Recorded.CHANGED
            row.thread_id, row.number, row.url = post.thread_id, post.number, post.url
            row.author, row.author_id, row.posted_at = post.author, post.author_id, post.posted_at
            row.last_seen_at = seen
            row.deleted = post.deleted
            row.deleted_seen_at = (row.deleted_seen_at or seen) if post.deleted else None
            if previous is None or (row.content_hash != digest and not keep_content):
                if previous is None:
                    valid_from = edit.at if edit and edit.at else post.posted_at
                elif (
                    edit
                    and edit.at
                    and edit.at > previous.valid_from
                    and (previous.edit_at is None or edit.at > previous.edit_at)
                ):
                    # The board's edit time is when this content appeared; a poll only
                    # notices it later. A stale edit time (no new notice) proves nothing.
                    valid_from = min(edit.at, seen)
                else:
                    valid_from = seen
                row.raw, row.body, row.content_hash = post.raw, body_to_json(post.body), digest
                s.add(row)
                s.flush()
                s.add(
                    RawPostRevision(
                        raw_post_id=row.id,
                        rev=previous.rev + 1 if previous else 1,
                        content_hash=digest,
                        raw=post.raw,
                        body=row.body,
                        edit_by=edit.by if edit else None,
                        edit_at=edit.at if edit else None,
                        edit_count=edit.count if edit else 0,
                        seen_at=seen,
                        valid_from=valid_from,
                    )
                )
                if result is Recorded.UNCHANGED:
                    result = Recorded.CHANGED
            row.edit_by = edit.by if edit else None
            row.edit_at = edit.at if edit else None
            row.edit_count = edit.count if edit else 0
        return result

    def record_pm(
        self, game_id: int, pm: PrivateMessage, *, seen_at: datetime | None = None
    ) -> Recorded:
        """Upsert a PM by board id, adding a revision when its content hash changes."""
        seen = seen_at or utcnow()
        digest = content_hash(pm.raw, pm.body)
        with self._sessions.begin() as s:
            get_game_row(s, game_id)
            row = s.scalar(select(RawPM).where(RawPM.game_id == game_id, RawPM.pm_id == pm.id))
            last = None
            if row is None:
                row = RawPM(game_id=game_id, pm_id=pm.id, first_seen_at=seen)
                result = Recorded.NEW
            else:
                last = s.scalar(
                    select(func.max(RawPMRevision.rev)).where(RawPMRevision.raw_pm_id == row.id)
                )
                result = Recorded.UNCHANGED
            row.sender, row.sender_id, row.sent_at = pm.sender, pm.sender_id, pm.sent_at
            row.recipients, row.subject, row.url = list(pm.recipients), pm.subject, pm.url
            row.last_seen_at = seen
            if last is None or row.content_hash != digest:
                row.raw, row.body, row.content_hash = pm.raw, body_to_json(pm.body), digest
                s.add(row)
                s.flush()
                s.add(
                    RawPMRevision(
                        raw_pm_id=row.id,
                        rev=(last or 0) + 1,
                        content_hash=digest,
                        subject=pm.subject,
                        raw=pm.raw,
                        body=row.body,
                        seen_at=seen,
                        valid_from=pm.sent_at if last is None else seen,
                    )
                )
                if result is Recorded.UNCHANGED:
                    result = Recorded.CHANGED
        return result

    def posts_as_of(self, game_id: int, thread_id: str, when: datetime) -> list[Post]:
        """The thread's posts made by `when`, each with the content it had then."""
        with self._sessions() as s:
            rows = list(
                s.scalars(
                    select(RawPost)
                    .where(
                        RawPost.game_id == game_id,
                        RawPost.thread_id == thread_id,
                        RawPost.posted_at <= when,
                    )
                    .order_by(RawPost.number, RawPost.id)
                )
            )
            revisions: dict[int, list[RawPostRevision]] = defaultdict(list)
            if rows:
                query = select(RawPostRevision).where(
                    RawPostRevision.raw_post_id.in_([r.id for r in rows])
                )
                for rev in s.scalars(query):
                    revisions[rev.raw_post_id].append(rev)
        posts = []
        for row in rows:
            rev = _as_of(revisions[row.id], when)
            edited = rev.edit_count or rev.edit_at is not None
            edit = EditInfo(rev.edit_by, rev.edit_at, rev.edit_count) if edited else None
            posts.append(
                Post(
                    id=row.post_id,
                    thread_id=row.thread_id,
                    number=row.number,
                    author=row.author,
                    author_id=row.author_id,
                    posted_at=row.posted_at,
                    body=body_from_json(rev.body),
                    url=row.url,
                    edit=edit,
                    deleted=row.deleted_seen_at is not None and row.deleted_seen_at <= when,
                    raw=rev.raw,
                )
            )
        return posts

    def pms_as_of(self, game_id: int, when: datetime) -> list[PrivateMessage]:
        """The PMs sent by `when`, each with the content it had then, oldest first."""
        with self._sessions() as s:
            rows = list(
                s.scalars(
                    select(RawPM)
                    .where(RawPM.game_id == game_id, RawPM.sent_at <= when)
                    .order_by(RawPM.sent_at, RawPM.id)
                )
            )
            revisions: dict[int, list[RawPMRevision]] = defaultdict(list)
            if rows:
                query = select(RawPMRevision).where(
                    RawPMRevision.raw_pm_id.in_([r.id for r in rows])
                )
                for rev in s.scalars(query):
                    revisions[rev.raw_pm_id].append(rev)
        pms = []
        for row in rows:
            rev = _as_of(revisions[row.id], when)
            pms.append(
                PrivateMessage(
                    id=row.pm_id,
                    sender=row.sender,
                    sender_id=row.sender_id,
                    recipients=tuple(row.recipients),
                    sent_at=row.sent_at,
                    subject=rev.subject,
                    body=body_from_json(rev.body),
                    url=row.url,
                    raw=rev.raw,
                )
            )
        return pms

    def post_history(self, game_id: int, post_id: str) -> list[RawPostRevision]:
        """Every content seen for a post, oldest first (for the host's audit view)."""
        with self._sessions() as s:
            query = (
                select(RawPostRevision)
                .join(RawPost, RawPost.id == RawPostRevision.raw_post_id)
                .where(RawPost.game_id == game_id, RawPost.post_id == post_id)
                .order_by(RawPostRevision.rev)
            )
            return list(s.scalars(query))
