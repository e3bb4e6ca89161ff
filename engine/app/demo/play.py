"""The demo's one play loop: bots post on the local board while `GameDriver` runs the game."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

from engine.app.demo.bots import Message
from engine.app.demo.show import Show
from engine.config import GameConfig
from engine.core.events import Event
from engine.core.model import GameState
from engine.credentials import CredentialsRef
from engine.publish import marker_line
from engine.schedule import Schedule
from engine.service.driver import GameDriver
from engine.session import GameSession
from engine.store import Store, open_store
from engine.store.models import GameStatus, OutboxKind, OutboxStatus, PhaseRecord
from forums.local import LocalBoard, ManualClock

GM_NAME = "Ведущий"
MOSCOW = ZoneInfo("Europe/Moscow")
# Every phase, day or night, runs a day from 19:00 Moscow time: the demo's old timing.
SCHEDULE = Schedule.parse("every day 19:00", "Europe/Moscow")
FIRST_OPENING = datetime(2026, 12, 1, 19, 0, tzinfo=MOSCOW)


class Players(Protocol):
    """The simulated players of one game, whatever the ruleset."""

    def turn(self, state: GameState, phase: int, /) -> list[Message]:
        """What they send during the phase-th phase (minutes after it opens)."""
        ...

    def learn(self, events: Iterable[Event], /) -> None:
        """Take in a phase's events (each bot reads only its own private ones)."""
        ...


@dataclass
class DemoResult:
    winner: str | None
    turns: int
    database: Path
    transcript: list[str]


@dataclass
class DemoTable:
    """The local board and store of one demo game, in one fresh SQLite file."""

    database: Path
    store: Store
    board: LocalBoard
    clock: ManualClock
    thread: str


def demo_table(database: Path, names: list[str], title: str, gm_password: str | None) -> DemoTable:
    if database.exists():
        database.unlink()
    url = f"sqlite:///{database}"
    store = open_store(url)
    clock = ManualClock(FIRST_OPENING - timedelta(hours=1))
    gm_password = gm_password or secrets.token_urlsafe(16)  # lives only in this process
    board = LocalBoard(url, GM_NAME, gm_password, clock=clock)
    board.create_schema()
    board.add_user(GM_NAME, gm_password)
    for name in names:
        board.add_user(name, None)  # simulated players post through the board, never log in
    return DemoTable(database, store, board, clock, board.create_thread(title, GM_NAME))


def demo_config(
    table: DemoTable, ruleset: str, seed: int, lang: str, names: list[str]
) -> GameConfig:
    """The game file the demo would have, built in code; the board is handed in directly."""
    return GameConfig(
        path="<demo>",
        ruleset=ruleset,
        title="",
        seed=seed,
        language=lang,
        review="auto",
        receipts=True,
        engine="local",
        url=f"sqlite:///{table.database}",
        thread=table.thread,
        gm_user=GM_NAME,
        password=CredentialsRef("env", "FORUMGM_DEMO_UNUSED"),
        schedule=SCHEDULE,
        start=FIRST_OPENING,
        options={},
        players=names,
    )


async def play_game(
    table: DemoTable,
    config: GameConfig,
    bots: Callable[[GameState], Players],
    show: Show,
    *,
    max_phases: int,
) -> DemoResult:
    """Start the game, then play phase after phase until a winner or `max_phases`."""
    store, board, clock = table.store, table.board, table.clock
    driver = GameDriver(store, board, config, clock=clock)
    clock.set(config.start)
    driver.start()
    state = store.load_state(driver.game_id)
    assert state is not None
    players = bots(state)
    players.learn(_setup_events(config, driver))
    show.intro(state, len(config.players))
    await driver.step(config.start)  # the opening post and the role PMs
    transcript: list[str] = []
    phases = 0
    while phases < max_phases:
        ph = store.current_phase(driver.game_id)
        if ph is None or store.get_game(driver.game_id).status is GameStatus.FINISHED:
            break
        phases += 1
        shown = {driver.marker(ph.phase, "results")}
        show.turn_header(phases, ph.phase, ph.deadline.astimezone(SCHEDULE.tz))
        for message in players.turn(GameState.from_json(ph.state_before), phases):
            clock.set(ph.opened_at + timedelta(minutes=message.minute))
            if message.channel == "thread":
                board.post_as(message.author, table.thread, message.text)
                show.thread_post(message.author, message.text)
            else:
                board.pm_as(message.author, [GM_NAME], message.subject, message.text)
            if message.minute % 5 == 0:  # a poll now and then, as a real service would
                await _step(driver, ph, show, shown)
        clock.set(ph.deadline - timedelta(minutes=1))
        await _step(driver, ph, show, shown)
        if show.shows_votes:
            session = driver.replay(ph, ph.deadline).session
            assert session.inputs is not None
            show.votes(driver.ruleset.vote_view(session.state, session.inputs, public=False))
        clock.set(ph.deadline)
        await driver.step(ph.deadline)  # freeze, resolve, publish, open the next phase
        post = _results_post(driver, ph)
        transcript.append(post)
        show.results(post, len(store.parse_warnings(driver.game_id, ph.phase)))
        players.learn(store.events(driver.game_id, ph.phase))
    final = store.load_state(driver.game_id)
    assert final is not None
    show.finish(final, store, driver.game_id)
    await board.close()
    return DemoResult(final.winner, phases, table.database, transcript)


def _setup_events(config: GameConfig, driver: GameDriver) -> list[Event]:
    # The driver keeps no setup events: dealing again from the same seed gives the same
    # deal, so each bot learns exactly what its role PM told it.
    session = GameSession.new(
        driver.ruleset, config.seats(), config.ruleset_options(), config.seed, config.aliases
    )
    stored = driver.store.load_state(driver.game_id)
    assert stored is not None and stored.players == session.state.players
    return session.pending_setup


async def _step(driver: GameDriver, ph: PhaseRecord, show: Show, shown: set[str]) -> None:
    """A poll by the driver; its public answers (vote ratings) go on the show."""
    await driver.step(driver.clock())
    for item in driver.store.outbox(driver.game_id, ph.phase):
        posted = item.kind is OutboxKind.POST and item.status is OutboxStatus.POSTED
        if posted and item.marker not in shown:
            shown.add(item.marker)
            show.rating(item.bbcode)


def _results_post(driver: GameDriver, ph: PhaseRecord) -> str:
    marker = driver.marker(ph.phase, "results")
    item = driver.store.find_by_marker(marker)
    assert item is not None, f"{ph.phase}: no results post"
    return item.bbcode.removesuffix(marker_line(marker))
