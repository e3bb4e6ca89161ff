"""A phase's posts and PMs through its replay: whole from the store, or only what is new.

Resolution and every host-facing read replay the phase from the stored posts and PMs (as
they read at the given moment) and the host's decisions, exactly as before. Two things make
that cheap: parse results are kept per content of a post or PM (`engine.service.parsed`),
so only new or changed content is parsed; and a poll whose new items all come after what
the last replay took — same phase, same host decisions, same names, nothing taken since
changed — takes just those items into the last replay, which then reads exactly as a full
replay of all of them would. Whenever that cannot be shown, the phase is replayed in full.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.core import warnings as w
from engine.core.orders import Channel, Order
from engine.core.ruleset import Ruleset
from engine.core.slots import Handover, Slots
from engine.core.warnings import N_, ParseWarning
from engine.i18n import L_
from engine.service.inbox import UNCLEAR
from engine.service.parsed import context_key, item_key, result_from_json, result_to_json
from engine.service.replay import Incoming, Measure, Replay, board_order, start_replay
from engine.service.seats import Speaker, speakers
from engine.store import Store
from engine.store.models import PhaseRecord
from engine.store.repo.raw import Outsider, ReadRecorded, Recorded, StoredItem
from forums.records import PostBody
from scraper.matcher import ParseResult

log = logging.getLogger("forumgm.reader")
_EMPTY = PostBody()
Fixes = Mapping[tuple[str, int | None], tuple[ParseWarning, object]]


@dataclass(frozen=True)
class HostInputs:
    """What a replay takes besides the posts: names, substitutes and the host's decisions."""

    aliases: Mapping[str, Sequence[str]]
    slots: Slots
    """Who holds each seat over time (untimed handovers not yet settled)."""
    fixes: Fixes
    overrides: Mapping[str, Order | None]
    announced: datetime | None = None
    """The first phase: when the game's start went out to the players (None: not yet)."""
    measures: Sequence[Measure] = ()
    """The host's removals and grants for the phase."""


@dataclass
class _Live:
    """The last replay of an open phase, and what it stands on."""

    phase: str
    key: tuple[Any, ...]
    replay: Replay
    context: str
    """The parse context's key (`engine.service.parsed.context_key`)."""
    since: datetime
    until: datetime
    slots: Slots
    settled: tuple[Handover, ...]
    """The handovers as the messages so far settled them."""
    first: dict[str, datetime]
    """Each author's first message in the game so far (where a handover is untimed)."""
    posts: set[str]
    pms: set[str]
    """Every post and PM of the window the replay considered (taken or not)."""
    saved: tuple[list[Order], list[ParseWarning]]
    """The orders and warnings stored for the phase (what a poll appends after)."""


@dataclass
class ReadStats:
    """Counters a test or benchmark can read."""

    parsed: int = 0
    full: int = 0
    incremental: int = 0


