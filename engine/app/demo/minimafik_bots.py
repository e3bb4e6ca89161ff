"""The minimafik demo: the seed's eight characters build decks and play cards to the end.

Each bot knows what its player knows: its own role, hand, points and draft offers, its
partner (mafia), the public results. Bots write their orders by PM in the forum Russian the
grammar reads («играю Засаду ⚫ на Ворона, оплата: сброс 3», «мафия: Grillby +1»,
«вече: Alu»), addressing characters by character name and now and then by nickname.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from engine.app.demo.bots import Message
from engine.app.demo.play import DemoResult, demo_config, demo_table, play_game
from engine.app.demo.show import Show
from engine.core.events import Audience, Event
from engine.core.model import GameState, PlayerState
from rulesets.minimafik.cards import Card
from rulesets.minimafik.collection_file import collection_of
from rulesets.minimafik.deck import random_mafia_deck
from rulesets.minimafik.roles import BLANK, ROT

SEATS = [
    ("Destiny", "Grillby", "bartender"),
    ("Cornix", "Ворон", "photographer"),
    ("Alu", "Mr. Fiks", "courier"),
    ("VanSLis", "Труп", "designer"),
    ("Уставший Скиталец", "Клифф Бут", "stuntman"),
    ("Nekr0", "Выживший", "engineer"),
    ("Ингероид", "Бадди", "dancer"),
    ("dorererenen", "Роберт", "scientist"),
]
"""The seed's table: forum nickname, character name, visible role."""
MAX_PHASES = 60


