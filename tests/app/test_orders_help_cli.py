"""Issue 23 through the CLI on the rehearsal board: the role PM lists the role's orders with
examples of this game, «помощь» gets the list, a miswritten order's receipt shows the form,
two messages without a command get one list, and an order followed by a question is read —
all as the players read them in their inboxes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.rehearsal import Rehearsal
from tests.service.helpers import GM


@pytest.fixture
def game(tmp_path: Path) -> Rehearsal:
    rehearsal = Rehearsal(tmp_path)
    rehearsal("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    rehearsal.host("2026-12-01T18:00+03:00", "game start")
    rehearsal.host("2026-12-01T18:45+03:00", "review", "--approve")
    rehearsal.host("2026-12-01T19:01+03:00", "run", "--once")
    return rehearsal


def test_the_role_pm_lists_the_orders_and_help_brings_them_again(game: Rehearsal) -> None:
    masha = game.inbox("Маша")  # the doctor
    assert "лечу <игрок> — например: лечу " in masha
    assert "голосую за <игрок> — например: голосую за " in masha
    assert "помощь — этот список" in masha
    thread = game.thread()
    assert "напишите ведущему «помощь»" in thread
    game.pm("2026-12-01T19:10+03:00", "Маша", "помощь")
    game.host("2026-12-01T19:11+03:00", "run", "--once")
    after = game.inbox("Маша")
    assert after.count("Ваши команды (каждую — с новой строки, в ЛС ведущему):") == 1


def test_a_refusal_shows_the_form_and_one_list_per_receipt(game: Rehearsal) -> None:
    game.pm("2026-12-01T19:10+03:00", "Вася", "проверка Ксюши")
    game.pm("2026-12-01T19:10+03:00", "Коля", "привет")
    game.pm("2026-12-01T19:10+03:00", "Коля", "как дела")
    game.host("2026-12-01T19:11+03:00", "run", "--once")
    vasya = game.inbox("Вася")
    assert "Команда «Проверка» не принята." in vasya
    assert "Нужно: проверка <игрок>, например: проверка " in vasya
    kolya = game.inbox("Коля")
    receipt = kolya[kolya.rindex(f"{GM}:") :]
    assert receipt.count("голосую за <игрок> — например:") == 1, receipt


def test_an_order_followed_by_a_question_is_read(game: Rehearsal) -> None:
    game.pm("2026-12-01T19:10+03:00", "Маша", "лечу Колю. Как дела?")
    game.pm("2026-12-01T19:10+03:00", "Коля", "голосую за Петю. Кто со мной?")
    game.pm("2026-12-01T19:10+03:00", "Вася", "проверка Пети, а что?")
    game.host("2026-12-01T19:11+03:00", "run", "--once")
    assert "Приказ принят: Лечение — Коля." in game.inbox("Маша")
    assert "Голос за Петю принят." in game.inbox("Коля")
    assert "Приказ принят: Проверка — Петя." in game.inbox("Вася")
    review = game.host("2026-12-01T19:12+03:00", "review", "--orders")
    assert "Маша: heal Коля" in review and "Вася: check Петя" in review
    assert "Коля: vote Петя" in review
    assert "unknown_command" not in game.host("2026-12-01T19:12+03:00", "review")
