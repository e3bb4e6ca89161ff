"""The host's review of a game: one implementation behind `forumgm review` and the dashboard.

Everything a host can look at (warnings, orders, the vote view, drafts, the ruleset's own
tables) and every decision (pick a name for a warning, ignore it, type the order it meant,
drop or retarget an order, approve, publish) is a method here. Each decision is checked
first — a bad id or name is a `ReviewError` with one clear line — then stored, written to
the audit log, and the phase is read (or resolved) again so what the host sees is current.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any

from engine.clock import local_time
from engine.config import slot_label
from engine.core.orders import Channel, Order
from engine.core.ruleset import HostTable, VoteView
from engine.i18n import (
    ACTION_WORDS,
    DEFAULT,
    _,
    current,
    ngettext,
    phase_fields,
    phase_name,
    warning_text,
)
from engine.render import span_words
from engine.service.driver import GameDriver
from engine.service.runner import Cadence, drive_once, owner_id
from engine.store import OutboxStatus, StoredOrder, StoredWarning, StoreError
from engine.store.codec import order_to_json
from engine.store.models import HostAction, OutboxItem, OutboxKind, PhaseRecord, PhaseStatus
from forums.records import PostBody

logger = logging.getLogger("forumgm.review")


class ReviewError(Exception):
    """A review request that cannot be carried out as given (the message says why)."""


@dataclass(frozen=True)
class Published:
    """What `publish` did: the game's status after a step, and how many items went out."""

    status: str
    sent: int


def order_words(
    order: Order, *, player: bool = False, name: Callable[[str], str] | None = None
) -> str:
    """What an order does in a few words, "heal Вася" ("Маша: heal Вася" with `player`;
    «лечение: Вася» in Russian): one wording for both faces of the review. `name` shows a
    seat by whoever holds it now («Петя (вместо Васи)»)."""
    shown = name or (lambda n: n)
    targets = ", ".join(shown(t) for t in order.targets)
    action = order.action or order.kind.value
    if action in ACTION_WORDS:  # the command names the warnings catalogue translates
        action = warning_text(action)
    words = _("{action} {targets}").format(action=action, targets=targets) if targets else action
    return f"{shown(order.player)}: {words}" if player else words


def phase_status_words(status: PhaseStatus) -> str:
    """Where a phase stands, as the host reads it beside its name: "open", «идёт»."""
    words = {
        PhaseStatus.OPEN: _("open"),
        PhaseStatus.FROZEN: _("frozen"),
        PhaseStatus.RESOLVED: _("resolved"),
        PhaseStatus.PUBLISHED: _("published"),
    }
    return words.get(status, status.value)


def cut_short(status: PhaseStatus, ended: bool) -> bool:
    """Whether a phase was still running when the game ended (`forumgm steer end`): it is
    never resolved, and no deadline of it is to come."""
    return ended and status in (PhaseStatus.OPEN, PhaseStatus.FROZEN)


def phase_words(ph: PhaseRecord, *, ended: bool) -> str:
    """A phase and where it stands, as `status` and the dashboard show it: «ход 1 (идёт)»;
    the phase a host's end cut short reads «ход 1 (игра окончена)», not as running."""
    return f"{phase_name(ph.phase)} ({phase_state(ph, ended=ended)})"


def phase_state(ph: PhaseRecord, *, ended: bool) -> str:
    """Where a phase stands (`phase_words` without the name): «идёт», «игра окончена»."""
    return _("the game is over") if cut_short(ph.status, ended) else phase_status_words(ph.status)


