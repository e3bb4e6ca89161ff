"""`forumgm report` on a finished demo game of each ruleset, opened in Debian's Chromium at
desktop and phone widths: the page fits a phone, its pictures are drawn, nothing is fetched.

Each run leaves the pages' screenshots in docs/screenshots/ (git-ignored; FORUMGM_SCREENSHOTS
names another folder), as the dashboard's browser test does: report-<ruleset>-desktop.png,
report-<ruleset>-phone.png, and report-<ruleset>-votes.png (the first day's vote chart).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.app.demo.run import run_demo
from forums.browser import FLAGS, find_chromium
from tests.app.test_dashboard_browser import DESKTOP, PHONE, screenshots
from tests.browser_board import needs_browser

pytestmark = needs_browser

RULESETS = ("classic", "yakuza", "twelve-rooms", "minimafik")
EXTRAS = {
    "yakuza": ".extra .grid svg",
    "twelve-rooms": ".extra .map svg",
    "minimafik": ".extra table",
}


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright (started after the demo's own event loop ended)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=find_chromium(), headless=True, args=list(FLAGS))
        try:
            yield b
        finally:
            b.close()


def _report(db: Path, out: Path, *mode: str) -> None:
    result = CliRunner().invoke(app, ["report", "--db", str(db), "--out", str(out), *mode])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_finished_demo_game_reads_on_a_desktop_and_a_phone(ruleset: str, tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    assert run_demo(2, 10, "ru", db, quiet=True, ruleset=ruleset).winner is not None
    full, public = tmp_path / "full.html", tmp_path / "public.html"
    _report(db, full)  # the game is over: everything, by default
    _report(db, public, "--public")
    with chromium() as browser:
        _look(browser, ruleset, full, public)


def _look(browser: Any, ruleset: str, full: Path, public: Path) -> None:
    shots = screenshots()
    fetched: list[str] = []
    desk = browser.new_context(viewport=DESKTOP)
    page = desk.new_page()
    page.on("request", lambda r: fetched.append(r.url) if not r.url.startswith("file:") else None)
    page.goto(full.as_uri())
    assert page.locator("#mode").get_attribute("data-mode") == "full"
    charts = page.locator("section .votes svg")
    assert charts.count() >= 1, "a vote chart for at least one day"
    box = charts.first.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 20
    charts.first.screenshot(path=shots / f"report-{ruleset}-votes.png")
    extra = page.locator(EXTRAS[ruleset]) if ruleset in EXTRAS else None
    if extra is not None:
        assert extra.count() >= 1 and extra.first.is_visible()
    page.screenshot(path=shots / f"report-{ruleset}-desktop.png", full_page=True)
    desk.close()

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    small = phone.new_page()
    small.on("request", lambda r: fetched.append(r.url) if not r.url.startswith("file:") else None)
    for page_file, name in ((full, "phone"), (public, "public-phone")):
        small.goto(page_file.as_uri())
        width = small.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{name}: the page is {width}px wide on a phone"
        small.screenshot(path=shots / f"report-{ruleset}-{name}.png", full_page=True)
    assert small.locator("#mode").get_attribute("data-mode") == "public"
    phone.close()
    assert fetched == [], "the page fetched something"