@dataclass
class PhaseReader:
    """Replays one game's phases for its driver, parsing only what is new."""

    store: Store
    game_id: int
    thread: str
    gm_user: str
    ruleset: Ruleset
    max_post_chars: int | None = None
    silent_edits: bool = True
    """Whether the board can change a post with no edit notice (`forums.board.edits_without_notice`)."""
    exact_times: bool = False
    """The board dates items to the second or finer (Discourse: the millisecond), so a time
    on a whole minute is no board printing minutes only: nothing is held for the minute of
    the deadline or of the opening (`forums.board.exact_times`)."""
    stats: ReadStats = field(default_factory=ReadStats)
    _parsed: dict[str, ParseResult] = field(default_factory=dict)
    _live: _Live | None = None
    _fresh: tuple[set[str], set[str]] = field(default_factory=lambda: (set(), set()))
    _noted: set[tuple[str, str]] = field(default_factory=set)
    """(channel, id) of the outsiders' messages already recorded by this process."""

    def noted(self, recorded: ReadRecorded) -> None:
        """A read recorded these posts and PMs: the new and changed ones are fresh."""
        self._fresh[0].update(i for i, r in recorded.posts.items() if r is not Recorded.UNCHANGED)
        self._fresh[1].update(i for i, r in recorded.pms.items() if r is not Recorded.UNCHANGED)

    def forget(self) -> None:
        """Drop the last replay (the phase moved on, or its inputs changed under it)."""
        self._live = None

    def replay(
        self,
        ph: PhaseRecord,
        until: datetime,
        *,
        version: tuple[Any, ...],
        host: Callable[[], HostInputs],
    ) -> Replay:
        """The phase as of `until`. `version` changes whenever `host()` would give other
        inputs (the host's decisions, substitutes); `host` is called only when needed."""
        key = (ph.phase, ph.opened_at, ph.deadline, version)
        live = self._live
        if live is not None and until < ph.deadline and live.key == key and until >= live.until:
            replay = self._poll(live, ph, until)
            if replay is not None:
                return replay
        return self._full(ph, until, key, host())

    # -- a whole phase -----------------------------------------------------------------

    def _full(
        self, ph: PhaseRecord, until: datetime, key: tuple[Any, ...], host: HostInputs
    ) -> Replay:
        self.stats.full += 1
        since = self.store.previous_deadline(self.game_id, ph.deadline)
        first_phase = since is None
        if since is None:
            # The first phase reads from when the game was started: what players sent
            # before it opened is `early` (counted once the start went out to them).
            started = started_at(ph)
            since = min(started or ph.opened_at, ph.opened_at) - timedelta(seconds=1)
        self._fresh[0].clear()
        self._fresh[1].clear()
        posts = self.store.posts_in(self.game_id, self.thread, until, after=since)
        pms = self.store.pms_in(self.game_id, until, after=since)
        replay = start_replay(
            self.ruleset,
            ph.state_before,
            ph.phase,
            ph.opened_at,
            ph.deadline,
            since=since,
            aliases=host.aliases,
            fixes=host.fixes,
            overrides=host.overrides,
            max_post_chars=self.max_post_chars,
            first_phase=first_phase,
            announced=host.announced,
            measures=host.measures,
        )
        context = context_key(replay.session.parse_context())
        first = self._first(host.slots, until)
        settled, speaker = self._speakers(host.slots, posts, pms, first)
        items = self._incoming(
            context,
            posts,
            pms,
            speaker,
            until,
            ph.deadline,
            ph.opened_at,
            bodies=replay.session.reads_posts,
        )
        for item in sorted(items, key=lambda i: i.order):
            replay.take(item)
        replay.catch_up(until)
        self._note_outsiders(ph, posts, pms, speaker, until)
        self._keep(replay)
        session = replay.session
        assert session.inputs is not None and session.log is not None
        orders, warnings = list(session.inputs.log), list(session.log.warnings)
        self.store.save_parse(self.game_id, ph.phase, orders, warnings)
        self._live = None
        if until < ph.deadline:
            self._live = _Live(
                ph.phase,
                key,
                replay,
                context,
                since,
                until,
                host.slots,
                settled,
                first,
                {p.id for p in posts},
                {m.id for m in pms},
                (orders, warnings),
            )
        return replay

    # -- a poll on top of the last replay ----------------------------------------------

    def _poll(self, live: _Live, ph: PhaseRecord, until: datetime) -> Replay | None:
        fresh_posts, fresh_pms = self._fresh
        if fresh_posts & live.posts or fresh_pms & live.pms:
            return None  # something already taken changed (an edit, a deletion)
        posts = (
            self.store.posts_in(
                self.game_id, self.thread, until, after=live.since, ids=sorted(fresh_posts)
            )
            if fresh_posts
            else []
        )
        pms = (
            self.store.pms_in(self.game_id, until, after=live.since, ids=sorted(fresh_pms))
            if fresh_pms
            else []
        )
        counts = self.store.window_counts(self.game_id, self.thread, live.since, until)
        if counts != (len(live.posts) + len(posts), len(live.pms) + len(pms)):
            return None  # the store has items this process did not read (another process)
        first = dict(live.first)
        if first or any(not h.timed for h in live.slots.handovers):
            for message in [*(p for p in posts if not p.deleted), *pms]:
                if message.author not in first or message.at < first[message.author]:
                    first[message.author] = message.at
        settled, speaker = self._speakers(live.slots, posts, pms, first)
        if settled != live.settled:
            return None  # a substitute's first message placed a handover: read it all again
        replay = live.replay
        items = self._incoming(
            live.context,
            posts,
            pms,
            speaker,
            until,
            ph.deadline,
            ph.opened_at,
            bodies=replay.session.reads_posts,
            new_items=True,
        )
        if replay.last is not None and any(i.order <= replay.last for i in items):
            return None  # something new falls before what was taken: read it in its place
        applied = replay.measures[: replay.applied_measures]
        if items and applied and max(m.at for m in applied) > min(i.at for i in items):
            return None  # something new falls before a host's measure already applied
        self.stats.incremental += 1
        for item in sorted(items, key=lambda i: i.order):
            replay.take(item)
        replay.catch_up(until)
        self._note_outsiders(ph, posts, pms, speaker, until)
        self._keep(replay)
        self._append_parse(live, ph)
        live.until, live.first = until, first
        live.posts.update(p.id for p in posts)
        live.pms.update(m.id for m in pms)
        fresh_posts.clear()
        fresh_pms.clear()
        return replay

    def _append_parse(self, live: _Live, ph: PhaseRecord) -> None:
        session = live.replay.session
        assert session.inputs is not None and session.log is not None
        orders, warnings = session.inputs.log, session.log.warnings
        saved_orders, saved_warnings = live.saved
        kept = len(saved_orders) <= len(orders) and len(saved_warnings) <= len(warnings)
        kept = kept and all(a is b for a, b in zip(saved_orders, orders, strict=False))
        kept = kept and all(a is b for a, b in zip(saved_warnings, warnings, strict=False))
        if kept:
            self.store.append_parse(
                self.game_id,
                ph.phase,
                orders[len(saved_orders) :],
                warnings[len(saved_warnings) :],
                after=(len(saved_orders), len(saved_warnings)),
            )
        else:  # a ruleset rewrote what it had taken: store the whole list again
            self.store.save_parse(self.game_id, ph.phase, orders, warnings)
        live.saved = (list(orders), list(warnings))

    # -- items and the parse cache -----------------------------------------------------

    def _incoming(
        self,
        context: str,
        posts: Sequence[StoredItem],
        pms: Sequence[StoredItem],
        speaker: Mapping[tuple[str, datetime], Speaker],
        until: datetime,
        deadline: datetime,
        opened_at: datetime,
        *,
        bodies: bool = False,
        new_items: bool = False,
    ) -> list[Incoming]:
        """The items the phase takes, each with its cached parse or, failing that, its body
        (with both when `bodies`: the ruleset reads whole posts too)."""
        gm = self.gm_user.casefold()
        check_edits = until >= deadline
        posts = [p for p in posts if p.missing_since is None or p.missing_since > until]
        last_post = max((p for p in posts if p.at <= until), key=_order, default=None)
        chosen: list[tuple[Channel, StoredItem, Speaker, str | None]] = []
        unclear: list[StoredItem] = []
        doubts: dict[tuple[Channel, str], tuple[tuple[str, str], ...]] = {}
        for p in posts:
            if p.author.casefold() != gm and not p.deleted:
                if speaker[p.author, p.at].outsider:
                    continue
                edited = _edited_after(p, until) if check_edits else None
                chosen.append((Channel.THREAD, p, speaker[p.author, p.at], edited))
                if check_edits:
                    doubts[Channel.THREAD, p.id] = _post_doubts(
                        p, until, p is last_post and self.silent_edits, exact=self.exact_times
                    )
        for m in pms:
            if m.author.casefold() != gm and m.routing == UNCLEAR:
                unclear.append(m)
            elif m.author.casefold() != gm and not speaker[m.author, m.at].outsider:
                chosen.append((Channel.PM, m, speaker[m.author, m.at], None))
                if check_edits and not self.exact_times and _in_deadline_minute(m.at, deadline):
                    doubts[Channel.PM, m.id] = (_DEADLINE_MINUTE,)
        after_opening = self._after_opening(chosen, opened_at, until, doubts)
        keys = [
            item_key(context, ch.value, s.id, who.name, s.at, s.url, s.digest)
            for ch, s, who, _ in chosen
        ]
        missing = [k for k in keys if k not in self._parsed]
        if missing and not new_items:  # what a poll brings was never parsed: no lookup
            for k, data in self.store.parse_cache(self.game_id, missing).items():
                self._parsed[k] = result_from_json(data)
        need: dict[Channel, list[int]] = {Channel.THREAD: [], Channel.PM: []}
        for (ch, s, _, _), k in zip(chosen, keys, strict=True):
            if bodies or k not in self._parsed:
                need[ch].append(s.revision)
        loaded: dict[Channel, dict[int, PostBody]] = {Channel.THREAD: {}, Channel.PM: {}}
        if need[Channel.THREAD]:
            loaded[Channel.THREAD] = self.store.post_bodies(need[Channel.THREAD])
        need[Channel.PM] += [m.revision for m in unclear]
        if need[Channel.PM]:
            loaded[Channel.PM] = self.store.pm_bodies(need[Channel.PM])
        held = [
            Incoming(
                m.id,
                Channel.PM,
                m.author,
                m.at,
                loaded[Channel.PM].get(m.revision, _EMPTY),
                m.url,
                unclear=True,
            )
            for m in unclear
        ]
        return held + [
            Incoming(
                s.id,
                ch,
                who.name,
                s.at,
                loaded[ch].get(s.revision, _EMPTY),
                s.url,
                edited,
                refused=who.refused,
                key=k,
                parsed=self._parsed.get(k),
                digest=s.digest,
                doubts=doubts.get((ch, s.id), ()),
                after_opening=(ch, s.id) in after_opening,
            )
            for (ch, s, who, edited), k in zip(chosen, keys, strict=True)
        ]

    def _after_opening(
        self,
        chosen: Sequence[tuple[Channel, StoredItem, Speaker, str | None]],
        opened_at: datetime,
        until: datetime,
        doubts: dict[tuple[Channel, str], tuple[tuple[str, str], ...]],
    ) -> set[tuple[Channel, str]]:
        """The items dated to the minute the phase opened in but before the opening itself
        (the board prints minutes only: «05:37» for a post at 05:37:40 when the phase opened
        at 05:37:21) that belong to the phase all the same.

        A thread post placed after the GM's first post of the phase (the results and opening
        post, published once the phase had opened) came after the opening: the board's order
        says so, and it counts. One placed before that post may have come before the opening:
        it is left to the usual `late`/`early` warning. A PM, or a post when the GM's opening
        post is not read yet, cannot be placed: it is read for the phase and held for the
        host (`opening_minute`: approve to count it, `--ignore` to drop it)."""
        if self.exact_times:
            return set()  # a time before the opening is before it
        start = _minute_of(opened_at)
        unsure = [
            (ch, s)
            for ch, s, _, _ in chosen
            if s.at < opened_at and s.at == start and _whole_minute(s.at)
        ]
        if not unsure:
            return set()
        opening = None
        if any(ch is Channel.THREAD for ch, _ in unsure):
            gm = self.gm_user.casefold()
            own = [
                p
                for p in self.store.posts_in(
                    self.game_id, self.thread, until, after=start - timedelta(microseconds=1)
                )
                if p.author.casefold() == gm and not p.deleted
            ]
            opening = min(own, key=lambda p: board_order(p.id), default=None)
        out: set[tuple[Channel, str]] = set()
        for ch, s in unsure:
            if ch is Channel.THREAD and opening is not None:
                if board_order(s.id) > board_order(opening.id):
                    out.add((ch, s.id))
                continue
            out.add((ch, s.id))
            doubts[ch, s.id] = (_OPENING_MINUTE, *doubts.get((ch, s.id), ()))
        return out

    def _note_outsiders(
        self,
        ph: PhaseRecord,
        posts: Sequence[StoredItem],
        pms: Sequence[StoredItem],
        speaker: Mapping[tuple[str, datetime], Speaker],
        until: datetime,
    ) -> None:
        """The posts and PMs by board members who hold no seat, recorded for the host (and
        logged) the first time this process meets them. They are never read for commands:
        a vote or a «привет» from outside the game holds no phase."""
        gm = self.gm_user.casefold()
        found = [
            (channel, item)
            for channel, items in ((Channel.THREAD, posts), (Channel.PM, pms))
            for item in items
            if item.author.casefold() != gm
            and not item.deleted
            and speaker[item.author, item.at].outsider
        ]
        unseen = [(ch, item) for ch, item in found if (ch.value, item.id) not in self._noted]
        if not unseen:
            return
        bodies: dict[Channel, dict[int, PostBody]] = {Channel.THREAD: {}, Channel.PM: {}}
        for channel, load in (
            (Channel.THREAD, self.store.post_bodies),
            (Channel.PM, self.store.pm_bodies),
        ):
            wanted = [item.revision for ch, item in unseen if ch is channel]
            if wanted:
                bodies[channel] = load(wanted)
        new = self.store.note_outsiders(
            self.game_id,
            ph.phase,
            [
                Outsider(
                    channel.value,
                    item.id,
                    item.author,
                    item.at,
                    item.url,
                    _excerpt(bodies[channel].get(item.revision, _EMPTY)),
                )
                for channel, item in unseen
            ],
            seen_at=until,
        )
        self._noted.update((ch.value, item.id) for ch, item in unseen)
        for message in new:
            fields = {"game": self.game_id, "item": message.item_id, "author": message.author}
            log.warning(
                L_(
                    "game {game}: post {item} by {author}, who does not play in this game: not "
                    "read (forumgm status)",
                    **fields,
                )
                if message.channel == Channel.THREAD.value
                else L_(
                    "game {game}: PM {item} by {author}, who does not play in this game: not read "
                    "(forumgm status)",
                    **fields,
                )
            )

    def _first(self, slots: Slots, until: datetime) -> dict[str, datetime]:
        """Each author's first message by `until`, where a handover waits to be placed there."""
        if not any(not h.timed for h in slots.handovers):
            return {}
        return self.store.first_messages(self.game_id, self.thread, until)

    def _speakers(
        self,
        slots: Slots,
        posts: Sequence[StoredItem],
        pms: Sequence[StoredItem],
        first: dict[str, datetime],
    ) -> tuple[tuple[Handover, ...], dict[tuple[str, datetime], Speaker]]:
        """The seat each message speaks for. A handover without a time is placed at the
        substitute's first message in the whole game (`first`, from `_first`)."""
        gm = self.gm_user.casefold()
        said = [(p.author, p.at) for p in posts if not p.deleted] + [(m.author, m.at) for m in pms]
        said += list(first.items())
        said = [(author, at) for author, at in said if author.casefold() != gm]
        settled, speaker = speakers(slots, said)
        for p in posts:  # deleted posts are not read, but have a name all the same
            speaker.setdefault((p.author, p.at), Speaker(p.author))
        return settled.handovers, speaker

    def _keep(self, replay: Replay) -> None:
        """Keep what this replay parsed: in memory, and in the store for other processes."""
        if not replay.parsed_now:
            return
        self.stats.parsed += len(replay.parsed_now)
        entries = []
        for k, (at, result) in replay.parsed_now.items():
            self._parsed[k] = result
            data = result_to_json(result)
            if data is not None:
                entries.append((k, at, data))
        replay.parsed_now.clear()
        self.store.save_parse_cache(self.game_id, entries)


