"""Simulated players for the demo: they argue in the thread and send votes and orders by PM.

Each bot knows only what a real player would: its own role, its clan's roster, its own
check results, and what is said publicly. Their words are ordinary forum Russian, with
nicknames declined as people write them («голосую за Колю», «слежу за Петей»).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.app.demo.speech import decline
from engine.core.events import Event
from engine.core.model import GameState
from engine.wording import name_gender

TOWN_GREETINGS = [
    "Всем привет. Давайте без паники, думаем головой.",
    "Доброе утро, город. Кто что думает по итогам?",
    "Ну что, кто сегодня будет оправдываться?",
    "Я пока читаю тему, но кое-что уже не нравится.",
]
SUSPICION = [
    "{nom} что-то подозрительно молчит весь ход.",
    "Мне не нравится, как {nom} переводит стрелки.",
    "{nom}, а почему ты вчера так уверенно <топил|топила> за посадку?",
    "По-моему, {nom} слишком старается выглядеть <мирным|мирной>.",
    "Я бы [присмотрелся|присмотрелась] к {dat}, очень уж гладко всё у <него|неё>.",
]
DEFENCE = [
    "Я [мирный|мирная], честно. Давайте искать мафию, а не друг друга.",
    "Меня сажать бессмысленно, только ход потеряете.",
    "Не надо на меня так смотреть, я [сам|сама] в шоке от ночи.",
]
AGREE = ["[Согласен|Согласна], логично.", "Поддержу, есть в этом смысл.", "Хм, а ведь правда."]
DISAGREE = ["Не <убедил|убедила>, слишком очевидно.", "Это слишком просто, мафия так не палится."]
"""[m|f] agrees with the bot who writes, <m|f> with the player the line is about."""

_SPEAKER = re.compile(r"\[([^\[\]|]*)\|([^\[\]|]*)\]")
_SUBJECT = re.compile(r"<([^<>|]*)\|([^<>|]*)>")


def agree(line: str, speaker: str, about: str | None = None) -> str:
    """The line with each form chosen for the gender of the bot and of the one it is about
    (a name the dictionary cannot tell takes the masculine form)."""

    def pick(name: str | None) -> Callable[[re.Match[str]], str]:
        female = name is not None and name_gender(name) == "f"
        return lambda m: m.group(2) if female else m.group(1)

    return _SUBJECT.sub(pick(about), _SPEAKER.sub(pick(speaker), line))


@dataclass
class Message:
    """Something a bot sends: a thread post or a PM to the GM, at a minute of the turn."""

    author: str
    channel: str
    text: str
    minute: int
    subject: str = "Ход"
    """The PM's subject line (thread posts have none)."""


@dataclass
class Bot:
    name: str
    role: str
    faction: str
    friends: set[str] = field(default_factory=set)
    known_enemies: set[str] = field(default_factory=set)
    known_town: set[str] = field(default_factory=set)
    suspicion: dict[str, float] = field(default_factory=dict)