class MinimafikTable:
    """Every bot of one game; what each one suspects it learns from its own PMs."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.rng = rng
        self.coll = collection_of(state.options["collection"])
        self.suspects: dict[str, Counter[str]] = {p.name: Counter() for p in state.players}

    def learn(self, events: Iterable[Event]) -> None:
        for e in events:
            beaten = e.type == "beaten_reveal" and "attack" in e.fields.get("colours", ())
            if e.audience is Audience.PUBLIC and beaten:
                for counts in self.suspects.values():
                    counts[e.fields["player"]] += 2
            if e.audience is not Audience.PRIVATE or not e.to:
                continue
            bot = self.suspects.get(e.to[0])
            if bot is None:
                continue
            found = (e.type == "faction_result" and e.fields["faction"] == "mafia") or (
                e.type == "role_result" and e.fields["role"] != "citizen"
            )
            if found:
                bot[e.fields["target"]] += 10

    # -- whom to name ------------------------------------------------------------------

    def call(self, state: GameState, name: str) -> str:
        """How a bot writes a character: the character name, sometimes the nickname."""
        p = state.player(name)
        character = str(p.fields.get("character") or name)
        return name if self.rng.random() < 0.2 else character

    def enemy(self, state: GameState, p: PlayerState) -> str | None:
        living = [q for q in state.players if q.fields.get("alive", True) and q.name != p.name]
        if p.faction == "mafia":
            living = [q for q in living if q.faction != "mafia"] or living
            return self.rng.choice(living).name if living else None
        if not living:
            return None
        suspects = self.suspects[p.name]
        top = max((suspects[q.name] for q in living), default=0)
        if top > 0 and self.rng.random() < 0.7:
            return self.rng.choice([q.name for q in living if suspects[q.name] == top])
        return self.rng.choice(living).name

    # -- the phases --------------------------------------------------------------------

    def turn(self, state: GameState, phase: int) -> list[Message]:
        kind = state.phase.kind if state.phase else "draft"
        out: list[Message] = []
        living = [p for p in state.players if p.fields.get("alive", True)]
        for minute, p in enumerate(living, start=1):
            lines = self.orders(state, p, kind)
            if lines:
                out.append(Message(p.name, "pm", "\n".join(lines), minute * 7, "Ход"))
        return out

    def orders(self, state: GameState, p: PlayerState, kind: str) -> list[str]:
        if kind == "draft":
            return [self.deck_order(state, p)]
        lines = []
        if p.fields.get("can_rebuild") and self.rng.random() < 0.8:
            lines.append(self.deck_order(state, p))
        play = self.play(state, p, kind)
        if play:
            lines.append(play)
        enemy = self.enemy(state, p)
        if kind == "night":
            if p.faction == "mafia" and enemy:
                extra = (
                    " +1" if int(p.fields.get("points", 0)) >= 2 and self.rng.random() < 0.3 else ""
                )
                lines.append(f"мафия: {self.call(state, enemy)}{extra}")
            elif (
                p.faction == "law"
                and int(p.fields.get("points", 0)) >= 2
                and self.rng.random() < 0.4
            ):
                lines.append("броня себе")
            candidates = [q.name for q in state.players if q.fields.get("alive", True)]
            chief = state.data.get("leader")
            candidates = [n for n in candidates if n != chief]
            if candidates and self.rng.random() < 0.8:
                lines.append(f"лидер: {self.call(state, self.rng.choice(candidates))}")
        else:
            chief = state.data.get("leader")
            if enemy and enemy != chief:
                lines.append(f"вече: {self.call(state, enemy)}")
            if chief == p.name:
                lines.append(self.rng.choice(["казнь", "избиение"]))
        return lines

    def deck_order(self, state: GameState, p: PlayerState) -> str:
        if p.faction == "law":
            picks = " ".join(
                f"{i + 1}{self.rng.choice('аб')}" for i in range(len(p.fields.get("offers") or []))
            )
            return f"выбор: {picks}"
        deck = Counter(random_mafia_deck(self.rng, p.role or "", self.coll, state.options))
        parts = [f"{self.coll.card(c).name}" + (f" x{n}" if n > 1 else "") for c, n in deck.items()]
        return "колода: " + ", ".join(parts)

    def play(self, state: GameState, p: PlayerState, kind: str) -> str | None:
        hand = list(p.fields.get("hand") or [])
        chief = state.data.get("leader") == p.name
        blanks = [i + 1 for i, c in enumerate(hand) if c == BLANK]
        if kind == "night" and blanks and len(blanks) < len(hand) and self.rng.random() < 0.5:
            return "сброс " + ",".join(map(str, blanks))
        playable = [
            (i + 1, self.coll.card(c))
            for i, c in enumerate(hand)
            if c not in (ROT, BLANK) and _timing_ok(self.coll.card(c), kind, chief)
        ]
        if not playable or self.rng.random() < 0.25:
            return None
        slot, card = self.rng.choice(playable)
        dark = self.rng.random() < (0.4 if p.faction == "mafia" else 0.1)
        side = card.dark if dark else card.light
        cost = max(0, side.cost - (1 if chief else 0))
        words = [f"играю {card.name}", "⚫" if dark else "◯"]
        if side.target != "none":
            if card.colour in ("attack",) or any(e.do == "deal_damage" for e in side.effects):
                target = self.enemy(state, p)
            elif side.target == "any":
                target = p.name
            else:
                others = [
                    q.name
                    for q in state.players
                    if q.fields.get("alive", True) and q.name != p.name
                ]
                target = self.rng.choice(others) if others else None
            if target is None or (side.target == "other" and target == p.name):
                return None
            words.append(f"на {self.call(state, target)}")
        points = int(p.fields.get("points", 0))
        if cost > points:
            spare = [i + 1 for i, c in enumerate(hand) if i + 1 != slot and c != ROT]
            if len(spare) < cost - points:
                return None
            # «сброс N»: the cards named pay first, the rest of the cost in points.
            paid = spare[: cost - points]
            words.append(f"оплата: сброс {','.join(map(str, paid))}")
        if any(e.do == "send_message" for e in side.effects):
            words.append(f"«{self.rng.choice(MESSAGES)}»")
        return " ".join(words)


MESSAGES = [
    "Я за тобой слежу.",
    "Голосуй со мной, не пожалеешь.",
    "Мафия ближе, чем ты думаешь.",
    "Держись, завтра будет жарко.",
]


def _timing_ok(card: Card, kind: str, chief: bool) -> bool:
    if kind == "night":
        return card.timing in ("night", "any", "conditional_day")
    return card.timing in ("any", "day") or (card.timing == "conditional_day" and chief)


async def play_minimafik(
    seed: int, lang: str, database: Path, show: Show, *, gm_password: str | None = None
) -> DemoResult:
    """A full 8-player minimafik game, from the draft to the end, through the driver."""
    rng = random.Random(seed * 7919 + 11)
    nicks = [nick for nick, _, _ in SEATS]
    table = demo_table(database, nicks, "Минимафик: демонстрационная партия", gm_password)
    config = demo_config(table, "minimafik", seed, lang, nicks)
    config.visible_roles = {nick: visible for nick, _, visible in SEATS}
    config.options = {"characters": {nick: name for nick, name, _ in SEATS}}
    return await play_game(
        table, config, lambda state: MinimafikTable(state, rng), show, max_phases=MAX_PHASES
    )