def host_word(value: str) -> str:
    """A stored status or an audit log's action as the host reads it: in English the id
    itself, as the store, the log file and the tests name it ("draft", "remove"); in another
    language its name there («черновик», «выбывание игрока»). An id with no name is shown as
    it is. (The English texts below only say to the translator which id each one is.)"""
    if current() == DEFAULT:
        return value
    words = {
        # a post or PM of the outbox
        "draft": _("outbox: draft"),
        "approved": _("outbox: approved"),
        "posted": _("outbox: posted"),
        "failed": _("outbox: failed"),
        # an order read from a player
        "accepted": _("order: accepted"),
        "rejected": _("order: rejected"),
        "overridden": _("order: overridden"),
        # a game
        "setup": _("game: setup"),
        "running": _("game: running"),
        "finished": _("game: finished"),
        # what the audit log records
        "fix": _("action: fix"),
        "ignore": _("action: ignore"),
        "typed": _("action: typed"),
        "drop": _("action: drop"),
        "retarget": _("action: retarget"),
        "approve": _("action: approve"),
        "unapprove": _("action: unapprove"),
        "publish": _("action: publish"),
        "deadline": _("action: deadline"),
        "remove": _("action: remove"),
        "grant": _("action: grant"),
        "pause": _("action: pause"),
        "resume": _("action: resume"),
        "end": _("action: end"),
        "say": _("action: say"),
        "login": _("action: login"),
        "logout": _("action: logout"),
        "login_failed": _("action: login_failed"),
        "login_refused": _("action: login_refused"),
        "set_password": _("action: set_password"),
    }
    return words.get(value, value)


def detail_words(detail: Mapping[str, Any], tz: tzinfo | None = None) -> str:
    """An audit log entry's detail as the host reads it: in English the stored keys and
    values ("player=Петя, counts_for=turn 1"), as the store keeps them; in another language
    each key by its name there and a phase by its name («игрок: Петя; в счёт фазы: ход 1»).
    A key with no name is shown as it is. (The English texts below only say to the
    translator which key each one is.) A stored moment is shown in `tz` (the game's zone),
    a stored length in days, hours and minutes."""
    if current() == DEFAULT:
        return ", ".join(f"{k}={v}" for k, v in detail.items())
    keys = {
        "player": _("detail: player"),
        "counts_for": _("detail: counts_for"),
        "reveal": _("detail: reveal"),
        "grant": _("detail: grant"),
        "value": _("detail: value"),
        "host_only": _("detail: host_only"),
        "phase": _("detail: phase"),
        "deadline": _("detail: deadline"),
        "shift": _("detail: shift"),
        "paused_for": _("detail: paused_for"),
        "outcome": _("detail: outcome"),
        "in": _("detail: in"),
        "to": _("detail: to"),
        "chars": _("detail: chars"),
        "items": _("detail: items"),
        "why": _("detail: why"),
        "warning": _("detail: warning"),
        "code": _("detail: code"),
        "fix": _("detail: fix"),
        "typed": _("detail: typed"),
        "order": _("detail: order"),
        "target": _("detail: target"),
        "choice": _("detail: choice"),
        "next_deadline": _("detail: next_deadline"),
        "held_warnings": _("detail: held_warnings"),
        "status": _("detail: status"),
        "sent": _("detail: sent"),
        "new": _("detail: new"),
        "client": _("detail: client"),
        "wait": _("detail: wait"),
        "waited": _("detail: waited"),
    }
    said = (f"{keys.get(k, k)}: {_detail_value(k, v, tz)}" for k, v in detail.items())
    return "; ".join(said)


