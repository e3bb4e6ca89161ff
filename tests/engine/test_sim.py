"""The balance simulator: real rules, simulated players, figures that hold from seed to seed."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import rulesets
from engine.app.game_file import load_game
from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import OrderKind
from engine.core.ruleset import Ruleset, get_ruleset
from engine.session import GameSession, PhaseLog
from engine.sim.classic import ClassicPlayers
from engine.sim.play import SimError, Table, kind_of
from engine.sim.policy import Policy, PolicyError
from engine.sim.run import chunks, simulate
from engine.sim.setup import SetupError, SimSetup, Vary, from_config, variants
from engine.sim.stats import GameRecord, Summary, wilson

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.fixture(autouse=True)
def _rules() -> None:
    rulesets.load_all()


def example(ruleset: str) -> SimSetup:
    return from_config(load_game(EXAMPLES / f"{ruleset}.toml"))


# -- the figures ---------------------------------------------------------------------------


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(81, 263)  # Newcombe (1998), Table I, example 1
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))  # Newcombe, example 5
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_adds_up_lengths_wins_and_survival() -> None:
    s = Summary()
    s.add(GameRecord("town", 3, (("citizen", "town", True), ("mafioso", "mafia", False))))
    s.add(GameRecord("mafia", 5, (("citizen", "town", False), ("mafioso", "mafia", True))))
    s.add(GameRecord(None, 40, (("citizen", "town", True), ("mafioso", "mafia", True))))
    assert s.games == 3 and s.sides() == ["mafia", "town", "none"]
    assert s.length_mean() == 16 and s.length_quantile(0.5) == 5 and s.length_quantile(1) == 40
    assert round(s.length_sd(), 6) == round(((13**2 + 11**2 + 24**2) / 2) ** 0.5, 6)
    assert s.survival("mafioso (mafia)") == pytest.approx(2 / 3)
    other = Summary()
    other.merge(s)
    assert other.as_json() == s.as_json()


# -- setups, --vary and --policy ------------------------------------------------------------


def test_vary_reads_ranges_lists_and_option_values() -> None:
    assert Vary.parse("deal.mafioso=2..4").values == (2, 3, 4)
    assert Vary.parse("options.reveal_role_on_death=true,false").values == (True, False)
    assert Vary.parse("options.team_shot_by=mafioso,any_member").values == (
        "mafioso",
        "any_member",
    )
    for bad in ("mafioso=2", "deal.mafioso=4..2", "deal.mafioso=a..b", "deal.mafioso=x", "x.y=1"):
        with pytest.raises(SetupError):
            Vary.parse(bad)


def test_varying_the_mafia_keeps_the_table_size_through_the_citizens() -> None:
    config = load_game(EXAMPLES / "classic.toml")
    setups = variants(config, [Vary.parse("deal.mafioso=1..3")])
    assert [s.label for s in setups] == [
        "mafioso=1 (citizen=6)",
        "mafioso=2 (citizen=5)",
        "mafioso=3 (citizen=4)",
    ]
    assert all(sum(s.options["roles"].values()) == 9 for s in setups)
    with pytest.raises(SetupError, match="not enough citizens"):
        variants(config, [Vary.parse("deal.mafioso=8")])
    with pytest.raises(SetupError, match="no such option"):
        variants(config, [Vary.parse("options.nope=1")])
    with pytest.raises(SetupError, match="cannot be dealt"):
        variants(config, [Vary.parse("options.clans=3")])


def test_policy_reads_a_default_and_sides() -> None:
    assert Policy.parse("smart,mafia=random").level("mafia") == "random"
    assert Policy.parse("smart,mafia=random").level("town") == "smart"
    assert Policy.parse("random").level("town") == "random"
    for bad in ("", "clever", "mafia=", "=random"):
        with pytest.raises(PolicyError):
            Policy.parse(bad)


def test_votecount_has_no_rules_to_simulate() -> None:
    with pytest.raises(SimError, match="no rules to simulate"):
        kind_of("votecount")


# -- the players ----------------------------------------------------------------------------


def test_a_smart_commissar_votes_the_mafioso_he_found_and_the_town_follows() -> None:
    setup = example("classic")
    ruleset = get_ruleset("classic")
    state, events = ruleset.setup(setup.seats, setup.options, 5)
    mafioso = next(p.name for p in state.players if p.role == "mafioso")
    commissar = next(p.name for p in state.players if p.role == "commissar")
    players = ClassicPlayers(state, _rng(), Policy())
    players.learn(events)
    players.learn(
        [Event.private(commissar, "check_result", target=mafioso, role="mafioso", faction="mafia")]
    )
    votes = _votes(ruleset, state, players)
    assert votes[commissar] == mafioso
    town = [p.name for p in state.players if p.faction == "town" and p.name != commissar]
    assert sum(votes[n] == mafioso for n in town) >= len(town) // 2
    mafia = [p.name for p in state.players if p.faction == "mafia"]
    assert all(votes[m] not in mafia for m in mafia)  # the mafia never votes its own


def test_a_random_player_knows_nothing_his_pms_say() -> None:
    setup = example("classic")
    ruleset = get_ruleset("classic")
    state, events = ruleset.setup(setup.seats, setup.options, 5)
    players = ClassicPlayers(state, _rng(), Policy("random"))
    players.learn(events)
    assert all(not b.friends and not b.enemies for b in players.bots.values())


def _rng() -> random.Random:
    return random.Random(3)


def _votes(ruleset: Ruleset, state: GameState, players: ClassicPlayers) -> dict[str, str | None]:
    session = GameSession(ruleset, state)
    opened = datetime(2027, 1, 1, tzinfo=UTC)
    session.open_phase(opened, opened + timedelta(days=1))
    players.play(session, 1)
    assert session.inputs is not None
    return {n: o.target for n, o in session.inputs.votes.items() if o.kind is OrderKind.VOTE}


@pytest.mark.parametrize("ruleset", ["yakuza", "twelve-rooms", "minimafik"])
def test_reading_a_message_again_from_the_cache_plays_the_same_game(ruleset: str) -> None:
    """The demo bots' messages are parsed once per text: the games are those of a fresh parse."""
    setup = example(ruleset)
    cached, fresh = Table(setup, Policy()), Table(setup, Policy())
    fresh.cache.limit = 0
    assert [cached.play(i, 2) for i in range(3)] == [fresh.play(i, 2) for i in range(3)]
    assert cached.cache.items and not fresh.cache.items


