"""Rules tests of the yakuza ruleset beyond the scenario files.

The property test plays many seeded 18-player games with random orders and votes and checks
after every phase that HP and statuses agree, that nothing private reaches a public post,
and that the engine never raises.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

import rulesets
from engine.core.events import Audience
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import RulesError, Seat
from engine.render import Renderer
from engine.session import GameSession
from rulesets.yakuza.resolution import DAY_STEPS, NIGHT_STEPS
from rulesets.yakuza.roles import (
    ACTIONS,
    COMA,
    DEAD,
    OBSERVABLE,
    ROLES,
    VISIBLE_ROLES,
)
from rulesets.yakuza.state import (
    alive,
    day_actions,
    has_trait,
    night_actions,
    public_status_of,
    shown_hp,
    status_from_hp,
)

RULESET = rulesets.find("yakuza")
MOSCOW = ZoneInfo("Europe/Moscow")
START = datetime(2026, 3, 1, 19, 0, tzinfo=MOSCOW)
MAX_PHASES = 60
PUBLIC_TYPES = {
    "game_started",
    "death",
    "lynch",
    "tie",
    "no_lynch",
    "vote_tally",
    "status_change",
    "contract_announced",
    "hunt_announced",
    "day_action",
    "game_over",
}


def test_night_order_reads_like_the_rulebook() -> None:
    numbered = [s.name.split()[0] for s in NIGHT_STEPS]
    assert numbered[:27] == [str(i) for i in range(1, 28)]
    assert numbered[27:] == list("ABCDEFGH")
    for step in (*NIGHT_STEPS, *DAY_STEPS):
        assert step.doc.strip(), f"step {step.name} has no docstring"


def test_setup_deals_the_spec_roles() -> None:
    seats = [Seat(f"P{i}", visible_role=VISIBLE_ROLES[i]) for i in range(18)]
    state, events = RULESET.setup(seats, None, 5)
    roles = sorted(p.role or "" for p in state.players)
    expected = sorted(
        [
            "boss",
            "brute",
            "killer",
            "sensei",
            "ninja",
            "shinobi",
            "punisher",
            "punisher",
            "spy",
            "commissar",
            "maniac",
            "psycho",
        ]
        + ["citizen"] * 6
    )
    assert roles == expected
    hulk = state.player("P18") if state.has_player("P18") else None
    assert hulk is None
    assert state.player("P1").fields["max_hp"] == 130  # strongman
    teams = [e for e in events if e.type == "team"]
    assert len(teams) == 6


def test_setup_refuses_a_taken_visible_role() -> None:
    seats = [Seat("A", "boss", "vip"), Seat("B", "citizen", "vip")]
    with pytest.raises(RulesError):
        RULESET.setup(seats, None, 1)


def test_same_seed_same_deal() -> None:
    seats = [Seat(f"P{i}") for i in range(18)]
    a, _ = RULESET.setup(seats, None, 9)
    b, _ = RULESET.setup(seats, None, 9)
    assert [p.role for p in a.players] == [p.role for p in b.players]


# -- the property test ---------------------------------------------------------------------


def _random_args(rng: random.Random, action: str, role: str | None) -> dict[str, object]:
    if action in ("disguise", "kill"):
        return {"role": rng.choice(list(ROLES))}
    if action == "disinformation":
        return {"amount": rng.randint(1, 100)}
    if action == "knife" and role == "psycho":
        return {"amount": rng.choice([5, 20, 60, 150])}
    if action in ("observation", "rest"):
        return {"ability": rng.choice([*OBSERVABLE, "heal", "protection"])}
    if action == "message":
        return {}
    if action == "extra_votes":
        return {"amount": rng.randint(1, 3)}
    return {}


def _targets(
    rng: random.Random, action: str, names: list[str], everybody: list[str]
) -> tuple[str, ...]:
    if action in ("pistol", "shuriken"):
        return tuple(rng.choice(names) for _ in range(rng.randint(1, 3)))
    if action in ("dual_pistols", "message"):
        return tuple(rng.sample(names, 2)) if len(names) >= 2 else tuple(names)
    if action == "loot":
        return (rng.choice(everybody),)
    if ACTIONS.get(action) is not None and ACTIONS[action].max_targets == 0:
        return ()
    return (rng.choice(names),)


def _feed(session: GameSession, rng: random.Random, at: datetime) -> None:
    state = session.state
    names = [p.name for p in state.players if alive(p)]
    night = state.phase is not None and state.phase.kind == "night"
    for p in [q for q in state.players if alive(q)]:
        if night:
            actions = night_actions(p)
            for _ in range(rng.randint(0, 2)):
                if not actions:
                    break
                action = rng.choice(actions)
                session.submit(
                    Order(
                        p.name,
                        OrderKind.ORDER,
                        action,
                        _targets(rng, action, names, state.names),
                        _random_args(rng, action, p.role),
                        Channel.PM,
                        at,
                    )
                )
        else:
            choice = rng.random()
            if choice < 0.6:
                session.submit(
                    Order(
                        p.name,
                        OrderKind.VOTE,
                        targets=(rng.choice(names),),
                        channel=Channel.THREAD,
                        at=at,
                    )
                )
            elif choice < 0.75:
                session.submit(
                    Order(
                        p.name,
                        OrderKind.NO_LYNCH,
                        targets=("no_lynch",),
                        channel=Channel.THREAD,
                        at=at,
                    )
                )
            for action in day_actions(p):
                if rng.random() < 0.7:
                    session.submit(
                        Order(
                            p.name,
                            OrderKind.ORDER,
                            action,
                            _targets(rng, action, names, state.names),
                            _random_args(rng, action, p.role),
                            Channel.THREAD,
                            at,
                        )
                    )


def _check(session: GameSession, events: list, renderers: list[Renderer]) -> None:
    state = session.state
    for p in state.players:
        f = p.fields
        if not alive(p):
            assert f["status"] == DEAD, p.name
            continue
        assert f["status"] != DEAD, p.name
        hp = int(f["hp"])
        if f.get("mortally_wounded"):
            assert hp == 100
        else:
            assert 1 <= hp <= int(f["max_hp"]), (p.name, hp, f["max_hp"])
        assert int(f["marks"]) >= 0 and int(f["stored_shots"]) >= 0
        shown = shown_hp(p)
        status = f["status"]
        if has_trait(p, "stuntman"):
            assert status in ("healthy", "lightly_wounded", "hospital")
        else:
            assert status == status_from_hp(p, shown, status), (p.name, shown, status)
        assert f["public_status"] == public_status_of(p, status)
        if f.get("fake_hp") is not None:
            assert 1 <= int(f["fake_hp"]) <= int(f["max_hp"])
    public = [e for e in events if e.audience is Audience.PUBLIC]
    for e in public:
        assert e.type in PUBLIC_TYPES, e.type
        if e.type != "game_over":
            assert "role" not in e.fields and "roles" not in e.fields
            assert "hp" not in e.fields
    for e in events:
        if e.audience is Audience.PRIVATE:
            (to,) = e.to
            receiver = state.player(to)
            receipts = ("order_rejected", "order_accepted", "proxy_replaced")
            if e.type not in (*receipts, "role_assigned", "team"):
                assert alive(receiver), (e.type, to)
                if receiver.fields["status"] == COMA:
                    assert e.type == "hp_report", (e.type, to)
    phase = str(state.phase)
    for r in renderers:
        r.render_public(
            [e for e in public if e.type != "game_started"],
            phase=phase,
            context={"players": state.names},
        )


def play(seed: int) -> tuple[str | None, int]:
    rng = random.Random(seed)
    visibles = rng.sample(list(VISIBLE_ROLES), 18)
    seats = [Seat(f"Игрок{i}", visible_role=visibles[i]) for i in range(18)]
    options = {"marks_per_shot": rng.random() < 0.2, "report_hp": rng.choice(["changed", "always"])}
    session = GameSession.new(RULESET, seats, options, seed)
    renderers = [Renderer.for_ruleset(RULESET, "ru"), Renderer.for_ruleset(RULESET, "en")]
    phases = 0
    while not session.state.finished and phases < MAX_PHASES:
        opened = START + timedelta(days=phases)
        log = session.open_phase(opened, opened + timedelta(days=1))
        _feed(session, rng, opened + timedelta(hours=1))
        phase_str = str(session.state.phase)
        log = session.resolve()
        assert log.phase.id.kind in ("night", "day")
        session.state.phase = session.state.phase  # resolved state names the next phase
        _check_with_phase(session, log.events, renderers, phase_str)
        phases += 1
    return session.state.winner, phases


def _check_with_phase(
    session: GameSession, events: list, renderers: list[Renderer], phase: str
) -> None:
    saved = session.state.phase
    from engine.core.phases import PhaseId

    session.state.phase = PhaseId.parse(phase)
    try:
        _check(session, events, renderers)
    finally:
        session.state.phase = saved


@pytest.mark.parametrize("batch", range(10))
def test_random_games(batch: int) -> None:
    """≥ 200 seeded games (20 per batch); a game reaching 60 phases stops and is counted."""
    finished = stopped = 0
    for seed in range(batch * 20, batch * 20 + 20):
        winner, phases = play(seed)
        if winner is None:
            assert phases == MAX_PHASES
            stopped += 1
        else:
            finished += 1
    assert finished + stopped == 20
    assert finished >= 1
