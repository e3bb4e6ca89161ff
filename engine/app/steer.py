"""The host steers a running game: one implementation behind `forumgm steer` and the dashboard.

Remove a player (modkill), move deadlines, pause and resume, end the game early, grant what
the rules let the host grant, and speak in the thread or by PM through the bot. Each command
is checked first (a `SteerError` with one clear line), then stored and written to the audit
log; what the players are told is queued in the outbox as a draft the host sees in
`forumgm review --preview` (and the dashboard) before it goes out — approved at once when
the game's review mode is `auto` or the host says so (`approve`).

Removals and grants are *measures* (`host_measures`): the phase they count for is read with
them from the moment they were made (`engine.service.replay`), so a restarted process, a
host's later fix and the resolution all see them. Made after a phase's deadline, they count
from the next phase.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from engine.clock import local_time
from engine.config import NO_PM_ENGINES
from engine.core.events import Audience, Event
from engine.core.model import GameState
from engine.core.ruleset import ABANDONED, DRAW, PhaseInputs, RulesError
from engine.i18n import _, current, phase_fields, warning_text
from engine.publish import pm_draft, post_draft
from engine.render import Renderer, RenderError, span_words
from engine.service.driver import ENDED_BY_HOST, GameDriver
from engine.service.posts import renderer_for
from engine.session import apply_measure
from engine.store import OutboxDraft, OutboxStatus
from engine.store.models import OutboxItem, PhaseRecord, PhaseStatus

_SPAN = re.compile(r"(\d+)\s*([dhmдчм])", re.IGNORECASE)
_UNITS = {"d": 86400, "h": 3600, "m": 60, "д": 86400, "ч": 3600, "м": 60}


class SteerError(Exception):
    """A host command that cannot be carried out as given (the message says why)."""


def parse_span(text: str) -> timedelta:
    """A length of time as a host writes it: "2h", "1d 6h", "90m", "-3h" (shorter); in
    Russian letters too ("1д6ч", "90м")."""
    words = text.strip().lower().replace(" ", "")
    sign = -1 if words.startswith("-") else 1
    words = words.lstrip("+-")
    parts = _SPAN.findall(words)
    if not words or "".join(f"{n}{u}" for n, u in parts) != words:
        raise SteerError(
            _("{text!r}: write a length such as 2h, 1d, 1d6h, 90m (or -3h)").format(text=text)
        )
    seconds = sum(int(n) * _UNITS[u] for n, u in parts)
    if seconds == 0:
        raise SteerError(_("{text!r} is no time at all").format(text=text))
    return timedelta(seconds=sign * seconds)


@dataclass
class Steered:
    """What a command did: one line for the host, and what it queued for the players."""

    said: str
    items: list[OutboxItem] = field(default_factory=list)

    @property
    def waiting(self) -> int:
        return sum(1 for i in self.items if i.status is OutboxStatus.DRAFT)


class Steer:
    """The host's commands on one driven game, on behalf of `by`, from `via`."""

    def __init__(self, driver: GameDriver, *, by: str, via: str) -> None:
        self.driver = driver
        self.store = driver.store
        self.game_id = driver.game_id
        self.by = by
        self.via = via

    # -- what every command shares -------------------------------------------------------

    @property
    def lang(self) -> str:
        return self.driver.config.language

    def now(self) -> datetime:
        return self.driver.clock()

    def phase(self) -> PhaseRecord:
        """The current phase of a game still running."""
        ph = self.store.current_phase(self.game_id)
        if ph is None:
            raise SteerError(_("the game has not started: `forumgm game start` first"))
        state = self.store.load_state(self.game_id)
        if state is not None and state.finished:
            raise SteerError(_("the game is over: there is nothing to steer"))
        return ph

    def _audit(self, action: str, ph: PhaseRecord | None, detail: dict[str, Any]) -> None:
        self.store.record_action(
            action,
            by=self.by,
            via=self.via,
            game_id=self.game_id,
            phase=ph.phase if ph is not None else None,
            detail=detail,
            at=self.now(),
        )

    def _queue(self, drafts: Sequence[OutboxDraft], approve: bool) -> list[OutboxItem]:
        """Queue what the players are told (as game-level drafts, which no poll approves);
        approved at once when the review mode is auto or the host said so."""
        if not drafts:
            return []
        self.store.enqueue(self.game_id, None, drafts)
        markers = [d.marker for d in drafts]
        if approve or self.driver.config.review == "auto":
            self.store.approve(self.game_id, None, markers=markers)
        return self.store.outbox(self.game_id, markers=markers)

    def _post(self, template: str, key: Sequence[object], **ctx: Any) -> OutboxDraft:
        renderer = renderer_for(self.driver.renderer, template)
        body = renderer.render_post(template, **ctx)
        return post_draft(body, self.driver.marker("host", *key))

    def _subject(self) -> str:
        return self.driver._tagged("От ведущего" if self.lang == "ru" else "From the host")

    def _name(self, name: str, state: GameState) -> str:
        """`name` as the game writes it (any letter case; a substitute's name for his seat)."""
        wanted = name.strip().casefold()
        for candidate in state.names:
            if candidate.casefold() == wanted:
                return candidate
        slots = self.driver.slots()
        seat = slots.slot(name.strip())
        if seat is not None and state.has_player(seat):
            return seat
        raise SteerError(
            _("{name!r} is not a player: one of {names}").format(
                name=name, names=", ".join(state.names)
            )
        )

    def _now_state(self, ph: PhaseRecord) -> tuple[str, GameState, PhaseInputs | None]:
        """The phase a measure made now counts for, and the game as it stands for it: the
        open phase read as of now, or — after its deadline — the state the next phase opens
        with (its measures so far applied)."""
        now = self.now()
        paused = self.store.paused_at(self.game_id) is not None
        if ph.status is PhaseStatus.OPEN and (now < ph.deadline or paused):
            session = self.driver.replay(ph, min(now, max(ph.deadline, now))).session
            assert session.inputs is not None
            return ph.phase, session.state.copy(), copy.deepcopy(session.inputs)
        state = self.store.load_state(self.game_id)
        assert state is not None
        before = GameState.from_json(ph.state_before)
        nxt = str(self.driver.ruleset.next_phase(before))
        for m in self.driver.measures(nxt):
            try:
                apply_measure(self.driver.ruleset, state, None, None, m.kind, m.player, m.detail)
            except RulesError:
                continue
        return nxt, state, None

    def _announcements(self, events: Sequence[Event], key: Sequence[object]) -> list[OutboxDraft]:
        """The public events as one post, the private ones as a PM to each recipient (the
        host's own events are shown to him only, in the audit log)."""
        renderer = renderer_for(self.driver.renderer, "host_events")

        def views(chosen: list[Event]) -> list[SimpleNamespace]:
            return [SimpleNamespace(type=e.type, **e.fields) for e in chosen]

        public = [e for e in events if e.audience is Audience.PUBLIC]
        drafts = []
        if public:
            body = renderer.render_post("host_events", events=views(public))
            drafts.append(post_draft(body, self.driver.marker("host", *key)))
        recipients = sorted({to for e in events if e.audience is Audience.PRIVATE for to in e.to})
        for player in recipients:
            mine = [e for e in events if e.visible_to(player)]
            body = renderer.render_post("host_events", events=views(mine))
            marker = self.driver.marker("host", *key, player)
            drafts.append(pm_draft(player, self._subject(), body, marker))
        return drafts

    def _refresh(self, ph: PhaseRecord) -> None:
        """Read the open phase again, so the counts and `status` show the change."""
        ph = self.store.get_phase(self.game_id, ph.phase)
        if ph.status is PhaseStatus.OPEN:
            now = self.now()
            self.driver.replay(ph, min(now, ph.deadline))

    # -- modkill -------------------------------------------------------------------------

    def remove(self, name: str, *, reveal: bool | None = None, approve: bool = False) -> Steered:
        """The player leaves play now (inactivity, a rule breach): his vote and the votes
        for him stop counting, the ruleset's consequences follow. `reveal`: his role is
        shown (None: as the rules show a death's)."""
        return self._measure("remove", name, {"reveal": reveal}, approve)

    def grant(self, name: str, grant: str, value: str | None, *, approve: bool = False) -> Steered:
        """Give a player what the rules let the host grant (`Ruleset.host_grants`)."""
        grants = self.driver.ruleset.host_grants
        if grant not in grants:
            if not grants:
                raise SteerError(
                    _("{ruleset} games have no grants").format(ruleset=self.driver.ruleset.id)
                )
            known = "; ".join(f"{k}: {warning_text(v)}" for k, v in grants.items())
            raise SteerError(
                _("{ruleset} games have no grant {grant!r} ({known})").format(
                    ruleset=self.driver.ruleset.id, grant=grant, known=known
                )
            )
        return self._measure("grant", name, {"grant": grant, "value": value}, approve)

    def _measure(self, kind: str, name: str, detail: dict[str, Any], approve: bool) -> Steered:
        ph = self.phase()
        counts_for, state, inputs = self._now_state(ph)
        player = self._name(name, state)
        if kind == "remove" and player not in self.driver.ruleset.in_play(state):
            raise SteerError(_("{name} is not in play").format(name=player))
        if kind == "remove":
            self._refuse_second_removal(player)
        try:  # tried on a copy first: the rules may refuse it (not in play, a bad value)
            events = apply_measure(self.driver.ruleset, state, inputs, None, kind, player, detail)
        except RulesError as exc:
            raise SteerError(warning_text(str(exc))) from None
        now = self.now()
        drafts = self._announcements(events, (kind, player, now.isoformat()))
        self.store.add_measure(
            self.game_id, counts_for, at=now, kind=kind, player=player, detail=detail, by=self.by
        )
        items = self._queue(drafts, approve)
        shown = {k: v for k, v in detail.items() if v is not None}
        hidden = [f"{e.type}: {dict(e.fields)}" for e in events if e.audience is Audience.HOST]
        if hidden:
            shown["host_only"] = "; ".join(hidden)
        self._audit(kind, ph, {"player": player, "counts_for": counts_for, **shown})
        self._refresh(ph)
        fields = phase_fields(counts_for)
        if kind == "remove":
            said = _("{player}: removed from play (counts for {phase})")
        else:
            said = _("{player}: granted {grant} (counts for {phase})")
        return Steered(said.format(player=player, grant=detail.get("grant"), **fields), items)

    def _refuse_second_removal(self, player: str) -> None:
        """A removal of `player` already stored (given twice at the same moment, or the
        dashboard's form sent twice) is not made again: the players would read two posts.
        The stored measures are asked, not the replay, which reads them only up to now."""
        for m in self.store.measures(self.game_id):
            if m.kind == "remove" and m.player == player:
                raise SteerError(
                    _("{name} is removed already (host measure #{id}, counts for {phase})").format(
                        name=player, id=m.id, **phase_fields(m.phase)
                    )
                )

    # -- deadlines -----------------------------------------------------------------------

    def deadline(
        self,
        *,
        at: datetime | None = None,
        extend: timedelta | None = None,
        shift: timedelta | None = None,
        approve: bool = False,
    ) -> Steered:
        """Move the current phase's deadline: to `at`, or by `extend` (negative: shorten);
        or `shift` it and every later deadline by as much. The players are told by a post."""
        if sum(x is not None for x in (at, extend, shift)) != 1:
            raise SteerError(_("give one of: a new deadline, --extend, --shift"))
        ph = self.phase()
        now = self.now()
        moved = extend if extend is not None else shift
        if ph.status is PhaseStatus.OPEN:
            old = ph.deadline
            new = at if at is not None else old + (moved or timedelta(0))
            if new <= now:
                tz = self.driver.config.schedule.tz
                raise SteerError(
                    _(
                        "{phase} would end {at}, which is not to come: give a later deadline (a "
                        "phase whose deadline passed is resolved at once)"
                    ).format(at=local_time(new, tz), **phase_fields(ph.phase))
                )
            if new == old:  # the same command twice: the players are told once
                tz = self.driver.config.schedule.tz
                raise SteerError(
                    _("{phase} ends {at} already: nothing to change").format(
                        at=local_time(new, tz), **phase_fields(ph.phase)
                    )
                )
            self.store.set_phase_deadline(self.game_id, ph.phase, new)
            phase = ph.phase
        else:
            old, new, phase = self._move_next(ph, at, moved)
        if shift is not None:
            self.store.shift_schedule(self.game_id, shift)
        draft = self._post(
            "host_deadline",
            ("deadline", phase, now.isoformat()),
            phase=phase,
            deadline=new,
            old=old,
            shifted=shift,
        )
        items = self._queue([draft], approve)
        detail: dict[str, Any] = {"phase": phase, "deadline": new.isoformat()}
        if shift is not None:
            detail["shift"] = int(shift.total_seconds())
        self._audit("deadline", ph, detail)
        self._refresh(ph)
        tz = self.driver.config.schedule.tz
        if shift is not None:
            said = _("{phase} now ends {at}; every later deadline moves as much")
        else:
            said = _("{phase} now ends {at}")
        return Steered(said.format(at=local_time(new, tz), **phase_fields(phase)), items)

    def _move_next(
        self, ph: PhaseRecord, at: datetime | None, moved: timedelta | None
    ) -> tuple[datetime, datetime, str]:
        """After the deadline: the next deadline the results announce moves, and the results
        are drafted again to say so (unless they are out already)."""
        if ph.status is not PhaseStatus.RESOLVED or ph.next_deadline is None:
            raise SteerError(
                _(
                    "the deadline of {phase} passed and its results are not drafted yet: move "
                    "the next deadline once they are (forumgm status)"
                ).format(**phase_fields(ph.phase))
            )
        markers = self.driver.results_markers(ph)
        items = self.store.outbox(self.game_id, ph.phase, markers=markers)
        if any(i.status is OutboxStatus.POSTED or i.sending_at is not None for i in items):
            raise SteerError(
                _(
                    "the results of {phase} are out: move the deadline once the next phase opens"
                ).format(**phase_fields(ph.phase))
            )
        old = ph.next_deadline
        new = at if at is not None else old + (moved or timedelta(0))
        if new <= self.now():
            raise SteerError(_("the new deadline is not to come: give a later one"))
        self.store.unapprove(self.game_id, markers)
        self.store.set_next_deadline(self.game_id, ph.phase, new)
        self.driver.resolve(self.store.get_phase(self.game_id, ph.phase))
        nxt = str(self.driver.ruleset.next_phase(GameState.from_json(ph.state_before)))
        return old, new, nxt

    # -- pause and resume ----------------------------------------------------------------

    def pause(self, *, approve: bool = False) -> Steered:
        """No deadline passes until `resume`; the thread and the inbox are still read."""
        ph = self.phase()
        if self.store.paused_at(self.game_id) is not None:
            raise SteerError(_("the game is paused already: `forumgm steer resume` goes on"))
        now = self.now()
        self.store.set_paused(self.game_id, now)
        draft = self._post("host_paused", ("pause", now.isoformat()))
        items = self._queue([draft], approve)
        self._audit("pause", ph, {})
        return Steered(_("paused: no deadline passes until resume"), items)

    def resume(self, *, approve: bool = False) -> Steered:
        """Go on: the current deadline and every later one move by the pause's length."""
        ph = self.phase()
        paused = self.store.paused_at(self.game_id)
        if paused is None:
            raise SteerError(_("the game is not paused"))
        now = self.now()
        length = timedelta(minutes=round((now - paused).total_seconds() / 60))
        self.store.set_paused(self.game_id, None)
        phase: str | None = None
        deadline: datetime | None = None
        if ph.status is PhaseStatus.OPEN:
            deadline = max(ph.deadline + length, now + timedelta(minutes=1))
            self.store.set_phase_deadline(self.game_id, ph.phase, deadline)
            phase = ph.phase
        elif ph.status is PhaseStatus.RESOLVED and ph.next_deadline is not None:
            try:
                _old, deadline, phase = self._move_next(ph, None, length)
            except SteerError:
                phase = deadline = None  # the results are out: the next phase keeps its own
        self.store.shift_schedule(self.game_id, length)
        draft = self._post(
            "host_resumed", ("resume", now.isoformat()), phase=phase, deadline=deadline
        )
        items = self._queue([draft], approve)
        self._audit("resume", ph, {"paused_for": int(length.total_seconds())})
        self._refresh(ph)
        tz = self.driver.config.schedule.tz
        span = span_words(length, current()) or _("less than a minute")
        if deadline and phase:
            said = _("resumed after {span}; {phase} ends {at}").format(
                span=span, at=local_time(deadline, tz), **phase_fields(phase)
            )
        else:
            said = _("resumed after {span}").format(span=span)
        return Steered(said, items)

    # -- the end -------------------------------------------------------------------------

    def outcomes(self) -> dict[str, str]:
        """What the host may end the game with (`end`'s ids), each with its name in the
        host's language: the ruleset's faction names («town»: «честные жители»); in English
        the ids themselves, as the host types them."""
        state = self.store.load_state(self.game_id)
        if state is None:
            return {}
        ids = self.driver.ruleset.end_outcomes(state)
        lang = current()
        if lang == "en":
            return {o: o for o in ids}
        try:
            factions = Renderer.for_ruleset(self.driver.ruleset, lang).tables.get("factions", {})
        except RenderError:
            factions = {}
        fixed = {DRAW: _("a draw"), ABANDONED: _("abandoned, no winner")}
        return {o: fixed.get(o) or factions.get(o, o) for o in ids}

    def _outcome_said(self, outcome: str) -> str:
        """An outcome as the host reads it: "draw"; «draw (ничья)» beside its id."""
        name = self.outcomes().get(outcome, outcome)
        return outcome if name == outcome else f"{outcome} ({name})"

    def end(self, outcome: str, *, approve: bool = False) -> Steered:
        """End the game now: `outcome` is a winning faction, `draw` or `abandoned`. The
        final post shows every role; nothing more of the game is resolved."""
        ph = self.phase()
        counts_for, state, _inputs = self._now_state(ph)
        ruleset = self.driver.ruleset
        outcomes = ruleset.end_outcomes(state)
        if outcome.strip() not in outcomes:
            raise SteerError(
                _("{outcome!r}: one of {outcomes}").format(
                    outcome=outcome.strip(),
                    outcomes=", ".join(self._outcome_said(o) for o in outcomes),
                )
            )
        try:
            events = ruleset.end_by_host(state, outcome.strip())
        except RulesError as exc:
            raise SteerError(warning_text(str(exc))) from None
        ended = events[0]
        marker_key = ("end", self.now().isoformat())
        state.data[ENDED_BY_HOST] = self.driver.marker("host", *marker_key)
        draft = self._post("host_ended", marker_key, **ended.fields)
        # The phase's unsent results say what no longer happens.
        results = self.driver.results_markers(ph)
        self.store.unapprove(self.game_id, results)
        self.store.discard_drafts(self.game_id, results)
        self.store.save_state(self.game_id, state, in_play=ruleset.in_play(state))
        self.store.set_ended(self.game_id, state.data[ENDED_BY_HOST])
        items = self._queue([draft], approve)
        self._audit("end", ph, {"outcome": outcome.strip(), "in": counts_for})
        said = _("the game ends: {outcome}").format(outcome=self._outcome_said(outcome.strip()))
        return Steered(said, items)

    # -- the host's own words ------------------------------------------------------------

    def say(self, text: str, *, to: str | None = None, approve: bool = False) -> Steered:
        """A post in the game thread (or a PM to one player) from the host, through the
        bot: with the game's markers, and in the audit log."""
        ph = self.phase()
        if not text.strip():
            raise SteerError(_("the message is empty"))
        no_pms = NO_PM_ENGINES.get(self.driver.config.engine)
        if to is not None and no_pms is not None:
            raise SteerError(
                _("{engine}: the host's words go to the thread only (leave out --to)").format(
                    engine=no_pms
                )
            )
        now = self.now()
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        renderer = renderer_for(self.driver.renderer, "host_message")
        body = renderer.render_post("host_message", text=text.strip())
        if to is None:
            draft = post_draft(body, self.driver.marker("host", "say", now.isoformat(), digest))
            where = "thread"
            said = _("a message from the host to the thread is queued")
        else:
            state = self.store.load_state(self.game_id)
            assert state is not None
            seat = self._name(to, state)
            account = self.driver.holder(seat)
            marker = self.driver.marker("host", "say", now.isoformat(), digest, account)
            draft = pm_draft(seat, self._subject(), body, marker)
            where = account
            said = _("a PM from the host to {name} is queued").format(name=account)
        items = self._queue([draft], approve)
        self._audit("say", ph, {"to": where, "chars": len(text.strip())})
        return Steered(said, items)
