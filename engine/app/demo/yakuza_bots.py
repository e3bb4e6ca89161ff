"""The yakuza demo: 18 simulated players play Mafia vs Yakuza to the end on the local board.

Bots know what a real player knows: their own secret role, their team, the visible roles,
the public statuses and deaths. They send night orders by PM and post votes and day
abilities in the thread, in the forum Russian the grammar reads.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.app.demo.bots import Message
from engine.app.demo.play import DemoResult, demo_config, demo_table, play_game
from engine.app.demo.show import Show
from engine.core.events import Audience, Event
from engine.core.model import GameState, PlayerState

NAMES = [
    "Вася",
    "Петя",
    "Маша",
    "Коля",
    "Оля",
    "Гена",
    "Лена",
    "Орёл",
    "Катя",
    "Серёга",
    "Ира",
    "Дима",
    "Юля",
    "Стас",
    "Нина",
    "Рома",
    "Жора",
    "Тоня",
]
VISIBLE = [
    "monk",
    "strongman",
    "medic",
    "electrician",
    "authority",
    "paratrooper",
    "revolutionary",
    "paranoid",
    "marauder",
    "lawyer",
    "avenger",
    "chief_doctor",
    "plagiarist",
    "gravedigger",
    "student",
    "gopnik",
    "stuntman",
    "cultist",
    "hulk",
    "vip",
]
MAX_PHASES = 60

ROLE_WORD = {
    "sensei": "сэнсэй",
    "ninja": "ниндзя",
    "shinobi": "синоби",
    "boss": "босс",
    "brute": "громила",
    "killer": "киллер",
    "maniac": "маньяк",
    "psycho": "псих",
    "spy": "шпион",
    "commissar": "комиссар",
    "punisher": "каратель",
}
CHATTER = [
    "Ночь была жаркая. Кто что думает?",
    "Я бы присмотрелся к тем, кто молчит.",
    "Больница переполнена, врачи не справляются.",
    "Не верю я этим тихоням.",
    "Давайте без паники, голосуем по делу.",
]


@dataclass
class YakuzaBot:
    name: str
    role: str
    faction: str
    team: set[str] = field(default_factory=set)
    known_peaceful: set[str] = field(default_factory=set)
    suspects: set[str] = field(default_factory=set)


class YakuzaTable:
    """Every bot of one game and what each of them knows."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.rng = rng
        self.bots = {
            p.name: YakuzaBot(p.name, p.role or "citizen", p.faction or "law")
            for p in state.players
        }

    def learn(self, events: Iterable[Event]) -> None:
        for e in events:
            if e.audience is not Audience.PRIVATE:
                continue
            for to in e.to:
                bot = self.bots.get(to)
                if bot is None:
                    continue
                if e.type == "team":
                    bot.team = {m["player"] for m in e.fields["members"]}
                elif e.type == "check_result":
                    target = e.fields["target"]
                    if e.fields["result"] == "peaceful":
                        bot.known_peaceful.add(target)
                    else:
                        bot.suspects.add(target)
                elif e.type in ("role_result", "partner_found"):
                    bot.team.add(e.fields["target"]) if e.type == "partner_found" else None

    def _enemies(self, bot: YakuzaBot, alive: list[str]) -> list[str]:
        others = [n for n in alive if n != bot.name and n not in bot.team]
        suspects = [n for n in others if n in bot.suspects]
        if suspects:
            return suspects
        peaceful = [n for n in others if n not in bot.known_peaceful]
        return peaceful or others or [bot.name]

    def turn(self, state: GameState, phase: int) -> list[Message]:
        alive = [p for p in state.players if p.fields.get("alive", True)]
        names = [p.name for p in alive]
        night = state.phase is not None and state.phase.kind == "night"
        out: list[Message] = []
        for minute, p in enumerate(alive, start=1):
            bot = self.bots[p.name]
            status = p.fields.get("status")
            if night:
                if status == "coma" or (status == "hospital" and bot.role != "maniac"):
                    continue
                text = self._night_order(bot, p, names)
                if text:
                    out.append(Message(p.name, "pm", text, minute * 3, "Ночь"))
            else:
                if status == "coma":
                    continue
                lines = []
                if self.rng.random() < 0.3:
                    lines.append(self.rng.choice(CHATTER))
                target = self.rng.choice(self._enemies(bot, names))
                lines.append(f"голос {target}" if self.rng.random() < 0.85 else "за мир")
                lines.extend(self._day_ability(p, names, target))
                out.append(Message(p.name, "thread", "\n".join(lines), minute * 3))
        return out

    def _day_ability(self, p: PlayerState, names: list[str], target: str) -> list[str]:
        visible = p.fields.get("visible_role")
        friend = self.rng.choice(names)
        if visible == "electrician":
            return [f"током {target}"]
        if visible == "gopnik":
            return [f"отжать {target}"]
        if visible == "cultist":
            return [f"проклятие {target}"]
        if visible == "medic":
            return [f"медик {friend}"]
        return []

    def _night_order(self, bot: YakuzaBot, p: PlayerState, names: list[str]) -> str | None:
        rng = self.rng
        enemy = rng.choice(self._enemies(bot, names))
        role = bot.role
        spent = p.fields.get("spent", [])
        if p.fields.get("nagant_victim") and rng.random() < 0.7:
            return f"наган {p.fields['nagant_victim']}"
        if role == "sensei":
            if p.fields.get("has_katana"):
                return f"катана {enemy}"
            return rng.choice(["медитация", "защищаюсь", "месть + медитация"])
        if role == "ninja":
            return f"катана {enemy}" if rng.random() < 0.8 else f"ловушка {enemy}"
        if role == "shinobi":
            return rng.choice([f"сюрикены {enemy}", f"тень {enemy}", f"сюрикены {enemy}"])
        if role == "boss":
            shots = 1 + int(p.fields.get("stored_shots", 0))
            if shots > 1 or rng.random() < 0.5:
                return f"пистолет {enemy} x{shots}" if shots > 1 else f"пистолет {enemy}"
            return f"заказ {enemy}"
        if role == "brute":
            order = f"нападение {enemy}" if rng.random() < 0.7 else f"прослушка {enemy}"
            if p.fields.get("has_pistol"):
                order += f"\nпистолет {enemy}"
            return order
        if role == "killer":
            if rng.random() < 0.6:
                return f"снайперка {enemy}"
            second = rng.choice([n for n in names if n != enemy] or [enemy])
            return f"парные пистолеты {enemy}, {second}"
        if role == "maniac":
            if rng.random() < 0.15:
                return f"убийство {enemy} {rng.choice(list(ROLE_WORD.values()))}"
            return f"нож {enemy}"
        if role == "psycho":
            return (
                f"нож {enemy} {rng.choice([30, 50, 80])}"
                if rng.random() < 0.8
                else f"охота {enemy}"
            )
        if role == "spy":
            return f"слежка {enemy}"
        if role == "commissar":
            return f"досье {enemy}"
        if role == "punisher":
            return f"револьвер {enemy}" if bot.suspects or rng.random() < 0.5 else None
        if role == "citizen":
            friend = rng.choice(names)
            choices = []
            if "protection" not in spent:
                choices.append(f"защита {friend}")
            if "heal" not in spent and p.fields.get("hp", 100) < 70:
                choices.append("лечение себя")
            if "observation" not in spent:
                choices.append("наблюдение катана")
            return rng.choice(choices) if choices else None
        return None


async def play_yakuza(
    seed: int, lang: str, database: Path, show: Show, *, gm_password: str | None = None
) -> DemoResult:
    """A full 18-player yakuza game, run by the service's driver over the local board."""
    rng = random.Random(seed * 7919 + 5)
    names = NAMES[:18]
    title = "Мафия против Якудзы: демонстрационная партия"
    table = demo_table(database, names, title, gm_password)
    config = demo_config(table, "yakuza", seed, lang, names)
    config.visible_roles = dict(zip(names, rng.sample(VISIBLE, 18), strict=True))
    return await play_game(
        table, config, lambda state: YakuzaTable(state, rng), show, max_phases=MAX_PHASES
    )
