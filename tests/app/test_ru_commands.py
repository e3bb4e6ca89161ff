"""The CLI's other commands in the host's language: a Russian game's file makes `board
local`, `signup`, `activity`, `tally`, `simulate` and `report` speak Russian to the host
(unless `--lang`/FORUMGM_LANG says otherwise); without a game file, `--lang` does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import i18n
from engine.app import board_cmd
from engine.app.cli import app
from tests.app.rehearsal import Rehearsal
from tests.forums.phpbb.helpers_http import BASE, PASSWORD, USER, FakePhpbb, board_maker
from tests.service.helpers import GM_PASSWORD, PASSWORD_ENV
from tests.service.test_signups import Host as SignupHost
from tests.service.test_signups import at as signup_at

AT = "2026-12-01T12:00+03:00"


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """A command run here leaves its language in the process (`--lang ru`, a Russian game):
    the next test of this worker starts in the suite's English (FORUMGM_LANG, restored
    by then)."""
    yield
    i18n.choose(None)


@pytest.fixture
def russian(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host names no language: the game file's (ru, the default) is spoken."""
    monkeypatch.delenv(i18n.ENV)


def test_the_rehearsal_board_in_the_games_russian(russian: None, tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    made = " ".join(game(AT, "board", "local", "init", "GAME").split())
    assert f"Репетиционный форум {game.board_url}: ведущий Ведущий" in made
    assert "добавлено 5 учётных записей, игровая тема 1." in made  # five: the third form
    assert "Игроки пишут так: forumgm board local post" in made
    one_more = game(AT, "board", "local", "init", "GAME", "--account", "Новенький")
    assert "добавлена 1 учётная запись" in one_more
    said = game.post(AT, "Вася", "голосую за Петю")
    assert "сообщение 1 в теме 1: автор Вася, 2026-12-01 12:00 MSK" in said
    pm = game.pm(AT, "Маша", "лечу Колю")
    assert "ЛС 1: Маша → Ведущий, 2026-12-01 12:00 MSK" in pm
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


CHECK = ["board", "check", "--engine", "phpbb", "--url", BASE, "--user", USER, "--thread", "2"]


def test_board_check_on_the_saved_phpbb_board_in_russian(fake: FakePhpbb) -> None:
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK, "--allow-insecure-http"])
    assert said.exit_code == 0, said.output
    out = " ".join(said.output.split())
    assert f"Проверка форума phpbb {BASE}, учётная запись {USER}" in out
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
    api = CliRunner().invoke(app, [*CHECK, "--allow-insecure-http", "--api-key-env", "KEY"])
    assert api.exit_code == 2
    assert "--api-key-env: у форума phpbb нет API, которым пользуется forumgm" in api.output


# -- sign-ups -------------------------------------------------------------------------------


def test_the_sign_up_list_and_its_close_in_russian(tmp_path: Path) -> None:
    host = SignupHost(tmp_path)  # made in English (the suite's FORUMGM_LANG)
    for n, who in enumerate(["Вася", "Петя", "Маша"]):
        host.post(who, "+", signup_at(28, 10, n))

    def signup(when: datetime, *words: str, code: int = 0) -> str:
        env = {"FORUMGM_NOW": when.isoformat(), PASSWORD_ENV: GM_PASSWORD, "COLUMNS": "200"}
        args = ["signup", words[0], str(host.path), *words[1:], "--db", host.db]
        said = CliRunner().invoke(app, args, env={**env, i18n.ENV: None})  # the game's ru
        assert said.exit_code == code, said.output
        return said.output

    listed = signup(signup_at(28, 11), "list")
    assert "набор: тема 2" in listed and "состояние" in listed and "записался" in listed
    assert listed.count("в списке") == 3 and "открыт до 2026-11-30 19:00" in listed
    closed = " ".join(signup(signup_at(29, 14), "close").split())
    assert "предупреждение: игроков 3, а мест 5" in closed
    assert f"{host.path}: в [players] теперь 3 игрока; дальше: forumgm game start" in closed
    assert "файл игры нужно поправить перед game start (1):" in closed  # [deal] is for 5
    again = signup(signup_at(29, 15), "close")
    assert f"[players] в {host.path} уже записан при закрытии набора" in again


# -- activity and tally over an exported thread ---------------------------------------------


