"""The yakuza demo: 18 simulated players play Mafia vs Yakuza to the end on the local board.

Bots know what a real player knows: their own secret role, their team, the visible roles,
the public statuses and deaths. They send night orders by PM and post votes and day
abilities in the thread, in the forum Russian the grammar reads.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.app.demo.show import Show
from engine.core.events import Audience, Event
from engine.core.model import GameState, PlayerState
from engine.core.ruleset import Seat
from engine.gm import GameMaster
from engine.render import Renderer
from engine.session import GameSession
from engine.store import Store, open_store
from forums.local import LocalBoard, ManualClock

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
GM_NAME = "Ведущий"
MOSCOW = ZoneInfo("Europe/Moscow")
FIRST_OPENING = datetime(2026, 12, 1, 19, 0, tzinfo=MOSCOW)
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


@dataclass
class Message:
    author: str
    channel: str
    text: str
    minute: int


class YakuzaTable:
    """Every bot of one game and what each of them knows."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.rng = rng
        self.bots = {
            p.name: YakuzaBot(p.name, p.role or "citizen", p.faction or "law")
            for p in state.players
        }

    def learn(self, events: list[Event]) -> None:
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

    def phase(self, state: GameState) -> list[Message]:
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
                    out.append(Message(p.name, "pm", text, minute * 3))
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


@dataclass
class YakuzaDemoResult:
    winner: str | None
    turns: int
    database: Path
    transcript: list[str]


async def play_yakuza(
    seed: int, lang: str, database: Path, show: Show, *, gm_password: str | None = None
) -> YakuzaDemoResult:
    """A full 18-player yakuza game with the GM loop over the local board and the store."""
    import rulesets

    if database.exists():
        database.unlink()
    url = f"sqlite:///{database}"
    store: Store = open_store(url)
    clock = ManualClock(FIRST_OPENING - timedelta(hours=1))
    gm_password = gm_password or secrets.token_urlsafe(16)
    board = LocalBoard(url, GM_NAME, gm_password, clock=clock)
    board.create_schema()
    board.add_user(GM_NAME, gm_password)
    rng = random.Random(seed * 7919 + 5)
    names = NAMES[:18]
    for name in names:
        board.add_user(name, secrets.token_urlsafe(12))
    thread = board.create_thread("Мафия против Якудзы: демонстрационная партия", GM_NAME)
    db_board = store.create_board("local", "local://demo", GM_NAME, credentials_ref="process:demo")
    game = store.create_game(db_board.id, thread, "yakuza", seed=seed, language=lang)
    ruleset = rulesets.find("yakuza")
    visibles = rng.sample(VISIBLE, 18)
    seats = [Seat(name, visible_role=v) for name, v in zip(names, visibles, strict=True)]
    session = GameSession.new(ruleset, seats, None, seed)
    for seat, p in enumerate(session.state.players, start=1):
        store.add_player(game.id, p.name, seat=seat, role=p.role, faction=p.faction)
    renderer = Renderer.for_ruleset(ruleset, lang, tz=MOSCOW)
    gm = GameMaster(store, board, game.id, session, renderer, thread, gm_name=GM_NAME)
    table = YakuzaTable(session.state, rng)
    table.learn(session.pending_setup)
    intro = {
        "ru": "Демо: Мафия против Якудзы, 18 игроков, локальный форум, SQLite",
        "en": "Demo: Mafia vs Yakuza, 18 players, local board, SQLite",
    }
    show.console.print(intro.get(lang, intro["en"]))
    transcript: list[str] = []
    phases = 0
    while not session.state.finished and phases < MAX_PHASES:
        phases += 1
        opened = FIRST_OPENING + timedelta(days=phases - 1)
        deadline = opened + timedelta(days=1)
        clock.set(opened)
        log = session.open_phase(opened, deadline)
        store.open_phase(game.id, log.phase, session.state)
        if phases == 1:
            gm.queue_opening(log.events)
            await gm.publish()
        show.console.print()
        show.console.print(f"[bold]— {log.phase.id} —[/]")
        for message in table.phase(session.state):
            clock.set(opened + timedelta(minutes=message.minute))
            if message.channel == "thread":
                board.post_as(message.author, thread, message.text)
                show.thread_post(message.author, message.text)
            else:
                board.pm_as(message.author, [GM_NAME], "Ночь", message.text)
            await gm.poll()
            await gm.publish()
        clock.set(deadline - timedelta(minutes=1))
        await gm.poll()
        clock.set(deadline)
        log = gm.close_phase()
        table.learn(log.resolution)
        await gm.publish()
        results = [e for e in log.resolution if e.audience is Audience.PUBLIC]
        post = renderer.render_public(
            results, phase=str(log.phase.id), context={"players": session.state.names}
        )
        transcript.append(post)
        show.results(post, len(log.warnings))
    show.console.print()
    show.console.print(
        f"[bold green]{session.state.winner} — {phases} phases, "
        f"{len(store.outbox(game.id))} GM posts and PMs[/]"
    )
    await board.close()
    return YakuzaDemoResult(session.state.winner, phases, database, transcript)
