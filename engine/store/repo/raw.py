"""Posts and PMs as the board served them, and their content as of any moment."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.orm import Session

from engine.store.codec import body_from_json, body_to_json, content_hash
from engine.store.models import (
    Game,
    OutsiderMessage,
    RawPM,
    RawPMRevision,
    RawPost,
    RawPostRevision,
    utcnow,
)
from engine.store.repo.base import NotFound, RepoBase, aware
from forums.records import Cursor, EditInfo, Post, PostBody, PrivateMessage


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
T = TypeVar("T")


@dataclass(frozen=True)
class StoredItem:
    """A post or PM as a phase's replay needs it; its body is loaded apart, when needed."""

    id: str
    author: str
    at: datetime
    url: str | None
    revision: int
    """The row id of the revision in force (`post_bodies`/`pm_bodies` load its body)."""
    digest: str
    """That revision's content hash."""
    deleted: bool = False
    edit: EditInfo | None = None
    changed_after: bool = False
    """A content that appeared after the moment asked for is known."""
    first_seen: datetime | None = None
    """When forumgm first read it."""
    deleted_since: datetime | None = None
    """When forumgm first saw it deleted (a post), even after the moment asked for."""
    missing_since: datetime | None = None
    """When a full read of the board first no longer served it (a post)."""
    routing: str | None = None
    """A PM's routing (`RawPM.routing`): None when it is the game's, "unclear" when its
    sender plays in several games on the GM account and it names none of them."""


@dataclass(frozen=True)
class Outsider:
    """A post or PM by a board member who holds no seat in the game (`note_outsiders`)."""

    channel: str
    """"thread" or "pm"."""
    item_id: str
    author: str
    at: datetime
    url: str | None = None
    excerpt: str = ""
    """The start of its text, on one line."""
    phase: str | None = None
    """The phase it came in (set when read back from the store)."""


@dataclass(frozen=True)
class ReadRecorded:
    """What recording one read found, by board id: thread posts and PMs apart (their ids
    are separate sequences on most boards)."""

    posts: dict[str, Recorded]
    pms: dict[str, Recorded]


def _as_of(revisions: Sequence[R], when: datetime) -> R:
    """The revision in force at `when`; the earliest known if none was yet.

    Falling back to the earliest keeps a post first seen after an edit readable; its edit
    time (later than `when`) tells the caller the content at `when` is unknown.
    """
    if len(revisions) == 1:  # most posts are never edited
        return revisions[0]
    ordered = sorted(revisions, key=lambda r: r.rev)
    current = ordered[0]
    for rev in ordered:
        if rev.valid_from <= when:
            current = rev
    return current


_CHUNK = 500
"""Ids per IN (…) list: well under every backend's limit of bound parameters."""
_BATCH = 1000
"""Posts or PMs written per batch of statements within one recording."""


def _chunks(items: Sequence[T]) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _require_game(s: Session, game_id: int) -> None:
    # The id alone: loading the game row would decode its whole state JSON.
    if s.scalar(select(Game.id).where(Game.id == game_id)) is None:
        raise NotFound(f"no game with id {game_id}")


def _last_revisions(
    s: Session, owner: Any, columns: Sequence[Any], ids: Sequence[int]
) -> dict[int, Any]:
    """The latest revision of each row (`columns` of it, `rev` first), by the row's id."""
    last: dict[int, Any] = {}
    for chunk in _chunks(ids):
        for found in s.execute(select(owner, *columns).where(owner.in_(chunk))):
            if found[0] not in last or found[1] > last[found[0]][1]:
                last[found[0]] = found
    return last


_POST_FIELDS = (
    *("thread_id", "number", "url", "author", "author_id", "posted_at", "deleted"),
    *("deleted_seen_at", "edit_by", "edit_at", "edit_count"),
)
_PM_FIELDS = ("sender", "sender_id", "sent_at", "recipients", "subject", "url")