def _export(tmp_path: Path) -> tuple[Path, Path]:
    """A short exported thread (the host's opening, three players' posts) and its players."""
    lines = [
        (1, "Ведущий", "День 1. Голосуем!"),
        (2, "Вася", "голосую за Петю"),
        (3, "Петя", "голосую за Генку"),
        (4, "Маша", "голосую за Петю"),
        (5, "Вася", "Петя, оправдывайся"),
    ]
    posts = tmp_path / "thread.jsonl"
    posts.write_text(
        "".join(
            json.dumps(
                {
                    "number": n,
                    "id": str(100 + n),
                    "user": who,
                    "user_id": None,
                    "time": f"2026-12-01T1{n}:00:00+03:00",
                    "content": text,
                },
                ensure_ascii=False,
            )
            + "\n"
            for n, who, text in lines
        ),
        encoding="utf-8",
    )
    players = tmp_path / "players.yaml"
    players.write_text('{"players": ["Вася", "Петя", "Маша"]}', encoding="utf-8")
    return posts, players


def test_tally_of_an_exported_thread_in_russian(tmp_path: Path) -> None:
    posts, players = _export(tmp_path)
    words = ["--lang", "ru", "tally", "--posts", str(posts), "--players", str(players)]
    said = CliRunner().invoke(app, words)
    assert said.exit_code == 0, said.output
    out = said.output
    assert "Голоса по состоянию на сообщение №5" in out and "Голосующий" in out
    assert "Итого:" in out and "Петя — 2 (Вася, Маша)" in out
    assert "Не голосуют: Петя" in out and "Лидер: Петя" in out
    assert "предупреждение №3 Петя:" in out and "голос: «Генку» — нет такого игрока" in out
    assert "Сообщения ведущего (Ведущий) не читались." in out
    wrong = CliRunner().invoke(app, [*words, "--from", "5", "--until", "2"])
    assert wrong.exit_code == 2 and "ошибка: --from 5 идёт после --until 2: считать нечего" in (
        wrong.output
    )
    english = CliRunner().invoke(app, words[2:])
    assert "Votes as of post 5" in english.output and "Лидер" not in english.output


def test_activity_of_an_exported_thread_in_russian(tmp_path: Path) -> None:
    posts, _ = _export(tmp_path)
    said = CliRunner(env={"COLUMNS": "200"}).invoke(
        app, ["--lang", "ru", "activity", "--posts", str(posts)]
    )
    assert said.exit_code == 0, said.output
    assert "активность" in said.output and "последнее сообщение" in said.output
    refused = CliRunner().invoke(app, ["--lang", "ru", "activity"])
    assert refused.exit_code == 2
    assert "укажите файл игры или --posts с выгруженной темой" in refused.output


