"""Every `[board]` key against every engine, through `game validate` as a host runs it: a
key the engine's adapter takes is accepted and reaches the board `make_board` builds; a key
it would do nothing with is refused (or, where the engine already reads what the key asks
for, warned of) on the key's own line, saying why, in the host's language. On Discourse
(read through its JSON API alone) `browser` and `set_date_format` are refused, and hosts
told by PM alone are warned that those PMs wait behind the board's daily PM limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engine.app.cli import app
from engine.config import BOARD_ENGINES, parse_config
from engine.service.build import login_secret, make_board

KEY = "0f3c5d-board-api-key-91ab"
GM = "Ведущий"
ENV = {
    "FORUMGM_NOW": "2026-11-30T12:00+03:00",
    "COLUMNS": "400",
    "GM_PW": "gm-password",
    "BOARD_KEY": KEY,
}
runner = CliRunner(env=ENV)

GAME = """\
[game]
ruleset = "votecount"
receipts = false
{game}
[board]
engine = "{engine}"
url = "{url}"
thread = "12"
gm_user = "{gm}"
password = "env:GM_PW"
{board}
[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-12-01 19:00"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля"]

[options]
vote_channel = "thread"
{more}"""

KEYS: dict[str, str] = {
    "allow_insecure_http": "allow_insecure_http = true",
    "browser": "browser = true",
    "api_key": 'api_key = "env:BOARD_KEY"',
    "api_user": f'api_key = "env:BOARD_KEY"\napi_user = "{GM}"',
    "api_key_kind": 'api_key = "env:BOARD_KEY"\napi_key_kind = "user"',
    "set_date_format": "set_date_format = true",
}
"""Each `[board]` key an engine may or may not have, as a host writes it (a key that says
something of the API key comes with one)."""

TAKEN: dict[str, set[str]] = {
    "allow_insecure_http": set(BOARD_ENGINES) - {"local"},
    "browser": {"mybb", "phpbb", "xenforo"},
    "api_key": {"discourse", "xenforo"},
    "api_user": {"discourse"},
    "api_key_kind": {"discourse"},
    "set_date_format": {"mybb", "phpbb"},
}
"""Which engines' adapters do something with each key (docs/host-guide.md's [board] table)."""

WARNED: dict[str, set[str]] = {
    "allow_insecure_http": {"local"},
    "set_date_format": {"fluxbb", "local", "punbb", "smf", "vbulletin", "vbulletin5", "xenforo"},
}
"""Where a key changes nothing but is harmless: the engine reads the GM's times as they are
(or has no format of an account's own), so the file is taken with a warning saying so."""


def holds(board: Any, key: str) -> bool:
    """Whether the board `make_board` built does what the key asks."""
    headers = board.http.http.headers if hasattr(board, "http") else {}
    return {
        "allow_insecure_http": lambda: getattr(board, "_allow_insecure_http", False) is True,
        "browser": lambda: board.browser is True,
        "api_key": lambda: KEY in headers.values(),
        "api_user": lambda: headers.get("Api-Username") == GM,
        "api_key_kind": lambda: headers.get("User-Api-Key") == KEY,
        "set_date_format": lambda: getattr(board, "set_date_format", False) is True,
    }[key]()


def game_text(engine: str, board: str = "", game: str = "", more: str = "") -> str:
    # The local board's database in memory: make_board opens it, and leaves no file.
    url = "sqlite://" if engine == "local" else "https://forum.example.org/"
    return GAME.format(engine=engine, url=url, gm=GM, board=board, game=game, more=more)


def validate(tmp_path: Path, text: str, *lang: str) -> Result:
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    return runner.invoke(app, [*lang, "game", "validate", str(path)])


def key_line(text: str, key: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key} ="))


@pytest.mark.parametrize("key", sorted(KEYS))
@pytest.mark.parametrize("engine", BOARD_ENGINES)
def test_each_board_key_is_taken_by_its_engines_and_refused_with_its_line_elsewhere(
    tmp_path: Path, engine: str, key: str
) -> None:
    text = game_text(engine, KEYS[key])
    result = validate(tmp_path, text)
    out = result.output
    said = [line for line in out.splitlines() if f"[board] {key}:" in line]
    if engine in TAKEN[key]:
        assert result.exit_code == 0 and "warning:" not in out, out
        config = parse_config(text)
        board = make_board(config, ENV)
        assert holds(board, key), (engine, key)
        return
    where = f"line {key_line(text, key)}: "
    assert len(said) == 1 and said[0].lstrip().startswith(where), out
    if engine in WARNED.get(key, ()):
        assert result.exit_code == 0 and f"{where}warning: [board] {key}: " in said[0], out
        assert not holds(make_board(parse_config(text), ENV), key)
    else:  # with api_key_kind or api_user, the API key they come with is refused too
        assert result.exit_code == 1, out
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("key", "why"),
    [
        (
            "browser",
            "[board] browser: Discourse is read through its JSON API: there is no login page "
            "for a browser to open (forumgm logs in with the password, or uses the API key); "
            "remove the key",
        ),
        (
            "set_date_format",
            "[board] set_date_format: Discourse is read through its JSON API, whose every time "
            "is an ISO timestamp (to the millisecond, in UTC): there are no pages and no date "
            "format to set; remove the key",
        ),
    ],
)
def test_discourse_refuses_a_browser_login_and_a_date_format_saying_why(
    tmp_path: Path, key: str, why: str
) -> None:
    text = game_text("discourse", KEYS[key])
    result = validate(tmp_path, text)
    assert result.exit_code == 1, result.output
    assert f"line {key_line(text, key)}: {why}" in result.output


