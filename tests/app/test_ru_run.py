"""`forumgm run` in the host's language (issue 25 item 4): what it prints, its log lines on
the terminal, its failures and its Ctrl-C in Russian — by `--lang ru`, or by the game's
language when the host names none — while the log file keeps the English (one text to grep
and to quote, whatever the host reads); `--lang en` keeps every line as it was."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from engine import i18n
from forums.local.tables import name_key
from tests.app.rehearsal import PASSWORD_ENV, PLAYERS, ROLES, Rehearsal
from tests.service.helpers import GM_PASSWORD, cli_game
from tests.service.test_activity import START, quiet_game

ROOT = Path(__file__).resolve().parents[2]


def _opened(tmp_path: Path) -> Rehearsal:
    players = (*PLAYERS, "Гена", "Лена")  # Петя's lynch does not end the game
    g = Rehearsal(tmp_path, players=players, roles={**ROLES, "Гена": "mafioso", "Лена": "citizen"})
    g("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    g.host("2026-12-01T18:00+03:00", "game start")
    g.host("2026-12-01T18:01+03:00", "review", "--approve")
    return g


def test_run_speaks_the_games_russian_on_the_terminal_and_english_in_its_log_file(
    tmp_path: Path,
) -> None:
    """The real command in a child process, two seconds before a deadline, with no language
    named (the game's is ru): each action, then Ctrl-C."""
    g = _opened(tmp_path)
    g.host("2026-12-01T19:01+03:00", "run", "--once")
    g.pm("2026-12-02T18:55+03:00", "Коля", "голосую за Петю")
    log = tmp_path / "run.log"
    env = {k: v for k, v in os.environ.items() if k != i18n.ENV}
    env |= {
        PASSWORD_ENV: GM_PASSWORD,
        "FORUMGM_NOW": "2026-12-02T18:59:58+03:00",
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "250",
    }
    command = "from engine.app.cli import main; main()"
    args = [sys.executable, "-c", command, "run", str(g.game), "--db", g.db, "--log-file", str(log)]
    child = subprocess.Popen(
        args, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if log.exists() and "turn 2 opened" in log.read_text(encoding="utf-8"):
                break
            time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        said, lines = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, lines
    for text in (
        "игра 1: ход 1: прочитано: 0 новых сообщений, 1 новое ЛС; 1 квитанция в очереди",
        "игра 1: опубликовано: 0 сообщений и 1 ЛС",
        "игра 1: ход 1: дедлайн прошёл; тема перечитана, приём команд закрыт",
        "игра 1: ход 1: итоги подведены; одобрены",
        "игра 1: ход 1: итоги опубликованы",
        "игра 1: ход 2: фаза открыта, дедлайн 2026-12-03 19:00 MSK",
    ):
        assert any(line.endswith(text) for line in lines.splitlines()), (text, lines)
    assert "polled" not in lines and "Traceback" not in said + lines
    # Stopped: where the game stands, and that nothing was lost.
    assert re.search(r"остановлено: игра 1 \(.*\): ход [12]: идёт до 2026-12-0[23] 19:00 MSK", said)
    assert "ничего не потеряно: хранилище держит каждую игру в её нынешнем состоянии" in said
    # The log file: the same lines in English.
    written = log.read_text(encoding="utf-8")
    assert "game 1: turn 1: polled: 0 new post(s), 1 new PM(s); 1 receipt(s) queued" in written
    assert "game 1: turn 2 opened, deadline 2026-12-03 19:00 MSK" in written
    assert "игра 1" not in written


def test_run_once_in_russian_by_lang_a_failed_pm_and_results_that_wait(tmp_path: Path) -> None:
    g = _opened(tmp_path)
    # The board's admin renames Оля's account after the start: her PMs have nowhere to go.
    with sqlite3.connect(tmp_path / "board.sqlite") as conn:
        conn.execute(
            "UPDATE local_users SET name = ?, name_key = ? WHERE name_key = ?",
            ("Оля_старая", name_key("Оля_старая"), name_key("Оля")),
        )
    said = g(
        "2026-12-01T19:01+03:00", "--lang", "ru", "run", "GAME", "--db", g.db, "--once", code=1
    )
    assert f"игра 1 ({g.game}): ход 1: идёт до 2026-12-02 19:00 MSK; не удалось отправить ЛС (" in (
        said
    ), said
    assert "; ничего не потеряно: запустите снова, чтобы повторить" in said
    assert "sending a pm failed" not in said and "nothing was lost" not in said
    english = g(
        "2026-12-01T19:05+03:00", "--lang", "en", "run", "GAME", "--db", g.db, "--once", code=1
    )
    assert f"game 1 ({g.game}): turn 1: open until 2026-12-02 19:00 MSK; sending a pm failed (" in (
        english
    )
    assert "nothing was lost: run again to retry" in english
    # A vote for nobody holds the results for the host.
    g.pm("2026-12-01T19:10+03:00", "Коля", "голосую за Ксюшу")
    g("2026-12-02T19:01+03:00", "--lang", "ru", "run", "GAME", "--db", g.db, "--once", code=1)
    waits = g(
        "2026-12-02T19:05+03:00", "--lang", "ru", "run", "GAME", "--db", g.db, "--once", code=1
    )
    assert "ход 1: итоги ждут ведущего (1 предупреждение)" in waits, waits
    status = g("2026-12-02T19:06+03:00", "--lang", "ru", "status", "--db", g.db)
    assert "идёт" in status and "running" not in status, status
    assert "ход 1 (итоги готовы)" in status, status
    assert "отправлено:" in status and "posted:" not in status  # the outbox's counts
    votes = g("2026-12-02T19:06+03:00", "--lang", "ru", "votes", "GAME", "--db", g.db)
    assert "голосующий" in votes and "источник" in votes and "voter" not in votes, votes


def test_run_once_in_the_games_russian_when_the_host_names_no_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _opened(tmp_path)
    monkeypatch.delenv(i18n.ENV)  # the game file's language is ru
    said = g.host("2026-12-01T19:01+03:00", "run", "--once")
    assert f"игра 1 ({g.game}): ход 1: идёт до 2026-12-02 19:00 MSK" in said, said
    g.pm("2026-12-01T19:10+03:00", "Коля", "голосую за Петю")
    g.pm("2026-12-01T19:11+03:00", "Маша", "голосую за Петю")
    polled = g.host("2026-12-01T19:20+03:00", "run", "--once")
    # Russian's plural forms: 2 new PMs, 2 receipts.
    assert "ход 1: прочитано: 0 новых сообщений, 2 новых ЛС; 2 квитанции в очереди" in polled
    typo = tmp_path / "typo" / "run.log"
    refused = g.host("2026-12-01T19:30+03:00", "run", "--once", "--log-file", str(typo), code=2)
    assert refused.startswith(f"--log-file {typo}: папки {typo.parent} нет: "), refused


def test_a_refused_login_is_said_in_russian_and_the_held_login_too(tmp_path: Path) -> None:
    names = list(PLAYERS)
    g = cli_game(tmp_path, names, roles=dict(ROLES))
    g.cli("game", "start", str(g.path), at="2026-12-01T18:00+03:00")
    # The board's admin changed the GM's password after the start.
    first = g.cli(
        "--lang", "ru", "run", str(g.path), "--once", at="2026-12-01T19:01+03:00",
        password="not-the-password", code=1,
    )  # fmt: skip
    assert "шаг не удался: вход не выполнен: LoginFailed: " in first, first
    assert "сам forumgm туда больше не входит: проверьте пароль, затем выполните `forumgm" in first
    assert "; ничего не потеряно: запустите снова, чтобы повторить" in first
    held = g.cli(
        "--lang", "ru", "run", str(g.path), "--once", at="2026-12-01T19:05+03:00",
        password="not-the-password", code=1,
    )  # fmt: skip
    assert "шаг не удался: вход не выполнен: форум отказал во входе 'Ведущий' в " in held, held
    assert "игра 1: вход не выполнен: форум отказал во входе" in held  # the log line
    english = g.cli(
        "run", str(g.path), "--once", at="2026-12-01T19:06+03:00",
        password="not-the-password", code=1,
    )  # fmt: skip
    assert "step failed: not logged in: the board refused the login of 'Ведущий'" in english


def test_a_quiet_seat_is_said_in_russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host = quiet_game(tmp_path, monkeypatch)
    at = (START + timedelta(days=1) - timedelta(hours=5)).isoformat()
    said = host.cli("--lang", "ru", "run", str(host.path), "--once", at=at)
    assert "игра 1: ход 1: Оля молчит: 0 сообщений за фазу, меньше " in said, said


def test_a_store_that_is_not_there_or_not_a_store_is_said_in_russian(tmp_path: Path) -> None:
    g = Rehearsal(tmp_path)
    missing = tmp_path / "nowhere.db"
    said = g(
        "2026-12-01T19:00+03:00", "--lang", "ru", "votes", "GAME", "--db", str(missing), code=1
    )
    assert said.startswith(f"хранилища {missing} нет: с ним не начата ни одна игра"), said
    not_a_store = tmp_path / "notes.db"
    not_a_store.write_text("not a database\n" * 100, encoding="utf-8")
    said = g(
        "2026-12-01T19:00+03:00", "--lang", "ru", "run", "GAME", "--db", str(not_a_store), code=2
    )
    assert f"не удаётся открыть хранилище sqlite:///{not_a_store}: DatabaseError" in said, said


def test_a_line_is_english_as_a_str_and_russian_when_shown() -> None:
    polled = i18n.L_(
        "{phase}: polled: {posts}, {pms}; {receipts}",
        phase=i18n.PhaseWord("night 1"),
        posts=i18n.Ln_("{n} new post(s)", "{n} new post(s)", 21),
        pms=i18n.Ln_("{n} new PM(s)", "{n} new PM(s)", 1),
        receipts=i18n.Ln_("{n} receipt(s) queued", "{n} receipt(s) queued", 5),
    )
    assert polled == "night 1: polled: 21 new post(s), 1 new PM(s); 5 receipt(s) queued"
    assert i18n.shown(polled, "ru") == (
        "ночь 1: прочитано: 21 новое сообщение, 1 новое ЛС; 5 квитанций в очереди"
    )
    assert i18n.shown(polled, "en") == polled and i18n.shown("as it is", "ru") == "as it is"
    both = i18n.joined([i18n.L_("approved"), "NotFound: no user 'Оля'"])
    assert i18n.shown(both, "ru") == "одобрены; NotFound: no user 'Оля'"
    raised = ValueError(i18n.L_("login held"))
    assert str(raised) == "login held" and i18n.shown(i18n.said_of(raised), "ru") == (
        "вход приостановлен"
    )


def test_the_consoles_lines_are_russian_and_the_records_stay_english() -> None:
    import logging

    from engine.app.logs import HostsLanguage

    record = logging.LogRecord(
        "forumgm.run", logging.INFO, __file__, 1, i18n.L_("game {game} is over", game=3), None, None
    )
    console = HostsLanguage("%(message)s", "%H:%M:%S", lang="ru")
    assert console.format(record) == "игра 3 окончена"
    assert record.getMessage() == "game 3 is over"  # what the log file's handler writes
    assert HostsLanguage("%(message)s", "%H:%M:%S", lang="en").format(record) == "game 3 is over"


def test_review_publish_says_the_step_in_russian(tmp_path: Path) -> None:
    g = _opened(tmp_path)
    said = g("2026-12-01T19:01+03:00", "--lang", "ru", "review", "GAME", "--db", g.db, "--publish")
    assert "опубликовано сообщений: 8; ход 1: идёт до 2026-12-02 19:00 MSK" in said, said


def test_a_list_of_deadlines_that_ran_out_is_said_in_russian_with_the_phase_in_its_case(
    tmp_path: Path,
) -> None:
    g = cli_game(tmp_path, list(PLAYERS), ruleset="votecount", deadlines="2026-12-02 19:00")
    path = str(g.path)
    g.cli("game", "start", path, at="2026-12-01T18:00+03:00")
    g.cli("run", path, "--once", at="2026-12-01T19:01+03:00")
    ran = g.cli("--lang", "ru", "run", path, "--once", at="2026-12-02T19:05+03:00")
    assert "день 1: итоги опубликованы, а список дедлайнов закончился: добавьте" in ran, ran
    shown = g.cli("--lang", "ru", "status", at="2026-12-02T19:06+03:00")
    assert "игра 1: итоги дня 1 опубликованы, а список дедлайнов игры закончился" in shown, shown


def test_games_of_two_languages_in_one_run_speak_english_unless_the_host_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _opened(tmp_path)  # a Russian game on thread 1
    english = tmp_path / "english.toml"
    text = g.game.read_text(encoding="utf-8").replace('thread = "1"', 'thread = "2"')
    english.write_text(text.replace("[game]\n", '[game]\nlanguage = "en"\n', 1), encoding="utf-8")
    g("2026-12-01T17:00+03:00", "board", "local", "init", str(english))
    g("2026-12-01T18:00+03:00", "game", "start", str(english), "--db", g.db)
    g("2026-12-01T18:01+03:00", "review", str(english), "--approve", "--db", g.db)
    monkeypatch.delenv(i18n.ENV)
    both = ["run", str(english), "GAME", "--db", g.db, "--once"]  # the Russian one last
    said = g("2026-12-01T19:01+03:00", *both)
    assert f"game 1 ({g.game}): turn 1: open until 2026-12-02 19:00 MSK" in said, said
    assert f"game 2 ({english}): turn 1: open until 2026-12-02 19:00 MSK" in said
    assert "игра" not in said
    russian = g("2026-12-01T19:05+03:00", "--lang", "ru", *both)
    assert f"игра 2 ({english}): ход 1: идёт до 2026-12-02 19:00 MSK" in russian, russian


def test_the_dashboard_says_why_a_seat_is_quiet_in_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.app.dashboard_client import client, log_in, make_dashboard, set_password

    host = quiet_game(tmp_path, monkeypatch)
    at = (START + timedelta(days=1) - timedelta(hours=5)).isoformat()
    set_password(host)  # type: ignore[arg-type]
    c = client(make_dashboard(host, monkeypatch, at=at, lang="ru"))  # type: ignore[arg-type]
    log_in(c)
    page = c.get("/games/1").text
    assert "0 сообщений за фазу, меньше 1" in page, page
    assert "fewer than" not in page
