"""The dashboard links to the game's report and serves it to the logged-in host only."""

from __future__ import annotations

import pytest

from tests.app.dashboard_client import host_client
from tests.app.review_game import ReviewGame, review_game

__all__ = ["review_game"]


def test_the_game_page_links_to_its_report_for_the_host_only(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = host_client(review_game, monkeypatch)
    page = c.get("/games/1").text
    assert 'href="/games/1/report"' in page and 'href="/games/1/report?public=1"' in page
    full = c.get("/games/1/report")
    assert full.status_code == 200 and 'data-mode="full"' in full.text
    policy = full.headers["content-security-policy"]
    assert "script-src" not in policy and "default-src 'none'" in policy
    public = c.get("/games/1/report?public=1")
    assert public.status_code == 200 and 'data-mode="public"' in public.text
    assert c.get("/games/9/report").status_code == 404
    stranger = host_client(review_game, monkeypatch, logged_in=False)
    answer = stranger.get("/games/1/report", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith("/login")
