"""Simulated classic players: the demo's bots (engine/app/demo/bots.py) without the talk.

The demo's bots write forum Russian that the grammar reads; here the same decisions go to the
ruleset's intake as orders, so a game costs what the rules cost. What a bot knows is what its
PMs and the thread told it: its clan's roster, its own check results, and the commissar's
public claims.

smart, town: a commissar who found a mafioso says so in the thread and votes him; the rest
  of the town votes that player four times in five and never votes one a check cleared; the
  doctor heals a commissar who spoke up; whoever voted a townsman into jail is suspected more.
smart, a clan: the clan agrees on one night target outside the clan (a commissar who spoke up
  first) and never votes its own.
random (and the loners, who have no one to side with): a vote for a random other player in
  play, and each action of the role at a random player in play (himself where it may).
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate

from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order, OrderKind
from engine.i18n import L_
from engine.session import GameSession
from engine.sim.policy import Policy
from rulesets.classic.roles import ACTIONS, CLANS
from rulesets.classic.state import actions_of

SOURCE = "engine/app/demo/bots.py"
DESCRIPTION: dict[str, dict[str, str]] = {
    "smart": {
        "town": L_(
            "a commissar who found a mafioso claims him in the thread and the town votes "
            "him (4 times in 5); nobody votes a player a check cleared; the doctor heals the "
            "claimer; voters of a jailed townsman are suspected more"
        ),
        "clan": L_(
            "the clan agrees on one night target outside the clan (a claimer first) and "
            "never votes its own"
        ),
        "loner": L_("random: a loner has no one to side with"),
    },
    "random": {
        "*": L_(
            "a vote for a random other player in play; each action of the role at a random "
            "player in play (himself where the action allows it)"
        ),
    },
}


@dataclass(slots=True)
class _Bot:
    name: str
    role: str
    faction: str
    smart: bool
    friends: set[str] = field(default_factory=set)
    cleared: set[str] = field(default_factory=set)
    enemies: set[str] = field(default_factory=set)
    suspicion: dict[str, float] = field(default_factory=dict)


class ClassicPlayers:
    """Every simulated player of one classic game."""

    def __init__(
        self,
        state: GameState,
        rng: random.Random,
        policy: Policy,
        orders: dict[tuple[str, str, str], Order] | None = None,
    ) -> None:
        self.rng = rng
        self.bots = {
            p.name: _Bot(p.name, p.role or "citizen", p.faction or "town", policy.smart(p.faction))
            for p in state.players
        }
        self.claims: dict[str, str] = {}
        """Accused → the commissar who said in the thread he is mafia."""
        self._votes_seen: dict[str, str] = {}
        self._orders = {} if orders is None else orders
        """(player, action, target) → the order: orders are immutable and carry no time here
        (intake takes a timeless order as sent in time), so a run builds each one once."""
        self._any_member = state.options.get("team_shot_by") == "any_member"
        bots = list(self.bots.values())
        self._commissars = [b for b in bots if b.smart and b.role == "commissar"]
        self._clans = [
            (clan, members)
            for clan in CLANS
            if (members := [b for b in bots if b.faction == clan and b.smart])
        ]
        """Each clan with smart members, and those members (the deal's factions: a bot's
        side does not change)."""

    def learn(self, events: Iterable[Event]) -> None:
        bots = self.bots
        for e in events:
            kind = e.type
            if kind == "team_roster":
                for to in e.to:
                    if bots[to].smart:
                        bots[to].friends |= set(e.fields["members"])
            elif kind == "check_result":
                for to in e.to:
                    bot = bots[to]
                    if bot.smart:
                        town = e.fields["faction"] == "town"
                        (bot.cleared if town else bot.enemies).add(e.fields["target"])
            elif kind == "vigilante_result" and e.fields.get("result") == "own":
                for to in e.to:
                    if bots[to].smart:
                        bots[to].cleared.add(e.fields["target"])
            elif kind == "vote_tally":
                self._votes_seen = dict(e.fields.get("votes", {}))
            elif kind == "imprisonment" and e.fields.get("faction") == "town":
                for voter, target in self._votes_seen.items():
                    if target == e.fields["player"]:
                        for bot in bots.values():
                            if bot.smart:
                                bot.suspicion[voter] = bot.suspicion.get(voter, 0.0) + 0.6

    # -- one turn ------------------------------------------------------------------------

    def _order(self, player: str, action: str, target: str) -> Order:
        key = (player, action, target)
        order = self._orders.get(key)
        if order is None:
            if action == "vote":
                order = Order(player, OrderKind.VOTE, targets=(target,), channel=Channel.PM)
            else:
                order = Order(player, OrderKind.ORDER, action, (target,), channel=Channel.PM)
            self._orders[key] = order
        return order

    def play(self, session: GameSession, phase: int) -> None:
        state = session.state
        # in_play() written out: every player, every turn
        seated = [
            p for p in state.players if p.fields.get("alive", True) and p.fields.get("free", True)
        ]
        if not seated:
            return
        alive = [p.name for p in seated]
        self._claim(alive)
        shots = self._clan_targets(alive)
        submit, order, options, bots = session.submit, self._order, state.options, self.bots
        for player in seated:
            name = player.name
            bot = bots[name]
            submit(order(name, "vote", self._suspect(bot, alive)))
            if bot.role == "citizen" and not (self._any_member and bot.faction in CLANS):
                continue
            for action in actions_of(player, options):
                aim = self._aim(bot, action, alive, shots)
                if aim is not None:
                    submit(order(name, action, aim))

    def _claim(self, alive: list[str]) -> None:
        """Smart commissars name a mafioso they found, in the thread (the demo's claim)."""
        if not self._commissars:
            return
        living = set(alive)
        for bot in self._commissars:
            if bot.name in living:
                found = sorted(bot.enemies & living)
                if found:
                    self.claims[found[0]] = bot.name

    def _clan_targets(self, alive: list[str]) -> dict[str, str]:
        """Each smart clan's one night target: a claiming commissar first, else at random."""
        targets: dict[str, str] = {}
        if not self._clans:
            return targets
        claiming = set(self.claims.values())
        claimers = [n for n in alive if n in claiming] if claiming else []
        for clan, members in self._clans:
            own = members[0].friends or {b.name for b in members}
            outsiders = [n for n in alive if n not in own]
            if outsiders:
                first = [n for n in claimers if n in outsiders]
                targets[clan] = first[0] if first else self.rng.choice(outsiders)
        return targets

    def _suspect(self, bot: _Bot, alive: list[str]) -> str:
        """Whom a bot votes: the demo's `Table._suspect`, or anyone else at random."""
        rng = self.rng
        me = bot.name
        if not bot.smart:
            return rng.choice([n for n in alive if n != me] or alive)
        known = bot.friends | bot.cleared if bot.friends or bot.cleared else None
        others = [n for n in alive if n != me and (known is None or n not in known)]
        if bot.enemies:
            for n in others:
                if n in bot.enemies:
                    return n
        claims = self.claims
        if claims and bot.faction not in CLANS:
            claimed = [n for n in others if n in claims and claims[n] != me]
            if claimed and rng.random() < 0.8:
                return claimed[0]
        pool = others or [n for n in alive if n != me] or alive
        if not bot.suspicion:
            return rng.choice(pool)
        # rng.choices(pool, weights)[0], written out: the same draw, a third of the cost
        suspicion = bot.suspicion
        cumulative = list(accumulate([1.0 + suspicion.get(n, 0.0) for n in pool]))
        return pool[bisect(cumulative, rng.random() * cumulative[-1], 0, len(pool) - 1)]

    def _aim(self, bot: _Bot, action: str, alive: list[str], shots: dict[str, str]) -> str | None:
        rng = self.rng
        others = [n for n in alive if n != bot.name]
        if not bot.smart or (bot.faction not in CLANS and bot.faction != "town"):
            pool = alive if ACTIONS[action].self_allowed else others
            return rng.choice(pool) if pool else None
        if not others:
            return None
        if action == "team_shot":
            return shots.get(bot.faction) or rng.choice(others)
        unknown = [n for n in others if n not in bot.friends | bot.cleared | bot.enemies]
        if action == "check":
            return rng.choice(unknown or others)
        if action == "heal":
            claimers = [n for n in alive if n in self.claims.values()]
            if claimers and claimers[0] != bot.name:
                return claimers[0]
            return bot.name if rng.random() < 0.3 else rng.choice(others)
        if action in ("shot", "poison"):
            return rng.choice([n for n in others if n not in bot.friends] or others)
        if action in ("vigilante", "distract"):
            return self._suspect(bot, alive)
        return rng.choice(others)  # protect, peek