def _apply(
    s: Session,
    model: type[RawPost] | type[RawPM],
    revision_model: type[RawPostRevision] | type[RawPMRevision],
    owner: str,
    game_id: int,
    board_id: Any,
    seen: datetime,
    inserts: list[dict[str, Any]],
    updates: list[dict[str, Any]],
    touched: list[int],
    revisions: list[tuple[Any, dict[str, Any]]],
) -> None:
    """Write one batch: a statement per kind of change, however many posts or PMs."""
    new_ids: dict[str, int] = {}
    if inserts:
        added = s.execute(insert(model).returning(board_id, model.id), inserts)
        new_ids.update((key, rid) for key, rid in added)
    if updates:
        s.execute(update(model), updates)  # by primary key, as one executemany per shape
    for chunk in _chunks(touched):
        s.execute(update(model).where(model.id.in_(chunk)).values(last_seen_at=seen))
    if revisions:
        rows = [
            {**values, owner: ref if isinstance(ref, int) else new_ids[ref]}
            for ref, values in revisions
        ]
        s.execute(insert(revision_model), rows)


def _known(
    s: Session, model: type[RawPost] | type[RawPM], board_id: Any, game_id: int, ids: list[str]
) -> dict[str, Any]:
    """The stored rows (no bodies) of these board ids."""
    columns = [c for c in model.__table__.columns if c.key not in ("raw", "body")]
    found: dict[str, Any] = {}
    for chunk in _chunks(ids):
        query = select(*columns).where(model.game_id == game_id, board_id.in_(chunk))
        found.update((row._mapping[board_id.key], row) for row in s.execute(query))
    return found


def _moved(row: Any, post: Post) -> bool:
    """Whether the board now names another author (an id that one read lacks proves nothing)."""
    if row.author != post.author:
        return True
    return (
        row.author_id is not None and post.author_id is not None and row.author_id != post.author_id
    )


def _record_posts(
    s: Session, game_id: int, posts: Sequence[Post], seen: datetime
) -> dict[str, Recorded]:
    """Upsert posts by board id in the session's transaction: one query finds the known
    ones, and one statement writes each kind of change, however many posts."""
    by_id = {post.id: post for post in posts}  # a post read twice in one sync: the last read
    rows = _known(s, RawPost, RawPost.post_id, game_id, list(by_id))
    digests = {post_id: content_hash(post.raw, post.body) for post_id, post in by_id.items()}
    # A post deleted and served without its body keeps the content it had.
    keeps = {pid for pid, p in by_id.items() if p.deleted and not p.body.runs and p.raw is None}
    # A post id that changes hands ("change poster", an id reused after a hard delete) is a
    # new revision too: what was said under the first author stays theirs.
    moved = {pid for pid, row in rows.items() if _moved(row, by_id[pid]) and pid not in keeps}
    changed = [
        row.id
        for pid, row in rows.items()
        if (row.content_hash != digests[pid] and pid not in keeps) or pid in moved
    ]
    previous = _last_revisions(
        s,
        RawPostRevision.raw_post_id,
        (RawPostRevision.rev, RawPostRevision.valid_from, RawPostRevision.edit_at),
        changed,
    )
    results: dict[str, Recorded] = {}
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    touched: list[int] = []
    revisions: list[tuple[Any, dict[str, Any]]] = []
    for post_id, post in by_id.items():
        edit = post.edit
        digest = digests[post_id]
        row = rows.get(post_id)
        values: dict[str, Any] = {
            "thread_id": post.thread_id,
            "number": post.number,
            "url": post.url,
            "author": post.author,
            "author_id": post.author_id,
            "posted_at": post.posted_at,
            "deleted": post.deleted,
            "deleted_seen_at": ((row.deleted_seen_at if row else None) or seen)
            if post.deleted
            else None,
            "edit_by": edit.by if edit else None,
            "edit_at": edit.at if edit else None,
            "edit_count": edit.count if edit else 0,
        }
        last = previous.get(row.id) if row is not None else None
        if row is None:
            result = Recorded.NEW
        else:
            result = Recorded.CHANGED if post.deleted != row.deleted else Recorded.UNCHANGED
        new_content = (
            row is None or (row.content_hash != digest and post_id not in keeps) or post_id in moved
        )
        if new_content:
            if last is None:
                valid_from = edit.at if edit and edit.at else post.posted_at
            elif (
                edit
                and edit.at
                and edit.at > last.valid_from
                and (last.edit_at is None or edit.at > last.edit_at)
            ):
                # The board's edit time is when this content appeared; a poll only
                # notices it later. A stale edit time (no new notice) proves nothing.
                valid_from = min(edit.at, seen)
            else:
                valid_from = seen
            body = body_to_json(post.body)
            values.update(raw=post.raw, body=body, content_hash=digest)
            if post_id in moved and row is not None and row.content_hash == digest:
                valid_from = seen  # the same words under another name: from when it was seen
            revision = {
                "rev": last.rev + 1 if last is not None else 1,
                "content_hash": digest,
                "raw": post.raw,
                "body": body,
                "author": post.author,
                "author_id": post.author_id,
                "edit_by": values["edit_by"],
                "edit_at": values["edit_at"],
                "edit_count": values["edit_count"],
                "seen_at": seen,
                "valid_from": valid_from,
            }
            revisions.append((post_id if row is None else row.id, revision))
            if result is Recorded.UNCHANGED:
                result = Recorded.CHANGED
        if row is None:
            inserts.append(
                {"game_id": game_id, "post_id": post_id, "first_seen_at": seen, **values}
                | {"last_seen_at": seen}
            )
        elif new_content or any(getattr(row, f) != values[f] for f in _POST_FIELDS):
            updates.append({"id": row.id, "last_seen_at": seen, **values})
        else:
            touched.append(row.id)
        results[post_id] = result
    _apply(
        s,
        RawPost,
        RawPostRevision,
        "raw_post_id",
        game_id,
        RawPost.post_id,
        seen,
        inserts,
        updates,
        touched,
        revisions,
    )
    return results


