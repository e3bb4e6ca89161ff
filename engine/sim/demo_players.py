"""Simulated players of yakuza, twelve-rooms and minimafik: the demo's own bots.

These bots write their orders as players do, in forum Russian (engine/app/demo/*_bots.py);
each message goes through the ruleset's grammar and intake exactly as a real post would
(`GameSession.read` and `submit_parsed`). A message read once is kept, by its sender, channel
and text, and stamped with its new time when it comes again: the same words parse the same
way in a game of the same roster, and parsing is most of what a message costs.

Under the `random` policy a side's bots forget, after every phase, what their PMs told them
beyond their own role and place (their team, their checks), so their votes and targets are
random among the players in play; `smart` is the demo's play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from engine.app.demo.bots import Message
from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from engine.core.orders import Channel
from engine.i18n import L_
from engine.session import GameSession
from engine.sim.policy import Policy
from forums.bbcode import parse_bbcode
from scraper.matcher import ParseResult


@dataclass
class _Read:
    parsed: ParseResult
    text: str


class ReadCache:
    """Parsed messages of one game setup, by (sender, channel, text)."""

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self.items: dict[tuple[str, Channel, str], _Read] = {}

    def read(self, session: GameSession, message: Message, channel: Channel) -> _Read:
        key = (message.author, channel, message.text)
        hit = self.items.get(key)
        if hit is None:
            body = parse_bbcode(message.text)
            hit = _Read(session.read(message.author, body, channel), body.text())
            if len(self.items) < self.limit:
                self.items[key] = hit
        return hit


def _stamped(parsed: ParseResult, at: Any, post_id: str) -> ParseResult:
    """A cached parse with this message's time and id, as a fresh parse would have them."""
    orders = [
        o.with_(at=at, source=replace(o.source, post_id=post_id) if o.source else None)
        for o in parsed.orders
    ]
    warnings = [
        replace(w, source=replace(w.source, post_id=post_id)) if w.source else w
        for w in parsed.warnings
    ]
    return ParseResult(orders, warnings)


class DemoPlayers:
    """A demo bot table driven through a `GameSession`, its messages read by the grammar."""

    def __init__(
        self,
        table: Any,
        state: GameState,
        policy: Policy,
        cache: ReadCache,
        forget: Callable[[Any, str], None],
    ) -> None:
        self.table = table
        self.cache = cache
        self.forget = forget
        self.random_bots = [p.name for p in state.players if not policy.smart(p.faction)]

    def learn(self, events: Iterable[Event]) -> None:
        self.table.learn(events)
        for name in self.random_bots:
            self.forget(self.table, name)

    def play(self, session: GameSession, phase: int) -> None:
        assert session.inputs is not None
        opened = session.inputs.phase.opened_at
        for n, message in enumerate(self.table.turn(session.state, phase)):
            channel = Channel.THREAD if message.channel == "thread" else Channel.PM
            at = opened + timedelta(minutes=message.minute)
            read = self.cache.read(session, message, channel)
            parsed = _stamped(read.parsed, at, f"{phase}.{n}")
            session.submit_parsed(message.author, channel, parsed, read.text)


# -- the three tables, and what a random-policy bot forgets ----------------------------------


def _clear(*knowledge: str) -> Callable[[Any, str], None]:
    """What a random-policy bot of a table forgets: these sets of its bot."""

    def forget(table: Any, name: str) -> None:
        bot = table.bots[name]
        for attribute in knowledge:
            getattr(bot, attribute).clear()

    return forget


def yakuza_players(
    state: GameState, rng: random.Random, policy: Policy, cache: ReadCache
) -> DemoPlayers:
    from engine.app.demo.yakuza_bots import YakuzaTable

    forget = _clear("team", "known_peaceful", "suspects")
    return DemoPlayers(YakuzaTable(state, rng), state, policy, cache, forget)


def twelve_players(
    state: GameState, rng: random.Random, policy: Policy, cache: ReadCache
) -> DemoPlayers:
    from engine.app.demo.twelve_bots import TwelveTable

    forget = _clear("team", "suspects", "cleared")
    return DemoPlayers(TwelveTable(state, rng), state, policy, cache, forget)


def minimafik_players(
    state: GameState, rng: random.Random, policy: Policy, cache: ReadCache
) -> DemoPlayers:
    from engine.app.demo.minimafik_bots import MinimafikTable

    randoms = {p.name for p in state.players if not policy.smart(p.faction)}

    class Table(MinimafikTable):
        def enemy(self, state: GameState, p: PlayerState) -> str | None:
            if p.name not in randoms:
                return super().enemy(state, p)
            living = [q.name for q in state.players if q.fields.get("alive", True)]
            others = [n for n in living if n != p.name]
            return self.rng.choice(others) if others else None

    def forget(table: Any, name: str) -> None:
        table.suspects[name].clear()

    return DemoPlayers(Table(state, rng), state, policy, cache, forget)


DESCRIPTIONS: dict[str, dict[str, dict[str, str]]] = {
    "yakuza": {
        "smart": {
            "*": L_(
                "the demo's bots: night orders of the role at a player outside the team "
                "(a suspect a check found first, never one it cleared), a thread vote for such a "
                "player (or «за мир» 3 times in 20), the visible role's day ability"
            ),
        },
        "random": {
            "*": L_(
                "the same orders with no team and no checks known: targets at random among "
                "the players alive"
            ),
        },
    },
    "twelve-rooms": {
        "smart": {
            "*": L_(
                "the demo's bots: a random move each turn, the role's skill at a player outside "
                "the team, the mafia's kill by its first member sharing a room with a townsman, "
                "a vote for a suspect a check found (else not a cleared one)"
            ),
        },
        "random": {
            "*": L_("the same orders with no team and no checks known: the mafia may kill its own"),
        },
    },
    "minimafik": {
        "smart": {
            "law": L_(
                "the demo's bots: decks from the draft offers, cards played at the player "
                "its checks and the public beatings point to, the leader and the vote for a suspect"
            ),
            "mafia": L_(
                "the demo's bots: a random mafia deck, the night kill and attack cards at "
                "a player outside the mafia"
            ),
        },
        "random": {
            "*": L_(
                "the same orders with no suspicion kept: attack cards, kills and votes at "
                "random among the players alive (the mafia may aim at its partner)"
            ),
        },
    },
}

SOURCES = {
    "yakuza": "engine/app/demo/yakuza_bots.py",
    "twelve-rooms": "engine/app/demo/twelve_bots.py",
    "minimafik": "engine/app/demo/minimafik_bots.py",
}

FACTORIES = {
    "yakuza": yakuza_players,
    "twelve-rooms": twelve_players,
    "minimafik": minimafik_players,
}