def _excerpt(body: PostBody, limit: int = 80) -> str:
    """The start of a message's own text on one line, for the host's list."""
    words = " ".join(body.text().split())
    return words if len(words) <= limit else words[: limit - 1] + "…"


def started_at(ph: PhaseRecord) -> datetime | None:
    """When `forumgm game start` started the game, if `ph` is the phase it opened (the
    moment is kept with it); None for every later phase."""
    text = ph.read_from.get("started") if isinstance(ph.read_from, dict) else None
    return datetime.fromisoformat(text) if isinstance(text, str) else None


def _edited_after(item: StoredItem, until: datetime) -> str | None:
    """Whether a post changed after `until`, and whether its version of then is known."""
    if item.edit is not None and item.edit.at is not None and item.edit.at > until:
        return "unseen"  # the earliest content forumgm has appeared after the deadline
    return "kept" if item.changed_after else None


_DEADLINE_MINUTE = (
    w.DEADLINE_MINUTE,
    N_("the board dates this PM to the minute of the deadline only: it may have come just after"),
)


def _order(item: StoredItem) -> tuple[datetime, tuple[int, int | str]]:
    return (item.at, board_order(item.id))


_OPENING_MINUTE = (
    w.OPENING_MINUTE,
    N_(
        "the board dates it to the minute the phase opened in, and nothing places it after the "
        "opening: read for this phase (approve to count it, --ignore to drop it)"
    ),
)


