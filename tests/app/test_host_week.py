"""Issue 9: a host's first week, run as a host runs it — a game file in a temporary folder,
the rehearsal board `forumgm board local init` makes, a chosen clock, the CLI's commands —
and checked on the board, where the players see it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.app.cli import app
from tests.app.rehearsal import PLAYERS, ROLES, Rehearsal
from tests.service.helpers import GM


@pytest.fixture
def game(tmp_path: Path) -> Rehearsal:
    rehearsal = Rehearsal(tmp_path)
    out = rehearsal("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    assert f"GM {GM}, 5 account(s) added, game thread 1." in out
    return rehearsal


# -- the rehearsal board (§3) ------------------------------------------------------------


def test_the_rehearsal_board_is_made_and_played_by_hand(game: Rehearsal) -> None:
    again = game("2026-12-01T17:01+03:00", "board", "local", "init", "GAME", "--account", "Лёша")
    assert "1 account(s) added" in again
    said = game.post("2026-12-01T17:05+03:00", "Вася", "всем привет")
    assert said.startswith("post 1 by Вася in thread 1 at 2026-12-01 17:05 MSK")
    assert "PM 1 from Лёша to Ведущий at 2026-12-01 17:06 MSK" in game.pm(
        "2026-12-01T17:06+03:00", "Лёша", "можно к вам?"
    )
    assert "--- #1 Вася at 2026-12-01 17:05 MSK\nвсем привет" in game.thread()
    assert "Лёша has no PMs" not in game.inbox(GM) and "можно к вам?" in game.inbox(GM)
    unknown = game(
        "2026-12-01T17:07+03:00", "board", "local", "pm", "GAME", "--as", "Ксюша", "x", code=2
    )
    assert (
        unknown
        == "no user 'Ксюша': forumgm board local init "
        + str(game.game)
        + " --account NAME adds one\n"
    )


def test_board_local_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    out = game(
        "2026-12-01T17:00+03:00", "board", "local", "post", "GAME", "--as", "Вася", "x", code=2
    )
    assert f"no rehearsal board at {game.board_url} yet: forumgm board local init" in out
    web = tmp_path / "web.toml"
    text = game.game.read_text(encoding="utf-8").replace('engine = "local"', 'engine = "phpbb"')
    web.write_text(text.replace(game.board_url, "https://forum.example.org/"), encoding="utf-8")
    out = game("2026-12-01T17:00+03:00", "board", "local", "init", str(web), code=2)
    assert "its board is phpbb, not a rehearsal board" in out
    out = game(
        "2026-12-01T17:00+03:00", "board", "local", "show", str(tmp_path / "none.sqlite"), code=2
    )
    assert "no such file" in out


# -- nothing a player sends is silently lost (§2) ----------------------------------------


def test_orders_sent_after_the_opening_post_and_before_the_start_count(game: Rehearsal) -> None:
    """The opening post goes out ten minutes before the start; what players send then is
    read for turn 1, with receipts whose subjects say what happened."""
    game.host("2026-12-01T18:00+03:00", "game start")
    game.host("2026-12-01T18:45+03:00", "review", "--approve")
    assert "turn 1: open until" in game.host("2026-12-01T18:50+03:00", "run", "--once")
    assert game.gm_posts() == 1  # the opening post, ten minutes early
    game.pm("2026-12-01T18:52+03:00", "Коля", "голосую за Петю")
    game.pm("2026-12-01T18:53+03:00", "Маша", "лечу Ксюшу")
    game.pm("2026-12-01T18:54+03:00", "Вася", "проверка Пети. Голосую за Машу")
    game.host("2026-12-01T18:58+03:00", "run", "--once")
    kolya = game.inbox("Коля")
    assert "Ведущий: принято\nГолос за Петю принят." in kolya
    assert "Ведущий: не принято\nКоманда «Лечение» не принята." in game.inbox("Маша")
    vasya = game.inbox("Вася")  # two commands in one PM: both read, both confirmed
    assert "Ведущий: принято\nПриказ принят: Проверка — Петя.\n\nГолос за Машу принят." in vasya
    review = game.host("2026-12-01T18:59+03:00", "review", "--orders")
    assert "Коля: vote Петя 'голосую за Петю'" in review and "Вася: check Петя" in review
    assert re.search(r"^· #\d+ early Коля 'голосую за Петю'$", review, re.M)  # counted; told
    votes = game.host("2026-12-01T19:00+03:00", "votes")
    assert "Коля" in votes and "2026-12-01 18:52 MSK" in votes
    # The `early` note is no work for the host: `status` counts only what holds the phase
    # (Маша's «лечу Ксюшу», not Коля's early vote).
    status = game.runner.invoke(
        app,
        ["status", "--db", game.db],
        env={"COLUMNS": None, "FORUMGM_NOW": "2026-12-01T19:00+03:00"},
    ).output
    row = next(line for line in status.splitlines() if "classic" in line)
    assert "turn 1 (open)" in row and re.search(r"MSK\W+1\W+posted", row), row


def test_a_lot_is_never_published_while_a_vote_sent_before_the_start_went_out_waits(
    game: Rehearsal,
) -> None:
    """Оля votes after the game was started but before its opening post and role PMs went
    out: not counted, and the host is asked; nobody else votes, so the deadline's lot
    waits for the host instead of being published."""
    game.host("2026-12-01T18:00+03:00", "game start")
    game.pm("2026-12-01T18:30+03:00", "Оля", "голосую за Петю")
    game.host("2026-12-01T18:45+03:00", "review", "--approve")
    game.host("2026-12-01T18:50+03:00", "run", "--once")
    review = game.host("2026-12-01T18:51+03:00", "review")
    line = next(x for x in review.splitlines() if " early " in x)
    assert line.startswith("! #") and "early Оля 'голосую за Петю'" in line
    out = game.host("2026-12-02T19:01+03:00", "run", "--once")
    assert "turn 1: results wait for the host (1 warnings)" in out
    assert "Итоги хода 1" not in game.thread()
    warning = line.split()[1].lstrip("#")
    fixed = game.host("2026-12-02T19:05+03:00", "review", "--typed", f"{warning}=голосую за Петю")
    assert f"#{warning} settled with: Оля: vote Петя" in fixed  # the last warning: approved
    game.host("2026-12-02T19:08+03:00", "run", "--once")
    assert "Оля → Петя" in game.thread()


def test_a_phase_is_not_resolved_before_its_opening_post_is_on_the_board(tmp_path: Path) -> None:
    """§1: a start already past (--allow-past): the first `run` resolves nothing while the
    start waits for the host; approved late, the results wait for the host too."""
    players = (*PLAYERS, "Гена", "Лена")
    game = Rehearsal(
        tmp_path, players=players, roles={**ROLES, "Гена": "mafioso", "Лена": "citizen"}
    )
    game("2026-12-03T11:00+03:00", "board", "local", "init", "GAME")
    game.host("2026-12-03T12:00+03:00", "game start", "--allow-past")
    out = game.host("2026-12-03T12:01+03:00", "run", "--once")
    assert "turn 1: not resolved: its opening post is not on the board yet" in out
    assert game.gm_posts() == 0
    assert "turn 1 (open)" in game("2026-12-03T12:01+03:00", "status", "--db", game.db)
    game.host("2026-12-03T12:05+03:00", "review", "--approve")
    out = game.host("2026-12-03T12:06+03:00", "run", "--once")
    assert "turn 1: results wait for the host (0 warnings; turn 1 was opened on the board" in out
    review = game.host("2026-12-03T12:07+03:00", "review")
    assert (
        "held: turn 1 was opened on the board at 2026-12-03 12:06 MSK, after its deadline" in review
    )
    assert game.gm_posts() == 1  # the opening alone
    game.host("2026-12-03T12:10+03:00", "review", "--approve")
    out = game.host("2026-12-03T12:11+03:00", "run", "--once")
    assert "turn 2: open until 2026-12-03 19:00 MSK" in out  # a deadline to come


# -- `run` an operator can live with (§3) --------------------------------------------------


def test_run_once_lets_go_of_the_game(game: Rehearsal) -> None:
    game.host("2026-12-01T18:00+03:00", "game start")
    for minute in (1, 2):
        out = game.host(f"2026-12-01T18:0{minute}+03:00", "run", "--once")
        assert "driven by another process" not in out and "turn 1: open until" in out
    assert "game 1: published" not in out  # nothing approved: nothing went out


def test_an_unreachable_board_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from forums.phpbb.client import PhpbbClient

    async def no_wait(self: PhpbbClient, seconds: float) -> None:
        return None

    monkeypatch.setattr(PhpbbClient, "sleep", no_wait)  # the retries' back-off, not their number
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    game = Rehearsal(tmp_path)
    text = game.game.read_text(encoding="utf-8").replace('engine = "local"', 'engine = "phpbb"')
    game.game.write_text(text.replace(game.board_url, f"https://127.0.0.1:{port}/"), "utf-8")
    # `game start` asks the board first: one line, and nothing is queued.
    refused = game.host("2026-12-01T18:00+03:00", "game start", code=1)
    assert refused.splitlines() == [
        f"{game.game}: cannot log in to https://127.0.0.1:{port}/ as '{GM}': BoardUnavailable: "
        f"GET https://127.0.0.1:{port}/ucp.php?mode=login: ConnectError after 4 tries; try "
        "again when the board answers; nothing was queued"
    ], refused
    # The board went down after the start (queued here without it).
    from engine.app.game_file import load_game
    from engine.service.build import make_driver
    from engine.store import open_store

    store = open_store(f"sqlite:///{game.db}")
    make_driver(load_game(game.game), store, board=object()).start()  # type: ignore[arg-type]
    game.host("2026-12-01T18:01+03:00", "review", "--approve")
    log = tmp_path / "logs" / "run.log"
    log.parent.mkdir()
    out = game.host("2026-12-01T18:02+03:00", "run", "--once", "--log-file", str(log), code=1)
    assert out.splitlines() == [
        f"game 1 ({game.game}): step failed: GET https://127.0.0.1:{port}/"
        "ucp.php?mode=login: ConnectError after 4 tries; nothing was lost: run again to retry"
    ], out
    assert "Traceback" in log.read_text(encoding="utf-8")
    debug = game.host("2026-12-01T18:03+03:00", "run", "--once", "--debug", code=1)
    assert "Traceback" in debug and "gm-secret" not in debug + log.read_text(encoding="utf-8")


# -- what the host looks at (§3) -----------------------------------------------------------


def test_status_and_votes_in_the_games_time_zone_with_nothing_cut(
    game: Rehearsal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game.host("2026-12-01T18:00+03:00", "game start")
    game.host("2026-12-01T18:01+03:00", "review", "--approve")
    game.host("2026-12-01T19:01+03:00", "run", "--once")
    game.pm("2026-12-01T19:05+03:00", "Коля", "голосую за Петю")
    game.host("2026-12-01T19:06+03:00", "run", "--once")
    narrow = game.runner.invoke(
        app,
        ["status", "--db", game.db],
        env={"COLUMNS": "50", "FORUMGM_NOW": "2026-12-01T19:07+03:00"},
    ).output
    assert "…" not in narrow and "MSK" in narrow
    piped = game.runner.invoke(
        app,
        ["status", "--db", game.db],  # a file path, not a URL
        env={"COLUMNS": None, "FORUMGM_NOW": "2026-12-01T19:07+03:00"},
    ).output
    row = next(line for line in piped.splitlines() if "classic" in line)
    assert "turn 1 (open)" in row and "2026-12-02 19:00 MSK" in row and "posted:" in row
    votes = game.host("2026-12-01T19:07+03:00", "votes")
    assert "2026-12-01 19:05 MSK" in votes and "local://pm/" in votes
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    out = game("2026-12-01T19:07+03:00", "status", code=1)
    assert out.startswith(f"no store at {empty / 'forumgm.db'}: no game was started with it")
    assert list(empty.iterdir()) == []
