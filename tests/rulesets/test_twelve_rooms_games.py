"""The random-game property test of twelve-rooms: ≥ 200 seeded 10-player games.

Every player sends a random turn each phase (a direction, a vote, any of his skills on random
targets, the mafia kill, now and then a guess, a map or an anonymous message), at random
times. After every phase the state must be consistent, nothing private may reach a public
post, nobody dead may get a report, and the results must render in Russian and English.
A game that reaches 60 phases stops and is counted apart, not as a failure.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

import rulesets
from engine.core.events import Audience, Event
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from rulesets.twelve_rooms.roles import (
    ACTIVE,
    DOORS,
    I_SAID,
    PLAYER,
    ROLES,
    ROOM,
    SKILLS,
    TWO_PLAYERS,
)
from rulesets.twelve_rooms.rooms import PASS_THROUGH, ROOM_TYPES, SAFE
from rulesets.twelve_rooms.state import alive, grid_of, role_of, room_type, skills_of

RULESET = rulesets.find("twelve-rooms")
MOSCOW = ZoneInfo("Europe/Moscow")
START = datetime(2026, 3, 1, 19, 0, tzinfo=MOSCOW)
MAX_PHASES = 60
GAMES = 200
BATCHES = 4
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена", "Орёл", "Катя", "Nekr0"]
PUBLIC_TYPES = {
    "game_started",
    "vote_tally",
    "death",
    "lynch_avoided",
    "no_lynch",
    "warning",
    "mafia_gathering",
    "room_converted",
    "camera_report",
    "detector_report",
    "megaphone_report",
    "anonymous_message",
    "game_over",
    "turn_started",
}
RENDERERS = {lang: Renderer.for_ruleset(RULESET, lang) for lang in ("ru", "en")}


def _order(player: str, action: str, at: datetime, **fields: Any) -> Order:
    targets = tuple(fields.pop("targets", ()))
    return Order(player, OrderKind.ORDER, action, targets, fields, Channel.PM, at)


def _turn(session: GameSession, rng: random.Random, opened: datetime) -> None:
    """Random orders of every living player, sent at random minutes of the phase."""
    state = session.state
    number = state.phase.number if state.phase else 1
    living = [p.name for p in state.players if alive(p)]
    grid = grid_of(state)
    orders: list[Order] = []
    for p in [q for q in state.players if alive(q)]:

        def at() -> datetime:
            return opened + timedelta(minutes=rng.randint(1, 1400))

        if number == 0:
            if p.faction == "mafia" and rng.random() < 0.5:
                orders.append(_order(p.name, "start_room", at(), room=rng.choice(grid.rooms)))
            continue
        if rng.random() < 0.9:
            orders.append(_order(p.name, "move", at(), direction=rng.choice(
                ["up", "down", "left", "right", "stay"])))  # fmt: skip
        if rng.random() < 0.93:
            choice = "no_lynch" if rng.random() < 0.1 else rng.choice(living)
            orders.append(_order(p.name, "vote", at(), targets=[choice]))
        for skill in skills_of(p):
            spec = SKILLS[skill]
            if spec.step is None or rng.random() < 0.4:
                continue
            if spec.kind != ACTIVE and rng.random() < 0.7:
                continue
            fields: dict[str, Any] = {}
            if spec.target == PLAYER:
                fields["targets"] = [rng.choice(living)]
            elif spec.target == TWO_PLAYERS:
                fields["targets"] = rng.sample(living, 2) if len(living) > 1 else living
            elif spec.target == I_SAID:
                fields["targets"] = rng.sample(living, 2) if len(living) > 1 else living
                fields["vote_for"] = [rng.choice(living), rng.choice(living)]
            elif spec.target == ROOM:
                fields["room"] = rng.choice(grid.rooms)
            elif spec.target == DOORS:
                room = rng.choice(grid.rooms)
                fields["doors"] = [[room, rng.choice(grid.neighbours(room))]]
            orders.append(_order(p.name, skill, at(), **fields))
        if p.faction == "mafia" and rng.random() < 0.6:
            here = [n for n in living if state.player(n).fields["room"] == p.fields["room"]]
            if here:
                orders.append(_order(p.name, "mafkill", at(), targets=[rng.choice(here)]))
        for offer in p.fields["role_state"].get("offers", []):
            orders.append(_order(p.name, "inherit", at(), skill=offer["skills"][0], **{
                "from": offer["from"]}))  # fmt: skip
        if p.fields.get("vests"):
            orders.append(_order(p.name, "use_vest", at(), targets=[rng.choice(living)]))
        if rng.random() < 0.05:
            orders.append(_order(p.name, "guess_room", at(), room_type=rng.choice(ROOM_TYPES)))
        if rng.random() < 0.03:
            layout = [state.data["rooms"][str(n)]["original_type"] for n in grid.rooms]
            if rng.random() < 0.5:
                rng.shuffle(layout)
            orders.append(_order(p.name, "submit_map", at(), layout=layout))
        if rng.random() < 0.05:
            orders.append(_order(p.name, "anon", at(), text=rng.choice(["привет", ":)", "[b]x"])))
    orders.sort(key=lambda o: o.at or opened)
    for order in orders:
        session.submit(order)


def _check(
    session: GameSession, events: list[Event], results: list[Event], phase: str, before: list[str]
) -> None:
    state = session.state
    options = state.options
    for p in state.players:
        f = p.fields
        if not alive(p):
            assert not f.get("pending_kills"), p.name
            continue
        assert grid_of(state).valid(f["room"]), (p.name, f["room"])
        assert f["visited_rooms"] == sorted(set(f["visited_rooms"])), p.name
        assert 1 <= f["vote_weight"] <= len(f["visited_rooms"]) + 1, p.name
        assert 0 <= f["safe_turns"] <= options["safe_max_turns"], (p.name, f["safe_turns"])
        if f.get("pending_kills"):
            assert room_type(state, f["room"]) == SAFE, (p.name, f["pending_kills"])
        if f["safe_turns"]:
            assert room_type(state, f["room"]) == SAFE, p.name
        assert f["warnings"] < options["missed_votes_limit"], p.name
        assert p.role in ROLES
    swapped = Counter(role_of(p).id for p in state.players)
    assert max(swapped.values()) == 1, swapped  # swaps exchange roles, never copy them
    for number_, room in state.data["rooms"].items():
        if room["type"] == PASS_THROUGH:
            assert not room["entries"] or room["original_type"] == PASS_THROUGH, number_
    public = [e for e in events if e.audience is Audience.PUBLIC]
    for e in public:
        assert e.type in PUBLIC_TYPES, e.type
        if e.type != "game_over":
            assert not {"role", "roles", "faction"} & set(e.fields), e
    deaths = {e.fields["player"] for e in results if e.type == "death"}
    assert deaths == set(before) - set(RULESET.in_play(state)), (deaths, before)
    for e in results:
        if e.audience is Audience.PRIVATE:
            assert all(alive(state.player(to)) for to in e.to), (e.type, e.to)  # §2.7 rule 7
    number = int(phase.split()[-1]) if phase[-1].isdigit() else 0
    renderer = RENDERERS["ru" if number % 2 else "en"]
    shown = [e for e in results if e.audience is Audience.PUBLIC]
    renderer.render_public(shown, phase=phase, context={"players": state.names, "turn": number})
    for name in state.names[number % 3 :: 3]:
        renderer.render_private(events, name)


def play(seed: int) -> tuple[str | None, int]:
    rng = random.Random(seed)
    options: dict[str, Any] = {"placement_phase": rng.random() < 0.3}
    if rng.random() < 0.2:
        options["mafkills_per_turn"] = 2
    session = GameSession.new(RULESET, [Seat(n) for n in NAMES], options, seed)
    session.state.phase = RULESET.first_phase(session.state)
    phases = 0
    while not session.state.finished and phases < MAX_PHASES:
        opened = START + timedelta(days=phases)
        session.open_phase(opened, opened + timedelta(days=1))
        phase = session.state.phase
        assert phase is not None
        _turn(session, rng, opened)
        log = session.resolve()
        _check(session, log.events, log.resolution, str(phase), log.in_play_before)
        phases += 1
    if session.state.finished:
        winners = [e for e in session.history[-1].events if e.type == "game_over"]
        assert len(winners) == 1 and winners[0].fields["winner"] == session.state.winner
    return session.state.winner, phases


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_games(batch: int) -> None:
    """≥ 200 seeded games in all; a game reaching 60 phases stops and is counted apart."""
    size = GAMES // BATCHES
    finished = stopped = 0
    winners: Counter[str] = Counter()
    for seed in range(batch * size, (batch + 1) * size):
        winner, phases = play(seed)
        if winner is None:
            assert phases == MAX_PHASES
            stopped += 1
        else:
            finished += 1
            winners[winner] += 1
    assert finished + stopped == size
    assert finished >= size // 2, (finished, stopped)
    assert set(winners) <= {"mafia", "town"}