def _record_pms(
    s: Session,
    game_id: int,
    pms: Sequence[PrivateMessage],
    seen: datetime,
    routing: Mapping[str, str],
) -> dict[str, Recorded]:
    """Upsert PMs by board id in the session's transaction, as `_record_posts` does posts."""
    by_id = {pm.id: pm for pm in pms}
    rows = _known(s, RawPM, RawPM.pm_id, game_id, list(by_id))
    digests = {pm_id: content_hash(pm.raw, pm.body) for pm_id, pm in by_id.items()}
    changed = [row.id for pid, row in rows.items() if row.content_hash != digests[pid]]
    previous = _last_revisions(s, RawPMRevision.raw_pm_id, (RawPMRevision.rev,), changed)
    results: dict[str, Recorded] = {}
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    touched: list[int] = []
    revisions: list[tuple[Any, dict[str, Any]]] = []
    for pm_id, pm in by_id.items():
        digest = digests[pm_id]
        row = rows.get(pm_id)
        values: dict[str, Any] = {
            "sender": pm.sender,
            "sender_id": pm.sender_id,
            "sent_at": pm.sent_at,
            "recipients": list(pm.recipients),
            "subject": pm.subject,
            "url": pm.url,
        }
        result = Recorded.NEW if row is None else Recorded.UNCHANGED
        new_content = row is None or row.content_hash != digest
        if new_content:
            last = previous.get(row.id) if row is not None else None
            body = body_to_json(pm.body)
            values.update(raw=pm.raw, body=body, content_hash=digest)
            revision = {
                "rev": last.rev + 1 if last is not None else 1,
                "content_hash": digest,
                "subject": pm.subject,
                "raw": pm.raw,
                "body": body,
                "seen_at": seen,
                "valid_from": pm.sent_at if last is None else seen,
            }
            revisions.append((pm_id if row is None else row.id, revision))
            if result is Recorded.UNCHANGED:
                result = Recorded.CHANGED
        if row is None:
            # Where a PM goes is settled when it is first read: a later read keeps it.
            inserts.append(
                {"game_id": game_id, "pm_id": pm_id, "first_seen_at": seen, **values}
                | {"last_seen_at": seen, "routing": routing.get(pm_id)}
            )
        elif new_content or any(getattr(row, f) != values[f] for f in _PM_FIELDS):
            updates.append({"id": row.id, "last_seen_at": seen, **values})
        else:
            touched.append(row.id)
        results[pm_id] = result
    _apply(
        s,
        RawPM,
        RawPMRevision,
        "raw_pm_id",
        game_id,
        RawPM.pm_id,
        seen,
        inserts,
        updates,
        touched,
        revisions,
    )
    return results


