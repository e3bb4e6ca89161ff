"""`[board] set_date_format = true` on phpBB (issue 26): the adapter sets the GM account's own
date format in the UCP (board preferences) once after logging in, and reads the times that
format prints — each with its offset — whatever zone the page names or does not name.

Over respx, with the pages a real phpBB 3.3.10 served to forumgm's adapter doing this
(`fixtures/phpbb/own-date-format/`, see its SOURCE.md); the login and index are the saved
3.3.10 board's (`helpers_http.FakePhpbb`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers_http import BASE, MOSCOW, PASSWORD, USER, FakePhpbb, FakeTime, html, run
from typer.testing import CliRunner

from engine.app import board_cmd
from engine.app.cli import app
from forums.errors import LayoutChanged
from forums.phpbb import PhpbbBoard
from forums.phpbb.board import DATE_FORMAT
from forums.records import Post, PrivateMessage, User

OWN = Path(__file__).resolve().parents[3] / "fixtures" / "phpbb" / "own-date-format"
PREFS = "/ucp.php?i=ucp_prefs&mode=personal"


def own(name: str) -> httpx.Response:
    return html((OWN / name).read_text(encoding="utf-8"))


def board(fake: FakePhpbb, **options: Any) -> PhpbbBoard:
    time = FakeTime()
    return PhpbbBoard(
        BASE,
        USER,
        PASSWORD,
        client=fake.client(),
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=True,
        **options,
    )


def prefs_posted(fake: FakePhpbb) -> list[dict[str, str]]:
    return [form for form in fake.posted("/ucp.php") if "dateformat" in form]


def setting(fake: FakePhpbb) -> FakePhpbb:
    """The preferences before and after, and the board's answer to the form."""
    fake.on("GET", PREFS, own("ucp_prefs_personal.html"), own("ucp_prefs_personal_after.html"))
    fake.on("POST", PREFS, own("ucp_prefs_updated.html"))
    return fake


def test_the_gm_date_format_is_set_once_with_every_other_preference_kept() -> None:
    fake = setting(FakePhpbb("ru").with_login())
    gm = board(fake, set_date_format=True)

    async def twice(gm: PhpbbBoard) -> None:
        await gm.login()
        await gm.login()  # a later login of this process does not ask again

    run(gm, twice)
    assert gm.date_setting is not None and gm.date_setting.changed
    assert gm.date_setting.before == "d M Y, H:i" and gm.date_setting.shown == DATE_FORMAT
    [sent] = prefs_posted(fake)
    assert sent["dateformat"] == "Y-m-d H:i:s P" and sent["dateoptions"] == "custom"
    # What the GM had stays: language, zone, the profile's switches; the form's own token.
    assert (sent["lang"], sent["tz"]) == ("ru", "Europe/Moscow")
    assert (sent["viewemail"], sent["massemail"], sent["allowpm"], sent["hideonline"]) == (
        "1",
        "1",
        "1",
        "0",
    )
    assert sent["form_token"] and sent["creation_time"] and sent["submit"]
    assert PASSWORD not in sent.values()
    assert fake.targets("GET").count("/ucp.php?i=ucp_prefs&mode=personal") == 2  # checked after
    assert "set to Y-m-d H:i:s P (it was d M Y, H:i)" in gm.times_read()
    assert len(prefs_posted(fake)) == 1


def test_a_format_set_before_is_left_alone_and_without_consent_nothing_is_asked() -> None:
    fake = FakePhpbb("ru").with_login()
    fake.on("GET", PREFS, own("ucp_prefs_personal_after.html"))
    gm = board(fake, set_date_format=True)
    run(gm, login)
    assert gm.date_setting is not None and not gm.date_setting.changed
    assert prefs_posted(fake) == [] and "(set before)" in gm.times_read()

    plain = FakePhpbb("ru").with_login()
    run(board(plain), login)
    assert "/ucp.php?i=ucp_prefs&mode=personal" not in plain.targets("GET")


def test_a_refusal_is_said_and_the_game_goes_on_with_the_boards_format() -> None:
    fake = FakePhpbb("ru").with_login()
    fake.on("GET", PREFS, own("ucp_prefs_personal.html"))
    fake.on("POST", PREFS, own("ucp_prefs_refused_zone.html"))
    gm = board(fake, set_date_format=True)
    me = run(gm, login)
    assert me.name == USER  # logged in all the same
    assert gm.date_setting is None and gm.date_setting_error is not None
    assert "Выбран неверный часовой пояс" in gm.date_setting_error
    assert "was not set" in gm.times_read() and "board's own format" in gm.times_read()


async def login(gm: PhpbbBoard) -> User:
    return await gm.login()


async def read(gm: PhpbbBoard) -> tuple[list[Post], list[PrivateMessage]]:
    posts = (await gm.thread_posts("2")).items
    return list(posts), list((await gm.inbox()).items)


def _own_format_board(fake: FakePhpbb, page: str) -> PhpbbBoard:
    fake.on("GET", "/viewtopic.php?t=2", html(page))
    fake.on("GET", "/ucp.php?i=pm&folder=inbox", own("pm_inbox_own_format.html"))
    fake.on("GET", "/ucp.php?i=pm&mode=view&f=0&p=1", own("pm_view_own_format.html"))
    return board(setting(fake), set_date_format=True)


