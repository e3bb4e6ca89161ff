"""Keeping a sign-up thread: read it through the board adapter, keep the list in the store,
answer joins and leaves in the thread, post the list, and close it.

Every step can be run again: the list and the answers it calls for are saved in one
transaction, and each GM post carries a marker that a later read finds on the board, so a
crash between "the board took it" and "the store knows it" posts nothing twice.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.config import SignupConfig
from engine.i18n import L_, Ln_
from engine.publish import Markers, marker_line, own_marker, strip_markers
from engine.signup import (
    FOR_HOST,
    Note,
    SignupList,
    ThreadPost,
    change_lines,
    compute_list,
    list_post,
    note_line,
)
from engine.store import Store
from engine.store.models import Signup
from engine.store.repo.signup import ReadPost
from forums.board import Board
from forums.records import Cursor

log = logging.getLogger("forumgm.signup")
Clock = Callable[[], datetime]
FULL_EVERY = timedelta(minutes=30)
"""A read from the cursor brings new posts only; the whole thread (a few pages) is read
again this often, at the close and when the host asks, so edits and deletions count."""


@dataclass(frozen=True)
class Membership:
    """A name of the list checked against the board's member list."""

    name: str
    account: str | None
    """The account as the board names it (None: no such member)."""


class SignupKeeper:
    """One sign-up thread of a game file, over the store and the board."""

    def __init__(self, store: Store, board: Board, config: SignupConfig, *, clock: Clock) -> None:
        self.store, self.board, self.config, self.clock = store, board, config, clock
        access = config.board
        found = store.find_board(access.url, access.gm_user)
        if found is None:
            found = store.create_board(
                access.engine,
                access.url,
                access.gm_user,
                credentials_ref=str(access.password or access.api_key),
            )
        self.signup_id = store.signup(found.id, config.settings.thread).id
        self.markers = Markers(self.row().marker_key, self.signup_id)

    def row(self) -> Signup:
        return self.store.get_signup(self.signup_id)

    def closes(self) -> datetime | None:
        """When the sign-ups close(d): the host's `signup close`, else the file's `closes`."""
        row = self.row()
        return row.closed_at or self.config.settings.closes

    def closed(self, now: datetime) -> bool:
        closes = self.closes()
        return closes is not None and now >= closes

    # -- reading -------------------------------------------------------------------------

    async def read(self, now: datetime, *, full: bool = False) -> int:
        """Read the thread into the store; how many posts are new or changed."""
        row = self.row()
        kept = row.cursor or {}
        full_at = kept.get("full_at")
        due = full_at is None or now - datetime.fromisoformat(full_at) >= FULL_EVERY
        full = full or due or not kept.get("board")
        since = None if full else Cursor(kept["board"])
        page = await self.board.thread_posts(self.config.settings.thread, since=since)
        gm = self.config.board.gm_user.casefold()
        posts = [
            ReadPost(
                post_id=p.id,
                number=p.number,
                author=p.author,
                posted_at=p.posted_at,
                text=p.body.text(),
                marker=own_marker(p.body) if p.author.casefold() == gm else None,
                deleted=p.deleted,
            )
            for p in page.items
        ]
        cursor = {"board": page.cursor.data, "full_at": now.isoformat() if full else full_at}
        return self.store.record_signup_read(self.signup_id, posts, cursor, now)

    # -- the list ------------------------------------------------------------------------

    def current(self) -> SignupList:
        posts = [
            ThreadPost(p.post_id, p.number, p.author, p.posted_at, p.text, p.deleted)
            for p in self.store.signup_posts(self.signup_id)
        ]
        return compute_list(
            posts,
            self.config.settings,
            gm_user=self.config.board.gm_user,
            closes=self.closes() if self.closed(self.clock()) else None,
            decisions=self.store.signup_decisions(self.signup_id),
        )

    def host_notes(self) -> list[Note]:
        """What the host should know: a player of the closed list who wants out, names that
        read alike."""
        return [n for n in self.current().notes if n.kind in (*FOR_HOST, "lookalike")]

    def answer(self, now: datetime) -> int:
        """Save the list as it stands and queue one post answering every change since the
        last save and every post not yet answered; how many lines it has."""
        language = self.config.language
        old = {
            e.name.casefold(): (e.status, e.place, e.name)
            for e in self.store.signup_entries(self.signup_id)
        }
        new = self.current()
        answered_before = {p.post_id: p.answered for p in self.store.signup_posts(self.signup_id)}
        fresh = [
            n
            for n in new.notes
            if n.kind not in FOR_HOST and answered_before.get(n.post_id) != n.kind
        ]
        alike = {n.name.casefold() for n in fresh if n.kind == "lookalike"}
        changes = [
            (name, line)
            for name, line in change_lines(old, new, language)
            if name.casefold() not in alike  # «reads like …: waits for the host» says it
        ]
        lines = [line for _, line in changes]
        changed = {name.casefold() for name, _ in changes}
        answered: dict[str, str] = {}
        for note in fresh:
            answered[note.post_id] = note.kind
            if note.kind == "not_listed" and note.name.casefold() in changed:
                continue  # his join post was edited into this leave: "left" says it all
            lines.append(note_line(note, language))
        messages = []
        if lines:
            body = "\n".join(lines)
            count = len(self.store.signup_messages(self.signup_id))
            digest = hashlib.sha256(body.encode()).hexdigest()[:16]
            messages.append((self.markers.make("answer", count, digest), body))
        entries = [(e.name, e.status, e.place, e.joined_at, e.post_id) for e in new.entries]
        self.store.save_signup_list(
            self.signup_id, entries, answered=answered, messages=messages, at=now
        )
        return len(lines)

    def list_text(self, now: datetime) -> str:
        return list_post(
            self.current(),
            self.config.settings,
            self.config.language,
            title=self.config.title,
            closes=self.closes(),
            closed=self.closed(now),
            tz=self.config.tz,
        )

    def queue_list(self, now: datetime, *, why: str) -> bool:
        """Queue the list post: `why` is what makes its marker ("closed", a schedule slot,
        or the host's request time); False if that one was queued already."""
        marker = self.markers.make("list", why)
        return self.store.queue_signup_message(self.signup_id, marker, self.list_text(now), now)

    def scheduled_slot(self, now: datetime) -> str | None:
        """The `[signup] post_list` slot due now (None: none is)."""
        every = self.config.settings.post_list
        if every is None:
            return None
        created = self.row().created_at
        return f"every-{int((now - created) / every)}"

    # -- sending -------------------------------------------------------------------------

    async def send(self, now: datetime) -> int:
        """Post what is queued, each once; how many went out."""
        on_board = {
            p.marker: p.post_id
            for p in self.store.signup_posts(self.signup_id)
            if p.marker is not None and not p.deleted
        }
        sent = 0
        for message in self.store.signup_messages(self.signup_id, unsent=True):
            if message.marker in on_board:  # a send before a crash went through
                self.store.signup_message_status(
                    message.id, "posted", now, on_board[message.marker]
                )
                continue
            self.store.signup_message_status(message.id, "sending", now)
            text = strip_markers(message.bbcode) + marker_line(message.marker)
            post_id = await self.board.reply(self.config.settings.thread, text)
            self.store.signup_message_status(message.id, "posted", now, post_id)
            sent += 1
        return sent

    # -- a step --------------------------------------------------------------------------

    async def step(self, now: datetime, *, full: bool = False) -> list[str]:
        """Everything due now: read, answer, post the list when due, close. What was done."""
        said: list[str] = []  # L_ lines: English here, shown in the host's language
        closing = self.closed(now) and self.row().closed_at is None
        changed = await self.read(now, full=full or closing)
        if changed:
            said.append(
                Ln_("read {n} new or changed post(s)", "read {n} new or changed post(s)", changed)
            )
        if closing:
            closes = self.closes()
            assert closes is not None
            self.store.set_signup_times(self.signup_id, closed_at=closes)
            said.append(L_("the sign-ups are closed"))
        # Messages a read finds on the board count before anything new is queued.
        lines = self.answer(now)
        if lines:
            said.append(
                Ln_("answered {n} join(s)/leave(s)", "answered {n} join(s)/leave(s)", lines)
            )
        if self.closed(now):
            if self.queue_list(now, why="closed"):
                said.append(L_("the final list is queued"))
        else:
            slot = self.scheduled_slot(now)
            if slot is not None and self.queue_list(now, why=slot):
                said.append(L_("the list is queued (post_list)"))
        sent = await self.send(now)
        if sent:
            said.append(
                Ln_(
                    "posted {n} message(s) in the sign-up thread",
                    "posted {n} message(s) in the sign-up thread",
                    sent,
                )
            )
        return said

    async def check_members(self, names: list[str]) -> list[Membership]:
        """Each name looked up on the board's member list."""
        found = []
        for name in names:
            user = await self.board.find_user(name)
            found.append(Membership(name, user.name if user is not None else None))
        return found
