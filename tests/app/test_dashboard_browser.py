"""`forumgm dashboard` in Debian's Chromium, as a host uses it: log in, fix the warnings of a
game, approve and publish, and read the results on the board as players do.

The command runs as a host starts it (a subprocess on a free port of 127.0.0.1, the store and
the game file of tests/app/review_game.py, FORUMGM_NOW for its clock); Playwright drives
/usr/bin/chromium. The run leaves screenshots of the main pages at desktop and phone sizes in
docs/screenshots/ (git-ignored; FORUMGM_SCREENSHOTS names another folder).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.app.review import Review
from engine.app.service_cmd import driver_for
from forums.browser import FLAGS, find_chromium
from tests.app.dashboard_client import HOST, PASSWORD, set_password
from tests.app.review_game import AFTER_DEADLINE, ReviewGame, make_review_game
from tests.app.served_dashboard import served_dashboard
from tests.browser_board import needs_browser

# Skipped only where no Chromium is installed; under .ci/run (or CI) a missing browser fails.
pytestmark = needs_browser

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def screenshots() -> Path:
    folder = Path(os.environ.get("FORUMGM_SCREENSHOTS") or ROOT / "docs" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _listening_on(port: int) -> set[str]:
    """The local addresses listening on `port` (from /proc/net/tcp*: hex, as the kernel has them)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.rpartition(":")
            if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.add(address)
    return found


class Served:
    def __init__(self, game: ReviewGame, url: str) -> None:
        self.game = game
        self.url = url


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    game = make_review_game(tmp_path, monkeypatch, check=True)
    set_password(game)
    with served_dashboard(game) as url:
        if os.path.exists("/proc/net/tcp"):
            port = int(url.rpartition(":")[2])
            assert _listening_on(port) == {"0100007F"}  # 127.0.0.1 only, by default
        yield Served(game, url)


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=find_chromium(), headless=True, args=list(FLAGS))
        try:
            yield b
        finally:
            b.close()


def _warning_ids(game: ReviewGame, monkeypatch: pytest.MonkeyPatch) -> dict[str | None, int]:
    monkeypatch.setenv("FORUMGM_NOW", AFTER_DEADLINE)
    rv = Review(driver_for(game.path, game.db), by="test", via="test")
    return {w.warning.player: w.id for w in rv.warnings()}


def test_log_in_fix_approve_and_the_board_has_the_results(
    served: Served, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, shots = served.game, screenshots()
    ids = _warning_ids(g, monkeypatch)
    desk = browser.new_context(viewport=DESKTOP)
    page = desk.new_page()
    page.goto(f"{served.url}/games/1")
    assert page.url.startswith(f"{served.url}/login")
    page.screenshot(path=shots / "login-desktop.png", full_page=True)

    page.fill("input[name=name]", HOST)
    page.fill("input[name=password]", "not the password")
    with page.expect_response(f"{served.url}/login") as answer:
        page.click("button:has-text('Log in')")
    assert answer.value.status == 401
    assert page.locator(".flash.error").inner_text() == "Wrong name or password."

    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{served.url}/games/1")
    assert "3 warning(s) hold the results" in page.inner_text(".summary")
    assert page.locator("script").count() == 1  # ours only: the player's text stayed text
    assert "<script>alert(1)</script>" in page.inner_text(f"#w{ids['Вася']}")
    page.screenshot(path=shots / "game-desktop.png", full_page=True)

    phone = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, storage_state=desk.storage_state()
    )
    small = phone.new_page()
    small.goto(f"{served.url}/games/1")
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the game page is {width}px wide on a phone"
    small.screenshot(path=shots / "game-phone.png", full_page=True)
    small.goto(f"{served.url}/")
    small.screenshot(path=shots / "games-phone.png", full_page=True)
    phone.close()

    # A POST without the form's CSRF token is refused, logged in or not.
    refused = page.request.post(f"{served.url}/games/1/ignore", form={"warning": str(ids["Оля"])})
    assert refused.status == 403 and "CSRF" in refused.text()

    kolya, vasya, olya = (f"#w{ids[n]}" for n in ("Коля", "Вася", "Оля"))
    page.click(f"{kolya} button.pick:has-text('Петя')")  # one click: the suggested name
    assert page.locator(".flash.ok").inner_text() == f"Warning #{ids['Коля']} settled: Петя"
    page.click(f"{vasya} button:has-text('Ignore')")
    assert "ignored" in page.locator(".flash.ok").inner_text()
    page.fill(f"{olya} input[name=text]", "голосую за Машу")
    page.click(f"{olya} button:has-text('Use typed order')")
    assert page.locator(".flash.ok").inner_text().endswith("settled with: Оля: vote Маша")
    assert "0 warning(s) hold the results" in page.inner_text(".summary")
    preview = page.inner_text("#drafts")
    assert "Итоги хода 1" in preview and "Коля → Петя" in preview
    page.screenshot(path=shots / "game-fixed-desktop.png", full_page=True)
    assert len(g.thread_texts()) == 1

    # Settled, the results approved themselves: nothing waits for approval, only publishing.
    assert page.locator("button:has-text('Approve & publish')").count() == 0
    page.click("button:has-text('Publish what is approved')")
    flash = page.locator(".flash.ok").inner_text()
    assert "Published 2 item(s)" in flash, flash
    page.goto(f"{served.url}/")
    page.screenshot(path=shots / "games-desktop.png", full_page=True)
    page.goto(f"{served.url}/games/1/log")
    assert page.locator("td:has-text('approve')").count() >= 1
    page.screenshot(path=shots / "log-desktop.png", full_page=True)

    # The board as players see it: the results post in the thread, the check in Вася's PMs.
    results = g.thread_texts()[-1]
    assert "Итоги хода 1" in results and "Коля → Петя" in results and "Оля → Маша" in results
    assert "script" not in results
    inbox = g.board.pms_after(g.board.user("Вася"), "inbox", 0)
    mine = [m for m in inbox if m.subject == "Итоги хода 1"]
    assert len(mine) == 1 and "Петя" in mine[0].body.full_text()
    desk.close()
