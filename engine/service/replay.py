"""Reading a phase again from the store: its raw posts and PMs, as of a moment, with host fixes.

Resolution never depends on what a process happened to hold in memory: the phase's inputs
are always rebuilt from the stored posts and PMs (as they read at the deadline) and the
host's fixes, so a restarted process resolves exactly as the first one would have.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order, OrderKind, Source
from engine.core.phases import PhaseId
from engine.core.ruleset import RulesError, Ruleset
from engine.core.warnings import (
    DEADLINE_MINUTE,
    EARLY,
    EDITED_AFTER_DEADLINE,
    LATE,
    N_,
    OPENING_MINUTE,
    PM_GAME_UNCLEAR,
    SENDER_NOT_IN_PLAY,
    UNREADABLE_MESSAGE,
    ParseWarning,
)
from engine.i18n import L_, WarningText
from engine.session import GameSession
from engine.store.codec import order_from_json, order_ref
from forums.records import PostBody
from scraper.matcher import ParseResult

log = logging.getLogger("forumgm.replay")


def item_ref(channel: Channel, item_id: str) -> str:
    """A post or PM within a phase: boards number posts and PMs separately, so the id alone
    could name one of each ("thread:12", "pm:12")."""
    return f"{channel.value}:{item_id}"


def board_order(item_id: str) -> tuple[int, int | str]:
    """A board id as it sorts: numbers by value, then anything else by text («²» is a digit
    to `isdigit()` but no number to `int()`; an id longer than any board's is text too)."""
    number = item_id.isascii() and item_id.isdigit() and len(item_id) <= 30
    return (0, int(item_id)) if number else (1, item_id)


@dataclass(frozen=True)
class Incoming:
    """A thread post or a PM to the GM, as the phase takes them in arrival order."""

    id: str
    channel: Channel
    author: str
    at: datetime
    body: PostBody
    url: str | None = None
    edited_after: str | None = None
    """Set at the deadline for a post changed after it: "kept" when the version of the
    deadline is known (and read), "unseen" when only the later version was ever seen."""
    refused: str | None = None
    """Why the author cannot speak for a seat then (a replaced player): nothing in it counts."""
    key: str | None = None
    """The parse cache key of this content (`engine.service.parsed`), if the caller keeps one."""
    parsed: ParseResult | None = None
    """What parsing `body` gives, when the cache knew it (`body` may then be left empty,
    unless the ruleset reads whole posts: `GameSession.reads_posts`)."""
    unclear: bool = False
    """A PM whose game its sender has to say (`engine.service.inbox`): it is not read; the
    host settles its `pm_game_unclear` warning."""
    digest: str | None = None
    """The hash of its content as stored (`engine.service.answers`: a repeat is answered
    once), when the reader knows it."""
    doubts: tuple[tuple[str, str], ...] = ()
    """(code, why) of what the deadline's reading cannot settle about the item (deleted or
    gone from the board only after it, silently editable, a PM in the deadline's minute):
    if it says anything, it is read as stored and held for the host."""
    after_opening: bool = False
    """Dated (to the minute) before the phase opened, but known or taken to have come after
    the opening (`PhaseReader._after_opening`): it is read for the phase."""

    @property
    def ref(self) -> str:
        return item_ref(self.channel, self.id)

    @property
    def order(self) -> tuple[datetime, tuple[int, int | str]]:
        """Where the item falls in the phase: arrival time, then the board's id as a number
        (same-second posts: "9" before "10")."""
        return (self.at, board_order(self.id))


Rewrite = Callable[[Order], Order | None]


@dataclass(frozen=True)
class Measure:
    """A host's removal or grant (`host_measures`), as a replay applies it: at `at`, before
    the first post or PM after it."""

    id: int
    at: datetime
    kind: str
    player: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Replay:
    """A phase being read: the session, and what taking each item produced.

    Items go in through `take`, in arrival order; a poll may take more items later, in the
    same order, and gets what a replay of all of them at once would give.
    """

    session: GameSession
    answers: dict[str, tuple[list[Event], list[ParseWarning]]] = field(default_factory=dict)
    """`Incoming.ref` → what taking that item produced (acks, ratings, warnings)."""
    since: datetime | None = None
    fixes: Mapping[tuple[str, int | None], tuple[ParseWarning, object]] = field(
        default_factory=dict
    )
    rewrite: Rewrite | None = None
    parsed_now: dict[str, tuple[datetime, ParseResult]] = field(default_factory=dict)
    """Cache key → (time, result) of the items parsed here (not found in the cache)."""
    last: tuple[datetime, tuple[int, int | str]] | None = None
    """The arrival order of the last item taken."""
    first_phase: bool = False
    """The game's first phase: what came before it opened is `early`, not `late`."""
    announced: datetime | None = None
    """The first phase: when the game's start (opening post, role PMs) went out to the
    players. What they sent from then until the phase opened counts for it; what they sent
    before is held for the host."""
    restart: Callable[[], GameSession] | None = None
    """A fresh session at the phase's opening (`start_replay` gives one): after a message
    that raised, the phase is read again up to it without it."""
    taken: list[Incoming] = field(default_factory=list)
    """The items taken so far, in order (what a restart reads again)."""
    unreadable: dict[str, str] = field(default_factory=dict)
    """`Incoming.ref` → why reading or taking that item raised (a one-line reason)."""
    measures: tuple[Measure, ...] = ()
    """The host's removals and grants of the phase, in time order (`catch_up` applies them)."""
    measured: dict[int, list[Event]] = field(default_factory=dict)
    """`Measure.id` → the events applying it gave (empty: the rules refused it by then)."""
    applied_measures: int = 0
    """How many of `measures` are applied."""

    def catch_up(self, until: datetime) -> None:
        """Apply the host's measures made at or before `until` not applied yet."""
        while self.applied_measures < len(self.measures):
            measure = self.measures[self.applied_measures]
            if measure.at > until:
                return
            self.applied_measures += 1
            try:
                events = self.session.apply_measure(measure.kind, measure.player, measure.detail)
            except RulesError as exc:
                # e.g. a removal of a player the phase's reading already left out of play
                log.warning(
                    L_(
                        "host measure #{id} not applied: {why}",
                        id=measure.id,
                        why=WarningText(str(exc)),
                    )
                )
                events = []
            self.measured[measure.id] = events

    def _parse(self, item: Incoming) -> ParseResult:
        parsed = item.parsed
        if parsed is None and item.key is not None and item.key in self.parsed_now:
            parsed = self.parsed_now[item.key][1]
        if parsed is None:
            parsed = self.session.read(
                item.author, item.body, item.channel, at=item.at, post_id=item.id, url=item.url
            )
            if item.key is not None:
                self.parsed_now[item.key] = (item.at, parsed)
        return parsed

    def _host_fixes(
        self, item: Incoming, events: list[Event], warnings: list[ParseWarning]
    ) -> tuple[list[Event], list[ParseWarning]]:
        """The orders the host's fixes of this item's warnings stand for, taken after it."""
        for (ref, line), (warning, choice) in self.fixes.items():
            for order in fix_orders(warning, choice, item.at) if ref == item.ref else ():
                # What the host's fix replaces is shown with any warning it raises.
                said = warning.source.text if warning.source else ""
                src = Source(item.channel, item.id, item.url, line, text=said)
                e, w = self.session.submit(order.with_(source=src))
                events, warnings = events + e, warnings + w
        return events, warnings

    def _before_phase(self, item: Incoming) -> None:
        """An item from before the phase opened that does not count for it: a warning the
        host settles (a PM always; a thread post when it holds a command)."""
        session = self.session
        assert session.log is not None
        parsed = self._parse(item)
        source = Source(item.channel, item.id, item.url, text=_said(item, parsed))
        if self.first_phase:
            if item.channel is not Channel.PM and not parsed.orders:
                return
            code = EARLY
            why = N_(
                "before the game's start went out to the players: not counted "
                "(--typed counts what it says)"
            )
        elif item.channel is Channel.PM:
            code, why = LATE, N_("sent between the deadline and the next phase")
        elif parsed.orders:
            # A vote or an order in the thread between the deadline and the phase's opening
            # (its results waited for the host) does not count; the host is told.
            code, why = LATE, N_("posted between the deadline and the opening of the phase")
        else:
            return  # talk
        held = ParseWarning(code, why, item.author, source)
        session.log.warnings.append(held)
        self.answers[item.ref] = self._host_fixes(item, [], [held])

    def _dropped(self, item: Incoming) -> bool:
        """Whether the host ignored this message's deadline- or opening-minute warning: it
        then counts for nothing (it may have come outside the phase)."""
        codes = {code for code, _ in item.doubts} & _DROPPED_BY_IGNORE
        if not codes:
            return False
        return any(
            ref == item.ref and fix is None and warning.code in codes
            for (ref, _), (warning, fix) in self.fixes.items()
        )

    def _hold_doubts(self, item: Incoming, parsed: ParseResult) -> None:
        """The message's doubts as warnings (the host settled them), and nothing taken."""
        session = self.session
        assert session.log is not None
        if not parsed.orders:
            self.answers[item.ref] = ([], [])
            return
        source = Source(item.channel, item.id, item.url, text=_command_text(parsed))
        held = [ParseWarning(code, why, item.author, source) for code, why in item.doubts]
        session.log.warnings.extend(held)
        self.answers[item.ref] = ([], held)

    def take(self, item: Incoming) -> None:
        """Take one item. Whatever it holds, the phase goes on: an item whose reading or
        taking raises counts for nothing (the phase is read again up to it, without it)
        and becomes an `unreadable_message` warning the host settles."""
        self.last = item.order if self.last is None else max(self.last, item.order)
        if self.since is not None and item.at <= self.since:
            return
        self.taken.append(item)
        try:
            self._take(item)
        except Exception as exc:
            reason = _reason(exc)
            log.warning(
                L_(
                    "{item} by {author} could not be read ({why}): held for the host as {code}",
                    item=item.ref,
                    author=item.author,
                    why=reason,
                    code=UNREADABLE_MESSAGE,
                ),
                exc_info=True,
            )
            self.unreadable[item.ref] = reason
            self._restart()

    def _restart(self) -> None:
        """Read the phase again from its opening: the items taken, each unreadable one as
        its warning alone, so nothing an item did before it raised stays."""
        if self.restart is None:
            raise RuntimeError("this replay cannot be read again from its opening")
        self.session, self.answers = self.restart(), {}
        self.applied_measures, self.measured = 0, {}  # the fresh session has none applied
        for item in self.taken:
            reason = self.unreadable.get(item.ref)
            if reason is None:
                try:
                    self._take(item)
                    continue
                except Exception as exc:  # it was taken before: a ruleset that is not pure
                    log.warning(L_("{item} raised when read again", item=item.ref), exc_info=True)
                    reason = self.unreadable[item.ref] = _reason(exc)
                    self._restart()
                    return
            self._hold_unreadable(item, reason)

    def _hold_unreadable(self, item: Incoming, reason: str) -> None:
        session = self.session
        assert session.log is not None
        try:
            excerpt = item.body.full_text().strip()
        except Exception:
            excerpt = ""
        excerpt = (excerpt.split("\n", 1)[0] if excerpt else "")[:200]
        why = N_(
            "forumgm could not read this message ({reason}): nothing in it counts; "
            "--typed what it says, or --ignore"
        ).format(reason=reason)
        held = ParseWarning(
            UNREADABLE_MESSAGE,
            why,
            item.author,
            Source(item.channel, item.id, item.url, text=excerpt),
        )
        session.log.warnings.append(held)
        answers: tuple[list[Event], list[ParseWarning]] = ([], [held])
        try:
            answers = self._host_fixes(item, [], [held])
        except Exception:
            log.warning(
                L_("the host's fix of {item} could not be taken", item=item.ref), exc_info=True
            )
        self.answers[item.ref] = answers

    def _take(self, item: Incoming) -> None:
        self.catch_up(item.at)
        session = self.session
        assert session.inputs is not None and session.log is not None
        if item.unclear:
            why = N_(
                "the sender plays in several games of this GM account and the PM names none "
                "of them: they were asked which; --typed here if it is this game's, else --ignore"
            )
            said = item.body.text().strip().split("\n", 1)[0][:200]
            source = Source(item.channel, item.id, item.url, text=said)
            unclear = ParseWarning(PM_GAME_UNCLEAR, why, item.author, source)
            session.log.warnings.append(unclear)
            self.answers[item.ref] = self._host_fixes(item, [], [unclear])
            return
        early = item.at < session.inputs.phase.opened_at and not item.after_opening
        if early and not (
            self.first_phase and self.announced is not None and item.at >= self.announced
        ):
            self._before_phase(item)
            return
        taken_before = len(session.inputs.log)
        parsed = self._parse(item)
        if item.refused is not None:
            self.answers[item.ref] = ([], _refuse(session, item, parsed))
            return
        if self._dropped(item):
            self._hold_doubts(item, parsed)
            return
        text = item.body.text() if session.reads_posts else ""
        events, warnings = session.submit_parsed(
            item.author, item.channel, parsed, text, rewrite=self.rewrite
        )
        events, warnings = self._host_fixes(item, events, warnings)
        commands = len(session.inputs.log) > taken_before or events or warnings
        if early and commands:
            note = ParseWarning(
                EARLY,
                N_("sent after the game's start went out, before the phase opened: read for it"),
                item.author,
                Source(item.channel, item.id, item.url, text=_said(item, parsed)),
                accepted=True,
            )
            session.log.warnings.append(note)
            warnings = [*warnings, note]
        # What the host sees of the post: the text the phase read (its version at the deadline).
        said = _command_text(parsed)
        if item.edited_after == "unseen" or (item.edited_after == "kept" and commands):
            edited = _edited_warning(item, said)
            session.log.warnings.append(edited)
            warnings = [*warnings, edited]
        if commands or parsed.orders:
            source = Source(item.channel, item.id, item.url, text=said)
            for code, why in item.doubts:
                doubt = ParseWarning(code, why, item.author, source)
                session.log.warnings.append(doubt)
                warnings = [*warnings, doubt]
        self.answers[item.ref] = (events, warnings)


def _reason(exc: BaseException, limit: int = 160) -> str:
    """An error as one short line: its kind and the start of its message."""
    text = " ".join(str(exc).split())
    line = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return line if len(line) <= limit else line[: limit - 1] + "…"


_DROPPED_BY_IGNORE = frozenset({DEADLINE_MINUTE, OPENING_MINUTE})
"""Doubts about when a message came: the host's `--ignore` of one drops what it says."""


def _said(item: Incoming, parsed: ParseResult) -> str:
    """What an item says, for the host (its body, or the lines its parse kept)."""
    text = item.body.full_text().strip()
    if not text:
        sources = [o.source for o in parsed.orders] + [w.source for w in parsed.warnings]
        lines = [src.text for src in sources if src is not None]
        text = "\n".join(dict.fromkeys(t for t in lines if t))
    return text[:500]


def fix_orders(warning: ParseWarning, fix: object, at: datetime) -> list[Order]:
    """The orders a host's fix of a warning stands for: a pick for an unknown or ambiguous
    name (a string), or orders the host typed (`{"orders": [order JSON…]}`); none for a
    warning the host ignored (None)."""
    if isinstance(fix, dict) and isinstance(fix.get("orders"), list):
        return [order_from_json(o).with_(at=at) for o in fix["orders"]]
    if warning.player is None or not isinstance(fix, str):
        return []
    channel = warning.source.channel if warning.source else Channel.PM
    if warning.action in ("vote", None):
        return [Order(warning.player, OrderKind.VOTE, targets=(fix,), channel=channel, at=at)]
    if warning.action in ("unvote", "cancel"):
        return []
    kind = OrderKind.REQUEST if warning.action.endswith("_request") else OrderKind.ORDER
    return [Order(warning.player, kind, warning.action, (fix,), channel=channel, at=at)]


def start_replay(
    ruleset: Ruleset,
    state_before: Mapping[str, object],
    phase: str,
    opened_at: datetime,
    deadline: datetime,
    *,
    since: datetime,
    aliases: Mapping[str, Sequence[str]] | None = None,
    fixes: Mapping[tuple[str, int | None], tuple[ParseWarning, object]] | None = None,
    overrides: Mapping[str, Order | None] | None = None,
    max_post_chars: int | None = None,
    first_phase: bool = False,
    announced: datetime | None = None,
    measures: Sequence[Measure] = (),
) -> Replay:
    """The phase opened from its starting state, ready to `take` items."""
    table = dict(overrides or {})

    def rewrite(order: Order) -> Order | None:
        ref = order_ref(order)
        if ref not in table:
            return order
        replacement = table[ref]
        return None if replacement is None else replacement.with_(source=order.source, at=order.at)

    def opened() -> GameSession:
        state = GameState.from_json(dict(state_before))
        state.phase = PhaseId.parse(phase)
        session = GameSession(ruleset, state, aliases, max_post_chars=max_post_chars)
        session.open_phase(opened_at, deadline)
        return session

    return Replay(
        opened(),
        since=since,
        fixes=dict(fixes or {}),
        rewrite=rewrite,
        first_phase=first_phase,
        announced=announced,
        restart=opened,
        measures=tuple(sorted(measures, key=lambda m: (m.at, m.id))),
    )


def replay_phase(
    ruleset: Ruleset,
    state_before: Mapping[str, object],
    phase: str,
    opened_at: datetime,
    deadline: datetime,
    items: Sequence[Incoming],
    *,
    since: datetime,
    aliases: Mapping[str, Sequence[str]] | None = None,
    fixes: Mapping[tuple[str, int | None], tuple[ParseWarning, object]] | None = None,
    overrides: Mapping[str, Order | None] | None = None,
    max_post_chars: int | None = None,
) -> Replay:
    """Take `items` (posts and PMs after `since`) through the phase in arrival order.

    PMs that came after the previous deadline but before this phase opened belong to no
    phase (classic D6): they get a `late` warning. `fixes` maps a warning's source
    (post id, line) to the host's choice, applied right after that post; `overrides` maps
    a parsed order's ref to the host's replacement (None: dropped).
    """
    replay = start_replay(
        ruleset,
        state_before,
        phase,
        opened_at,
        deadline,
        since=since,
        aliases=aliases,
        fixes=fixes,
        overrides=overrides,
        max_post_chars=max_post_chars,
    )
    for item in sorted(items, key=lambda i: i.order):
        replay.take(item)
    return replay


def _refuse(session: GameSession, item: Incoming, parsed: ParseResult) -> list[ParseWarning]:
    """A message by someone who does not hold the seat: its commands are `sender_not_in_play`."""
    if not parsed.orders:
        return []  # talk: nothing to refuse
    # The words refused go with the warning: the host sees what the message said.
    source = Source(item.channel, item.id, item.url, text=_command_text(parsed))
    assert item.refused is not None and session.log is not None
    refused = ParseWarning(SENDER_NOT_IN_PLAY, item.refused, item.author, source)
    session.log.warnings.append(refused)
    return [refused]


def _command_text(parsed: ParseResult) -> str:
    """The text of a post the host is shown with its warnings: the line of its first command
    (as the phase read it; a cached parse keeps it, where a post's body may not be loaded)."""
    return next((o.source.text for o in parsed.orders if o.source and o.source.text), "")


def _edited_warning(item: Incoming, said: str) -> ParseWarning:
    source = Source(item.channel, item.id, item.url, text=said)
    if item.edited_after == "kept":
        message = N_("changed after the deadline; read as it was at the deadline (shown)")
        return ParseWarning(EDITED_AFTER_DEADLINE, message, item.author, source, accepted=True)
    message = N_("changed after the deadline and never seen before the change: read as it is now")
    return ParseWarning(EDITED_AFTER_DEADLINE, message, item.author, source)
