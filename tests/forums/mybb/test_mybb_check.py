"""`forumgm board check` with no engine given: the engine is found from the board's page, over
the pinned client and with no credentials, then the MyBB board is checked as the GM."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers_mybb import (
    BASE,
    PASSWORD,
    USER,
    FakeMybb,
    board_maker,
    html,
    redirect,
    with_inbox,
)
from typer.testing import CliRunner

from engine.app import board_cmd
from engine.app.cli import app
from forums import BoardError, User
from forums.detect import SUPPORTED

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
runner = CliRunner()
ARGS = ["board", "check", BASE, "--user", USER, "--thread", "1", "--allow-insecure-http"]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMybb]:
    fake = FakeMybb().with_login().with_thread()
    # What the board shows a visitor without cookies: its guest index.
    fake.on("GET", "/", "index_guest")
    with_inbox(fake)
    made: list[str] = []
    monkeypatch.setattr(board_cmd, "make_board", board_maker(fake, made))
    monkeypatch.setattr(board_cmd, "detect_client", fake.client)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    fake.made = made  # type: ignore[attr-defined]
    yield fake


def test_check_finds_mybb_then_reads_the_board_as_the_gm(fake: FakeMybb) -> None:
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Detected MyBB (" in out and "my_post_key" in out
    assert f"Checking mybb board {BASE} as {USER}" in out
    assert f"Logged in as {USER} (user id 2)" in out
    assert "Time zone: UTC+03:00" in out
    assert "62 posts on 7 page(s), 10 per page" in out
    assert "first page: 10 posts" in out and "last page (7): 2 posts" in out
    assert "(id 63) by Ведущий" in out
    assert "Inbox: 5 private messages" in out
    assert "newest: 'Вопрос' from Вася" in out
    assert "Posted nothing" in out and PASSWORD not in out
    assert "Merge User Groups to Ignore" in out  # issue 24 §3–4: the merge and the flood
    assert "between PMs" in out
    assert fake.made == ["mybb"]  # type: ignore[attr-defined]
    # The page detection read went out first, alone, with no cookie and no password.
    first = fake.requests[0]
    assert (first.method, first.url.path) == ("GET", "/")
    assert "cookie" not in first.headers and PASSWORD not in str(first.url)
    assert [r.method for r in fake.requests].count("POST") == 1  # the login, after detection
    gets = fake.targets("GET")
    assert "/showthread.php?mode=linear&tid=1" in gets
    assert "/showthread.php?mode=linear&page=7&tid=1" in gets
    assert "/showthread.php?mode=linear&page=4&tid=1" not in gets


def test_check_with_post_test_posts_once(fake: FakeMybb) -> None:
    fake.on("GET", "/newreply.php?tid=1", "newreply_form")
    fake.on("POST", "/newreply.php?tid=1&processed=1", "newreply_submit_response")
    fake.on("GET", "/showthread.php?tid=1&pid=64&mode=linear", "after_post_showthread")
    result = runner.invoke(app, [*ARGS, "--post-test"])
    assert result.exit_code == 0, result.output
    assert "Test post: id 64" in result.output


def test_a_named_engine_skips_detection(fake: FakeMybb) -> None:
    result = runner.invoke(app, [*ARGS, "--engine", "mybb"])
    assert result.exit_code == 0, result.output
    assert "Detected" not in result.output
    assert fake.targets("GET")[0] == "/member.php?action=login"


def test_login_failure_is_one_line_without_the_password(fake: FakeMybb) -> None:
    fake.on("POST", "/member.php", "login_failed_wrong_password")
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 1
    assert "LoginFailed" in result.output and "invalid username/password" in result.output
    assert PASSWORD not in result.output


@pytest.mark.parametrize(
    ("name", "kind", "said"),
    [
        # Issue 26: phpBB 2 forks answer to viewtopic.php like phpBB 3; no login is tried.
        (
            "torrentpier/rutracker_viewtopic_3.html",
            "text/html",
            "TorrentPier — not a supported engine",
        ),
        ("phpbb2/ftowa_viewtopic_p1000.html", "text/html", "phpBB 2 — not a supported engine"),
        ("smf/metin2hungary_board.html", "text/html", "SMF 2.0.15 — not a supported engine"),
    ],
)
def test_an_unsupported_engine_is_named_and_nothing_else_is_sent(
    fake: FakeMybb, name: str, kind: str, said: str
) -> None:
    body = (FIXTURES / "unsupported" / name).read_text(encoding="utf-8")
    fake.on("GET", "/", httpx.Response(200, text=body, headers={"Content-Type": kind}))
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 2
    assert said in result.output and f"forumgm supports {', '.join(SUPPORTED)}" in result.output
    assert [(r.method, r.url.path) for r in fake.requests] == [("GET", "/")]
    assert fake.made == []  # type: ignore[attr-defined]


def test_a_page_of_no_forum_says_what_it_saw(fake: FakeMybb) -> None:
    fake.on(
        "GET",
        "/",
        html("<html><head><title>Кулинарный блог</title></head><body>Суп.</body></html>"),
    )
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 2
    assert f"{BASE}: not a supported engine: a text/html page" in result.output
    assert "titled “Кулинарный блог”" in result.output


def test_other_engines_are_found_too(fake: FakeMybb, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    class Stop:
        engine = "stop"

        async def login(self) -> User:
            raise BoardError("stopped after detection")

        async def close(self) -> None:
            return None

    def make(engine: str, *_: Any) -> Stop:
        made.append(engine)
        return Stop()

    monkeypatch.setattr(board_cmd, "make_board", make)
    for name, product in [
        ("phpbb/3.3.10/ru/index.html", "phpBB"),
        ("phpbb/real/viewtopic.php_t=28017.html", "phpBB"),
        ("xenforo/xenforo.com/thread_view.html", "XenForo 2"),
        ("xenforo/sufficientvelocity/thread_page54.html", "XenForo 1"),
    ]:
        fake.on("GET", "/", html((FIXTURES / name).read_text(encoding="utf-8-sig")))
        result = runner.invoke(app, ARGS)
        assert result.exit_code == 1 and f"Detected {product} (" in result.output, result.output
    assert made == ["phpbb", "phpbb", "xenforo", "xenforo"]


def test_a_redirect_off_the_board_is_refused_before_anything_is_sent(fake: FakeMybb) -> None:
    fake.on("GET", "/", redirect("https://elsewhere.example/"))
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 1
    assert "ForeignOrigin" in result.output and "cannot read" in result.output
    assert all(r.url.host == "127.0.0.1" for r in fake.requests)


def test_the_url_is_needed_once(fake: FakeMybb) -> None:
    result = runner.invoke(app, ["board", "check", "--user", USER, "--thread", "1"])
    assert result.exit_code == 2 and "needs URL" in result.output
    result = runner.invoke(app, [*ARGS, "--url", "https://other.example/"])
    assert result.exit_code == 2 and "Two board URLs" in result.output
    assert fake.requests == []


def test_save_pages_keeps_what_was_read_without_the_gm_or_any_session(
    fake: FakeMybb, tmp_path: Path
) -> None:
    folder = tmp_path / "pages"
    result = runner.invoke(app, [*ARGS, "--save-pages", str(folder)])
    assert result.exit_code == 0, result.output
    assert f"page(s) to {folder}" in result.output and "session id" in result.output
    saved = sorted(folder.glob("*.html"))
    assert len(saved) >= 4  # detection, login, the thread's pages, the inbox
    index = (folder / "index.txt").read_text(encoding="utf-8")
    assert all(path.name in index for path in saved)
    served = (FIXTURES / "mybb/1.8.37/showthread_p1.html").read_text(encoding="utf-8")
    key = served.split('var my_post_key = "', 1)[1].split('"', 1)[0]
    for path in saved:
        text = path.read_text(encoding="utf-8")
        assert USER not in text and PASSWORD not in text, path.name
        assert key not in text, path.name
    thread = next(p for p in saved if "showthread" in p.name)
    text = thread.read_text(encoding="utf-8")
    assert 'my_post_key = "REDACTED"' in text and "GM-NAME" in text
    # The saved page still reads as a thread (a bug report the developers can run).
    from datetime import UTC, datetime

    from forums.mybb.thread import parse_thread_page

    page = parse_thread_page(text, f"{BASE}showthread.php?tid=1", tz=UTC, now=datetime.now(UTC))
    assert page.posts and all(p.author for p in page.posts)


def test_save_pages_of_a_board_forumgm_cannot_read(fake: FakeMybb, tmp_path: Path) -> None:
    body = (FIXTURES / "unsupported/torrentpier/rutracker_viewtopic_3.html").read_text("utf-8")
    fake.on("GET", "/", httpx.Response(200, text=body, headers={"Content-Type": "text/html"}))
    result = runner.invoke(app, [*ARGS, "--save-pages", str(tmp_path)])
    assert result.exit_code == 2
    assert "TorrentPier — not a supported engine" in result.output
    assert "Saved 1 page(s)" in result.output
    assert len(list(tmp_path.glob("*.html"))) == 1


def test_a_plain_http_address_is_refused_with_the_address_as_typed(fake: FakeMybb) -> None:
    """Issue 24 §10: the refusal began «Http://127.0.0.1:8081/: …» (the sentence's capital
    letter put on the address)."""
    result = runner.invoke(app, [a for a in ARGS if a != "--allow-insecure-http"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(BASE), result.output
    assert "Http" not in result.output
