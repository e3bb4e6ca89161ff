"""Issue 25 §3: what used to reach the players is caught by the host's own commands first.

Each test drives the CLI as a host does, on the local board, and checks what the players
would have got."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from engine.app.cli import app
from engine.store import open_store
from forums.local.tables import name_key
from tests.service.helpers import GM, GM_PASSWORD, PASSWORD_ENV, CliGame, cli_game

ROOT = Path(__file__).resolve().parents[2]

NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor"}
AT = "2026-12-01T18:00+03:00"


def _game(tmp_path: Path, **extra: object) -> CliGame:
    return cli_game(tmp_path, NAMES, roles={**ROLES, "Коля": "citizen", "Оля": "citizen"}, **extra)


def test_game_start_refuses_a_thread_the_board_does_not_have(tmp_path: Path) -> None:
    g = _game(tmp_path)
    text = g.path.read_text(encoding="utf-8")
    g.path.write_text(text.replace(f'thread = "{g.thread}"', 'thread = "99"'), encoding="utf-8")
    said = g.cli("game", "start", str(g.path), at=AT, code=1)
    assert "no thread '99'" in said and "nothing was queued" in said, said
    store = open_store(g.db)
    assert store.games() == []  # not even a game row left in `status`
    checked = g.cli("game", "validate", "--online", str(g.path), at=AT, db=False, code=1)
    assert "no thread '99'" in checked and "nothing was queued" not in checked
    # Players writing to it get the hint that makes the thread, not one about accounts.
    posted = g.cli(
        "board", "local", "post", str(g.path), "--as", "Вася", "привет", at=AT, db=False, code=2
    )
    assert "no thread '99'" in posted and f"board local init {g.path}" in posted
    assert "--account" not in posted
    # No player got a role PM for a game with no thread.
    assert all(not g.board.pms_after(g.board.user(n), "inbox", 0) for n in NAMES)  # type: ignore[arg-type]

    g.path.write_text(text, encoding="utf-8")
    ok = g.cli("game", "validate", "--online", str(g.path), at=AT, db=False)
    assert f"logged in to the board as {GM}; thread {g.thread}" in ok
    started = g.cli("game", "start", str(g.path), at=AT)
    assert f"thread {g.thread}" in started and "started: 6 posts and PMs queued" in started


def test_game_start_refuses_players_with_no_board_account(tmp_path: Path) -> None:
    """A role PM to a name the board does not know fails on every run: the game would start
    with a seat nobody can be told about. Every player is looked up before anything is queued."""
    g = _game(tmp_path)
    text = g.path.read_text(encoding="utf-8")
    typo = text.replace('"Маша"', '"Маня"').replace('"Оля"', '"Olya"')
    g.path.write_text(typo, encoding="utf-8")
    said = g.cli("game", "start", str(g.path), at=AT, code=1)
    assert "no account on" in said and "'Маня', 'Olya'" in said, said
    assert "nothing was queued" in said and "as the board spells it" in said, said
    assert open_store(g.db).games() == []
    assert all(not g.board.pms_after(g.board.user(n), "inbox", 0) for n in NAMES)  # type: ignore[arg-type]
    checked = g.cli("game", "validate", "--online", str(g.path), at=AT, db=False, code=1)
    assert "'Маня', 'Olya'" in checked, checked
    g.path.write_text(text, encoding="utf-8")
    assert "the 5 players' accounts are there" in g.cli("game", "start", str(g.path), at=AT)


def test_game_start_refuses_a_gm_login_the_board_refuses(tmp_path: Path) -> None:
    g = _game(tmp_path)
    said = g.cli("game", "start", str(g.path), at=AT, password="not-it", code=1)
    assert f"refused the login of '{GM}'" in said and "nothing was queued" in said
    assert "not-it" not in said
    assert open_store(g.db).games() == []
    checked = g.cli(
        "game", "validate", "--online", str(g.path), at=AT, db=False, password="not-it", code=1
    )
    assert "refused the login" in checked
    assert "started" in g.cli("game", "start", str(g.path), at=AT)


def test_game_replace_refuses_a_substitute_with_no_board_account(tmp_path: Path) -> None:
    g = cli_game(
        tmp_path, NAMES, others=["Лёша"], roles={**ROLES, "Коля": "citizen", "Оля": "citizen"}
    )
    g.opened()
    said = g.cli(
        "game", "replace", str(g.path), "Оля", "Новенький", at="2026-12-01T20:00+03:00", code=1
    )
    assert "no account 'Новенький'" in said and "the seat did not change" in said
    assert "Новенький" not in g.path.read_text(encoding="utf-8")
    store = open_store(g.db)
    assert [p.name for p in store.players(1)] == NAMES
    assert not any("Новенький" in i.recipients for i in store.outbox(1))
    ok = g.cli("game", "replace", str(g.path), "Оля", "Лёша", at="2026-12-01T20:00+03:00")
    assert "Лёша (replaced Оля) now plays seat Оля" in ok


def test_run_once_exits_1_when_a_pm_fails_as_when_a_post_fails(tmp_path: Path) -> None:
    g = _game(tmp_path)
    g.cli("game", "start", str(g.path), at=AT)
    # The board's admin renames Оля's account after the start: her PMs have nowhere to go.
    with sqlite3.connect(tmp_path / "board.sqlite") as conn:
        key = name_key("Оля")
        conn.execute(
            "UPDATE local_users SET name = ?, name_key = ? WHERE name_key = ?",
            ("Оля_старая", name_key("Оля_старая"), key),
        )
    said = g.cli("run", str(g.path), "--once", at="2026-12-01T19:01+03:00", code=1)
    assert "sending a pm failed" in said and "Оля" in said, said
    assert "nothing was lost: run again to retry" in said
    assert g.gm_posts()  # the rest went out: the opening post is on the board
    again = g.cli("run", str(g.path), "--once", at="2026-12-01T19:10+03:00", code=1)
    assert "sending a pm failed" in again


NEW_ANSWERS = [
    "ru", "classic", "Мафия", "local", "", "", "Ведущий", "", "", "", "2026-12-05 19:00",
    "Вася, Петя, Маша, Коля, Оля", "mafioso=1", "", "",
]  # fmt: skip


def _new(path: Path) -> Result:
    return CliRunner().invoke(
        app,
        ["game", "new", str(path)],
        input="\n".join(NEW_ANSWERS) + "\n",
        env={"FORUMGM_NOW": "2026-12-01T12:00+03:00"},
    )


def test_game_new_checks_its_path_before_the_first_question(tmp_path: Path) -> None:
    for path, said in [
        (Path("/proc/winter.toml"), "cannot write /proc/winter.toml"),
        (tmp_path / "none" / "winter.toml", f"there is no folder {tmp_path / 'none'}"),
        (tmp_path, "is a folder"),
    ]:
        result = _new(path)
        assert result.exit_code == 2, result.output
        assert said in result.output and "Ruleset" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "none").exists()


def test_game_new_prints_the_file_when_it_cannot_be_written_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "winter.toml"
    real = Path.write_text

    def full_disk(self: Path, *args: object, **kwargs: object) -> int:
        if self == path:
            raise OSError(28, "No space left on device")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", full_disk)
    result = _new(path)
    assert result.exit_code == 1, result.output
    assert "cannot write" in result.output and "No space left on device" in result.output
    assert 'players = ["Вася", "Петя", "Маша", "Коля", "Оля"]' in result.output  # not lost
    assert "mafioso = 1" in result.output and not path.exists()


def test_a_store_or_log_file_in_no_folder_is_refused_not_made(tmp_path: Path) -> None:
    g = _game(tmp_path)
    at = "2026-12-01T18:00+03:00"
    cases = [
        (("game", "start", str(g.path), "--db", str(g.path / "x.db")), f"{g.path} is a file"),
        (("game", "start", str(g.path), "--db", str(tmp_path / "typo" / "x.db")), "no folder"),
        (("game", "start", str(g.path), "--db", f"sqlite:///{tmp_path}/typo/x.db"), "no folder"),
        (
            ("run", str(g.path), "--once", "--log-file", str(tmp_path / "typo" / "l.log")),
            "no folder",
        ),
    ]
    for words, said in cases:
        out = g.cli(*words, at=at, db=words[0] == "run", code=2)
        assert said in out and "Traceback" not in out, out
    assert not (tmp_path / "typo").exists()
    result = CliRunner().invoke(app, ["demo", "--db", "/proc/demo.sqlite", "--quiet"])
    assert result.exit_code == 2 and "cannot write /proc/demo.sqlite" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_ctrl_c_ends_run_with_what_was_finished(tmp_path: Path) -> None:
    """The real command in a child process: stopped with Ctrl-C once its step is done, it
    says where each game stands and that nothing was lost (it used to end silently)."""
    g = _game(tmp_path)
    g.cli("game", "start", str(g.path), at=AT)
    log = tmp_path / "run.log"
    env = {
        **os.environ,
        PASSWORD_ENV: GM_PASSWORD,
        "FORUMGM_NOW": "2026-12-01T19:01+03:00",
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "250",
    }
    command = "from engine.app.cli import main; main()"
    args = [sys.executable, "-c", command, "run", str(g.path), "--db", g.db, "--log-file", str(log)]
    child = subprocess.Popen(
        args, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if log.exists() and "open until" in log.read_text(encoding="utf-8"):
                break
            time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        said, errors = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, errors
    assert "stopped: game 1 (" in said and "turn 1: open until 2026-12-02 19:00 MSK" in said, said
    assert "nothing was lost" in said and "Traceback" not in said + errors


def _validate(g: CliGame, code: int) -> str:
    return g.cli("game", "validate", str(g.path), at=AT, db=False, code=code)


def test_validate_reports_every_problem_of_the_schedule(tmp_path: Path) -> None:
    g = _game(tmp_path)
    text = g.path.read_text(encoding="utf-8")
    text = text.replace('timezone = "Europe/Moscow"', 'timezone = "Europe/Moskva"')
    text = text.replace('deadlines = "every day 19:00"', 'deadlines = "each day at seven"')
    g.path.write_text(text.replace('start = "2026-12-01 19:00"', 'start = "soon"'), "utf-8")
    said = _validate(g, 1)
    assert "3 problem(s)" in said, said
    assert "unknown time zone 'Europe/Moskva'" in said
    assert "cannot read the schedule 'each day at seven'" in said
    assert "'soon' is not a date and time" in said


def _yakuza(tmp_path: Path, count: int, extra: str = "") -> CliGame:
    names = [f"Игрок{i}" for i in range(1, count + 1)]
    g = cli_game(tmp_path, names, ruleset="yakuza")
    g.path.write_text(g.path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return g


def test_yakuza_states_its_real_minimum_and_names_a_visible_role_given_twice(
    tmp_path: Path,
) -> None:
    short = _yakuza(tmp_path / "short", 10)
    said = _validate(short, 1)
    assert "yakuza needs at least 18 players, the file lists 10" in said, said
    assert "open seats" not in said
    twice = 'visible_roles = { "Игрок1" = "monk", "Игрок2" = "medic", "Игрок3" = "monk" }\n'
    g = _yakuza(tmp_path / "full", 18, twice)
    said = _validate(g, 1)
    assert "monk is given to Игрок1 and Игрок3" in said, said
    ok = _yakuza(tmp_path / "ok", 18, 'visible_roles = { "Игрок1" = "monk" }\n')
    assert "OK" in _validate(ok, 0)


def test_game_new_names_a_player_listed_twice(tmp_path: Path) -> None:
    answers = list(NEW_ANSWERS)
    answers[11:11] = ["Вася, Петя, Маша, вася, Оля"]  # asked again after the refusal
    result = CliRunner().invoke(
        app,
        ["game", "new", str(tmp_path / "g.toml")],
        input="\n".join(answers) + "\n",
        env={"FORUMGM_NOW": "2026-12-01T12:00+03:00"},
    )
    assert result.exit_code == 0, result.output
    assert "'Вася' and 'вася': a name is listed twice" in result.output


def test_every_2_days_from_its_own_clock_time_gives_a_first_phase_of_48_hours(
    tmp_path: Path,
) -> None:
    g = _game(tmp_path, deadlines="every 2 days 21:00", start="2026-12-01 21:00")
    g.cli("game", "start", str(g.path), at=AT)
    status = g.cli("status", at=AT)
    assert "2026-12-03 21:00 MSK" in status, status
    g.cli("run", str(g.path), "--once", at="2026-12-02T21:01+03:00")  # 24 hours on: still open
    assert "turn 1 (open)" in g.cli("status", at="2026-12-02T21:02+03:00")
    assert "Итоги" not in "".join(g.gm_posts())