def test_discourse_refusals_speak_russian(tmp_path: Path) -> None:
    text = game_text("discourse", "browser = true\nset_date_format = true")
    result = validate(tmp_path, text, "--lang", "ru")
    out = result.output
    assert result.exit_code == 1 and "2 проблемы" in out, out
    assert (
        "[board] browser: forumgm читает Discourse через его JSON API: страницы входа, которую "
        "открыл бы браузер, там нет (forumgm входит по паролю или работает с ключом API); "
        "уберите этот ключ" in out
    ), out
    assert (
        "[board] set_date_format: forumgm читает Discourse через его JSON API, где всякое "
        "время — метка ISO (до миллисекунды, в UTC): страниц нет, и задавать формат даты не "
        "для чего; уберите этот ключ" in out
    ), out


def test_a_key_of_the_discourse_key_refused_elsewhere_speaks_russian(tmp_path: Path) -> None:
    result = validate(tmp_path, game_text("xenforo", KEYS["api_key_kind"]), "--lang", "ru")
    assert result.exit_code == 1
    assert (
        "[board] api_key_kind: у форума xenforo один вид ключей (два вида есть только у "
        "discourse)" in result.output
    ), result.output
    odd = game_text("discourse", 'api_key = "env:BOARD_KEY"\napi_key_kind = "bot"')
    result = validate(tmp_path, odd, "--lang", "ru")
    assert '[board] api_key_kind: "admin" (ключ API администратора) или "user"' in (result.output)
    assert "а указано 'bot'" in result.output


HOSTS = 'hosts = ["Хост"]'
SMTP = '[notify]\nsmtp = "env:SMTP_URL"\nemail_to = ["host@example.org"]\n'
WAITS = (
    "[game] hosts: on Discourse a PM to the hosts waits behind the same daily limit of "
    "personal messages as the players' PMs, so a notice that the game needs you may come "
    "hours late; set [notify] smtp and email_to: e-mail goes at once"
)


def test_discourse_hosts_told_by_pm_alone_are_warned_that_the_pm_waits(tmp_path: Path) -> None:
    text = game_text("discourse", game=HOSTS)
    result = validate(tmp_path, text)
    assert result.exit_code == 0 and "OK" in result.output, result.output
    assert f"line {key_line(text, 'hosts')}: warning: {WAITS}" in result.output
    assert parse_config(text).hosts == ["Хост"]


@pytest.mark.parametrize(
    ("engine", "game", "more"),
    [
        ("discourse", HOSTS, SMTP),  # e-mail goes at once
        ("discourse", "", ""),  # no hosts to tell
        ("phpbb", HOSTS, ""),  # a PM to the hosts waits behind no daily limit there
    ],
)
def test_no_warning_of_the_pm_limit_where_the_hosts_are_told_in_time(
    tmp_path: Path, engine: str, game: str, more: str
) -> None:
    result = validate(tmp_path, game_text(engine, game=game, more=more))
    assert result.exit_code == 0, result.output
    assert "daily limit" not in result.output and "warning:" not in result.output


def test_the_pm_limit_warning_speaks_russian(tmp_path: Path) -> None:
    result = validate(tmp_path, game_text("discourse", game=HOSTS), "--lang", "ru")
    assert result.exit_code == 0, result.output
    assert (
        "[game] hosts: на Discourse личное сообщение ведущим ждёт в одной очереди с личными "
        "сообщениями игрокам, под тем же дневным лимитом личных сообщений" in result.output
    ), result.output
    assert "задайте [notify] smtp и email_to: письмо уходит сразу" in result.output


@pytest.mark.parametrize("engine", ["discourse", "xenforo"])
def test_a_key_beside_a_password_is_what_a_refused_login_is_remembered_by(engine: str) -> None:
    # The adapter works with the key alone: a new key (not the unchanged password) must let
    # the service try again after the old one was refused.
    config = parse_config(game_text(engine, KEYS["api_key"]))
    assert config.password is not None and config.api_key is not None
    assert login_secret(config, ENV) == KEY
    assert holds(make_board(config, ENV), "api_key")  # the key is what the board sends


def test_the_sign_ups_refuse_what_discourse_does_nothing_with_too(tmp_path: Path) -> None:
    text = game_text("discourse", "set_date_format = true", more='[signup]\nthread = "77"\n')
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    result = runner.invoke(app, ["signup", "list", str(path), "--db", db])
    assert result.exit_code == 2, result.output
    line = key_line(text, "set_date_format")
    assert f"line {line}: [board] set_date_format: Discourse is read through its JSON API" in (
        " ".join(result.output.split())
    )
