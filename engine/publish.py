"""Publishing the outbox: each item carries a marker, and the board is checked for it first.

A crash between "the board accepted it" and "the store recorded it" therefore never leads
to a second post: the next run finds the marker on the board and records the item as posted.

Players must not be able to fake that: a marker found on the board suppresses a post, so
markers are an HMAC under a key only the store knows, and a marker counts only as the last
line of a post or PM the GM account wrote itself, outside quotes and signatures. Text the
GM relays for a player (an anonymous message, a quoted order) has every marker removed.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from engine.clock import local_time
from engine.i18n import L_, BoardText, Ln_, Said, error_line, joined
from engine.store import OutboxDraft, Store
from engine.store.models import OutboxItem, OutboxKind
from forums.board import Board
from forums.dialect import dialect_for
from forums.errors import (
    BoardUnavailable,
    CaptchaRequired,
    FloodControl,
    LoginFailed,
    SessionExpired,
)
from forums.records import Cursor, Post, PostBody, PrivateMessage

log = logging.getLogger("forumgm.publish")

MARKER_PREFIX = "fgm:"
MARKER_LENGTH = 24
"""Hex digits of a keyed marker (96 bits); games from before keyed markers used 16."""
_LEGACY_LENGTH = 16
_MARKER_LINE = re.compile(r"fgm:([0-9a-f]{24}|[0-9a-f]{16})(?![0-9a-f])")
_ANY_MARKER = re.compile(r"fgm\s*:\s*[0-9a-z]*", re.IGNORECASE)


class Markers:
    """The markers of one game: HMAC-SHA256 of the parts under the game's key.

    The same parts (game, phase, purpose, recipient…) always give the same marker, so a
    re-run drafts nothing twice; without the key nobody can compute one.
    """

    def __init__(self, key: str | None, game_id: int) -> None:
        self._key = key.encode() if key else None
        self.game_id = game_id

    def make(self, *parts: object) -> str:
        raw = "|".join(str(p) for p in (self.game_id, *parts)).encode()
        if self._key is None:  # a game created before keyed markers keeps its old ones
            return hashlib.sha256(raw).hexdigest()[:_LEGACY_LENGTH]
        return hmac.new(self._key, raw, hashlib.sha256).hexdigest()[:MARKER_LENGTH]


def marker_line(marker: str) -> str:
    """An unobtrusive last line that lets a restarted GM see the item already went out."""
    return f"\n[size=1][color=#999999]{MARKER_PREFIX}{marker}[/color][/size]"


def strip_markers(text: str) -> str:
    """`text` with anything that looks like a marker removed (relayed, quoted, crafted)."""
    return _ANY_MARKER.sub("", text)


def post_draft(body: str, marker: str) -> OutboxDraft:
    return OutboxDraft(OutboxKind.POST, strip_markers(body) + marker_line(marker), marker)


def pm_draft(player: str, subject: str, body: str, marker: str) -> OutboxDraft:
    text = strip_markers(body) + marker_line(marker)
    return OutboxDraft(OutboxKind.PM, text, marker, (player,), strip_markers(subject))


def find_markers(text: str) -> list[str]:
    """Every marker-like token in `text` (for tests and audits; not how the board is read)."""
    return [m.group(1) for m in _MARKER_LINE.finditer(text)]


def own_marker(body: PostBody) -> str | None:
    """The marker of the GM's marker line: the last line of the body's own text.

    Quoted text and signatures are not the GM's own words; anything else on that line, or a
    marker anywhere else, does not count.
    """
    text = "".join(r.text for r in body.runs if not r.quoted and not r.signature)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    found = _MARKER_LINE.fullmatch(lines[-1])
    return found.group(1) if found else None


BOARD_DOWN = (BoardUnavailable, LoginFailed, SessionExpired, CaptchaRequired)
"""Errors of the board as a whole, not of one post or PM: publishing stops at the first."""


def one_line(exc: BaseException) -> str:
    """An error as one line for the operator: its kind and its message (a board's in the
    host's language where it is shown, `engine.i18n.error_line`)."""
    return error_line(exc)


LIMIT_WAIT = timedelta(minutes=10)
"""A flood refusal asking for longer is a limit of the account (Discourse's personal
messages a day, a long PM flood on MyBB), not a pause between sends: it is kept in the store
(`Store.limit_sends`) and that kind of send waits for it (`Publisher.publish`)."""


@dataclass(frozen=True)
class Held:
    """Items of one kind that wait behind a limit of the board (`held_by_limits`)."""

    kind: OutboxKind
    count: int
    until: datetime
    why: str
    """The board's line when it set the limit."""

    def line(self, tz: tzinfo = UTC) -> Said:
        """What the host reads: how many wait, until about when, and the board's line (in
        the host's language where the board's templates have it)."""
        at = local_time(self.until, tz)
        why = BoardText(self.why)
        if self.kind is OutboxKind.POST:
            return Ln_(
                "{n} post waits behind the board's limit until about {at}, kept and sent "
                "then ({why})",
                "{n} posts wait behind the board's limit until about {at}, kept and sent "
                "then ({why})",
                self.count,
                at=at,
                why=why,
            )
        return Ln_(
            "{n} PM waits behind the board's limit until about {at}, kept and sent then ({why})",
            "{n} PMs wait behind the board's limit until about {at}, kept and sent then ({why})",
            self.count,
            at=at,
            why=why,
        )


Limits = dict[OutboxKind, tuple[datetime, str]]
"""The kinds of send the board refuses the account: when each limit lifts, the board's line."""


def limits_now(kept: dict[str, tuple[datetime, str]], now: datetime) -> Limits:
    """Of the limits the store kept (`Store.send_limits`), those that hold at `now`."""
    kinds = {k.value: k for k in OutboxKind}
    return {
        kinds[kind]: (until, why)
        for kind, (until, why) in kept.items()
        if kind in kinds and until > now
    }


def held_by_limits(
    store: Store,
    game_id: int,
    now: datetime,
    *,
    board_id: int | None = None,
    pending: Sequence[OutboxItem] | None = None,
    limits: Limits | None = None,
) -> list[Held]:
    """The game's items that wait behind a limit of the board now, by kind (`forumgm
    status`, the dashboard, a step's answer): nothing is lost, they go out when it lifts.
    `limits`: those holding now, when the caller knows them."""
    if limits is None:
        if board_id is None:
            board_id = store.get_game(game_id).board_id
        limits = limits_now(store.send_limits(board_id), now)
    if not limits:
        return []
    items = store.pending(game_id) if pending is None else pending
    held = []
    for kind, (until, why) in limits.items():
        count = sum(1 for i in items if i.kind is kind)
        if count:
            held.append(Held(kind, count, until, why))
    return held


def retry_delay(attempts: int) -> timedelta:
    """Backoff before sending a failed item again: at once, then 1, 2, 4… minutes (at most 30)."""
    if attempts <= 1:
        return timedelta(0)
    return timedelta(minutes=min(30, 2 ** (attempts - 2)))


class Publisher:
    """Sends a game's approved outbox items to its board, at most once each.

    Only an item whose send was started before (`sending_at`: a crash may have come after
    the board took it) is looked for on the board, and only after the point the store kept
    for it (`look_from`: where the thread, or the sent box, stood before its first send).
    An item kept from before that point is looked for after the last post or PM the
    publisher knows of (its own looks and the driver's reads, handed over with
    `saw_thread`). What a look finds is recorded as posted, and where a look at the sent box
    ended is kept in the store: a restarted process reads on from there.
    """

    def __init__(
        self,
        store: Store,
        board: Board,
        game_id: int,
        thread_id: str,
        gm_user: str,
        *,
        recipient: Callable[[str], str] | None = None,
        ready: Callable[[], bool] | None = None,
        tz: tzinfo = UTC,
    ) -> None:
        self.store = store
        self.ready = ready or (lambda: True)
        """False while the host has not approved the game's start: then nothing goes out."""
        self.recipient = recipient or (lambda name: name)
        """A PM's addressee (a seat) → the account it goes to when it is sent (its holder)."""
        self.board = board
        self.game_id = game_id
        self.thread_id = thread_id
        self.gm = gm_user.casefold()
        self._not_before: dict[str, datetime] = {}
        """Failed items wait before the next try (a restarted process tries at once)."""
        self._seen: dict[str, str] = {}
        """Marker → board id of the GM's own posts and PMs seen so far."""
        self._thread_cursor: Cursor | None = None
        self._sent_cursor: Cursor | None = None
        self._stored_sent: tuple[Cursor | None] | None = None
        """The sent box's cursor the store kept, once read."""
        self.tz = tz
        """The game's time zone: when a limit lifts is said in it."""
        self._account: int | None = None
        """The store's row of the board and GM account: a limit of the board is kept there."""
        self.held: list[Held] = []
        """What waits behind a limit of the board as of the last `publish`."""
        self._limits: Limits = {}
        """The board's limits that held in the last `publish` (or were met in it)."""
        self.limit_met: str | None = None
        """While the board refuses a kind of send for longer than a pause (Discourse's
        personal messages a day), what waits for it and until when (a `Said`; as of the last
        `publish`): the hosts are told of it once a phase (`engine.service.notify`). None
        once that kind goes out again."""
        self.failures: list[str] = []
        """Each send that failed in this process, in one line (`run --once` exits 1 on any)."""

    def saw_thread(self, posts: Iterable[Post], cursor: Cursor) -> None:
        """The driver read the thread up to `cursor`: take the GM's markers from it."""
        self._note_posts(posts)
        self._thread_cursor = cursor

    def _note_posts(self, posts: Iterable[Post]) -> None:
        for post in posts:
            if post.author.casefold() == self.gm and not post.deleted:
                marker = own_marker(post.body)
                if marker is not None:
                    self._seen.setdefault(marker, str(post.id))

    def _note_pms(self, pms: Iterable[PrivateMessage]) -> None:
        for pm in pms:
            if pm.sender.casefold() == self.gm:
                marker = own_marker(pm.body)
                if marker is not None:
                    self._seen.setdefault(marker, str(pm.id))

    def _start(self, kind: OutboxKind, items: Sequence[OutboxItem]) -> Cursor | None:
        """Where to look for these items of one kind: after the point kept for the first of
        them sent (each was sent after it), else after what this process knows of."""
        if items and all(i.look_from is not None for i in items):
            first = min(items, key=lambda i: i.sending_at or datetime.max.replace(tzinfo=UTC))
            return Cursor(dict(first.look_from or {}))
        if kind is OutboxKind.POST:
            return self._thread_cursor
        return self._sent_cursor

    async def look(self, items: Sequence[OutboxItem]) -> dict[str, str]:
        """Read the board where these items may be; marker → board id of all seen."""
        posts = [i for i in items if i.kind is OutboxKind.POST]
        pms = [i for i in items if i.kind is OutboxKind.PM]
        if posts:
            page = await self.board.thread_posts(
                self.thread_id, since=self._start(OutboxKind.POST, posts)
            )
            self._note_posts(page.items)
            self._thread_cursor = page.cursor
        if pms:
            sent = await self.board.sent(since=self._start(OutboxKind.PM, pms))
            self._note_pms(sent.items)
            self._sent_cursor = sent.cursor
        return dict(self._seen)

    def _position(self, kind: OutboxKind) -> Cursor | None:
        """Where the thread (a post) or the sent box (a PM) stands now, as far as this
        process and the store know: a send that starts now lands after it."""
        if kind is OutboxKind.POST:
            return self._thread_cursor or self.store.read_cursors(self.game_id)[0]
        if self._sent_cursor is not None:
            return self._sent_cursor
        if self._stored_sent is None:  # read once: only this process's looks move it on
            self._stored_sent = (self.store.sent_cursor(self.game_id),)
        return self._stored_sent[0]

    def _merged(self, marker: str, board_id: str) -> None:
        """Say so when the board put this post into one the GM made before (MyBB appends a
        user's new post to his previous one within «Post Merge Time», 60 minutes by
        default): the post is on the board, but players reading new posts may miss it."""
        earlier = self.store.markers_posted_as(self.game_id, OutboxKind.POST, board_id)
        if len(earlier) < 2:
            return
        log.warning(
            L_(
                "game {game}: the board merged this post into post {post}, the GM's earlier one: "
                "players may not see it as new. On MyBB exempt the GM's group from merging "
                "(Admin CP → Configuration → Posting → Merge User Groups to Ignore) or set Post "
                "Merge Time to 0",
                game=self.game_id,
                post=board_id,
            )
        )

    def account(self) -> int:
        """The store's row of the board and GM account (read once)."""
        if self._account is None:
            self._account = self.store.get_game(self.game_id).board_id
        return self._account

    async def publish(self, now: datetime | None = None) -> int:
        """Send every approved (or failed, to retry) item; returns how many went out.

        A kind of send the board refuses for hours (`LIMIT_WAIT`) waits in the store until
        the limit lifts: no request is spent on it meanwhile, in this process or the next
        (`run --once`), and the rest goes out — the thread's results are not held by the day's
        PMs spent. `held` and `limit_met` say what waits."""
        moment = now or datetime.now(UTC)
        kept = self.store.send_limits(self.account())
        self._limits = limits_now(kept, moment)
        try:
            return await self._publish(moment, kept, self._limits)
        finally:
            self.held = held_by_limits(self.store, self.game_id, moment, limits=self._limits)
            self.limit_met = joined([h.line(self.tz) for h in self.held]) if self.held else None

    async def _publish(
        self, moment: datetime, kept: dict[str, tuple[datetime, str]], limits: Limits
    ) -> int:
        """`publish` with the limits the store kept and those holding now (`limits` takes
        the ones met in this round)."""
        # The least tried first: a send that keeps failing (and ends the step, see
        # BOARD_DOWN) does not stand before the others for ever. Among equals, in the order
        # the game needs them: the start (role PMs, the opening) before what a phase drafted,
        # each as it was drafted. A board's flood refusal is no failed attempt (below), so a
        # flood-limited board takes them in that order (a flood-refused role PM went out after
        # every newer receipt when a refusal counted as an attempt).
        due = sorted(
            (
                i
                for i in self.store.pending(self.game_id)
                if i.kind not in limits and self._not_before.get(i.marker, moment) <= moment
            ),
            key=lambda i: (i.attempts, i.phase_id is not None, i.id),
        )
        if not due:
            return 0
        if not self.ready():
            log.info(
                L_(
                    "game {game}: the start is not approved yet; nothing is published",
                    game=self.game_id,
                )
            )
            return 0
        if await self.board.whoami() is None:
            # Log in before any item is marked as being sent: a login the board refuses
            # (or the service holds back) is the session's trouble, not the items'.
            await self.board.login()
        # Only a send that was started may have reached the board (then the process died,
        # or the board answered with an error after taking it): look for those alone.
        unsure = [i for i in due if i.sending_at is not None and i.marker not in self._seen]
        sent_box = self._sent_cursor
        already = await self.look(unsure) if unsure else dict(self._seen)
        sent = 0
        kinds = dict.fromkeys(OutboxKind, 0)
        for item in due:
            if item.kind in limits:
                continue  # its kind met a limit earlier in this round
            if item.marker in already:
                self.store.mark_posted(item.marker, already[item.marker])
                if item.kind == OutboxKind.POST:
                    self._merged(item.marker, already[item.marker])
                continue
            try:
                look_from = self._position(item.kind)
                self.store.mark_sending(item.marker, moment, look_from=look_from)
                # The store keeps the draft as rendered; the board gets it in its own BBCode.
                bbcode = dialect_for(self.board.engine).adapt(item.bbcode)
                if item.kind == OutboxKind.POST:
                    board_id = await self.board.reply(self.thread_id, bbcode)
                else:
                    subject = item.subject or ""
                    to = list(dict.fromkeys(self.recipient(r) for r in item.recipients))
                    board_id = await self.board.send_pm(to, subject, bbcode)
            except FloodControl as exc:
                if timedelta(seconds=exc.retry_after) > LIMIT_WAIT:
                    limits[item.kind] = self._limit(item, due, moment, exc)
                    continue
                # The board wants a pause (MyBB's 60 s between PMs): what is left waits for the
                # next round in the same order. The refused send is no failed attempt; it was
                # started, so the next round first looks for it on the board, as after a crash.
                for rest in due[due.index(item) :]:
                    self._not_before[rest.marker] = moment + timedelta(seconds=exc.retry_after)
                log.info(
                    L_(
                        "game {game}: the board asks to wait {seconds} s before the next send",
                        game=self.game_id,
                        seconds=f"{exc.retry_after:.0f}",
                    )
                )
                break
            except (LoginFailed, CaptchaRequired):
                # The session was lost and the login again refused (or held back): nothing
                # more goes out this round; `forumgm status` says what the host should do.
                self.store.mark_failed(item.marker, "the GM's login was refused")
                raise
            except Exception as exc:  # kept for a retry; the error shows in `forumgm status`
                failed = self.store.mark_failed(item.marker, f"{type(exc).__name__}: {exc}")
                self._not_before[item.marker] = moment + retry_delay(failed.attempts)
                self.failures.append(_send_failed(item.kind, one_line(exc)))
                if isinstance(exc, BOARD_DOWN):
                    raise  # the rest would fail the same way: the step fails, in one line
                log.warning(
                    L_(
                        "game {game}: {failed}; it is tried again later",
                        game=self.game_id,
                        failed=self.failures[-1],
                    )
                )
                continue
            self.store.mark_posted(item.marker, board_id)
            self._seen[item.marker] = board_id
            if item.kind == OutboxKind.POST:
                self._merged(item.marker, board_id)
            if item.kind.value in kept:  # the limit has lifted
                self.store.lift_send_limit(self.account(), item.kind.value)
                del kept[item.kind.value]
            sent += 1
            kinds[item.kind] += 1
        if sent:
            log.info(
                L_(
                    "game {game}: published {posts} and {pms}",
                    game=self.game_id,
                    posts=Ln_("{n} post(s)", "{n} post(s)", kinds[OutboxKind.POST]),
                    pms=Ln_("{n} PM(s)", "{n} PM(s)", kinds[OutboxKind.PM]),
                )
            )
        if self._sent_cursor is not None and self._sent_cursor != sent_box:
            # What this look found is recorded above: the next process reads on from here.
            self.store.save_sent_cursor(self.game_id, self._sent_cursor)
        return sent

    def _limit(
        self, item: OutboxItem, due: Sequence[OutboxItem], moment: datetime, exc: FloodControl
    ) -> tuple[datetime, str]:
        """The board refuses `item` for longer than a pause (`LIMIT_WAIT`): it and the rest
        of its kind wait until the limit lifts, in their order (like a flood refusal it is no
        failed attempt, which would send it after the newer ones); the other kind goes on (a
        day's PMs spent does not hold the thread's results). The limit is kept in the store,
        so no process tries that kind before it lifts; the host sees it in `run` (this
        round's failure), `status` and the dashboard, and the hosts are told ([game] hosts,
        [notify] smtp). When it lifts and the board's line."""
        until = moment + timedelta(seconds=exc.retry_after)
        why = " ".join(str(exc).split())
        self.store.limit_sends(self.account(), item.kind.value, until, why)
        waiting = [i for i in due[due.index(item) :] if i.kind is item.kind]
        self.failures.append(_send_failed(item.kind, one_line(exc)))
        fields = {
            "game": self.game_id,
            "seconds": f"{exc.retry_after:.0f}",
            "why": one_line(exc),
            "n": len(waiting),
        }
        log.warning(
            L_(
                "game {game}: the board refuses posts for {seconds} s ({why}); {n} wait for it",
                **fields,
            )
            if item.kind is OutboxKind.POST
            else L_(
                "game {game}: the board refuses pms for {seconds} s ({why}); {n} wait for it",
                **fields,
            )
        )
        return until, why


def _send_failed(kind: OutboxKind, why: str) -> Said:
    """What a send that failed says (`Publisher.failures`, `run --once`'s line)."""
    if kind is OutboxKind.POST:
        return L_("sending a post failed ({why})", why=why)
    return L_("sending a pm failed ({why})", why=why)