class RawRepo(RepoBase):
    def record_post(self, game_id: int, post: Post, *, seen_at: datetime | None = None) -> Recorded:
        """Upsert a post by board id, adding a revision when its content hash changes."""
        return self.record_read(game_id, [post], (), seen_at=seen_at).posts[post.id]

    def record_pm(
        self, game_id: int, pm: PrivateMessage, *, seen_at: datetime | None = None
    ) -> Recorded:
        """Upsert a PM by board id, adding a revision when its content hash changes."""
        return self.record_read(game_id, (), [pm], seen_at=seen_at).pms[pm.id]

    def record_read(
        self,
        game_id: int,
        posts: Sequence[Post],
        pms: Sequence[PrivateMessage],
        *,
        seen_at: datetime | None = None,
        thread_cursor: Cursor | None = None,
        inbox_cursor: Cursor | None = None,
        pm_routing: Mapping[str, str] | None = None,
    ) -> ReadRecorded:
        """Record one read of the board in one transaction: its posts and PMs (one query
        finds the known ones), and the cursors to read on from, which commit with them.
        `pm_routing`: PM id → `RawPM.routing` for PMs first read now (default: the game's)."""
        seen = seen_at or utcnow()
        cursors: dict[str, Any] = {}
        if thread_cursor is not None:
            cursors["thread_cursor"] = thread_cursor.data
        if inbox_cursor is not None:
            cursors["inbox_cursor"] = inbox_cursor.data
        with self._sessions.begin() as s:
            if cursors:  # the update finds the game too
                moved = s.execute(update(Game).where(Game.id == game_id).values(**cursors))
                if not moved.rowcount:  # type: ignore[attr-defined]
                    raise NotFound(f"no game with id {game_id}")
            else:
                _require_game(s, game_id)
            recorded = ReadRecorded({}, {})
            # A first sync may bring thousands: written a batch at a time, so the rows
            # being built never all sit in memory together (one transaction all the same).
            for start in range(0, len(posts), _BATCH):
                batch = posts[start : start + _BATCH]
                recorded.posts.update(_record_posts(s, game_id, batch, seen))
            for start in range(0, len(pms), _BATCH):
                batch_pms = pms[start : start + _BATCH]
                recorded.pms.update(_record_pms(s, game_id, batch_pms, seen, pm_routing or {}))
        return recorded

    def known_pms(self, game_id: int, pm_ids: Sequence[str]) -> set[str]:
        """Which of these PM ids the game has recorded already."""
        found: set[str] = set()
        with self._sessions() as s:
            for chunk in _chunks(list(pm_ids)):
                query = select(RawPM.pm_id).where(RawPM.game_id == game_id, RawPM.pm_id.in_(chunk))
                found.update(s.scalars(query))
        return found

    def mark_missing(
        self,
        game_id: int,
        thread_id: str,
        served: Sequence[str],
        *,
        seen_at: datetime,
        whole: bool,
    ) -> list[str]:
        """A full read served the posts `served`: the stored ones it should have served and
        did not are missing from now on (a hard delete); those served again are not. `whole`:
        the read covered the whole thread, else every post from the first one served on.
        Returns the board ids newly missing."""
        numbers = [int(i) for i in served if i.isdigit()]
        if not numbers and not whole:
            return []
        start = None if whole else min(numbers)
        served_set = set(served)
        gone: list[int] = []
        back: list[int] = []
        found: list[str] = []
        with self._sessions.begin() as s:
            query = select(RawPost.id, RawPost.post_id, RawPost.missing_since).where(
                RawPost.game_id == game_id, RawPost.thread_id == thread_id
            )
            for row_id, post_id, missing in s.execute(query):
                if post_id in served_set:
                    if missing is not None:
                        back.append(row_id)
                elif missing is None and (
                    start is None or (post_id.isdigit() and int(post_id) >= start)
                ):
                    gone.append(row_id)
                    found.append(post_id)
            for chunk in _chunks(gone):
                s.execute(
                    update(RawPost).where(RawPost.id.in_(chunk)).values(missing_since=seen_at)
                )
            for chunk in _chunks(back):
                s.execute(update(RawPost).where(RawPost.id.in_(chunk)).values(missing_since=None))
        return found

    def read_cursors(self, game_id: int) -> tuple[Cursor | None, Cursor | None]:
        """The thread and inbox cursors the last recorded read ended at."""
        with self._sessions() as s:
            found = s.execute(
                select(Game.thread_cursor, Game.inbox_cursor).where(Game.id == game_id)
            ).first()
        if found is None:
            raise NotFound(f"no game with id {game_id}")
        thread, inbox = found
        return (
            Cursor(thread) if thread is not None else None,
            Cursor(inbox) if inbox is not None else None,
        )

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
                    author=rev.author or row.author,
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

    # -- what a phase's replay reads: light rows first, bodies only where needed ----------

    def posts_in(
        self,
        game_id: int,
        thread_id: str,
        when: datetime,
        *,
        after: datetime | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[StoredItem]:
        """The thread's posts made in (`after`, `when`] (or those of `ids`), each with the
        revision in force at `when`: two queries, no bodies."""
        where = [RawPost.game_id == game_id, RawPost.thread_id == thread_id]
        where.append(RawPost.posted_at <= when)
        if after is not None:
            where.append(RawPost.posted_at > after)
        if ids is not None:
            where.append(RawPost.post_id.in_(ids))
        posts = select(
            RawPost.id,
            RawPost.post_id,
            RawPost.author,
            RawPost.posted_at,
            RawPost.url,
            RawPost.deleted_seen_at,
            RawPost.first_seen_at,
            RawPost.missing_since,
        ).where(*where)
        revisions = (
            select(
                RawPostRevision.raw_post_id,
                RawPostRevision.id,
                RawPostRevision.rev,
                RawPostRevision.valid_from,
                RawPostRevision.content_hash,
                RawPostRevision.author,
                RawPostRevision.edit_by,
                RawPostRevision.edit_at,
                RawPostRevision.edit_count,
            )
            .join(RawPost, RawPost.id == RawPostRevision.raw_post_id)
            .where(*where)
        )
        with self._sessions() as s:
            rows = list(s.execute(posts.order_by(RawPost.number, RawPost.id)))
            history: dict[int, list[Any]] = defaultdict(list)
            for rev in s.execute(revisions):
                history[rev.raw_post_id].append(rev)
        items = []
        for row in rows:
            revs = history[row.id]
            rev = _as_of(revs, when)
            edited = rev.edit_count or rev.edit_at is not None
            items.append(
                StoredItem(
                    id=row.post_id,
                    author=rev.author or row.author,
                    at=row.posted_at,
                    url=row.url,
                    revision=rev.id,
                    digest=rev.content_hash,
                    deleted=row.deleted_seen_at is not None and row.deleted_seen_at <= when,
                    edit=EditInfo(rev.edit_by, rev.edit_at, rev.edit_count) if edited else None,
                    changed_after=len(revs) > 1 and any(r.valid_from > when for r in revs),
                    first_seen=row.first_seen_at,
                    deleted_since=row.deleted_seen_at,
                    missing_since=row.missing_since,
                )
            )
        return items

    def pms_in(
        self,
        game_id: int,
        when: datetime,
        *,
        after: datetime | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[StoredItem]:
        """The PMs sent in (`after`, `when`] (or those of `ids`), oldest first, each with the
        revision in force at `when`: two queries, no bodies."""
        where = [RawPM.game_id == game_id, RawPM.sent_at <= when]
        if after is not None:
            where.append(RawPM.sent_at > after)
        if ids is not None:
            where.append(RawPM.pm_id.in_(ids))
        pms = select(
            RawPM.id, RawPM.pm_id, RawPM.sender, RawPM.sent_at, RawPM.url, RawPM.routing
        ).where(*where)
        revisions = (
            select(
                RawPMRevision.raw_pm_id,
                RawPMRevision.id,
                RawPMRevision.rev,
                RawPMRevision.valid_from,
                RawPMRevision.content_hash,
            )
            .join(RawPM, RawPM.id == RawPMRevision.raw_pm_id)
            .where(*where)
        )
        with self._sessions() as s:
            rows = list(s.execute(pms.order_by(RawPM.sent_at, RawPM.id)))
            history: dict[int, list[Any]] = defaultdict(list)
            for rev in s.execute(revisions):
                history[rev.raw_pm_id].append(rev)
        items = []
        for row in rows:
            revs = history[row.id]
            rev = _as_of(revs, when)
            items.append(
                StoredItem(
                    id=row.pm_id,
                    author=row.sender,
                    at=row.sent_at,
                    url=row.url,
                    revision=rev.id,
                    digest=rev.content_hash,
                    changed_after=any(r.valid_from > when for r in revs),
                    routing=row.routing,
                )
            )
        return items

    def post_bodies(self, revisions: Sequence[int]) -> dict[int, PostBody]:
        """The bodies of post revisions, by revision id."""
        return self._bodies(RawPostRevision, revisions)

    def pm_bodies(self, revisions: Sequence[int]) -> dict[int, PostBody]:
        return self._bodies(RawPMRevision, revisions)

    def _bodies(
        self, model: type[RawPostRevision] | type[RawPMRevision], ids: Sequence[int]
    ) -> dict[int, PostBody]:
        found: dict[int, PostBody] = {}
        with self._sessions() as s:
            for chunk in _chunks(list(ids)):
                query = select(model.id, model.body).where(model.id.in_(chunk))
                found.update((rid, body_from_json(body)) for rid, body in s.execute(query))
        return found

    def window_counts(
        self, game_id: int, thread_id: str, after: datetime | None, when: datetime
    ) -> tuple[int, int]:
        """How many posts and PMs the store has in (`after`, `when`]: one query."""
        posts = select(func.count(RawPost.id)).where(
            RawPost.game_id == game_id,
            RawPost.thread_id == thread_id,
            RawPost.posted_at <= when,
            *([RawPost.posted_at > after] if after is not None else []),
        )
        pms = select(func.count(RawPM.id)).where(
            RawPM.game_id == game_id,
            RawPM.sent_at <= when,
            *([RawPM.sent_at > after] if after is not None else []),
        )
        with self._sessions() as s:
            found = s.execute(select(posts.scalar_subquery(), pms.scalar_subquery())).one()
        return int(found[0]), int(found[1])

    def first_messages(self, game_id: int, thread_id: str, when: datetime) -> dict[str, datetime]:
        """Each author's first post (not deleted as of `when`) or PM by `when`: one query."""
        posts = (
            select(RawPost.author, func.min(RawPost.posted_at))
            .where(
                RawPost.game_id == game_id,
                RawPost.thread_id == thread_id,
                RawPost.posted_at <= when,
                or_(RawPost.deleted_seen_at.is_(None), RawPost.deleted_seen_at > when),
            )
            .group_by(RawPost.author)
        )
        pms = (
            select(RawPM.sender, func.min(RawPM.sent_at))
            .where(RawPM.game_id == game_id, RawPM.sent_at <= when)
            .group_by(RawPM.sender)
        )
        first: dict[str, datetime] = {}
        with self._sessions() as s:
            for author, at in [*s.execute(posts), *s.execute(pms)]:
                moment = aware(at)
                if author not in first or moment < first[author]:
                    first[author] = moment
        return first

    def note_outsiders(
        self, game_id: int, phase: str, messages: Sequence[Outsider], *, seen_at: datetime
    ) -> list[Outsider]:
        """Record posts and PMs by board members who hold no seat; returns those new here."""
        if not messages:
            return []
        new: list[Outsider] = []
        with self._sessions.begin() as s:
            known: set[tuple[str, str]] = set()
            for chunk in _chunks(sorted({m.item_id for m in messages})):
                query = select(OutsiderMessage.channel, OutsiderMessage.item_id).where(
                    OutsiderMessage.game_id == game_id, OutsiderMessage.item_id.in_(chunk)
                )
                known.update((channel, item) for channel, item in s.execute(query))
            for m in messages:
                if (m.channel, m.item_id) in known:
                    continue
                known.add((m.channel, m.item_id))
                s.add(
                    OutsiderMessage(
                        game_id=game_id,
                        phase=phase,
                        channel=m.channel,
                        item_id=m.item_id,
                        author=m.author,
                        at=m.at,
                        url=m.url,
                        excerpt=m.excerpt,
                        noted_at=seen_at,
                    )
                )
                new.append(m)
        return new

    def outsiders(self, game_id: int, phase: str | None = None) -> list[Outsider]:
        """The messages by non-players recorded for a game (one phase's, if given), oldest first."""
        query = select(OutsiderMessage).where(OutsiderMessage.game_id == game_id)
        if phase is not None:
            query = query.where(OutsiderMessage.phase == phase)
        with self._sessions() as s:
            rows = list(s.scalars(query.order_by(OutsiderMessage.at, OutsiderMessage.id)))
        return [
            Outsider(r.channel, r.item_id, r.author, aware(r.at), r.url, r.excerpt, r.phase)
            for r in rows
        ]