class Table:
    """All simulated players of one demo game."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.rng = rng
        self.bots = {
            p.name: Bot(p.name, p.role or "citizen", p.faction or "town") for p in state.players
        }
        self.claims: dict[str, str] = {}
        """Public claims from the thread: accused name → who claimed it."""
        self.last_posts: list[Message] = []

    def learn(self, events: Iterable[Event]) -> None:
        """Update what each bot knows from its PMs and the public results."""
        for e in events:
            f = e.fields
            if e.type == "team_roster":
                for to in e.to:
                    self.bots[to].friends |= set(f["members"])
            elif e.type == "check_result":
                for to in e.to:
                    bucket = (
                        self.bots[to].known_town
                        if f["faction"] == "town"
                        else self.bots[to].known_enemies
                    )
                    bucket.add(f["target"])
            elif e.type == "vigilante_result" and f.get("result") == "own":
                for to in e.to:
                    self.bots[to].known_town.add(f["target"])
            elif e.type == "vote_tally":
                self._votes_seen = dict(f.get("votes", {}))
            elif e.type == "imprisonment" and f.get("faction") == "town":
                for voter, target in getattr(self, "_votes_seen", {}).items():
                    if target == f["player"]:
                        for bot in self.bots.values():
                            bot.suspicion[voter] = bot.suspicion.get(voter, 0.0) + 0.6

    # -- one turn ------------------------------------------------------------------------

    def turn(self, state: GameState, phase: int) -> list[Message]:
        alive = [p.name for p in state.players if p.fields.get("alive") and p.fields.get("free")]
        out: list[Message] = []
        mafia_target = self._mafia_target(state, alive)
        for name in alive:
            bot = self.bots[name]
            out.extend(self._talk(bot, alive, phase))
            out.append(self._pm(bot, state, alive, mafia_target))
        if self.rng.random() < 0.35 and alive:
            out.append(
                Message(
                    self.rng.choice(alive), "thread", "Мастер, рейтинг голосования, пожалуйста", 700
                )
            )
        out.sort(key=lambda m: m.minute)
        return out

    def _is_mafia(self, bot: Bot) -> bool:
        return bot.faction.startswith("mafia")

    def _suspect(self, bot: Bot, alive: list[str]) -> str:
        others = [
            n for n in alive if n != bot.name and n not in bot.friends and n not in bot.known_town
        ]
        enemies = [n for n in others if n in bot.known_enemies]
        if enemies:
            return enemies[0]
        claimed = [n for n in others if n in self.claims and self.claims[n] != bot.name]
        if claimed and not self._is_mafia(bot) and self.rng.random() < 0.8:
            return claimed[0]
        pool = others or [n for n in alive if n != bot.name] or alive
        weights = [1.0 + bot.suspicion.get(n, 0.0) for n in pool]
        return self.rng.choices(pool, weights)[0]

    def _mafia_target(self, state: GameState, alive: list[str]) -> dict[str, str]:
        targets: dict[str, str] = {}
        for clan in ("mafia", "mafia_b"):
            outsiders = [n for n in alive if state.player(n).faction != clan]
            if not outsiders:
                continue
            claimers = [n for n in outsiders if n in self.claims.values()]
            targets[clan] = claimers[0] if claimers else self.rng.choice(outsiders)
        return targets

    def _talk(self, bot: Bot, alive: list[str], turn: int) -> list[Message]:
        out = []
        minute = self.rng.randint(10, 600)
        roll = self.rng.random()
        if roll < 0.3:
            out.append(Message(bot.name, "thread", self.rng.choice(TOWN_GREETINGS), minute))
        elif roll < 0.75:
            who = self._suspect(bot, alive)
            line = self.rng.choice(SUSPICION).format(nom=who, dat=decline(who, "dat"))
            line = agree(line, bot.name, who)
            out.append(Message(bot.name, "thread", line, minute))
        elif self.last_posts:
            quoted = self.rng.choice(self.last_posts)
            if quoted.author != bot.name:
                reply = agree(self.rng.choice(AGREE + DISAGREE), bot.name, quoted.author)
                text = f"[quote={quoted.author}]{quoted.text}[/quote]\n{reply}"
                out.append(Message(bot.name, "thread", text, minute + 30))
        else:
            out.append(
                Message(bot.name, "thread", agree(self.rng.choice(DEFENCE), bot.name), minute)
            )
        if bot.role == "commissar" and bot.known_enemies & set(alive):
            enemy = sorted(bot.known_enemies & set(alive))[0]
            self.claims[enemy] = bot.name
            out.append(
                Message(
                    bot.name,
                    "thread",
                    f"Я комиссар. Проверил {decline(enemy, 'acc')} — мафия! Сажаем.",
                    60,
                )
            )
        if self.rng.random() < 0.1:
            who = self._suspect(bot, alive)
            out.append(Message(bot.name, "thread", f"Виноват {who}", minute + 45))
        self.last_posts = (self.last_posts + out)[-8:]
        return out

    def _vote_line(self, bot: Bot, alive: list[str]) -> str:
        target = self._suspect(bot, alive)
        form = self.rng.random()
        if form < 0.45:
            return f"голосую за {decline(target, 'acc')}"
        if form < 0.85:
            return f"Виноват {target}"
        return f"голос за {decline(target, 'acc')}"

    def _order_line(
        self, bot: Bot, state: GameState, alive: list[str], mafia: dict[str, str]
    ) -> str | None:
        others = [n for n in alive if n != bot.name]
        if not others:
            return None
        pick = self.rng.choice(others)
        unknown = [n for n in others if n not in bot.friends | bot.known_town | bot.known_enemies]
        role = bot.role
        if role == "mafioso" or (role == "outcast" and self._is_mafia(bot)):
            target = mafia.get(state.player(bot.name).faction or "", pick)
            return f"стреляем в {decline(target, 'acc')}"
        if role in ("killer", "maniac"):
            enemies = [n for n in others if n not in bot.friends]
            return f"выстрел: {self.rng.choice(enemies or others)}"
        if role == "commissar":
            return f"проверка {decline(self.rng.choice(unknown or others), 'gen')}"
        if role == "lawyer":
            return f"проверяю {decline(self.rng.choice(unknown or others), 'acc')}"
        if role == "doctor":
            claimers = [n for n in alive if n in self.claims.values()]
            if claimers and claimers[0] != bot.name:
                return f"лечу {decline(claimers[0], 'acc')}"
            return "лечу себя" if self.rng.random() < 0.3 else f"лечу {decline(pick, 'acc')}"
        if role == "bodyguard":
            return f"защищаю {decline(pick, 'acc')}"
        if role == "sheriff":
            return f"самосуд над {decline(self._suspect(bot, alive), 'ins')}"
        if role == "witness":
            return f"слежу за {decline(pick, 'ins')}"
        if role == "thief":
            return f"отвлекаю {decline(self._suspect(bot, alive), 'acc')}"
        if role == "sorcerer":
            return f"травлю {decline(pick, 'acc')}"
        return None

    def _pm(self, bot: Bot, state: GameState, alive: list[str], mafia: dict[str, str]) -> Message:
        lines = []
        if self.rng.random() < 0.3:
            lines.append(
                self.rng.choice(["Привет, мастер!", "Мастер, мои решения:", "Добрый вечер."])
            )
        order = self._order_line(bot, state, alive, mafia)
        if order:
            lines.append(order)
        lines.append(self._vote_line(bot, alive))
        return Message(bot.name, "pm", "\n".join(lines), self.rng.randint(300, 1380))
