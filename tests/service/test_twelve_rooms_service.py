"""A twelve-rooms game run by the host from a game file: one full turn on the local board.

The CLI's own commands (`game validate`, `game start`, `review`, `run --once`, `map`) with a
chosen clock; the players' turns come as PMs at set times. What is checked is what players see
on the board: the opening post, the receipts, the results post and the result PMs — and that
the turn's movement follows the time of each player's LAST part of his turn (§2.3).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.store import open_store
from forums.local import LocalBoard
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена", "Орёл", "Катя", "Серёга"]
DEAL = "observer guarantor custodian manager savior executor warden minister interrogator deputy"
ROLES = dict(zip(NAMES, DEAL.split(), strict=True))
ROOMS = dict(zip(NAMES, [5, 7, 9, 11, 7, 9, 10, 9, 3, 6], strict=True))
OPTIONS = """[options]
layout = ["safe", "isolated", "sticky", "inverted", "detector", "cocoa",
          "cameras", "pistol", "megaphone", "laughter", "silence", "pass_through"]
placement_phase = false
safe_capacity = 1
[options.start_rooms]
""" + "".join(f'"{n}" = {r}\n' for n, r in ROOMS.items())
runner = CliRunner(env={"COLUMNS": "200"})


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, 1, hour, minute, tzinfo=MSK)


def cli(*args: str, now: datetime) -> str:
    result = runner.invoke(app, list(args), env={"FORUMGM_NOW": now.isoformat()})
    assert result.exit_code == 0, result.output
    return result.output


def thread_text(board: LocalBoard, thread: str) -> list[str]:
    posts = asyncio.run(board.thread_posts(thread)).items
    return [p.raw or "" for p in posts if p.author == GM]


def inbox(board: LocalBoard, player: str) -> list[tuple[str, str]]:
    box = asyncio.run(board.as_user(player, "pw").inbox()).items
    return [(m.subject, m.raw or "") for m in box]


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, LocalBoard, str]:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, NAMES)
    text = game_toml(
        url=url,
        thread=thread,
        players=NAMES,
        ruleset="twelve-rooms",
        review="warnings",
        password="env:TEST_GM_PASSWORD",
        start="2026-12-01 15:00",
        roles=ROLES,
    )
    path = tmp_path / "game.toml"
    path.write_text(text.replace("[players]", OPTIONS + "[players]"), encoding="utf-8")
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    return path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread


def test_one_turn_on_the_local_board(game: tuple[Path, str, LocalBoard, str]) -> None:
    path, db, board, thread = game
    assert "OK" in cli("game", "validate", str(path), now=at(14))
    assert "wait for approval" in cli("game", "start", str(path), "--db", db, now=at(15))
    cli("review", str(path), "--db", db, "--approve", now=at(15))
    cli("run", str(path), "--db", db, "--once", now=at(15, 1))
    (opening,) = thread_text(board, thread)
    assert "12 комнат: игра начинается" in opening
    assert "Камеры: в Комнате с камерами — [b]Оля[/b], [b]Петя[/b]." in opening
    assert "Ход 1 заканчивается [b]01.12.2026 19:00 МСК[/b]" in opening
    role_pm = inbox(board, "Вася")[0][1]
    assert "Ваша роль: [b]Наблюдатель[/b]" in role_pm and "Вы в комнате [b]5[/b]" in role_pm

    # The turn, by PM. Вася moves first (16:00) but votes last (17:30); Маша sends everything at
    # 16:30: her turn is earlier, she takes the one place in the safe room (up from Вася's
    # room 5, down from her room 9) and Вася passes through it to room 9.
    turns = [
        ("Вася", at(16), "↑\nАС1 Путевой лист на Петю"),
        ("Петя", at(16, 10), "остаюсь. голосую за Колю. мафкилл Оля"),
        ("Оля", at(16, 20), "хил Катю\nне судить"),
        ("Маша", at(16, 30), "вниз\nголос за Колю\nПо бумагам Васю и Колю"),
        ("Коля", at(16, 40), "голос: не судить\nостаюсь"),
        ("Гена", at(16, 50), "обмен Васю и Хрюшу\nне судить"),
        ("Орёл", at(17), "не судить\nанонимка: Вася — мафия, [b]точно[/b] говорю"),
        ("Серёга", at(17, 5), "не судить"),
        ("Вася", at(17, 30), "голос: Коля"),
        ("Катя", at(18), "Допрос Пети\nне судить"),
    ]
    for player, when, text in turns:
        board.pm_as(player, [GM], "ход", text, at=when)
    cli("run", str(path), "--db", db, "--once", now=at(18, 10))
    receipts = dict(inbox(board, "Вася"))["Ведущий: принято"]
    assert "Принято: идёте вверх." in receipts
    assert "Голос принят: [b]Коля[/b]." in receipts and "Ход получен полностью." in receipts
    # The store keeps each order with its PM's time: a replay ranks the players the same way.
    stored = open_store(db).parsed_orders(1, "turn 1")
    times = {(o.order.player, o.order.action): o.order.at for o in stored}
    assert times[("Маша", "move")] == at(16, 30) and times[("Вася", "vote")] == at(17, 30)
    anon = [p for p in thread_text(board, thread) if "Анонимное сообщение" in p]
    assert len(anon) == 1 and "Вася — мафия, точно говорю" in anon[0] and "Орёл" not in anon[0]
    gena = dict(inbox(board, "Гена"))["Ведущий: принято не всё"]  # «не судить» is taken
    assert "Не принято: «Обмен» — такого игрока нет." in gena

    # The deadline: resolved, held for the host (a parse warning), approved, published.
    assert "wait for the host" in cli("run", str(path), "--db", db, "--once", now=at(19, 1))
    assert not any("Итоги хода 1" in post for post in thread_text(board, thread))
    cli("review", str(path), "--db", db, "--approve", now=at(19, 2))
    cli("run", str(path), "--db", db, "--once", now=at(19, 3))
    results = next(post for post in thread_text(board, thread) if "Итоги хода 1" in post)
    assert "Из игры выбывает [b]Оля[/b]: мафкилл в Комнате с камерами." in results
    assert "[b]Лена[/b]: голос не получен — предупреждение 1 из 2." in results
    assert "Итог: не судить — 6, [b]Коля[/b] — 3." in results
    assert "В этот ход по голосованию никто не выбывает." in results
    assert "Камеры: в Комнате с камерами — [b]Петя[/b]." in results
    assert "[b]Ход 2 начинается.[/b]" in results
    assert "Поручитель" not in results  # no role reaches the thread
    vasya = dict(inbox(board, "Вася"))["Итоги хода 1"]
    assert "Вы в комнате [b]9[/b]. Вес вашего голоса: 2." in vasya
    assert "«Путевой лист» [b]Пети[/b]: 7 → 7." in vasya
    assert "Вы в комнате [b]1[/b]" in dict(inbox(board, "Маша"))["Итоги хода 1"]
    assert "чувство вины обнаружено" in dict(inbox(board, "Катя"))["Итоги хода 1"]
    assert "Итоги хода 1" not in dict(inbox(board, "Оля"))  # the dead get no reports

    store = open_store(db)
    state = store.load_state(1)
    assert state is not None and str(state.phase) == "turn 2"
    assert state.player("Маша").fields["room"] == 1 and state.player("Вася").fields["room"] == 9
    shown = cli("map", str(path), "--db", db, "--svg", str(path.with_suffix(".svg")), now=at(20))
    assert "1. Безопасная комната" in shown and "Маша — Блюститель" in shown
    assert "*Петя — Поручитель" in shown and "Оля" not in shown
    assert path.with_suffix(".svg").read_text(encoding="utf-8").startswith("<svg")


def test_game_new_offers_the_ruleset_and_validate_names_the_lines(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = [
        "ru", "twelve-rooms", "12 комнат", "local", f"sqlite:///{tmp_path / 'b.sqlite'}", "1",
        GM, "", "", "", "2026-12-01 15:00", ", ".join(NAMES), "", "", "",
    ]  # fmt: skip
    now = {"FORUMGM_NOW": at(9).isoformat()}
    result = runner.invoke(
        app, ["game", "new", str(path)], input="\n".join(answers) + "\n", env=now
    )
    assert result.exit_code == 0, result.output
    assert "twelve-rooms" in result.output.splitlines()[1] and "It is valid." in result.output
    text = path.read_text(encoding="utf-8")
    assert "rows = 3" in text and "[options.start_rooms]" in text and '# "Вася" = 1' in text
    broken = text.replace("rows = 3 ", "rows = 0 ").replace('# "Вася" = 1', '"Вася" = 13')
    broken += "wizard = 1\n"  # into [deal], the file's last table
    lines = broken.splitlines()
    fixed = text.replace('# "Вася" = 1', '"Вася" = 5')
    for variant, key, words in (
        (broken.replace("rows = 0 ", "rows = 3 "), '"Вася" = 13', "room 13 is not 1–12"),
        (broken, "rows = 0", "option rows"),
        (
            broken.replace("rows = 0 ", "rows = 3 ").replace('"Вася" = 13', '"Вася" = 5'),
            "wizard",
            "unknown role 'wizard'",
        ),
        (
            fixed.replace('# layout = ["safe", "isolated"', 'layout = ["safe", "sauna"'),
            "# layout",  # the line as `game new` wrote it
            "room 2 is 'sauna', not a room type",
        ),
        (
            fixed.replace('# "Петя" = 1', '"Вова" = 1'),
            '# "Петя" = 1',  # Вова's line takes the place of Петя's
            "[options] option start_rooms: 'Вова' is not a player",
        ),
    ):
        path.write_text(variant, encoding="utf-8")
        result = runner.invoke(app, ["game", "validate", str(path)], env=now)
        assert result.exit_code == 1
        line = next(i for i, s in enumerate(lines, start=1) if s.startswith(key))
        assert f"line {line}: " in result.output and words in result.output, result.output
