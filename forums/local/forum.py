"""The local board's data: users, threads, posts with their edits, and PMs, over SQLAlchemy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Row, delete, func, insert, inspect, select, update
from sqlalchemy.exc import IntegrityError

from forums.bbcode import parse_bbcode
from forums.errors import N_, LoginFailed, NotFound
from forums.local import tables as t
from forums.local.tables import Clock, make_engine, utc_now
from forums.records import EditInfo, Post, PrivateMessage, User

UserRef = User | str
"""A user as a `User` record or by name (any case)."""


@dataclass(frozen=True)
class Revision:
    """A post's text before one edit, and who replaced it when."""

    bbcode: str
    replaced_at: datetime
    replaced_by: str


_NO = {
    "post": N_("no post {post!r}"),
    "thread": N_("no thread {thread!r}"),
}
"""What a post or thread id that is no number says."""


def _key(value: str, what: str = "post") -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise NotFound(_NO[what].format(**{what: value})) from None


class LocalForum:
    """Synchronous access to the local board, as its administrator and its players."""

    def __init__(
        self,
        engine_or_url: Engine | str,
        *,
        clock: Clock | None = None,
        edits_without_notice: bool = False,
    ) -> None:
        self._owns_engine = isinstance(engine_or_url, str)
        self.edits_without_notice = edits_without_notice
        """Whether a post may change with no edit notice, as phpBB lets the topic's last post
        before anyone replies (`edit_post(notice=False)`); off, every edit shows, as
        `forumgm board local edit` makes them, and the deadline's reading need not doubt a
        post it first reads after the deadline."""
        self.db = make_engine(engine_or_url) if isinstance(engine_or_url, str) else engine_or_url
        self.clock: Clock = clock or utc_now
        self._users: dict[str, User] = {}
        """Name key → account, as found (read once per process)."""

    def create_schema(self) -> None:
        t.metadata.create_all(self.db)

    def drop_schema(self) -> None:
        t.metadata.drop_all(self.db)

    def has_schema(self) -> bool:
        """Whether the board's tables are in the database (`create_schema` made them)."""
        return inspect(self.db).has_table(t.users.name)

    def dispose(self) -> None:
        if self._owns_engine:
            self.db.dispose()

    def _at(self, at: datetime | None) -> datetime:
        when = at if at is not None else self.clock()
        if when.tzinfo is None:
            raise ValueError("local board times must be timezone-aware")
        return when.astimezone(UTC)

    # Users

    def add_user(self, name: str, password: str | None) -> User:
        """A board account; `password` None makes one that cannot log in (a simulated player
        acting through `post_as`/`pm_as`, which needs no costly password hash)."""
        name = name.strip()
        if not name:
            raise ValueError("a user needs a name")
        row = {
            "name": name,
            "name_key": t.name_key(name),
            "password_hash": t.hash_password(password) if password is not None else t.NO_LOGIN,
        }
        try:
            with self.db.begin() as conn:
                key = conn.execute(insert(t.users).values(**row)).inserted_primary_key
        except IntegrityError:
            raise ValueError(f"user name {name!r} is taken") from None
        assert key is not None
        return User(str(key[0]), name)

    def user(self, name: str) -> User | None:
        key = t.name_key(name)
        known = self._users.get(key)
        if known is not None:
            return known  # accounts are never renamed or removed
        with self.db.connect() as conn:
            row = conn.execute(
                select(t.users.c.id, t.users.c.name).where(t.users.c.name_key == key)
            ).first()
        if row is None:
            return None
        found = self._users[key] = User(str(row.id), row.name)
        return found

    def authenticate(self, name: str, password: str) -> User:
        with self.db.connect() as conn:
            row = conn.execute(
                select(t.users).where(t.users.c.name_key == t.name_key(name))
            ).first()
        if row is None or not t.check_password(password, row.password_hash):
            raise LoginFailed(N_("wrong user name or password for {name!r}").format(name=name))
        return User(str(row.id), row.name)

    def _resolve(self, user: UserRef) -> User:
        name = user if isinstance(user, str) else user.name
        found = self.user(name)
        if found is None:
            raise NotFound(N_("no user {name!r}").format(name=name))
        return found

    # Threads and posts

    def create_thread(
        self,
        title: str,
        author: UserRef,
        *,
        first_post: str | None = None,
        at: datetime | None = None,
    ) -> str:
        """A new thread; with `first_post`, its opening post by `author` is post 1."""
        who = self._resolve(author)
        with self.db.begin() as conn:
            key = conn.execute(
                insert(t.threads).values(title=title, created=self._at(at))
            ).inserted_primary_key
        assert key is not None
        thread = str(key[0])
        if first_post is not None:
            self.post_as(who, thread, first_post, at=at)
        return thread

    def has_thread(self, thread: str) -> bool:
        try:
            self._thread_key(thread)
        except NotFound:
            return False
        return True

    def _thread_key(self, thread: str) -> int:
        key = _key(thread, "thread")
        with self.db.connect() as conn:
            if conn.execute(select(t.threads.c.id).where(t.threads.c.id == key)).first() is None:
                raise NotFound(N_("no thread {thread!r}").format(thread=thread))
        return key

    def post_as(self, user: UserRef, thread: str, bbcode: str, at: datetime | None = None) -> str:
        """Post to the thread as `user`; returns the new post's id."""
        who, key, when = self._resolve(user), self._thread_key(thread), self._at(at)
        for _attempt in range(5):
            try:
                with self.db.begin() as conn:
                    last = conn.execute(
                        select(func.max(t.posts.c.number)).where(t.posts.c.thread_id == key)
                    ).scalar()
                    new = conn.execute(
                        insert(t.posts).values(
                            thread_id=key,
                            number=(last or 0) + 1,
                            author_id=int(who.id),
                            created_at=when,
                            bbcode=bbcode,
                            deleted=False,
                            edit_count=0,
                        )
                    ).inserted_primary_key
                assert new is not None
                return str(new[0])
            except IntegrityError:
                continue  # another writer took this number at the same moment: count again
        raise RuntimeError(f"could not number a new post in thread {thread}")

    def edit_post(
        self,
        post_id: str,
        bbcode: str,
        by: UserRef,
        at: datetime | None = None,
        *,
        notice: bool = True,
    ) -> None:
        """Replace a post's text, keeping the old text as a revision (the board's edit log).

        `notice=False` edits as phpBB does the topic's last post before anyone replies:
        the text changes and no edit notice shows."""
        if not notice and not self.edits_without_notice:
            raise ValueError("an edit without a notice: make the board with edits_without_notice")
        editor, key, when = self._resolve(by), _key(post_id), self._at(at)
        with self.db.begin() as conn:
            old = conn.execute(select(t.posts.c.bbcode).where(t.posts.c.id == key)).first()
            if old is None:
                raise NotFound(N_("no post {post!r}").format(post=post_id))
            conn.execute(
                insert(t.post_revisions).values(
                    post_id=key, bbcode=old.bbcode, replaced_at=when, replaced_by=int(editor.id)
                )
            )
            if not notice:
                conn.execute(update(t.posts).where(t.posts.c.id == key).values(bbcode=bbcode))
                return
            conn.execute(
                update(t.posts)
                .where(t.posts.c.id == key)
                .values(
                    bbcode=bbcode,
                    edit_count=t.posts.c.edit_count + 1,
                    edited_at=when,
                    edited_by=int(editor.id),
                )
            )

    def delete_post(self, post_id: str) -> None:
        """Soft-delete, as moderators do: the GM still sees the post, flagged deleted."""
        with self.db.begin() as conn:
            done = conn.execute(
                update(t.posts).where(t.posts.c.id == _key(post_id)).values(deleted=True)
            )
        if done.rowcount == 0:
            raise NotFound(N_("no post {post!r}").format(post=post_id))

    def purge_post(self, post_id: str) -> None:
        """Hard-delete, as an administrator can: the post is gone for everyone."""
        key = _key(post_id)
        with self.db.begin() as conn:
            conn.execute(delete(t.post_revisions).where(t.post_revisions.c.post_id == key))
            done = conn.execute(delete(t.posts).where(t.posts.c.id == key))
        if done.rowcount == 0:
            raise NotFound(N_("no post {post!r}").format(post=post_id))

    def change_poster(self, post_id: str, user: UserRef) -> None:
        """Give a post another author, as phpBB's moderators can ("change poster")."""
        who = self._resolve(user)
        with self.db.begin() as conn:
            done = conn.execute(
                update(t.posts).where(t.posts.c.id == _key(post_id)).values(author_id=int(who.id))
            )
        if done.rowcount == 0:
            raise NotFound(N_("no post {post!r}").format(post=post_id))

    def post_author(self, post_id: str) -> str:
        """The name of the post's author; `NotFound` for a post the board does not have."""
        query = (
            select(t.users.c.name)
            .join(t.posts, t.posts.c.author_id == t.users.c.id)
            .where(t.posts.c.id == _key(post_id))
        )
        with self.db.connect() as conn:
            name = conn.execute(query).scalar()
        if name is None:
            raise NotFound(N_("no post {post!r}").format(post=post_id))
        return str(name)

    def revisions(self, post_id: str) -> list[Revision]:
        """The post's earlier texts, oldest first."""
        query = (
            select(t.post_revisions, t.users.c.name)
            .join(t.users, t.users.c.id == t.post_revisions.c.replaced_by)
            .where(t.post_revisions.c.post_id == _key(post_id))
            .order_by(t.post_revisions.c.id)
        )
        with self.db.connect() as conn:
            return [Revision(r.bbcode, r.replaced_at, r.name) for r in conn.execute(query)]

    def posts_after(self, thread: str, number: int) -> list[Post]:
        key = self._thread_key(thread)
        author, editor = t.users.alias("author"), t.users.alias("editor")
        query = (
            select(t.posts, author.c.name.label("author"), editor.c.name.label("editor"))
            .join(author, author.c.id == t.posts.c.author_id)
            .outerjoin(editor, editor.c.id == t.posts.c.edited_by)
            .where(t.posts.c.thread_id == key, t.posts.c.number > number)
            .order_by(t.posts.c.number)
        )
        with self.db.connect() as conn:
            return [self._post(row) for row in conn.execute(query)]

    @staticmethod
    def _post(row: Row[Any]) -> Post:
        edit = EditInfo(row.editor, row.edited_at, row.edit_count) if row.edit_count else None
        return Post(
            id=str(row.id),
            thread_id=str(row.thread_id),
            number=row.number,
            author=row.author,
            author_id=str(row.author_id),
            posted_at=row.created_at,
            body=parse_bbcode(row.bbcode),
            url=f"local://thread/{row.thread_id}#p{row.id}",
            edit=edit,
            deleted=bool(row.deleted),
            raw=row.bbcode,
        )

    # Private messages

    def pm_as(
        self,
        user: UserRef,
        recipients: Sequence[UserRef],
        subject: str,
        bbcode: str,
        at: datetime | None = None,
    ) -> str:
        """Send a PM as `user`; an unknown recipient raises `NotFound` and nothing is sent."""
        sender, when = self._resolve(user), self._at(at)
        if not recipients:
            raise ValueError("a PM needs at least one recipient")
        to = list({u.id: u for u in map(self._resolve, recipients)}.values())
        with self.db.begin() as conn:
            key = conn.execute(
                insert(t.pms).values(
                    sender_id=int(sender.id), subject=subject, bbcode=bbcode, sent_at=when
                )
            ).inserted_primary_key
            assert key is not None
            conn.execute(
                insert(t.pm_recipients),
                [{"pm_id": key[0], "user_id": int(u.id), "position": i} for i, u in enumerate(to)],
            )
        return str(key[0])

    def pms_after(self, user: User, folder: str, after: int) -> list[PrivateMessage]:
        """PMs with id > `after` that `user` received (folder "inbox") or sent ("sent")."""
        mine = select(t.pm_recipients.c.pm_id).where(t.pm_recipients.c.user_id == int(user.id))
        where = t.pms.c.id.in_(mine) if folder == "inbox" else t.pms.c.sender_id == int(user.id)
        query = (
            select(t.pms, t.users.c.name.label("sender"))
            .join(t.users, t.users.c.id == t.pms.c.sender_id)
            .where(where, t.pms.c.id > after)
            .order_by(t.pms.c.id)
        )
        with self.db.connect() as conn:
            rows = conn.execute(query).all()
            names = conn.execute(
                select(t.pm_recipients.c.pm_id, t.users.c.name)
                .join(t.users, t.users.c.id == t.pm_recipients.c.user_id)
                .where(t.pm_recipients.c.pm_id.in_([r.id for r in rows]))
                .order_by(t.pm_recipients.c.pm_id, t.pm_recipients.c.position)
            ).all()
        to: dict[int, list[str]] = {}
        for pm_id, name in names:
            to.setdefault(pm_id, []).append(name)
        return [
            PrivateMessage(
                id=str(r.id),
                sender=r.sender,
                sender_id=str(r.sender_id),
                recipients=tuple(to.get(r.id, ())),
                sent_at=r.sent_at,
                subject=r.subject,
                body=parse_bbcode(r.bbcode),
                url=f"local://pm/{r.id}",
                raw=r.bbcode,
            )
            for r in rows
        ]
