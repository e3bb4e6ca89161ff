"""Plays one seeded classic game on the local board, with a fresh SQLite store."""

from __future__ import annotations

import asyncio
import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.app.demo.bots import Table
from engine.app.demo.show import Show
from engine.core.events import Audience
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
    "Nekr0",
    "Ира",
]
GM_NAME = "Ведущий"
MOSCOW = ZoneInfo("Europe/Moscow")
FIRST_OPENING = datetime(2026, 12, 1, 19, 0, tzinfo=MOSCOW)
MAX_TURNS = 40


def demo_roles(players: int) -> dict[str, int]:
    """The spec's setup suggestions (classic.md §6.5) for 9–12 players."""
    if players <= 9:
        roles = {"mafioso": 2, "commissar": 1, "doctor": 1}
    else:
        roles = {"mafioso": 2, "thief": 1, "commissar": 1, "doctor": 1, "bodyguard": 1}
        if players >= 12:
            roles["maniac"] = 1
    roles["citizen"] = players - sum(roles.values())
    return roles


@dataclass
class DemoResult:
    winner: str | None
    turns: int
    database: Path
    transcript: list[str]


async def play(
    seed: int,
    players: int,
    lang: str,
    database: Path,
    show: Show,
    *,
    gm_password: str | None = None,
) -> DemoResult:
    if not 9 <= players <= 12:
        raise ValueError("the demo seats 9 to 12 players")
    if database.exists():
        database.unlink()
    url = f"sqlite:///{database}"
    store: Store = open_store(url)
    clock = ManualClock(FIRST_OPENING - timedelta(hours=1))
    gm_password = gm_password or secrets.token_urlsafe(16)  # lives only in this process
    board = LocalBoard(url, GM_NAME, gm_password, clock=clock)
    board.create_schema()
    board.add_user(GM_NAME, gm_password)
    names = NAMES[:players]
    passwords = {name: secrets.token_urlsafe(12) for name in names}
    for name in names:
        board.add_user(name, passwords[name])
    thread = board.create_thread("Мафия: демонстрационная партия", GM_NAME)
    db_board = store.create_board("local", "local://demo", GM_NAME, credentials_ref="process:demo")
    game = store.create_game(db_board.id, thread, "classic", seed=seed, language=lang)

    import rulesets

    ruleset = rulesets.find("classic")
    seats = [Seat(name) for name in names]
    session = GameSession.new(ruleset, seats, {"roles": demo_roles(players)}, seed)
    for seat, p in enumerate(session.state.players, start=1):
        store.add_player(game.id, p.name, seat=seat, role=p.role, faction=p.faction)
    renderer = Renderer.for_ruleset(ruleset, lang, tz=MOSCOW)
    gm = GameMaster(store, board, game.id, session, renderer, thread, gm_name=GM_NAME)
    table = Table(session.state, random.Random(seed * 7919 + 1))
    table.learn(session.pending_setup)
    show.intro(session.state, players)
    transcript: list[str] = []
    turn = 0
    while not session.state.finished and turn < MAX_TURNS:
        turn += 1
        opened = FIRST_OPENING + timedelta(days=turn - 1)
        deadline = opened + timedelta(days=1)
        clock.set(opened)
        log = session.open_phase(opened, deadline)
        store.open_phase(game.id, log.phase, session.state)
        if turn == 1:
            gm.queue_opening(log.events)
            await gm.publish()
        show.turn_header(turn, deadline)
        for message in table.turn(session.state, turn):
            clock.set(opened + timedelta(minutes=message.minute))
            if message.channel == "thread":
                board.post_as(message.author, thread, message.text)
                show.thread_post(message.author, message.text)
            else:
                board.pm_as(message.author, [GM_NAME], "Ход", message.text)
            if message.minute % 5 == 0:
                await _poll(gm, show)
        clock.set(deadline - timedelta(minutes=1))
        await _poll(gm, show)
        clock.set(deadline)
        show.votes(ruleset.vote_view(session.state, session.inputs, public=False))  # type: ignore[arg-type]
        log = gm.close_phase()
        table.learn(log.resolution)
        await gm.publish()
        results = [e for e in log.resolution if e.audience is Audience.PUBLIC]
        post = renderer.render_public(
            results, phase=str(log.phase.id), context={"players": session.state.names}
        )
        transcript.append(post)
        show.results(post, len(log.warnings))
    show.finish(session.state, store, game.id)
    await board.close()
    return DemoResult(session.state.winner, turn, database, transcript)


async def _poll(gm: GameMaster, show: Show) -> None:
    result = await gm.poll()
    for event in result.events:
        if event.audience is Audience.PUBLIC and event.type == "vote_rating":
            show.rating(gm.renderer.render_event_post(event))
    await gm.publish()


def run_demo(
    seed: int,
    players: int,
    lang: str,
    database: Path,
    *,
    quiet: bool = False,
    width: int | None = None,
    gm_password: str | None = None,
    ruleset: str = "classic",
) -> DemoResult:
    show = Show(quiet=quiet, width=width, lang=lang)
    if ruleset == "yakuza":
        from engine.app.demo.yakuza_bots import play_yakuza

        return asyncio.run(play_yakuza(seed, lang, database, show, gm_password=gm_password))  # type: ignore[return-value]
    return asyncio.run(play(seed, players, lang, database, show, gm_password=gm_password))
