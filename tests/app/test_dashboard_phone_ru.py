"""`forumgm dashboard` on a phone in Russian (Debian's Chromium at 390 px, the browser asking
for ru-RU): every word of the pages in Russian, the parse warnings too; no pick list starts on
a player; a refused decision's message is on screen where the host looks; the audit log fits
the phone; no approve buttons once nothing waits; no marker in the preview; no request the
browser makes ends in a 404.

Screenshots go where tests/app/test_dashboard_browser.py writes its own (docs/screenshots/,
FORUMGM_SCREENSHOTS), named `*-phone-ru.png`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import i18n
from tests.app.dashboard_client import HOST, PASSWORD, set_password
from tests.app.review_game import make_review_game
from tests.app.served_dashboard import served_dashboard
from tests.app.test_dashboard_browser import PHONE, browser, screenshots
from tests.browser_board import needs_browser

pytestmark = needs_browser
__all__ = ["browser"]


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    game = make_review_game(tmp_path, monkeypatch, check=True)
    set_password(game)
    monkeypatch.delenv(i18n.ENV)  # the host names no language: the browser's is taken
    with served_dashboard(game) as url:
        yield url


def _fits(page: Any, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{what} is {width}px wide on a {PHONE['width']}px phone"


def _in_view(page: Any, selector: str) -> None:
    """`selector` is on the screen (its box inside the viewport), not only on the page."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)


def test_the_dashboard_in_russian_on_a_phone(served: str, browser: Any) -> None:
    shots = screenshots()
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU")
    page = phone.new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.goto(f"{served}/games/1")
    assert page.locator("h1").inner_text() == "Вход для ведущего"
    page.screenshot(path=shots / "login-phone-ru.png", full_page=True)
    page.fill("input[name=name]", HOST)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Войти')")
    page.wait_for_url(f"{served}/games/1")
    assert page.get_attribute("html", "lang") == "ru"
    assert "3 предупреждения держат итоги" in page.inner_text(".summary")
    warnings = page.inner_text("#warnings")
    assert "голос: «Ксюшу» — нет такого игрока" in warnings, warnings
    assert "Предупреждения разбора" in warnings and "is not a player" not in warnings
    _fits(page, "the game page")
    assert "fgm:" not in page.inner_text("#drafts")  # the preview reads as players will read
    page.screenshot(path=shots / "game-phone-ru.png", full_page=True)

    # No pick list starts on a player: each shows its empty "choose" line.
    picks = page.locator("select[name=name], select[name=player]")
    assert picks.count() >= 5
    for i in range(picks.count()):
        chosen = picks.nth(i).evaluate("s => [s.value, s.options[s.selectedIndex].disabled]")
        assert chosen == ["", True], picks.nth(i).inner_html()

    # A pick sent empty (a browser that ignores `required`) is refused by the dashboard, and
    # the message is on the screen, at the warning the host was settling.
    olya = page.locator("article.warning", has_text="Ксюшу")
    warning_id = olya.get_attribute("id")
    olya.locator("select[name=name]").evaluate("s => s.removeAttribute('required')")
    olya.locator("button:has-text('Выбрать')").click()
    page.wait_for_load_state()
    refused = f"#{warning_id} .flash.error"
    assert "игрок не выбран" in page.inner_text(refused)
    _in_view(page, refused)
    assert "держит итоги" in page.inner_text(f"#{warning_id} .badge")  # nothing was settled
    page.screenshot(path=shots / "game-refused-phone-ru.png")

    # Approving while warnings hold the results, without "approve anyway": refused, on screen.
    page.click("button:has-text('Одобрить и опубликовать')")
    page.wait_for_load_state()
    assert "отметьте «одобрить всё равно»" in page.inner_text("#drafts .flash.error")
    _in_view(page, "#drafts .flash.error")

    # Settle the three warnings; the results approve themselves and go out: no approve buttons.
    for name in ("Петьку", "Ксюшу", "alert"):
        article = page.locator("article.warning.held", has_text=name).first
        article.locator("button:has-text('Отклонить')").click()
        page.wait_for_load_state()
        _in_view(page, ".flash.ok")
    assert "0 предупреждений держат итоги" in page.inner_text(".summary")
    assert page.locator("button:has-text('Одобрить')").count() == 0
    page.click("button:has-text('Опубликовать одобренное')")
    page.wait_for_load_state()
    assert "Опубликовано сообщений: 2" in page.inner_text("#drafts .flash.ok")
    assert page.locator("#approve button").count() == 0
    assert "Всё уже на форуме" in page.inner_text("#drafts")
    page.screenshot(path=shots / "game-published-phone-ru.png", full_page=True)

    # The audit log fits the phone: no column cut, nothing wider than the screen.
    for address, shot in (("/games/1/log", "log-phone-ru.png"), ("/log", "log-all-phone-ru.png")):
        page.goto(f"{served}{address}")
        _fits(page, address)
        table = page.evaluate("document.querySelector('table.log').scrollWidth")
        assert table <= PHONE["width"], f"the audit table of {address} is {table}px wide"
        assert "Журнал действий" in page.inner_text("h1")
        ignored = page.locator("td[data-label='Действие']", has_text="предупреждение не в счёт")
        assert ignored.count() == 3  # the action "ignore", named in Russian
        page.screenshot(path=shots / shot, full_page=True)
    page.goto(f"{served}/")
    _fits(page, "the games page")
    page.screenshot(path=shots / "games-phone-ru.png", full_page=True)

    assert missing == [], f"404 in the browser: {missing}"
    assert errors == [], f"errors in the browser's console: {errors}"
    phone.close()