# -- simulate, parse, report ----------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_simulate_speaks_the_games_russian(russian: None) -> None:
    classic = EXAMPLES / "classic.toml"  # language = "ru"
    said = CliRunner(env={"COLUMNS": "200"}).invoke(
        app, ["simulate", str(classic), "--games", "200", "--workers", "1"]
    )
    assert said.exit_code == 0, said.output
    out = said.output
    assert "classic, 9 игроков (mafioso 2, commissar 1, doctor 1, citizen 5)" in out
    assert "партий на расстановку: 200, seed 1, 1 процесс" in out
    assert "Доля побед (95% интервал), выиграно партий" in out and "медиана" in out
    assert "Длина партии, ходы" in out and "из 400" in out  # two mafiosi in 200 games
    refused = CliRunner().invoke(app, ["simulate", str(classic), "--policy", "clever"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output


def test_parse_in_russian(tmp_path: Path) -> None:
    players = tmp_path / "players.yaml"
    players.write_text('{"players": ["Вася", "Петя", "Маша"]}', encoding="utf-8")
    words = ["--lang", "ru", "parse", "голосую за Петю\nголосую за Генку"]
    said = CliRunner().invoke(app, [*words, "--players", str(players)])
    assert said.exit_code == 0, said.output
    out = said.output
    assert "votecount, thread, автор Вася (--sender не указан: прочитано как сообщение" in out
    assert "приказ: vote → Петя [строка 1]" in out
    assert "предупреждение unknown_target: голос: «Генку» — нет такого игрока" in out


def test_the_report_of_a_russian_game_in_russian_unless_the_host_names_english(
    russian: None, tmp_path: Path
) -> None:
    from engine.app.demo.run import run_demo

    db = tmp_path / "demo.sqlite"
    assert run_demo(2, 10, "ru", db, quiet=True).winner is not None
    page = tmp_path / "report.html"
    words = ["report", "--db", str(db), "--out", str(page)]
    said = CliRunner().invoke(app, words)
    assert said.exit_code == 0, said.output
    assert "полный отчёт: все роли, голоса и приказы (игра окончена)" in said.output
    assert "<title>" in (html := page.read_text(encoding="utf-8")) and "Отчёт об игре" in html
    english = CliRunner().invoke(app, ["--lang", "en", *words, "--public"])
    assert english.exit_code == 0, english.output
    assert "public facts only: safe to post as a file or a link" in english.output
    assert "Game report" in page.read_text(encoding="utf-8")


def test_the_demo_shows_its_russian_game_in_the_hosts_english(tmp_path: Path) -> None:
    words = ["demo", "--seed", "2", "--db", str(tmp_path / "demo.sqlite")]
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["--lang", "en", *words])
    assert shown.exit_code == 0, shown.output
    out = shown.output
    assert "Demo: classic mafia, 10 players" in out and "Turn 1 — deadline" in out
    assert "Итоги" in out  # the results posts are the game's, in Russian
    russian = CliRunner(env={"COLUMNS": "200"}).invoke(app, words)  # FORUMGM_LANG=en: no
    assert "Демо: классическая мафия, 10 игроков" in russian.output  # override of the game's
    assert "Игра окончена. Победитель:" in russian.output
    quiet = CliRunner().invoke(app, ["--lang", "ru", *words, "--quiet"])
    assert quiet.exit_code == 0 and "победитель: " in quiet.output and ", ходов: " in quiet.output


def test_activity_of_a_running_russian_game(russian: None, tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    game("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    game.host("2026-12-01T18:00+03:00", "game start")
    game.host("2026-12-01T18:45+03:00", "review", "--approve")
    game.host("2026-12-01T19:01+03:00", "run", "--once")
    game.post("2026-12-01T19:30+03:00", "Коля", "Оля подозрительно молчит")
    game.host("2026-12-01T19:40+03:00", "run", "--once")
    shown = game.host("2026-12-01T20:00+03:00", "activity")
    assert "активность" in shown and "последнее сообщение" in shown and "приказы" in shown
    row = next(line for line in shown.splitlines() if "Коля" in line)
    assert "ход 1" in row and "Ход 1" not in row and "2026-12-01 19:30" in row


# -- the twelve-rooms map -------------------------------------------------------------------


def test_the_map_speaks_the_games_russian_unless_the_host_names_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.service import test_twelve_rooms_service as twelve
    from tests.service.helpers import game_toml, local_board

    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    _board, thread = local_board(url, twelve.NAMES)
    path, db = tmp_path / "game.toml", f"sqlite:///{tmp_path / 'store.sqlite'}"
    text = game_toml(url=url, thread=thread, players=twelve.NAMES, ruleset="twelve-rooms",
                     review="warnings", password="env:TEST_GM_PASSWORD",
                     start="2026-12-01 15:00", roles=twelve.ROLES)  # fmt: skip
    path.write_text(text.replace("[players]", twelve.OPTIONS + "[players]"), encoding="utf-8")
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    twelve.cli("game", "start", str(path), "--db", db, now=twelve.at(15))
    shown = twelve.cli("map", str(path), "--db", db, now=twelve.at(15, 5))  # FORUMGM_LANG=en
    assert "Безопасная комната" in shown  # the game's language: the map is the game's text
    english = twelve.cli("--lang", "en", "map", str(path), "--db", db, now=twelve.at(15, 5))
    assert "Безопасная комната" not in english and "Вася" in english
    (tmp_path / "classic").mkdir()
    classic = Rehearsal(tmp_path / "classic")
    refused = classic(AT, "--lang", "ru", "map", "GAME", "--db", db, code=2)
    assert "карта есть только у игр twelve-rooms (у этой — classic)" in refused


def test_the_minimafik_demo_heads_its_phases_in_the_games_language(tmp_path: Path) -> None:
    words = ["demo", "--ruleset", "minimafik", "--db", str(tmp_path / "mm.sqlite")]
    russian = CliRunner(env={"COLUMNS": "150"}).invoke(app, words)
    assert russian.exit_code == 0, russian.output
    heads = [line for line in russian.output.splitlines() if line.startswith("— ")]
    assert heads[:3] == ["— Сбор колод —", "— Ночь 1 —", "— День 1 —"]
    english = CliRunner(env={"COLUMNS": "150"}).invoke(app, ["--lang", "en", *words])
    assert "— draft —" in english.output and "— day 1 —" in english.output
