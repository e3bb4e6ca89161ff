"""Issue 10 §6: edits, deletions and order that the deadline's reading cannot take on trust.

Each attack is played through the service on the local board with a fake clock, in a
`votecount` day (thread votes) or a `classic` turn (PM votes), review mode `warnings`:
- a vote edited after the deadline with no edit notice (phpBB's topic-last-post edit),
  first read after the deadline: held for the host (`edited_after_deadline`);
- a vote deleted before the deadline but first seen deleted after it, and a vote that
  vanishes from the board (a hard delete): counted as read, and held;
- same-second posts: the board's numeric id orders them ("9" before "10");
- a PM in the deadline's own minute (phpBB dates PMs to the minute): held;
- a post whose author the board changes afterwards: its vote stays with who wrote it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.local import LocalBoard, ManualClock
from tests.service.helpers import GM, cli_game, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
DEADLINE = START + timedelta(days=1)
AFTER = DEADLINE + timedelta(minutes=10)
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "mafioso", "Петя": "commissar", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"


def _game(tmp_path: Path, ruleset: str = "votecount") -> tuple[GameDriver, LocalBoard, str]:
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    clock = ManualClock(START)
    board, thread = local_board(url, NAMES, clock=clock, edits_without_notice=True)
    roles = ROLES if ruleset == "classic" else None
    text = game_toml(url=url, thread=thread, players=NAMES, ruleset=ruleset, roles=roles)
    config = parse_config(text.replace('review = "auto"', 'review = "warnings"'))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    driver.store.approve(driver.game_id, None)  # the host approved the start
    asyncio.run(driver.step(START))
    return driver, board, thread


def _at(board: LocalBoard, when: datetime) -> None:
    assert isinstance(board.clock, ManualClock)
    board.clock.set(when)


def _step(driver: GameDriver, when: datetime) -> str:
    _at(driver.board, when)  # type: ignore[arg-type]
    return asyncio.run(driver.step(when))


def _phase(driver: GameDriver) -> str:
    return driver.store.phases(driver.game_id)[0].phase


def _held(driver: GameDriver) -> list[tuple[str, str | None]]:
    ph = driver.store.phases(driver.game_id)[0]
    return [(w.code, w.player) for w in driver.held_warnings(ph)]


def _votes(driver: GameDriver) -> dict[str, str | None]:
    session = driver.replay(driver.store.phases(driver.game_id)[0], DEADLINE).session
    assert session.inputs is not None
    view = driver.ruleset.vote_view(session.state, session.inputs, public=False)
    return dict(view.votes)


def test_a_silent_edit_first_read_after_the_deadline_is_held(tmp_path: Path) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, DEADLINE - timedelta(minutes=1))
    post = board.post_as("Вася", thread, "голос за Колю")  # the thread's last post
    _at(board, DEADLINE + timedelta(minutes=2))
    board.edit_post(post, "голос за Машу", "Вася", notice=False)  # phpBB shows no notice
    said = _step(driver, AFTER)
    assert "wait for the host" in said
    assert ("edited_after_deadline", "Вася") in _held(driver)


def test_a_post_with_a_reply_before_the_deadline_could_not_be_edited_silently(
    tmp_path: Path,
) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, DEADLINE - timedelta(minutes=2))
    board.post_as("Вася", thread, "голос за Колю")
    board.post_as("Маша", thread, "голос за Колю")  # the last post: this one is in doubt
    _step(driver, AFTER)
    assert _held(driver) == [("edited_after_deadline", "Маша")]


def test_a_vote_first_seen_deleted_after_the_deadline_counts_and_is_held(
    tmp_path: Path,
) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, START + timedelta(hours=2))
    post = board.post_as("Вася", thread, "голос за Колю")
    board.post_as("Маша", thread, "доброе утро")
    _at(board, START + timedelta(hours=3))
    board.delete_post(post)  # before the deadline, but nobody read the board in between
    _step(driver, AFTER)
    assert _votes(driver)["Вася"] == "Коля"
    assert _held(driver) == [("deleted_after_deadline", "Вася")]


def test_a_vote_that_vanishes_from_the_board_counts_and_is_held(tmp_path: Path) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, START + timedelta(hours=2))
    post = board.post_as("Вася", thread, "голос за Колю")
    board.post_as("Маша", thread, "доброе утро")
    _step(driver, START + timedelta(hours=3))  # read while it was there
    board.purge_post(post)
    _step(driver, AFTER)
    assert _votes(driver)["Вася"] == "Коля"
    assert _held(driver) == [("vanished", "Вася")]
    raw = [p for p in driver.store.posts_as_of(driver.game_id, thread, AFTER) if p.id == post]
    assert raw  # the store keeps what it read


def test_same_second_posts_go_by_the_boards_numeric_id(tmp_path: Path) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, START + timedelta(hours=2))  # every post below in the same second
    ids = [board.post_as("Маша", thread, f"мысль {n}") for n in range(7)]
    first = board.post_as("Вася", thread, "голос за Колю")
    second = board.post_as("Вася", thread, "голос за Машу")
    assert (ids[0], first, second) == ("2", "9", "10")
    _step(driver, AFTER)
    assert _votes(driver)["Вася"] == "Маша"  # post 10 came after post 9


def test_a_pm_in_the_deadlines_minute_is_held(tmp_path: Path) -> None:
    driver, board, _thread = _game(tmp_path, "classic")
    _at(board, DEADLINE)  # shown as 19:00: before or after 19:00:00?
    board.pm_as("Коля", [GM], "ход", "голосую за Васю")
    _at(board, DEADLINE - timedelta(minutes=5))
    board.pm_as("Оля", [GM], "ход", "голосую за Васю")
    _step(driver, AFTER)
    assert _held(driver) == [("deadline_minute", "Коля")]


def test_a_post_given_another_author_keeps_its_vote_with_its_writer(tmp_path: Path) -> None:
    driver, board, thread = _game(tmp_path)
    _at(board, START + timedelta(hours=2))
    post = board.post_as("Вася", thread, "голос за Колю")
    board.post_as("Маша", thread, "доброе утро")
    _step(driver, START + timedelta(hours=3))
    board.change_poster(post, "Петя")  # a moderator's "change poster", after it was read
    _step(driver, AFTER)
    votes = _votes(driver)
    assert votes["Вася"] == "Коля" and votes["Петя"] is None


def test_the_rehearsal_board_doubts_only_a_real_edit(tmp_path: Path) -> None:
    """Issue 23 §2: on the local board (the CLI's, where every edit shows) the last post
    first read after the deadline is not held as maybe edited; a post edited after the
    deadline through `forumgm board local edit` still is."""
    game = cli_game(tmp_path, NAMES, ruleset="votecount", review="warnings")
    game.opened()

    def post(at: str, who: str, text: str) -> str:
        said = game.cli(
            "board", "local", "post", str(game.path), "--as", who, text, at=at, db=False
        )
        return said.split()[1]  # «post 3 by Петя in thread …»

    def run(at: str) -> str:
        return game.cli("run", str(game.path), "--once", at=at)

    post("2026-12-01T20:00+03:00", "Вася", "голосую за Колю")
    run("2026-12-01T22:00+03:00")
    post("2026-12-02T10:00+03:00", "Петя", "голос за Колю")  # the last post, read after 19:00
    said = run("2026-12-02T19:05+03:00")
    assert "day 1: results published" in said and "warning" not in said, said

    masha = post("2026-12-03T10:00+03:00", "Маша", "голосую за Петю")
    post("2026-12-03T11:00+03:00", "Вася", "голосую за Петю")  # the last post, unedited
    edit = ("board", "local", "edit", str(game.path), masha, "голосую за Олю", "--as", "Маша")
    game.cli(*edit, at="2026-12-03T19:02+03:00", db=False)  # nobody read it before
    said = run("2026-12-03T19:05+03:00")
    assert "day 2: results wait for the host (1 warnings)" in said, said
    review = game.cli("review", str(game.path), at="2026-12-03T19:06+03:00")
    assert "edited_after_deadline Маша 'голосую за Олю'" in review, review
    assert "edited_after_deadline Вася" not in review
