"""The CLI's other commands in the host's language: a Russian game's file makes `board
local`, `signup`, `activity`, `tally`, `simulate` and `report` speak Russian to the host
(unless `--lang`/FORUMGM_LANG says otherwise); without a game file, `--lang` does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import i18n
from engine.app import board_cmd
from engine.app.cli import app
from tests.app.rehearsal import Rehearsal
from tests.forums.phpbb.helpers_http import BASE, PASSWORD, USER, FakePhpbb, board_maker

AT = "2026-12-01T12:00+03:00"


@pytest.fixture
def russian(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The host names no language: the game file's (ru, the default) is spoken."""
    monkeypatch.delenv(i18n.ENV)
    yield
    i18n.choose(None)  # the process's choice back to FORUMGM_LANG (the suite's en)


def test_the_rehearsal_board_in_the_games_russian(russian: None, tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    made = " ".join(game(AT, "board", "local", "init", "GAME").split())
    assert f"Репетиционный форум {game.board_url}: ведущий Ведущий" in made
    assert "добавлено 5 учётных записей, игровая тема 1." in made  # five: the third form
    assert "Игроки пишут так: forumgm board local post" in made
    one_more = game(AT, "board", "local", "init", "GAME", "--account", "Новенький")
    assert "добавлена 1 учётная запись" in one_more
    said = game.post(AT, "Вася", "голосую за Петю")
    assert "сообщение 1 от Вася в теме 1, 2026-12-01 12:00 MSK" in said
    pm = game.pm(AT, "Маша", "лечу Колю")
    assert "ЛС 1 от Маша для Ведущий, 2026-12-01 12:00 MSK" in pm
    shown = game(AT, "board", "local", "show", "GAME", "--inbox", "Оля")
    assert "Оля: личных сообщений нет" in shown
    thread = game(AT, "board", "local", "show", "GAME")
    assert "--- №1 Вася, 2026-12-01 12:00 MSK" in thread


def test_the_rehearsal_boards_refusals_in_russian(russian: None, tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    before = game(AT, "board", "local", "post", "GAME", "--as", "Вася", "привет", code=2)
    assert "репетиционного форума" in before and "ещё нет: forumgm board local init" in before
    game(AT, "board", "local", "init", "GAME")
    nobody = game(AT, "board", "local", "pm", "GAME", "--as", "Незнакомец", "привет", code=2)
    assert "нет пользователя 'Незнакомец': forumgm board local init" in nobody
    assert "--account ИМЯ добавит его" in nobody
    empty = game(AT, "board", "local", "post", "GAME", "--as", "Вася", "  ", code=2)
    assert "текст пуст" in empty
    game.post(AT, "Вася", "голосую за Петю")
    other = game(AT, "board", "local", "edit", "GAME", "1", "моё", "--as", "Петя", code=2)
    assert "сообщение 1 написал Вася: Петя может править только свои сообщения" in other


def test_the_host_can_ask_for_english_over_the_games_russian(russian: None, tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    made = game(AT, "--lang", "en", "board", "local", "init", "GAME")
    assert "5 account(s) added" in made and "Репетиционный" not in made


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePhpbb]:
    fake = FakePhpbb("ru").with_login().with_thread().with_inbox()
    monkeypatch.setattr(board_cmd, "make_board", board_maker(fake))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake
    i18n.choose(None)


CHECK = ["board", "check", "--engine", "phpbb", "--url", BASE, "--user", USER, "--thread", "2"]


def test_board_check_on_the_saved_phpbb_board_in_russian(fake: FakePhpbb) -> None:
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK, "--allow-insecure-http"])
    assert said.exit_code == 0, said.output
    out = " ".join(said.output.split())
    assert f"Проверка форума phpbb {BASE} от имени {USER}" in out
    assert f"Вход выполнен: {USER} (id пользователя 58)" in out
    assert "61 сообщение на 7 страницах, по 10 на странице" in out  # 61: the first form
    assert "первая страница: 10 сообщений" in out
    assert "последняя страница (7): 1 сообщение" in out
    assert "Входящие: 5 личных сообщений" in out
    assert "Ничего не опубликовано (с --post-test в тему уйдёт тестовый ответ)." in out


def test_board_check_refusals_in_russian(fake: FakePhpbb, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.ENV, "ru")  # FORUMGM_LANG, as --lang
    missing = CliRunner().invoke(app, ["board", "check", BASE])
    assert missing.exit_code == 2
    assert "Для board check нужно указать --user, --thread" in missing.output
    monkeypatch.delenv("FORUMGM_GM_PASSWORD")
    no_password = CliRunner().invoke(app, [*CHECK, "--allow-insecure-http"])
    assert no_password.exit_code == 2
    assert "Задайте пароль ведущего в переменной окружения FORUMGM_GM_PASSWORD." in (
        no_password.output
    )