def _detail_value(key: str, value: object, tz: tzinfo | None) -> str:
    """One stored value of an audit detail in the current language: a phase by its name,
    yes or no, a moment, a length, the thread; anything else (a name, a count) as stored."""
    if key in ("counts_for", "phase", "in") and isinstance(value, str):
        return phase_name(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key in ("shift", "paused_for") and isinstance(value, int) and not isinstance(value, bool):
        span = timedelta(seconds=value)
        words = span_words(span, current()) or _("{n} s").format(n=abs(value))
        return f"-{words}" if value < 0 else words
    if key in ("deadline", "next_deadline") and isinstance(value, str) and tz is not None:
        try:
            return local_time(datetime.fromisoformat(value), tz)
        except ValueError:
            return value
    if key in ("warning", "order") and isinstance(value, int):
        return f"№{value}"
    if key == "to" and value == "thread":
        return _("the game thread")
    if key == "why" and value == "a fix follows":
        return _("a fix follows")
    return str(value)


def outbox_line(item: OutboxItem) -> str:
    """The line a preview shows above a post or PM: "--- draft post to thread: …",
    «--- черновик: ЛС, кому: Коля; тема: …»."""
    # One whole line per status: the status word agrees with the rest in Russian.
    posts = {
        OutboxStatus.DRAFT: _("--- draft post to thread: {subject}"),
        OutboxStatus.APPROVED: _("--- approved post to thread: {subject}"),
        OutboxStatus.POSTED: _("--- posted post to thread: {subject}"),
        OutboxStatus.FAILED: _("--- failed post to thread: {subject}"),
    }
    pms = {
        OutboxStatus.DRAFT: _("--- draft pm to {to}: {subject}"),
        OutboxStatus.APPROVED: _("--- approved pm to {to}: {subject}"),
        OutboxStatus.POSTED: _("--- posted pm to {to}: {subject}"),
        OutboxStatus.FAILED: _("--- failed pm to {to}: {subject}"),
    }
    if item.kind is OutboxKind.POST or not item.recipients:
        said = posts.get(item.status, "--- {status} post to thread: {subject}")
    else:
        said = pms.get(item.status, "--- {status} pm to {to}: {subject}")
    to, subject = ", ".join(item.recipients), (item.subject or "").strip()
    line = said.format(status=item.status.value, to=to, subject=subject)
    # A post has no subject (nor may a PM): the line ends where the words do, not in «: ».
    return line if subject else line.rstrip().removesuffix(":").rstrip()


def describe_fix(warning: StoredWarning) -> str:
    """The host's fix of a warning in words: the name picked, the typed order, or "ignored"."""
    fix = warning.fix
    if not warning.resolved_by_host:
        return ""
    if fix is None:
        return _("ignored")
    if isinstance(fix, dict) and "text" in fix:
        return _("typed: {text}").format(text=fix["text"])
    return str(fix)


class Review:
    """The review of one driven game, on behalf of host `by`, from `via` ("cli", "dashboard")."""

    def __init__(self, driver: GameDriver, *, by: str, via: str) -> None:
        self.driver = driver
        self.store = driver.store
        self.game_id = driver.game_id
        self.by = by
        self.via = via
        self._read: tuple[tuple[str, PhaseStatus], Any] | None = None

    # -- what the host looks at ---------------------------------------------------------

    @property
    def phase(self) -> PhaseRecord | None:
        return self.store.current_phase(self.game_id)

    def warnings(self) -> list[StoredWarning]:
        ph = self.phase
        return self.store.parse_warnings(self.game_id, ph.phase) if ph is not None else []

    def orders(self) -> list[StoredOrder]:
        ph = self.phase
        return self.store.parsed_orders(self.game_id, ph.phase) if ph is not None else []

    def drafts(self) -> list[OutboxItem]:
        """Posts and PMs waiting for the host's approval, of the game's start and every phase."""
        return [i for i in self.store.outbox(self.game_id) if i.status is OutboxStatus.DRAFT]

    def unsent(self) -> list[OutboxItem]:
        """Posts and PMs not on the board yet — drafts, approved, failed — oldest first: what
        the preview shows (results approve themselves once no warning holds them)."""
        return [i for i in self.store.outbox(self.game_id) if i.status is not OutboxStatus.POSTED]

    def held(self) -> list[StoredWarning]:
        """Warnings that hold the results until the host settles them."""
        return [w for w in self.warnings() if not w.resolved_by_host and not w.warning.accepted]

    def hold_reasons(self) -> list[str]:
        """Why the current phase's results wait for the host besides its warnings (e.g. it
        was opened on the board only after its deadline)."""
        ph = self.phase
        if ph is None or ph.status is not PhaseStatus.RESOLVED:
            return []
        return self.driver.hold_reasons(ph)

    def _session(self) -> Any:
        """The current phase read as of now (its deadline, once past), kept until a change."""
        ph = self.phase
        if ph is None:
            return None
        if self._read is None or self._read[0] != (ph.phase, ph.status):
            session = self.driver.replay(ph, min(self.driver.clock(), ph.deadline)).session
            self._read = ((ph.phase, ph.status), session)
        session = self._read[1]
        return session if session.inputs is not None else None

    def progress(self) -> list[str]:
        """How the open phase stands, in the ruleset's words (e.g. who has built a deck) and
        the host's language (the one this command or page speaks)."""
        session = self._session()
        if session is None:
            return []
        return list(self.driver.ruleset.progress(session.state, session.inputs, current()))

    def vote_view(self) -> VoteView | None:
        """The host's view of the votes of the open phase: secret votes included."""
        session = self._session()
        if session is None:
            return None
        return self.driver.ruleset.vote_view(session.state, session.inputs, public=False)

    def seats(self) -> Callable[[str], str]:
        """How the vote table names a seat: by its holders once it changed hands, in the
        host's language («Дима (вместо Лёши)», "Дима (replaced Лёша)") as `forumgm tally`
        and `forumgm votes` do; any other name as it is."""
        slots = self.driver.slots()
        return lambda name: slot_label(slots.chain(name))

    def _latest(self) -> tuple[Any, Any]:
        """The state the ruleset's extras show, with the inputs so far: the open phase as it
        stands, or else the game's state after the last resolution (what results publish)."""
        ph = self.phase
        if ph is not None and ph.status is PhaseStatus.OPEN:
            session = self._session()
            if session is not None:
                return session.state, session.inputs
        return self.store.load_state(self.game_id), None

    def host_tables(self) -> list[HostTable]:
        """The ruleset's own tables for the host (HP, hands…), in the host's language."""
        state, inputs = self._latest()
        if state is None:
            return []
        return list(self.driver.ruleset.host_tables(state, inputs, current()))

    def host_picture(self) -> str | None:
        """The ruleset's SVG picture of the game for the host (twelve-rooms' map), if any."""
        state = self._latest()[0]
        if state is None:
            return None
        return self.driver.ruleset.host_picture(state, self.driver.config.language)

    def names(self) -> list[str]:
        """The names a fix may pick: the game's players (seats)."""
        state = self.store.load_state(self.game_id)
        return list(state.names) if state is not None else list(self.driver.config.players)

    def living(self) -> list[str]:
        """The players still in the game (the ruleset's in-play list), as of the last
        resolution (a resolved phase awaiting approval counts its results)."""
        state = self.store.load_state(self.game_id)
        if state is None:
            return []
        living = list(self.driver.ruleset.in_play(state))
        ph = self.phase
        if ph is not None and ph.status is PhaseStatus.OPEN:  # the host's removals count
            removed = {m.player for m in self.driver.measures(ph.phase) if m.kind == "remove"}
            living = [name for name in living if name not in removed]
        return living

    def log(self, limit: int = 200) -> list[HostAction]:
        return self.store.host_actions(self.game_id, limit=limit)

    # -- decisions ----------------------------------------------------------------------

    def _changeable(self) -> PhaseRecord:
        """The current phase, if a host decision can still change what it publishes."""
        ph = self.phase
        if ph is None:
            raise ReviewError(_("the game has not started: there is nothing to fix yet"))
        if ph.status is PhaseStatus.PUBLISHED:
            raise ReviewError(
                _("{phase} is published: a fix can no longer change it").format(
                    **phase_fields(ph.phase)
                )
            )
        if ph.status is PhaseStatus.RESOLVED:
            results = self.driver.results_markers(ph)
            mine = self.store.outbox(self.game_id, ph.phase, markers=results)
            gone = [i for i in mine if i.status is not OutboxStatus.DRAFT]
            started = [i for i in gone if i.sending_at is not None or i.board_id is not None]
            if started:
                raise ReviewError(
                    ngettext(
                        "the results of {phase} are being sent or sent ({n} item): a fix can "
                        "no longer change them",
                        "the results of {phase} are being sent or sent ({n} items): a fix can "
                        "no longer change them",
                        len(started),
                    ).format(n=len(started), **phase_fields(ph.phase))
                )
            if gone:
                # Approved but not sent: a fix withdraws the approval (the review mode gives
                # it again, or the host does), so nobody reads results the fix changes.
                back = self.store.unapprove(self.game_id, [i.marker for i in gone])
                if back < len(gone):  # a running service began sending meanwhile
                    self.store.approve(self.game_id, ph.phase, markers=[i.marker for i in gone])
                    raise ReviewError(
                        _(
                            "the results of {phase} began to go out just now: a fix can no "
                            "longer change them"
                        ).format(**phase_fields(ph.phase))
                    )
                self._audit("unapprove", ph, {"items": back, "why": "a fix follows"})
        return ph

    def _warning(self, warning_id: int) -> tuple[PhaseRecord, StoredWarning]:
        ph = self._changeable()
        found = {w.id: w for w in self.store.parse_warnings(self.game_id, ph.phase)}
        if warning_id not in found:
            if found:
                ids = ", ".join(_("#{id}").format(id=i) for i in found)
                said = _("no warning #{id} in {phase} (its warnings: {ids})")
            else:
                ids, said = "", _("no warning #{id} in {phase}: it has none")
            raise ReviewError(said.format(id=warning_id, ids=ids, **phase_fields(ph.phase)))
        return ph, found[warning_id]

    def _order(self, order_id: int) -> tuple[PhaseRecord, StoredOrder]:
        ph = self._changeable()
        found = {o.id: o for o in self.store.parsed_orders(self.game_id, ph.phase)}
        if order_id not in found:
            raise ReviewError(
                _("no order #{id} in {phase} (list them with --orders)").format(
                    id=order_id, **phase_fields(ph.phase)
                )
            )
        return ph, found[order_id]

    def _name(self, name: str, allowed: tuple[str, ...] = ()) -> str:
        """`name` as the game writes it: one of `allowed` or a player (any letter case)."""
        name = name.strip()
        known = [*allowed, *(n for n in self.names() if n not in allowed)]
        for candidate in known:
            if candidate.casefold() == name.casefold():
                return candidate
        raise ReviewError(
            _("{name!r} is not a choice: one of {names}").format(name=name, names=", ".join(known))
        )

    def _done(
        self, ph: PhaseRecord, action: str, detail: dict[str, Any], apply: Callable[[], object]
    ) -> None:
        apply()
        self._audit(action, ph, detail)
        self._refresh(ph)

    def _audit(self, action: str, ph: PhaseRecord | None, detail: dict[str, Any]) -> None:
        self.store.record_action(
            action,
            by=self.by,
            via=self.via,
            game_id=self.game_id,
            phase=ph.phase if ph is not None else None,
            detail=detail,
            at=self.driver.clock(),
        )

    def _refresh(self, ph: PhaseRecord) -> None:
        """Read the phase again with the host's decisions (resolve it again once resolved)."""
        self._read = None
        ph = self.store.get_phase(self.game_id, ph.phase)
        if ph.status is PhaseStatus.RESOLVED:
            self.driver.resolve(ph)
        elif ph.status is PhaseStatus.OPEN:
            self.driver.replay(ph, min(self.driver.clock(), ph.deadline))

    def fix(self, warning_id: int, name: str) -> None:
        """Settle a warning with a name: one of its choices, or any player."""
        ph, stored = self._warning(warning_id)
        pick = self._name(name, stored.warning.choices)
        detail = {"warning": warning_id, "code": stored.warning.code, "fix": pick}
        self._done(ph, "fix", detail, lambda: self.store.fix_warning(warning_id, pick, by=self.by))

    def ignore(self, warning_id: int) -> None:
        """Settle a warning with nothing: what it is about does not count, and it holds no more."""
        ph, stored = self._warning(warning_id)
        detail = {"warning": warning_id, "code": stored.warning.code}
        self._done(
            ph, "ignore", detail, lambda: self.store.fix_warning(warning_id, None, by=self.by)
        )

    def typed(self, warning_id: int, text: str) -> list[Order]:
        """Settle a warning with the order(s) the player meant, typed as they would write it
        and read with the game's grammar as theirs; returns what was read."""
        ph, stored = self._warning(warning_id)
        w = stored.warning
        if w.player is None:
            raise ReviewError(
                _("warning #{id} names no player whose order it could be").format(id=warning_id)
            )
        if not text.strip():
            raise ReviewError(_("type the order, e.g. «голосую за Петю»"))
        channel = w.source.channel if w.source is not None else Channel.PM
        session = self._session()
        assert session is not None  # the phase exists: _warning checked it
        try:
            parsed = session.read(w.player, PostBody.plain(text), channel)
        except Exception as exc:  # what the grammar cannot read is the host's to retype
            logger.warning(
                "typed text for warning #%s could not be read", warning_id, exc_info=True
            )
            raise ReviewError(
                _("forumgm could not read {text!r} ({error})").format(
                    text=text, error=type(exc).__name__
                )
            ) from exc
        if not parsed.orders:
            why = "; ".join(warning_text(x.message) for x in parsed.warnings)
            said = _("no order read in {text!r}").format(text=text)
            raise ReviewError(f"{said}: {why}" if why else said)
        fix = {"text": text.strip(), "orders": [order_to_json(o) for o in parsed.orders]}
        detail = {"warning": warning_id, "code": w.code, "typed": text.strip()}
        self._done(ph, "typed", detail, lambda: self.store.fix_warning(warning_id, fix, by=self.by))
        return list(parsed.orders)

    def drop(self, order_id: int) -> None:
        """The order does not count."""
        ph, stored = self._order(order_id)
        detail = {"order": order_id, "player": stored.order.player}
        self._done(
            ph, "drop", detail, lambda: self.store.override_order(order_id, None, by=self.by)
        )

    def retarget(self, order_id: int, name: str) -> None:
        """The order names `name` instead of whom it named."""
        ph, stored = self._order(order_id)
        target = self._name(name)
        replacement = stored.order.with_(targets=(target,))
        detail = {"order": order_id, "player": stored.order.player, "target": target}
        self._done(
            ph,
            "retarget",
            detail,
            lambda: self.store.override_order(order_id, replacement, by=self.by),
        )

    def missed_deadline(self) -> dict[str, datetime] | None:
        """When the next deadline the current results announce passed while they waited:
        what each choice (`deadline`) would make it; None while it has not."""
        ph = self.phase
        now = self.driver.clock()
        if ph is None or not self.driver.deadline_missed(ph, now):
            return None
        return self.driver.deadline_choices(ph, now)

    def deadline(self, choice: str) -> datetime:
        """The host's choice once the announced deadline passed while results waited:
        "shift" (the next phase gets its whole length, every later deadline moves) or
        "shorten" (the schedule stays, the next phase ends at its next deadline)."""
        ph = self.phase
        missed = self.missed_deadline()
        if ph is None or missed is None:
            raise ReviewError(_("no deadline has passed while results waited: nothing to choose"))
        if choice not in missed:
            raise ReviewError(
                _("{choice!r}: choose one of {choices}").format(
                    choice=choice, choices=", ".join(missed)
                )
            )
        try:
            new = self.driver.choose_deadline(ph, choice, self.driver.clock())
        except StoreError as exc:
            raise ReviewError(str(exc)) from None
        self._read = None
        self._audit("deadline", ph, {"choice": choice, "next_deadline": new.isoformat()})
        return new

    def approve(self) -> int:
        """Approve every draft waiting (the start's, and the current phase's); how many.
        Results announcing a deadline already past stay drafts until the host chooses."""
        ph = self.phase
        approved = self.store.approve(self.game_id, None)
        if ph is not None and self.missed_deadline() is None:
            approved += self.store.approve(self.game_id, ph.phase)
        held = len(self.held())
        self._audit("approve", ph, {"items": len(approved), "held_warnings": held})
        return len(approved)

    async def publish(self) -> Published:
        """Publish what is approved now: one step of the game, as `forumgm run --once` would
        take it, unless a running service holds the game (it publishes at its next step)."""
        owner = f"{owner_id()}:{self.via}"
        before = sum(1 for i in self.store.outbox(self.game_id) if i.status is OutboxStatus.POSTED)
        # The host's own try: a limit of the board the store keeps (Discourse's PMs a day)
        # is tried again now — an administrator may have raised it; if the board still
        # refuses, that one refusal keeps the limit again.
        for kind in OutboxKind:
            self.store.lift_send_limit(self.driver.board_id, kind.value)
        try:
            status = await drive_once(self.driver, owner, Cadence())
        finally:
            self.store.release_lease(self.game_id, owner)  # never keep `forumgm run` waiting
        after = sum(1 for i in self.store.outbox(self.game_id) if i.status is OutboxStatus.POSTED)
        self._audit("publish", self.phase, {"status": status, "sent": after - before})
        return Published(status, after - before)