def test_pages_in_the_own_format_are_read_with_each_times_offset() -> None:
    topic = (OWN / "viewtopic_own_format.html").read_text(encoding="utf-8")
    # The same page as a style that names no zone would serve it (derived: the footer's
    # «Часовой пояс» line taken out): the times still say theirs.
    zoneless = topic.replace('Часовой пояс: <span title="Европа/Москва">UTC+03:00</span>', "")
    assert zoneless != topic
    for page in (topic, zoneless):
        gm = _own_format_board(FakePhpbb("ru").with_login(), page)
        posts, pms = run(gm, read)
        assert [(p.id, p.author) for p in posts] == [("2", USER), ("3", USER)]
        assert [p.posted_at for p in posts] == [
            datetime(2026, 12, 5, 15, 7, 56, tzinfo=MOSCOW),
            datetime(2026, 12, 5, 15, 8, 13, tzinfo=MOSCOW),
        ]
        assert posts[1].body.full_text().startswith("голосую за Петю")
        [pm] = pms
        assert (pm.subject, pm.sent_at) == ("ход", datetime(2026, 12, 5, 15, 8, 18, tzinfo=MOSCOW))
    # Without the GM's own format, a page naming no zone is refused, not read in a guess.
    plain = FakePhpbb("ru").with_login().on("GET", "/viewtopic.php?t=2", html(zoneless))
    with pytest.raises(LayoutChanged, match="names no time zone"):
        run(board(plain), read)


runner = CliRunner()
ARGS = ["board", "check", "--engine", "phpbb", "--url", BASE, "--user", USER, "--thread", "2"]


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePhpbb]:
    fake = FakePhpbb("ru").with_login().with_thread().with_inbox()
    monkeypatch.setattr(board_cmd, "make_board", lambda *a, **options: board(fake, **options))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


def test_board_check_says_which_way_times_are_read(checked: FakePhpbb) -> None:
    plain = runner.invoke(app, [*ARGS, "--allow-insecure-http"])
    assert plain.exit_code == 0, plain.output
    assert "Times: the board's own format, language ru, zone" in plain.output
    assert "(named on the page)" in plain.output
    setting(checked)
    result = runner.invoke(app, [*ARGS, "--allow-insecure-http", "--set-date-format"])
    assert result.exit_code == 0, result.output
    assert (
        "Times: the GM's own date format, set to Y-m-d H:i:s P (it was d M Y, H:i): every "
        "time carries its offset" in result.output
    )
    other = ["board", "check", "--engine", "xenforo", "--url", BASE, "--user", USER]
    other += ["--thread", "2"]
    refused = runner.invoke(app, [*other, "--allow-insecure-http", "--set-date-format"])
    assert refused.exit_code == 2 and "sets no date format" in refused.output


GAME = """[game]
ruleset = "classic"
[board]
engine = "{engine}"
url = "https://forum.example.org/"
thread = "2"
gm_user = "Ведущий"
password = "env:GM_PW"
set_date_format = true
[schedule]
deadlines = "every day 19:00"
start = "2027-01-10 19:00"
[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля"]
[deal]
mafioso = 1
citizen = 4
"""


@pytest.mark.parametrize("engine", ["phpbb", "xenforo"])
def test_the_game_files_key_reaches_the_adapter_where_the_board_has_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, engine: str
) -> None:
    from engine.app.game_file import load_game
    from engine.service.build import make_board

    monkeypatch.setenv("GM_PW", PASSWORD)
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(engine=engine), encoding="utf-8")
    checked = runner.invoke(app, ["game", "validate", str(path)])
    assert checked.exit_code == 0, checked.output
    config = load_game(path)
    made = make_board(config)
    if engine == "phpbb":
        assert config.set_date_format and isinstance(made, PhpbbBoard) and made.set_date_format
        assert "set_date_format" not in checked.output
    else:
        assert not config.set_date_format
        assert "XenForo has no date format of an account's own" in checked.output


def test_a_time_that_names_its_offset_is_read_in_it() -> None:
    from datetime import UTC

    from forums.dates import parse_board_time

    now = datetime(2026, 12, 5, 12, tzinfo=UTC)
    for text, expected in [
        ("2026-12-05 15:07:56 +03:00", datetime(2026, 12, 5, 12, 7, 56, tzinfo=UTC)),
        (" » 2026-12-05 15:07:56 +03:00", datetime(2026, 12, 5, 12, 7, 56, tzinfo=UTC)),
        ("2026-12-05T09:07:56-0300", datetime(2026, 12, 5, 12, 7, 56, tzinfo=UTC)),
        ("2026-12-05 12:07 Z", datetime(2026, 12, 5, 12, 7, tzinfo=UTC)),
    ]:
        read = parse_board_time(text, tz=MOSCOW, now=now)
        assert read == expected and read.tzinfo == MOSCOW, text
    with pytest.raises(ValueError):
        parse_board_time("2026-13-05 15:07:56 +03:00", tz=MOSCOW, now=now)