# -- runs -----------------------------------------------------------------------------------


def test_a_run_gives_the_same_figures_whatever_the_workers_and_chunks() -> None:
    setup = example("classic")
    one = simulate([setup], Policy(), games=240, seed=4, workers=1)
    two = simulate([setup], Policy(), games=240, seed=4, workers=2)
    assert one[0].as_json() == two[0].as_json()
    assert sum(count for _, count in chunks(1001, 3)) == 1001
    other = simulate([setup], Policy(), games=240, seed=5, workers=1)
    assert other[0].as_json() != one[0].as_json()


def test_a_lopsided_setup_comes_out_lopsided() -> None:
    """5 mafiosi of 7 players: the mafia wins nearly always; 1 of 9 against a smart town with
    a commissar and a doctor: the town is favoured."""
    setup = example("classic")
    seven = replace(
        setup,
        seats=setup.seats[:7],
        options={**setup.options, "roles": {"mafioso": 5, "commissar": 1, "citizen": 1}},
    )
    mafia = simulate([seven], Policy(), games=400, seed=1, workers=1)[0]
    rate, low, _ = mafia.win_rate("mafia")
    assert low > 0.9, rate
    lone = replace(
        setup,
        options={
            **setup.options,
            "roles": {"mafioso": 1, "commissar": 1, "doctor": 1, "citizen": 6},
        },
    )
    town = simulate([lone], Policy(), games=400, seed=1, workers=1)[0]
    assert town.win_rate("town")[1] > 0.65


@pytest.mark.parametrize(
    ("ruleset", "games"),
    [("classic", 1500), ("yakuza", 80), ("twelve-rooms", 150), ("minimafik", 80)],
)
def test_two_seeds_agree_within_their_intervals(ruleset: str, games: int) -> None:
    """Each example game file: every side's 95% intervals from two seeds overlap, and the mean
    lengths lie within a few standard errors of each other."""
    setup = example(ruleset)
    a, b = (simulate([setup], Policy(), games=games, seed=s, workers=1)[0] for s in (1, 2))
    for side in set(a.wins) | set(b.wins):
        _, low_a, high_a = a.win_rate(side)
        _, low_b, high_b = b.win_rate(side)
        assert low_a <= high_b and low_b <= high_a, (side, a.wins, b.wins)
    se = ((a.length_sd() ** 2 + b.length_sd() ** 2) / games) ** 0.5
    assert abs(a.length_mean() - b.length_mean()) <= 4 * se + 1e-9


def test_a_simulation_builds_no_role_pm_order_lists() -> None:
    """The role PM's list of orders (forms and examples from the grammar) is text for the
    players; a simulated game turns it off (`role_pm_orders`) as it turns receipts off."""
    from engine.core.ruleset import Seat, get_ruleset

    rulesets_mod = __import__("rulesets")
    rulesets_mod.load_all()
    classic = get_ruleset("classic")
    seats = [Seat(n) for n in ("Вася", "Петя", "Маша", "Коля", "Оля")]
    roles = {"roles": {"mafioso": 1, "commissar": 1, "citizen": 3}}
    _, shown = classic.setup(seats, roles, 1)
    _, quiet = classic.setup(seats, {**roles, "role_pm_orders": False}, 1)
    assigned = [e for e in shown if e.type == "role_assigned"]
    assert assigned and all(e.fields["orders"] for e in assigned)
    assert all("orders" not in e.fields for e in quiet if e.type == "role_assigned")


@pytest.mark.parametrize("ruleset", ["classic", "yakuza", "twelve-rooms", "minimafik"])
def test_a_game_resolved_in_place_is_the_game_resolved_on_copies(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A simulation resolves in place, its random stream kept as a generator between phases
    (never written out): each phase's log and the final state are those of the engine that
    resolves every phase on a copy of a stored state, as a real game does."""
    setup = example(ruleset)
    resolve = GameSession.resolve

    def played(in_place: bool) -> list[str]:
        seen: list[str] = []
        last: list[GameSession] = []

        def recorded(self: GameSession, *, in_place: bool = False) -> PhaseLog:
            log = resolve(self, in_place=chosen)
            seen.append(repr((log.events, log.warnings, log.in_play_after, log.resolution)))
            last[:] = [self]
            return log

        chosen = in_place
        monkeypatch.setattr(GameSession, "resolve", recorded)
        table = Table(setup, Policy())
        for index in range(3):
            seen.append(repr(table.play(index, 4)))
            seen.append(json.dumps(last[0].state.to_json(), default=repr))
        return seen

    assert played(True) == played(False)
