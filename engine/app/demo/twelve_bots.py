"""The «12 комнат» demo: ten simulated players walk the hidden map to the end of the game.

Bots know what a player knows: their role, their room and vote weight, the mafia its team and
who shares each member's room, their own check results and what the thread says. Each turn
they send their whole turn by PM in forum Russian, sometimes in two PMs, at different times.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from engine import i18n
from engine.app.demo.bots import Message
from engine.app.demo.play import DemoResult, demo_config, demo_table, play_game
from engine.app.demo.show import Show
from engine.app.demo.speech import decline
from engine.core.events import Audience, Event
from engine.core.model import GameState
from engine.core.phases import PhaseId
from engine.i18n import _

NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена", "Орёл", "Катя", "Серёга"]
MAX_PHASES = 60
MAFIA_ROLES = {"manager", "guarantor", "executor", "minister", "deputy", "mafioso"}
DIRECTIONS = ["вверх", "вниз", "влево", "вправо", "остаюсь"]
TALK = [
    "Кто был в комнате с камерами? Давайте сверим маршруты.",
    "Детектор опять показал отрицательный статус, это не просто так.",
    "Я иду туда, где ещё не был: вес голоса сам себя не наберёт.",
    "Не нравится мне тишина в теме.",
]


@dataclass
class TwelveBot:
    name: str
    role: str = "citizen"
    team: set[str] = field(default_factory=set)
    room: int = 0
    roommates: list[str] = field(default_factory=list)
    suspects: set[str] = field(default_factory=set)
    cleared: set[str] = field(default_factory=set)

    @property
    def mafia(self) -> bool:
        return bool(self.team) or self.role in MAFIA_ROLES


class TwelveTable:
    """Every bot of one game and what each of them knows."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.rng = rng
        self.bots = {p.name: TwelveBot(p.name) for p in state.players}

    def learn(self, events: Iterable[Event]) -> None:
        for e in events:
            if e.audience is not Audience.PRIVATE:
                continue
            for to in e.to:
                bot = self.bots.get(to)
                if bot is not None:
                    self._learn(bot, e)

    def _learn(self, bot: TwelveBot, e: Event) -> None:
        f = e.fields
        if e.type in ("role_assigned", "role_changed"):
            bot.role = str(f["role"])
        elif e.type == "mafia_team":
            bot.team = set(f["players"])
        elif e.type == "position":
            bot.room = int(f["room"])
        elif e.type == "roommates" and f["of"] == bot.name:
            bot.roommates = list(f["players"])
        elif e.type == "role_check":
            (bot.suspects if f["role"] in MAFIA_ROLES else bot.cleared).add(f["target"])
        elif e.type == "guilt_check" and f["result"] == "guilty":
            bot.suspects.add(f["target"])

    def turn(self, state: GameState, phase: int) -> list[Message]:
        alive = [p.name for p in state.players if p.fields.get("alive", True)]
        number = state.phase.number if state.phase is not None else 1
        out: list[Message] = []
        killer = self._killer(alive)
        for minute, name in enumerate(alive, start=1):
            bot = self.bots[name]
            if number == 0:
                if bot.mafia and self.rng.random() < 0.3:
                    room = self.rng.randint(1, 12)
                    out.append(Message(name, "pm", f"стартовая комната {room}", minute * 7))
                continue
            lines = [f"перемещение: {self.rng.choice(DIRECTIONS)}"]
            skill = self._skill(bot, alive)
            if skill:
                lines.append(skill)
            if name == killer:
                victim = self.rng.choice([n for n in bot.roommates if n not in bot.team])
                lines.append(f"мафкилл {decline(victim, 'acc')}")
            vote = self._vote(bot, alive, number)
            if self.rng.random() < 0.3:
                # The vote in a second PM, later: it sets the time of the turn (§2.3).
                out.append(Message(name, "pm", "\n".join(lines), minute * 11, "Ход"))
                out.append(Message(name, "pm", vote, minute * 11 + 300, "Голос"))
            else:
                out.append(Message(name, "pm", "\n".join([*lines, vote]), minute * 11, "Ход"))
            if self.rng.random() < 0.25:
                out.append(Message(name, "thread", self.rng.choice(TALK), minute * 11 + 1))
        return out

    def _killer(self, alive: list[str]) -> str | None:
        """The first mafia member (by seat) who shares a room with a town player."""
        for name in alive:
            bot = self.bots[name]
            if bot.mafia and any(n in alive and n not in bot.team for n in bot.roommates):
                return name
        return None

    def _vote(self, bot: TwelveBot, alive: list[str], number: int) -> str:
        if number == 1 and self.rng.random() < 0.5:
            return "голос: не судить"
        others = [n for n in alive if n != bot.name and n not in bot.team]
        suspects = [n for n in others if n in bot.suspects]
        pool = suspects or [n for n in others if n not in bot.cleared] or others or [bot.name]
        return f"голосую за {decline(self.rng.choice(pool), 'acc')}"

    def _skill(self, bot: TwelveBot, alive: list[str]) -> str | None:
        rng = self.rng
        others = [n for n in alive if n != bot.name]
        if not others or rng.random() < 0.2:
            return None
        target = rng.choice([n for n in others if n not in bot.team] or others)
        acc, gen = decline(target, "acc"), decline(target, "gen")
        # «Терапия» on a teammate in the same room only (rule 7): the bot knows who is there.
        near = [n for n in bot.roommates if n in bot.team and n in alive]
        therapy = f"\nтерапия: {rng.choice(near)}" if near else ""
        room = rng.randint(1, 12)
        return {
            "observer": f"АС1 Путевой лист на {acc}",
            "savior": f"хил {decline(rng.choice(alive), 'acc')}",
            "warden": rng.choice([f"АС1 Личина на {acc}", f"АС2 Кто здесь? {room}"]),
            "custodian": f"По бумагам {acc} и {decline(rng.choice(others), 'acc')}",
            "interrogator": f"Допрос {gen}",
            "guarantor": f"АС1 Отдыхай на {acc}",
            "manager": f"АС2 Молчать {room}",
            "executor": f"АС2 Обман на {acc}",
            "minister": f"сомнения: {target}{therapy}",
        }.get(bot.role)


class TwelveShow(Show):
    """What the «12 комнат» demo shows: turns, thread talk, the GM's secret vote table."""

    other_posts = "post"  # anonymous messages

    def turn_header(self, turn: int, phase: str, deadline: datetime) -> None:
        """Headed by the game's own turn number: turn 0 is the placement."""
        number = PhaseId.parse(phase).number
        self.shows_votes = number > 0  # no vote in turn 0
        super().turn_header(number, phase, deadline)

    def intro(self, state: GameState, players: int) -> None:
        with i18n.use(self.lang):
            said = _("Demo: 12 Rooms, {n} players, a 3×4 map, local board, SQLite")
        self.console.print(said.format(n=players))


async def play_twelve(
    seed: int, lang: str, database: Path, show: Show, *, gm_password: str | None = None
) -> DemoResult:
    """A whole ten-player game, turn 0 (the mafia may regroup) to the end, through the driver."""
    rng = random.Random(seed * 7919 + 12)
    title = "12 комнат: демонстрационная партия"
    table = demo_table(database, NAMES, title, gm_password)
    config = demo_config(table, "twelve-rooms", seed, lang, NAMES)
    return await play_game(
        table, config, lambda state: TwelveTable(state, rng), show, max_phases=MAX_PHASES
    )
