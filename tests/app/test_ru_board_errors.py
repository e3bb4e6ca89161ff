"""What a board says to a Russian host is Russian (issue 25 item 4): the adapters make their
errors in English from templates (`forums.errors.N_`), the log and the store keep that
English, and the CLI shows each through the `boards` catalogue (`engine.i18n.board_text`) —
a refused login, a thread, post or recipient the board does not have, a flood refusal —
while the board's own words inside stay as the board wrote them."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from engine import i18n
from engine.app import board_cmd
from engine.app.cli import app
from engine.i18n import BoardText, board_text, error_line, said_of, shown
from forums.detect import detect_engine
from forums.discourse.board import DiscourseBoard
from forums.errors import LoginFailed, NotFound
from forums.local.tables import name_key
from tests.adapter_helpers import FakeTime
from tests.app.rehearsal import PLAYERS, ROLES, Rehearsal
from tests.discourse_board import GM as DISCOURSE_GM
from tests.discourse_board import PASSWORD as DISCOURSE_PASSWORD
from tests.discourse_board import FakeDiscourse, rate_limited, real_posts
from tests.forums.phpbb.helpers_http import BASE, PASSWORD, USER, FakePhpbb, board_maker
from tests.service.helpers import cli_game

AT = "2026-12-01T17:00+03:00"
CHECK = ["board", "check", "--engine", "phpbb", "--url", BASE, "--user", USER, "--thread", "2"]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """A Russian command leaves its language in the process: the next test starts in
    English."""
    yield
    i18n.choose(None)


def flat(text: str) -> str:
    return " ".join(text.split())


# -- a refused login ------------------------------------------------------------------------


def test_a_wrong_password_on_the_local_board_is_said_in_russian_by_run_and_board_login(
    tmp_path: Path,
) -> None:
    g = cli_game(tmp_path, list(PLAYERS), roles=dict(ROLES))
    g.cli("game", "start", str(g.path), at="2026-12-01T18:00+03:00")
    first = g.cli(
        "--lang", "ru", "run", str(g.path), "--once", at="2026-12-01T19:01+03:00",
        password="not-the-password", code=1,
    )  # fmt: skip
    said = flat(first)
    assert (
        "шаг не удался: вход не выполнен: LoginFailed: неверное имя пользователя или пароль "
        "для 'Ведущий'"
    ) in said, said
    assert "wrong user name" not in said
    # The login is held: the reason the store keeps (in English) is shown in Russian.
    held = flat(
        g.cli(
            "--lang",
            "ru",
            "run",
            str(g.path),
            "--once",
            at="2026-12-01T19:05+03:00",
            password="not-the-password",
            code=1,
        )
    )
    assert "(LoginFailed: неверное имя пользователя или пароль для 'Ведущий')" in held, held
    assert "wrong user name" not in held
    login = flat(
        g.cli(
            "--lang",
            "ru",
            "board",
            "login",
            str(g.path),
            at="2026-12-01T19:06+03:00",
            password="not-the-password",
            code=1,
        )
    )
    assert "LoginFailed: неверное имя пользователя или пароль для 'Ведущий'" in login, login
    english = g.cli(
        "run", str(g.path), "--once", at="2026-12-01T19:06+03:00",
        password="not-the-password", code=1,
    )  # fmt: skip
    assert "(LoginFailed: wrong user name or password for 'Ведущий')" in flat(english)


@pytest.fixture
def phpbb(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePhpbb]:
    """The saved English phpBB 3.3.10 board (respx), its GM password in the environment."""
    fake = FakePhpbb("en").with_login().with_thread()
    monkeypatch.setattr(board_cmd, "make_board", board_maker(fake))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


def test_board_check_says_how_it_reads_the_times_in_russian(phpbb: FakePhpbb) -> None:
    phpbb.with_inbox()
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK, "--allow-insecure-http"])
    assert said.exit_code == 0, said.output
    out = flat(said.output)
    assert (
        "Время в сообщениях: собственный формат форума, язык en-gb, пояс Europe/Moscow "
        "(назван на странице)"
    ) in out, out


def test_a_wrong_password_on_a_saved_english_phpbb_is_our_russian_around_the_boards_words(
    phpbb: FakePhpbb,
) -> None:
    phpbb.on("POST", "/ucp.php?mode=login", "login_failed_wrong_password.html")
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK, "--allow-insecure-http"])
    assert said.exit_code == 1, said.output
    out = flat(said.output)
    assert f"LoginFailed: {BASE}: вход как '{USER}' не удался: " in out, out
    assert "incorrect password" in out  # the board's own words, as the board wrote them
    assert "login as" not in out and "failed:" not in out
    english = CliRunner().invoke(app, [*CHECK, "--allow-insecure-http"])
    assert f"LoginFailed: {BASE}: login as '{USER}' failed: " in flat(english.output)


def test_an_http_board_is_refused_in_russian(phpbb: FakePhpbb) -> None:
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK])
    assert said.exit_code == 2, said.output
    out = flat(said.output)
    assert f"{BASE}: на форум по http:// пароль ведущего уйдёт незашифрованным" in out, out
    assert "unencrypted" not in out


def test_a_captcha_is_explained_in_russian(phpbb: FakePhpbb) -> None:
    from tests.forums.phpbb.helpers_http import captcha_login_page, html

    phpbb.on("POST", "/ucp.php?mode=login", html(captcha_login_page("en")))
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK, "--allow-insecure-http"])
    assert said.exit_code == 1, said.output
    out = flat(said.output)
    assert f"CaptchaRequired: Форум {BASE} требует CAPTCHA, прежде чем впустить '{USER}'" in out
    assert "затем снова запустите `forumgm board check`" in out
    assert "wants a CAPTCHA" not in out


def test_a_page_not_as_expected_is_a_layout_change_said_in_russian(phpbb: FakePhpbb) -> None:
    phpbb.on("GET", "/viewtopic.php?t=2", "index.html")  # the board serves its index instead
    said = CliRunner().invoke(app, ["--lang", "ru", *CHECK, "--allow-insecure-http"])
    assert said.exit_code == 1, said.output
    out = flat(said.output)
    assert f"LayoutChanged: {BASE}viewtopic.php?t=2: ожидалась страница topic, получена index" in (
        out
    ), out
    assert "expected a" not in out


def test_what_detection_saw_on_a_page_of_no_engine_is_said_in_russian() -> None:
    found = detect_engine("<html><head><title>Привет</title></head><body>x</body></html>")
    shown_ru = board_text(found.describe(), "ru")
    assert shown_ru.startswith(
        "движок не поддерживается: HTML-страница размером 61 Б с заголовком «Привет», без "
        "примет движка форума; forumgm поддерживает discourse, "
    ), shown_ru
    assert board_text(detect_engine("").describe(), "ru").startswith(
        "движок не поддерживается: пустой ответ; "
    )
    assert found.describe().startswith("not a supported engine: an HTML page of 61 bytes")


# -- what the board does not have -----------------------------------------------------------


def test_a_missing_thread_on_the_rehearsal_board_is_said_in_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(i18n.ENV)  # the game file's language: ru
    game = Rehearsal(tmp_path)
    game(AT, "board", "local", "init", "GAME")
    game.game.write_text(
        game.game.read_text(encoding="utf-8").replace('thread = "1"', 'thread = "99"'),
        encoding="utf-8",
    )
    said = flat(game(AT, "board", "local", "post", "GAME", "--as", "Вася", "привет", code=2))
    assert "нет темы '99' на репетиционном форуме" in said, said
    assert "no thread" not in said


def test_game_start_says_in_russian_what_the_board_lacks_or_refuses(tmp_path: Path) -> None:
    g = cli_game(tmp_path, list(PLAYERS), roles=dict(ROLES))
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    text = g.path.read_text(encoding="utf-8")
    g.path.write_text(text.replace(f'thread = "{g.thread}"', 'thread = "99"'), encoding="utf-8")
    said = flat(g.cli("--lang", "ru", "game", "start", str(g.path), at=AT, code=1))
    assert (
        f"на {url} нет темы '99': сначала создайте игровую тему и впишите её номер в [board] "
        "thread; в очередь ничего не поставлено"
    ) in said, said
    assert "no thread" not in said and "nothing was queued" not in said
    g.path.write_text(text.replace('"Оля"', '"Olya"'), encoding="utf-8")
    missing = flat(g.cli("--lang", "ru", "game", "start", str(g.path), at=AT, code=1))
    assert f"на {url} нет учётной записи для 'Olya'" in missing, missing
    g.path.write_text(text, encoding="utf-8")
    refused = flat(
        g.cli("--lang", "ru", "game", "start", str(g.path), at=AT, password="not-it", code=1)
    )
    assert (
        f"форум {url} не впустил 'Ведущий' (LoginFailed: неверное имя пользователя или "
        "пароль для 'Ведущий')"
    ) in refused, refused
    english = flat(g.cli("game", "start", str(g.path), at=AT, password="not-it", code=1))
    assert "(LoginFailed: wrong user name or password for 'Ведущий')" in english
    assert "nothing was queued" in english


def test_a_missing_pm_recipient_is_said_in_russian_by_run(tmp_path: Path) -> None:
    players = (*PLAYERS, "Гена", "Лена")
    g = Rehearsal(tmp_path, players=players, roles={**ROLES, "Гена": "mafioso", "Лена": "citizen"})
    g("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    g.host("2026-12-01T18:00+03:00", "game start")
    g.host("2026-12-01T18:01+03:00", "review", "--approve")
    # The board's admin renames Оля's account after the start: her PMs have nowhere to go.
    with sqlite3.connect(tmp_path / "board.sqlite") as conn:
        conn.execute(
            "UPDATE local_users SET name = ?, name_key = ? WHERE name_key = ?",
            ("Оля_старая", name_key("Оля_старая"), name_key("Оля")),
        )
    said = flat(
        g("2026-12-01T19:01+03:00", "--lang", "ru", "run", "GAME", "--db", g.db, "--once", code=1)
    )
    assert "не удалось отправить ЛС (NotFound: нет пользователя 'Оля')" in said, said
    assert "no user" not in said
    status = flat(g("2026-12-01T19:02+03:00", "--lang", "ru", "status", "--db", g.db))
    assert "NotFound: нет пользователя 'Оля'" in status, status
    english = g(
        "2026-12-01T19:05+03:00", "--lang", "en", "run", "GAME", "--db", g.db, "--once", code=1
    )
    assert "sending a pm failed (NotFound: no user 'Оля')" in flat(english)


# -- a flood refusal ------------------------------------------------------------------------


@pytest.fixture
def discourse(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscourse]:
    fake = FakeDiscourse()
    fake.add_topic(2144, "KPop Demon Hunters", real_posts("criticalfallibilism_t_2144_posts.json"))
    time = FakeTime()

    def make(engine: str, url: str, user: str, password: str, **options: Any) -> DiscourseBoard:
        options.pop("deadline", None)
        return DiscourseBoard(
            url, user, password, client=fake.client(), clock=time, sleep=time.sleep, **options
        )

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", DISCOURSE_PASSWORD)
    yield fake


def test_a_long_rate_limit_is_said_in_russian_with_its_wait_and_setting(
    discourse: FakeDiscourse,
) -> None:
    from tests.discourse_board import BASE as DISCOURSE

    discourse.queue(lambda r: r.url.path == "/t/2144.json", rate_limited(5400))
    args = ["board", "check", DISCOURSE, "--engine", "discourse", "--user", DISCOURSE_GM]
    said = CliRunner().invoke(app, ["--lang", "ru", *args, "--thread", "2144"])
    assert said.exit_code == 1, said.output
    out = flat(said.output)
    assert (
        f"FloodControl: {DISCOURSE}: Discourse не отвечает на запросы ещё 1 ч 30 мин (HTTP "
        "429: You’ve performed this action too many times."  # Discourse's own words
    ) in out, out
    assert "ограничение — ограничения Discourse для аккаунта ведущего" in out
    assert "refuses" not in out and "the limit is" not in out


# -- the matcher ----------------------------------------------------------------------------


def test_a_board_text_nests_and_what_is_no_template_stays_as_written() -> None:
    login = "https://f.example: after logging in as 'GM' the board shows a guest"
    assert (
        board_text(login, "ru") == "https://f.example: после входа как 'GM' форум показывает гостя"
    )
    cookies = "https://f.example: after the browser login the board shows Вася (cookies refused?)"
    assert board_text(cookies, "ru") == (
        "https://f.example: после входа через браузер форум показывает Вася "
        "(cookies не принимаются?)"
    )
    assert board_text("The board is closed for maintenance", "ru") == (
        "The board is closed for maintenance"
    )
    assert board_text(login, "en") == login


def test_an_errors_line_is_english_as_a_string_and_russian_when_shown() -> None:
    exc = NotFound("no thread '99'")
    line = error_line(exc)
    assert line == "NotFound: no thread '99'"
    assert shown(line, "ru") == "NotFound: нет темы '99'"
    said = said_of(LoginFailed("wrong user name or password for 'GM'"))
    assert isinstance(said, BoardText) and said == "wrong user name or password for 'GM'"
    assert shown(said, "ru") == "неверное имя пользователя или пароль для 'GM'"


_NAMED = re.compile(r"\{(\w+)")


def test_each_boards_translation_names_the_fields_of_its_english() -> None:
    path = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / "boards.po"
    with path.open("rb") as f:
        po = read_po(f, locale="ru")
    wrong = [
        m.id
        for m in po
        if m.id and set(_NAMED.findall(str(m.string))) != set(_NAMED.findall(str(m.id)))
    ]
    assert wrong == []
