"""One simulated game, and a batch of them: the real rules, simulated players, no board.

A game runs as the scenario runner and the service run one, through `GameSession`: setup
by the ruleset from the game file's seats and options, then phase after phase the players'
orders through the ruleset's intake and `ruleset.resolve` at the deadline, until a winner or
the phase cap. Game `i` of seed `s` is dealt from its own seed, so a run gives the same
figures whatever the number of workers and whichever worker plays which game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import Order
from engine.core.ruleset import get_ruleset
from engine.i18n import L_
from engine.session import GameSession
from engine.sim.policy import Policy
from engine.sim.setup import SimSetup
from engine.sim.stats import GameRecord, Summary

START = datetime(2027, 1, 1, 19, 0, tzinfo=UTC)
PHASE = timedelta(days=1)
QUIET = {"ack_commands": False, "role_pm_orders": False}
"""Options a simulation turns off where the ruleset has them: receipts of commands and the
role PM's list of orders go to players by PM and change no outcome, and nobody reads them
here."""


class SimError(RuntimeError):
    """The ruleset has nothing a simulation can play (votecount)."""


class Players(Protocol):
    def learn(self, events: list[Event], /) -> None: ...

    def play(self, session: GameSession, phase: int, /) -> None: ...


@dataclass(frozen=True)
class Kind:
    """How a ruleset is simulated: its players, its phase cap, its words for the output."""

    ruleset: str
    source: str
    """The demo bots the players come from."""
    descriptions: dict[str, dict[str, str]]
    """Policy level → side ("*": every side) → what such a player does."""
    max_phases: int
    unit: str
    """What a game's length counts ("turns", "phases (days and nights)")."""


def kind_of(ruleset_id: str) -> Kind:
    from engine.sim import classic, demo_players

    if ruleset_id == "classic":
        return Kind("classic", classic.SOURCE, classic.DESCRIPTION, 40, "turns")
    if ruleset_id in demo_players.FACTORIES:
        units = {
            "yakuza": "phases (days and nights)",
            "twelve-rooms": "turns (turn 0 included)",
            "minimafik": "phases (the draft, days and nights)",
        }
        return Kind(
            ruleset_id,
            demo_players.SOURCES[ruleset_id],
            demo_players.DESCRIPTIONS[ruleset_id],
            60,
            units[ruleset_id],
        )
    if ruleset_id == "votecount":
        raise SimError(
            L_(
                "votecount counts votes only: the host resolves the game by hand, so there are "
                "no rules to simulate"
            )
        )
    raise SimError(L_("{ruleset}: no simulated players for this ruleset", ruleset=ruleset_id))


def game_seed(seed: int, index: int) -> int:
    """The seed of the index-th game of a run (the deal, the resolution and the players)."""
    return seed * 1_000_003 + index


class Table:
    """What one worker keeps between the games of one setup (the demo bots' read cache)."""

    def __init__(self, setup: SimSetup, policy: Policy) -> None:
        from engine.sim.demo_players import ReadCache

        self.setup = setup
        self.policy = policy
        self.ruleset = get_ruleset(setup.ruleset)
        self.kind = kind_of(setup.ruleset)
        self.cache = ReadCache()
        self.options = {**setup.options}
        self.options.update({k: v for k, v in QUIET.items() if k in self.ruleset.option_defaults})
        self.orders: dict[tuple[str, str, str], Order] = {}
        self.phases = [
            (START + PHASE * n, START + PHASE * (n + 1), START + PHASE * (n + 2))
            for n in range(self.kind.max_phases)
        ]
        """Each phase's opening, deadline and the next one's (a day each from START)."""
        self._make = self._players_of(setup.ruleset)

    def _players_of(self, ruleset: str) -> Callable[[GameState, random.Random], Players]:
        from engine.sim import classic, demo_players

        if ruleset == "classic":
            return lambda state, rng: classic.ClassicPlayers(state, rng, self.policy, self.orders)
        make = demo_players.FACTORIES[ruleset]
        return lambda state, rng: make(state, rng, self.policy, self.cache)

    def players(self, session: GameSession, seed: int) -> Players:
        return self._make(session.state, random.Random(seed * 7919 + 1))

    def play(self, index: int, seed: int) -> GameRecord:
        s = game_seed(seed, index)
        setup = self.setup
        session = GameSession.new(self.ruleset, setup.seats, self.options, s, setup.aliases)
        dealt = [(p.role or "", p.faction or "") for p in session.state.players]
        players = self.players(session, s)
        players.learn(session.pending_setup)
        phases = 0
        for opened, deadline, following in self.phases:
            if session.state.finished:
                break
            phases += 1
            session.open_phase(opened, deadline, following)
            players.play(session, phases)
            log = session.resolve(in_place=True)
            players.learn(log.events)
        state = session.state
        alive = set(self.ruleset.in_play(state))
        seats = tuple(
            (role, faction, p.name in alive)
            for (role, faction), p in zip(dealt, state.players, strict=True)
        )
        return GameRecord(state.winner if state.finished else None, phases, seats)

    def run(self, seed: int, first: int, count: int) -> Summary:
        summary = Summary()
        for index in range(first, first + count):
            summary.add(self.play(index, seed))
        return summary


_TABLES: dict[str, Table] = {}


def run_chunk(setup: SimSetup, policy: Policy, seed: int, first: int, count: int) -> Summary:
    """Games first … first+count-1 of a run (a worker process's task). A worker keeps one
    table per setup (a run has a few), so the read cache lasts the whole run."""
    key = repr((setup, policy))
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = Table(setup, policy)
    return table.run(seed, first, count)
