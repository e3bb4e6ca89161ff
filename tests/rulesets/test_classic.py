"""Classic rules that scenario files cannot express (classic.md §7, §7.2, §8, §11, §12).

Scenario files match subsets, so they cannot prove that something is absent; and a file is
one game, not a property. These tests drive the ruleset directly: absent fields and events,
no leaks into public events, pure and replayable resolution, RNG discipline, setup dealing,
and a hypothesis property test over random games.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesets
from engine.core import warnings as w
from engine.core.events import Audience, Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order, OrderKind
from engine.core.phases import Phase
from engine.core.ruleset import PhaseInputs, Resolved, RulesError, Ruleset, Seat
from engine.scenario.loader import load_scenario
from engine.scenario.runner import ScenarioResult, run_scenario
from engine.session import PhaseLog
from rulesets.classic.roles import ACTIONS, CLANS, ROLES, TOWN
from rulesets.classic.state import actions_of, in_play, in_play_names

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "classic"
OPENED = datetime(2026, 1, 5, 19, 0, tzinfo=UTC)

PUBLIC_FIELDS: dict[str, set[str]] = {
    "game_started": {"players", "roles", "clans", "deadline"},
    "turn_started": {"turn", "deadline"},
    "turn_closed": {"turn"},
    "vote_rating": {"turn", "votes", "totals"},
    "vote_tally": {"turn", "votes", "totals", "no_votes"},
    "imprisonment": {"player", "role", "faction", "reason", "votes"},
    "death": {"player", "cause", "role", "faction"},
    "attempt_partial": {"target"},
    "attempt_failed": {"target"},
    "coughing": {"player"},
    "game_over": {"winner", "survivors", "roles"},
}
"""classic.md §11.4: the public events and every field they may carry."""

ACTOR_RESULTS = {"check_result", "vigilante_result", "peek_result", "action_blocked", "action_void"}
"""Private results that go to the player who gave an order (§9.2)."""


# -- helpers --------------------------------------------------------------------------------


def classic() -> Ruleset:
    return rulesets.find("classic")


def run_file(name: str) -> ScenarioResult:
    result = run_scenario(load_scenario(SCENARIOS / name))
    assert result.passed, "\n".join(f.render() for f in result.failures)
    return result


def public(log: PhaseLog) -> list[Event]:
    return [e for e in log.events if e.audience is Audience.PUBLIC]


def new_game(
    roles: Iterable[str | tuple[str, Mapping[str, Any]]],
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> GameState:
    seats = []
    for i, spec in enumerate(roles):
        role, fields = (spec, {}) if isinstance(spec, str) else spec
        seats.append(Seat(f"P{i}", role, None, dict(fields)))
    game, _ = classic().setup(seats, options, seed)
    return game


def open_turn(state: GameState) -> PhaseInputs:
    assert state.phase is not None
    opened = OPENED + timedelta(days=state.phase.number - 1)
    return PhaseInputs(Phase(state.phase, opened, opened + timedelta(days=1)))


def order(player: str, action: str, target: str) -> Order:
    return Order(player, OrderKind.ORDER, action, (target,), channel=Channel.PM)


def vote(player: str, target: str) -> Order:
    return Order(player, OrderKind.VOTE, targets=(target,), channel=Channel.PM)


def take(state: GameState, inputs: PhaseInputs, *orders: Order) -> list[str]:
    """Register the orders; returns the warning codes raised."""
    codes: list[str] = []
    for o in orders:
        codes += [x.code for x in classic().intake(state, inputs, o).warnings]
    return codes


def turn(state: GameState, *orders: Order) -> Resolved:
    inputs = open_turn(state)
    assert take(state, inputs, *orders) == []
    return classic().resolve(state, inputs)


def of_type(events: Iterable[Event], type: str) -> list[Event]:
    return [e for e in events if e.type == type]


def assert_no_leaks(events: Iterable[Event]) -> None:
    for e in events:
        if e.audience is not Audience.PUBLIC:
            continue
        assert e.type in PUBLIC_FIELDS, f"private or unknown event published: {e.as_dict()}"
        extra = set(e.fields) - PUBLIC_FIELDS[e.type]
        assert not extra, f"public {e.type} carries {extra}: {e.as_dict()}"


# -- what YAML subset matching cannot prove ---------------------------------------------------


def test_reveal_role_off_death_has_no_role() -> None:
    log = run_file("32_reveal_role_off.yaml").phases[0]
    deaths = of_type(public(log), "death")
    assert [e.fields["player"] for e in deaths] == ["Kira"]
    assert "role" not in deaths[0].fields and "faction" not in deaths[0].fields
    (jail,) = of_type(public(log), "imprisonment")
    assert jail.fields["role"] == "citizen" and jail.fields["faction"] == TOWN  # D9


def test_reveal_role_on_by_default() -> None:
    log = run_file("04_thief_distracts_bodyguard.yaml").phases[0]
    (death,) = of_type(public(log), "death")
    assert death.fields["role"] == "commissar" and death.fields["faction"] == TOWN


def test_unreported_team_shot_miss_publishes_nothing() -> None:
    log = run_file("10_team_shot_miss_unreported.yaml").phases[0]
    assert of_type(public(log), "attempt_failed") == []
    assert of_type(public(log), "attempt_partial") == []


def test_one_public_report_per_target() -> None:
    log = run_file("37_one_report_per_target.yaml").phases[0]
    per_target: dict[str, list[str]] = {}
    for e in public(log):
        if e.type in ("death", "attempt_partial", "attempt_failed"):
            who = e.fields.get("player") or e.fields["target"]
            per_target.setdefault(who, []).append(e.type)
    assert per_target == {
        "Boris": ["death"],
        "Kira": ["attempt_failed"],
        "Vera": ["attempt_partial"],
    }


def test_poison_death_is_the_only_report_for_a_covered_target() -> None:
    """D21: a covered target who dies of old poison gets `death`, not also `attempt_partial`."""
    log = run_file("39_poisoned_covered_and_shot.yaml").phases[0]
    about_pavel = [
        e.type for e in public(log) if "Pavel" in (e.fields.get("player"), e.fields.get("target"))
    ]
    assert about_pavel == ["death"]


def test_void_and_blocked_orders_leave_no_public_trace() -> None:
    """D13: orders on the prisoner and by the prisoner are not attempts and not reported."""
    log = run_file("03_prisoner_vote_and_orders.yaml").phases[0]
    types = [e.type for e in public(log)]
    assert "attempt_partial" not in types and "death" not in types and "attempt_failed" not in types


def test_jailed_poisoned_player_does_not_die() -> None:
    log = run_file("14_poison_jailed_next_turn.yaml").phases[1]
    assert of_type(public(log), "death") == []


def test_no_cough_for_a_player_who_left_play() -> None:
    log = run_file("19_peek_without_poison.yaml").phases[0]
    assert of_type(public(log), "coughing") == []


def test_jailed_self_healer_is_stopped_once() -> None:
    log = run_file("36_jailed_doctor_self_heal.yaml").phases[0]
    stops = [e.type for e in log.events if e.visible_to("Nina") and e.type.startswith("action_")]
    assert stops == ["action_blocked"]


def test_notify_blocked_off_sends_no_stop_notices() -> None:
    state = new_game(
        ["killer", "mafioso", "citizen", "citizen", "doctor"], {"notify_blocked": False}
    )
    resolved = turn(
        state,
        order("P0", "shot", "P2"),
        order("P4", "heal", "P0"),
        vote("P2", "P3"),
    )
    assert not [e for e in resolved.events if e.type in ("action_blocked", "action_void")]
    assert resolved.state.player("P2").fields["alive"] is True


def test_final_votes_can_be_hidden() -> None:
    state = new_game(["mafioso", "citizen", "citizen", "citizen"], {"publish_final_votes": False})
    resolved = turn(state, vote("P1", "P2"))
    assert of_type(resolved.events, "vote_tally") == []
    assert len(of_type(resolved.events, "imprisonment")) == 1


def test_clans_do_not_see_each_other_at_setup() -> None:
    """D29: each clan gets only its own roster; the outcast learns nothing about clans."""
    seats = [
        Seat("A", "mafioso"),
        Seat("B", "mafioso", state={"faction": "mafia_b"}),
        Seat("O", "outcast"),
        Seat("C", "citizen"),
    ]
    state, events = classic().setup(seats, None, 1)
    assert state.options["clans"] == 2
    rosters = {e.to: e.fields["members"] for e in events if e.type == "team_roster"}
    assert rosters == {("A",): {"A": "mafioso"}, ("B",): {"B": "mafioso"}}
    assert not [e for e in events if e.visible_to("O") and e.type != "role_assigned"]
    assert_no_leaks(events)


# -- purity and the RNG (§7.2) ----------------------------------------------------------------


def test_resolution_is_pure_and_replays_exactly() -> None:
    state = new_game(["mafioso", "mafioso", "witness", "doctor", "citizen", "citizen", "maniac"])
    before = state.to_json()
    inputs = open_turn(state)
    take(
        state,
        inputs,
        order("P0", "team_shot", "P4"),
        order("P1", "team_shot", "P4"),
        order("P6", "shot", "P4"),
        order("P2", "peek", "P4"),
        order("P3", "heal", "P3"),
        vote("P4", "P5"),
        vote("P5", "P4"),
    )
    first = classic().resolve(state, inputs)
    second = classic().resolve(state, inputs)
    assert state.to_json() == before, "resolution changed its input state"
    assert [e.as_dict() for e in first.events] == [e.as_dict() for e in second.events]
    assert first.state.to_json() == second.state.to_json()
    # The state round-trips through JSON and still resolves the same way (the stored game).
    again = classic().resolve(GameState.from_json(state.to_json()), inputs)
    assert [e.as_dict() for e in again.events] == [e.as_dict() for e in first.events]


def _rng_moved(state: GameState, *orders: Order) -> bool:
    resolved = turn(state, *orders)
    return resolved.state.rng != state.rng


def test_rng_is_not_drawn_without_a_real_choice() -> None:
    roles = ["killer", "mafioso", "witness", "citizen", "citizen", "citizen"]
    # A sole leader, a peek with a single attacker: nothing to draw.
    assert not _rng_moved(
        new_game(roles),
        vote("P3", "P4"),
        order("P0", "shot", "P5"),
        order("P2", "peek", "P5"),
    )
    # No votes, but only one player in play besides the jailed/dead: still no draw.
    lonely = new_game(["mafioso", ("citizen", {"alive": False}), ("citizen", {"free": False})])
    assert not _rng_moved(lonely)


def test_rng_is_drawn_for_ties_no_votes_and_several_attackers() -> None:
    roles = ["killer", "mafioso", "witness", "citizen", "citizen", "citizen"]
    assert _rng_moved(new_game(roles), vote("P3", "P4"), vote("P4", "P3"))
    assert _rng_moved(new_game(roles))
    assert _rng_moved(
        new_game(roles),
        vote("P3", "P4"),
        order("P0", "shot", "P5"),
        order("P1", "team_shot", "P5"),
        order("P2", "peek", "P5"),
    )


@pytest.mark.parametrize(
    "name", ["01_tie_break.yaml", "02_no_votes.yaml", "41_both_clans_perish.yaml"]
)
def test_rng_dependent_scenarios_hold_for_every_seed(name: str) -> None:
    """§7.2: the scenarios never rely on a particular drawn value."""
    drawn: set[str] = set()
    for seed in range(16):
        scenario = load_scenario(SCENARIOS / name)
        scenario.seed = seed
        result = run_scenario(scenario)
        assert result.passed, f"seed {seed}: " + "\n".join(f.render() for f in result.failures)
        assert result.session is not None
        drawn.add(repr(result.session.state.to_json()["players"]))
    assert len(drawn) > 1, "the draw never changed the outcome: the scenario tests no draw"


def test_same_seed_same_tie_break() -> None:
    roles = ["mafioso", "citizen", "citizen", "citizen", "citizen"]
    picks = set()
    for _ in range(3):
        resolved = turn(new_game(roles, seed=5), vote("P1", "P2"), vote("P2", "P1"))
        picks.add(of_type(resolved.events, "imprisonment")[0].fields["player"])
    assert len(picks) == 1
    drawn = {
        of_type(
            turn(new_game(roles, seed=s), vote("P1", "P2"), vote("P2", "P1")).events, "imprisonment"
        )[0].fields["player"]
        for s in range(20)
    }
    assert drawn == {"P1", "P2"}


# -- setup (§2.2, §6.5 hard limits, §7.2 item 1) ----------------------------------------------

DEALT = {"mafioso": 2, "lawyer": 1, "commissar": 1, "doctor": 1, "citizen": 3}


def _deal(
    seed: int, roles: Mapping[str, int] = DEALT, n: int = 8
) -> list[tuple[str | None, str | None]]:
    seats = [Seat(f"P{i}") for i in range(n)]
    state, events = classic().setup(seats, {"roles": dict(roles)}, seed)
    assert len(of_type(events, "role_assigned")) == n
    return [(p.role, p.faction) for p in state.players]


def test_dealing_is_seeded_and_reproducible() -> None:
    assert _deal(7) == _deal(7)
    deals = {tuple(_deal(s)) for s in range(10)}
    assert len(deals) > 1
    for deal in deals:
        counts: dict[str, int] = {}
        for role, faction in deal:
            assert role is not None
            counts[role] = counts.get(role, 0) + 1
            assert faction == (ROLES[role].faction if ROLES[role].faction != "clan" else "mafia")
        assert counts == DEALT


def test_dealing_puts_criminals_into_the_named_clan() -> None:
    deal = _deal(3, {"mafioso": 1, "mafioso@mafia_b": 1, "citizen": 2}, 4)
    assert sorted(str(f) for r, f in deal if r == "mafioso") == ["mafia", "mafia_b"]


@pytest.mark.parametrize(
    ("roles", "n", "message"),
    [
        ({"mafioso": 2, "citizen": 3}, 4, "roles"),
        ({"mafioso": 1, "citizen": 1}, 3, "roles"),
        ({"mafioso": 2, "maniac": 1}, 3, "town"),
        ({"citizen": 2, "maniac": 1}, 3, "clan"),
        ({"wizard": 1, "citizen": 2}, 3, "unknown role"),
        ({"mafioso@mafia_c": 1, "citizen": 2}, 3, "clan"),
    ],
)
def test_dealing_checks_the_hard_limits(roles: dict[str, int], n: int, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        _deal(1, roles, n)


def test_outcast_needs_a_clan() -> None:
    with pytest.raises(RulesError, match="outcast"):
        classic().setup([Seat("A", "outcast"), Seat("B", "citizen"), Seat("C", "maniac")], None, 1)


def test_setup_without_roles_to_deal_is_refused() -> None:
    with pytest.raises(RulesError):
        classic().setup([Seat("A"), Seat("B")], None, 1)


def test_bad_options_are_refused() -> None:
    for options in ({"team_shot_by": "anyone"}, {"early_end": "yes"}, {"no_such_option": 1}):
        with pytest.raises(RulesError):
            classic().setup([Seat("A", "mafioso"), Seat("B", "citizen")], options, 1)


# -- random games ------------------------------------------------------------------------------

TOWN_ROLES = [r.id for r in ROLES.values() if r.faction == TOWN]
CLAN_ROLES = [r.id for r in ROLES.values() if r.faction == "clan"]
OTHER_ROLES = [r.id for r in ROLES.values() if r.faction == "loner"]


def random_orders(state: GameState, rnd: random.Random) -> list[Order]:
    """Random legal votes and orders of in-play players, plus a few from out-of-play ones."""
    alive = in_play_names(state)
    out: list[Order] = []
    for name in state.names:
        p = state.player(name)
        if not in_play(p):
            if rnd.random() < 0.2 and alive:
                out.append(vote(name, rnd.choice(alive)))
            continue
        if rnd.random() < 0.8:
            out.append(vote(name, rnd.choice(alive)))
        for action in actions_of(p, state.options):
            targets = [t for t in alive if t != name or ACTIONS[action].self_allowed]
            if targets and rnd.random() < 0.8:
                out.append(order(name, action, rnd.choice(targets)))
    rnd.shuffle(out)
    return out


def play_random_game(state: GameState, rnd: random.Random, setup: list[Event]) -> int:
    """Play to the end, checking the per-turn invariants; returns the number of turns."""
    assert_no_leaks(setup)
    n = len(state.names)
    turns = 0
    while not state.finished:
        turns += 1
        assert turns <= n, f"the game did not end within {n} turns"
        before = set(in_play_names(state))
        inputs = open_turn(state)
        for o in random_orders(state, rnd):
            codes = [x.code for x in classic().intake(state, inputs, o).warnings]
            if o.player in before:
                assert codes == [], (o, codes)
            else:
                assert codes == [w.SENDER_NOT_IN_PLAY]
        assert set(inputs.votes) <= before and set(inputs.orders) <= before
        resolved = classic().resolve(state, inputs)
        replay = classic().resolve(state, inputs)
        assert [e.as_dict() for e in replay.events] == [e.as_dict() for e in resolved.events]
        events, after = resolved.events, resolved.state

        assert_no_leaks(events)
        jailed = of_type(events, "imprisonment")
        assert len(jailed) == 1
        newly_jailed = [p.name for p in after.players if not p.fields["free"] and p.name in before]
        assert newly_jailed == [jailed[0].fields["player"]]
        for e in events:
            if e.type in ACTOR_RESULTS:
                assert set(e.to) <= set(inputs.orders), f"{e.as_dict()} to a player with no order"
        reports = [
            e.fields.get("player") or e.fields.get("target")
            for e in events
            if e.type in ("death", "attempt_partial", "attempt_failed")
        ]
        assert len(reports) == len(set(reports)), f"several reports for one target: {reports}"
        deaths = {e.fields["player"] for e in of_type(events, "death")}
        assert deaths <= before
        assert {p.name for p in after.players if not p.fields["alive"]} - deaths == {
            p.name for p in state.players if not p.fields["alive"]
        }
        left = before - set(in_play_names(after))
        assert left == deaths | {jailed[0].fields["player"]}
        if after.finished:
            (over,) = of_type(events, "game_over")
            assert over.fields["winner"] == after.winner is not None
            assert over.fields["survivors"] == in_play_names(after)
        else:
            assert after.phase is not None and state.phase is not None
            assert after.phase.number == state.phase.number + 1
        state = after
    return turns


@st.composite
def rosters(draw: st.DrawFn) -> list[Seat]:
    n = draw(st.integers(min_value=3, max_value=10))
    roles = [draw(st.sampled_from(TOWN_ROLES)), draw(st.sampled_from(CLAN_ROLES))]
    roles += draw(
        st.lists(
            st.sampled_from(TOWN_ROLES + CLAN_ROLES + OTHER_ROLES), min_size=n - 2, max_size=n - 2
        )
    )
    order_ = draw(st.permutations(range(n)))
    seats: list[Seat] = []
    for i in order_:
        role = roles[i]
        state: dict[str, Any] = {}
        if ROLES[role].faction == "clan" and draw(st.booleans()) and i != 1:
            state["faction"] = "mafia_b"
        seats.append(Seat(f"P{len(seats)}", role, None, state))
    return seats


OPTION_SETS = st.fixed_dictionaries(
    {
        "early_end": st.booleans(),
        "all_actions_each_turn": st.booleans(),
        "team_shot_by": st.sampled_from(["mafioso", "any_member"]),
        "outcast_joins": st.sampled_from(["perished_clan", "surviving_clan"]),
        "peek_sees_poison": st.booleans(),
        "report_team_shot_miss": st.booleans(),
        "reveal_role_on_death": st.booleans(),
    }
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=rosters(),
    options=OPTION_SETS,
    seed=st.integers(0, 2**32 - 1),
    play=st.integers(0, 2**32 - 1),
)
def test_random_games_keep_the_invariants(
    seats: list[Seat], options: dict[str, Any], seed: int, play: int
) -> None:
    state, setup = classic().setup(seats, options, seed)
    assert any(p.faction in CLANS for p in state.players)
    turns = play_random_game(state, random.Random(play), setup)
    assert 1 <= turns <= len(seats)


def test_many_seeded_random_games() -> None:
    """A fixed batch of bigger games, so the invariants also run without hypothesis' shrinking."""
    for game in range(40):
        rnd = random.Random(game)
        n = rnd.randint(7, 16)
        roles = [rnd.choice(TOWN_ROLES), "mafioso"] + [
            rnd.choice(TOWN_ROLES + CLAN_ROLES + OTHER_ROLES) for _ in range(n - 2)
        ]
        seats = [
            Seat(
                f"P{i}",
                role,
                None,
                {"faction": "mafia_b"} if role in CLAN_ROLES and i % 3 == 0 and i else {},
            )
            for i, role in enumerate(roles)
        ]
        state, setup = classic().setup(seats, None, game)
        play_random_game(state, rnd, setup)


def test_partial_deal_counts_the_hosts_own_roles() -> None:
    """The hard limits apply to the whole game: a hand-given town role counts (§6.5)."""
    seats = [Seat("A", "commissar"), Seat("B"), Seat("C")]
    state, _ = classic().setup(seats, {"roles": {"mafioso": 2}}, 1)
    assert [p.role for p in state.players] == ["commissar", "mafioso", "mafioso"]
    with pytest.raises(RulesError, match="town"):
        classic().setup([Seat("A", "maniac"), Seat("B"), Seat("C")], {"roles": {"mafioso": 2}}, 1)