def _whole_minute(at: datetime) -> bool:
    """A time as a board that prints minutes only gives it (no seconds)."""
    return at.second == 0 and at.microsecond == 0


def _minute_of(at: datetime) -> datetime:
    return at.replace(second=0, microsecond=0)


def _in_deadline_minute(at: datetime, deadline: datetime) -> bool:
    """A time with no seconds (phpBB's PM and edit times) whose minute holds the deadline."""
    return _whole_minute(at) and at <= deadline < at + timedelta(minutes=1)


def _post_doubts(
    post: StoredItem, until: datetime, last: bool, *, exact: bool = False
) -> tuple[tuple[str, str], ...]:
    """What the reading at the deadline (`until`) cannot tell about a post it takes. `last`:
    it was the thread's last post then, on a board that lets such a post change unnoticed;
    `exact`: the board's times are exact (no minute-only dates to doubt)."""
    out = []
    posted_in_minute = not exact and _in_deadline_minute(post.at, until)
    if posted_in_minute:
        # MyBB and phpBB print a post's time to the minute: «06:00» for a post at 06:00:16
        # with the deadline at 06:00:00.
        out.append(
            (
                w.DEADLINE_MINUTE,
                N_(
                    "posted at {at} UTC, the minute of the deadline (the board shows minutes "
                    "only): it may have come just after it"
                ).format(at=f"{post.at:%H:%M}"),
            )
        )
    if post.deleted_since is not None and post.deleted_since > until:
        out.append(
            (
                w.DELETED_AFTER_DEADLINE,
                N_(
                    "first seen deleted at {at} UTC, after the deadline: it may have been "
                    "deleted before; read as it was"
                ).format(at=f"{post.deleted_since:%Y-%m-%d %H:%M}"),
            )
        )
    if post.missing_since is not None and post.missing_since > until:
        out.append(
            (
                w.VANISHED,
                N_(
                    "gone from the board since {at} UTC, after the deadline: it may have gone "
                    "before; read as it was"
                ).format(at=f"{post.missing_since:%Y-%m-%d %H:%M}"),
            )
        )
    edit_at = post.edit.at if post.edit is not None else None
    if edit_at is not None and not exact and _in_deadline_minute(edit_at, until):
        # phpBB stamps an edit to the minute: one shown in the deadline's minute may have
        # come just after it, and the text read may not be what was there at the deadline.
        out.append(
            (
                w.DEADLINE_MINUTE,
                N_(
                    "edited at {at} UTC, the minute of the deadline (the board shows minutes "
                    "only): the edit may have come just after it"
                ).format(at=f"{edit_at:%H:%M}"),
            )
        )
    unseen = post.first_seen is not None and post.first_seen > until
    if unseen and post.edit is None and last and not post.changed_after and not posted_in_minute:
        # phpBB shows no edit notice when the topic's last post is edited before anyone
        # replies: a post first read after the deadline may say what it did not say then.
        out.append(
            (
                w.EDITED_AFTER_DEADLINE,
                N_(
                    "first read after the deadline, and it was the thread's last post: it may "
                    "have been edited after the deadline without an edit notice"
                ),
            )
        )
    return tuple(out)
