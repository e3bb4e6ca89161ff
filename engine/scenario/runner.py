"""Running scenario files: build the game, feed each phase, check the expectations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.core.events import Audience
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import RulesError, Ruleset, Seat
from engine.scenario.compare import Failure, check_events, check_set, norm
from engine.scenario.loader import Scenario, ScenarioError, ScenarioPhase, line_of
from engine.session import GameSession, PhaseLog
from forums.bbcode import parse_bbcode

FIRST_OPENING = datetime(2026, 1, 5, 19, 0)
"""Scenario time: phase k opens at 19:00 on day k and closes 24 hours later."""

_ORDER_KEYS = {"player", "action", "targets", "at"}


@dataclass
class ScenarioResult:
    path: str
    failures: list[Failure] = field(default_factory=list)
    phases: list[PhaseLog] = field(default_factory=list)
    session: GameSession | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """Play the scenario; an invalid setup raises ScenarioError, failed checks are returned."""
    import rulesets

    try:
        ruleset = rulesets.find(scenario.ruleset)
    except RulesError as exc:
        raise ScenarioError(scenario.path, line_of(scenario.raw), str(exc)) from exc
    try:
        tz = ZoneInfo(scenario.timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ScenarioError(
            scenario.path, None, f"unknown time zone {scenario.timezone!r}"
        ) from exc
    seats = [_seat(p, scenario) for p in scenario.players]
    aliases = (
        scenario.options.pop("aliases", None) if "aliases" not in ruleset.option_defaults else None
    )
    try:
        session = GameSession.new(ruleset, seats, scenario.options, scenario.seed, aliases)
    except RulesError as exc:
        raise ScenarioError(scenario.path, line_of(scenario.players), str(exc)) from exc
    result = ScenarioResult(scenario.path, session=session)
    for index, phase in enumerate(scenario.phases):
        if session.state.finished:
            result.failures.append(Failure(str(phase.phase), "phase", "the game was already over"))
            break
        opened = (FIRST_OPENING + timedelta(days=index)).replace(tzinfo=tz)
        deadline = opened + timedelta(days=1)
        session.state.phase = phase.phase
        log = session.open_phase(opened, deadline, deadline + timedelta(days=1))
        ended = _feed(session, ruleset, phase, scenario, opened)
        log = session.end_phase_early() if ended else session.resolve()
        result.phases.append(log)
        if phase.expect is not None:
            result.failures.extend(_check(session, ruleset, log, phase.expect, str(phase.phase)))
    return result


def _seat(raw: Mapping[str, Any], scenario: Scenario) -> Seat:
    state = raw.get("state") or {}
    if not isinstance(state, Mapping):
        raise ScenarioError(scenario.path, line_of(raw), "`state` must be a mapping")
    role = raw.get("role")
    return Seat(
        str(raw["name"]),
        str(role) if role is not None else None,
        raw.get("visible_role"),
        dict(state),
    )


def _at(value: Any, opened: datetime, scenario: Scenario, where: Any) -> datetime | None:
    """`at: "HH:MM"` is a time of the phase, counted from its opening."""
    if value is None:
        return None
    try:
        clock = time.fromisoformat(str(value))
    except ValueError as exc:
        raise ScenarioError(
            scenario.path, line_of(where), f"`at` must be HH:MM, got {value!r}"
        ) from exc
    moment = opened.replace(hour=clock.hour, minute=clock.minute)
    return moment if moment >= opened else moment + timedelta(days=1)


def _name(session: GameSession, raw: Any) -> str:
    wanted = norm(str(raw))
    for name in session.state.names:
        if norm(name) == wanted:
            return name
    return str(raw)


def _known_player(session: GameSession, raw: Any, scenario: Scenario, where: Any) -> str:
    name = _name(session, raw)
    if not session.state.has_player(name):
        raise ScenarioError(scenario.path, line_of(where), f"unknown player {raw!r}")
    return name


def _feed(
    session: GameSession, ruleset: Ruleset, phase: ScenarioPhase, sc: Scenario, opened: datetime
) -> bool:
    """Register the phase's orders, votes, host measures and posts; True if the host ended
    the game in it."""
    for raw in phase.orders:
        player = _known_player(session, raw["player"], sc, raw)
        targets = tuple(_name(session, t) for t in raw.get("targets") or [])
        args = {k: v for k, v in raw.items() if k not in _ORDER_KEYS}
        kind = OrderKind.ORDER if targets or "targets" not in raw else OrderKind.CANCEL
        # An order without `at` carries no time (twelve-rooms ranks such orders after timed
        # ones); rulesets that need a time for it take the phase's opening.
        at = _at(raw.get("at"), opened, sc, raw)
        session.submit(Order(player, kind, str(raw["action"]), targets, args, Channel.PM, at))
    for voter, target in phase.votes.items():
        player = _known_player(session, voter, sc, phase.votes)
        if target is None:
            continue
        if str(target).casefold() == "no_lynch":
            vote = Order(player, OrderKind.NO_LYNCH, channel=ruleset.vote_channel, at=opened)
        else:
            vote = Order(
                player,
                OrderKind.VOTE,
                targets=(_name(session, target),),
                channel=ruleset.vote_channel,
                at=opened,
            )
        session.submit(vote)
    for measure in phase.host:
        _measure(session, measure, sc)
    if session.state.finished:
        return True
    for n, post in enumerate(phase.posts, start=1):
        player = _name(session, post["player"])
        channel = Channel(post.get("channel", "thread"))
        at = _at(post.get("at"), opened, sc, post) or opened + timedelta(minutes=n)
        body = parse_bbcode(str(post["text"]))
        session.submit_post(player, body, channel, at=at, post_id=f"{phase.phase}#{n}")
    return False


def _measure(session: GameSession, raw: Mapping[str, Any], sc: Scenario) -> None:
    """One `host:` entry through the ruleset, as `forumgm steer` applies it."""
    try:
        if "remove" in raw:
            player = _known_player(session, raw["remove"], sc, raw)
            detail = {"reveal": raw["reveal"]} if "reveal" in raw else {}
            session.apply_measure("remove", player, detail)
        elif "grant" in raw:
            player = _known_player(session, raw["player"], sc, raw)
            session.apply_measure(
                "grant", player, {"grant": raw["grant"], "value": raw.get("value")}
            )
        else:
            session.apply_measure("end", "", {"outcome": str(raw["end"])})
    except RulesError as exc:
        raise ScenarioError(sc.path, line_of(raw), str(exc)) from exc


def _check(
    session: GameSession, ruleset: Ruleset, log: PhaseLog, expect: Mapping[str, Any], phase: str
) -> list[Failure]:
    failures: list[Failure] = []
    state = session.state
    if "died" in expect:
        left = [n for n in log.in_play_before if n not in log.in_play_after]
        failures += check_set(phase, "died", expect["died"] or [], left)
    if "alive" in expect:
        failures += check_set(phase, "alive", expect["alive"] or [], log.in_play_after)
    for name, fields in (expect.get("state") or {}).items():
        real = _name(session, name)
        if not state.has_player(real):
            failures.append(Failure(phase, "state", f"no player {name!r}"))
            continue
        view = ruleset.player_view(state, real)
        for key, want in (fields or {}).items():
            if key not in view:
                failures.append(
                    Failure(phase, f"state.{name}.{key}", "no such state field", want, None)
                )
            elif norm(view[key]) != norm(want):
                failures.append(Failure(phase, f"state.{name}.{key}", "differs", want, view[key]))
    public = [e for e in log.events if e.audience is Audience.PUBLIC]
    failures += check_events(phase, "public", expect.get("public") or [], public)
    for name, wanted in (expect.get("private") or {}).items():
        real = _name(session, name)
        mine = [e for e in log.events if e.visible_to(real)]
        failures += check_events(phase, f"private.{name}", wanted or [], mine)
    if "winner" in expect and norm(expect["winner"]) != norm(state.winner):
        failures.append(Failure(phase, "winner", "differs", expect["winner"], state.winner))
    if "parse_warnings" in expect:
        codes = [w.code for w in log.warnings]
        if list(expect["parse_warnings"] or []) != codes:
            failures.append(
                Failure(
                    phase, "parse_warnings", "differs", list(expect["parse_warnings"] or []), codes
                )
            )
    return failures
