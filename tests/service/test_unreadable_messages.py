"""Whatever one message holds, the game goes on (issue 22 item 1, the class).

A ruleset's intake is made to raise on one post, after it registered the vote in it (the
worst case: half of what the post did is in the ledger). Driven as a host drives forumgm,
the polls do not fail, the phase resolves at its deadline, the post counts for nothing and
is an `unreadable_message` warning naming it, with the reason on one line and the traceback
in the log; the host settles it with `--typed` (or `--ignore`), and the next phase opens.
`review`, `votes`, `status` and the dashboard's pages show the game meanwhile.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

import rulesets
from engine.core.orders import Order
from engine.core.warnings import UNREADABLE_MESSAGE
from tests.app.dashboard_client import client, log_in, make_dashboard, set_password
from tests.app.review_game import ReviewGame
from tests.service.helpers import ClockedGame, clocked_game

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
BROKEN = "голосую за Машу, и вот"


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=MSK)


@pytest.fixture
def intake_breaks_on_one_post(monkeypatch: pytest.MonkeyPatch) -> None:
    """votecount's intake takes the vote, then raises, for the post that says `BROKEN`."""
    cls: Any = type(rulesets.find("votecount"))
    real = cls.intake

    def intake(self: Any, state: Any, inputs: Any, order: Order) -> Any:
        result = real(self, state, inputs, order)
        if order.source is not None and order.source.text == BROKEN:
            raise KeyError("a ruleset's bug met this post")
        return result

    monkeypatch.setattr(cls, "intake", intake)


def _game(tmp_path: Path) -> ClockedGame:
    game = clocked_game(tmp_path, NAMES, start=_at(1, 18), ruleset="votecount", review="warnings")
    game.opened()
    game.clock.set(_at(1, 20))
    game.board.post_as("Вася", game.thread, "голосую за Петю")
    game.clock.set(_at(1, 20, 1))
    game.board.post_as("Коля", game.thread, BROKEN)
    game.clock.set(_at(1, 20, 2))
    game.board.post_as("Маша", game.thread, "голосую за Петю")
    return game


def _warning_id(review: str) -> str:
    found = re.search(rf"#(\d+) {UNREADABLE_MESSAGE} Коля", review)
    assert found is not None, review
    return found.group(1)


@pytest.mark.usefixtures("intake_breaks_on_one_post")
def test_a_post_the_intake_raises_on_is_held_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game = _game(tmp_path)
    caplog.set_level(logging.WARNING, logger="forumgm.replay")
    polled = game.forumgm(_at(1, 20, 30), "run", "--once")
    assert "step failed" not in polled and "day 1: open until" in polled
    # The traceback is in the log; the host gets the reason on one line.
    logged = [r for r in caplog.records if r.name == "forumgm.replay"]
    assert logged and logged[0].exc_info is not None
    assert "KeyError" in logged[0].getMessage()
    votes = game.forumgm(_at(1, 20, 31), "votes")
    # Коля's vote, taken before the intake raised, does not count: the post counts nothing.
    assert re.search(r"Петя\W+2", votes) and "Маша" not in votes.split("Петя", 1)[1][:20]
    status = game.forumgm(_at(1, 20, 32), "status", game=False)
    assert "day 1" in status
    review = game.forumgm(_at(1, 20, 33), "review")
    line = next(x for x in review.splitlines() if UNREADABLE_MESSAGE in x)
    assert "Коля" in line and BROKEN in line
    assert 'KeyError: "a ruleset\'s bug met this post"' in review

    # The deadline: the phase resolves and waits for the host, who settles the post.
    resolved = game.forumgm(_at(2, 19, 1), "run", "--once")
    assert "day 1: resolved; waiting for review (1 warning(s))" in resolved
    review = game.forumgm(_at(2, 19, 2), "review", "--votes")
    typed = game.forumgm(
        _at(2, 19, 3), "review", "--typed", f"{_warning_id(review)}=голосую за Олю"
    )
    assert "Traceback" not in typed
    review = game.forumgm(_at(2, 19, 4), "review", "--votes")
    assert re.search(r"│ Коля\s+│ Оля", review), review
    game.forumgm(_at(2, 19, 5), "review", "--approve")
    opened = game.forumgm(_at(2, 19, 6), "run", "--once")
    assert "day 1: results published" in opened and "day 2 opened" in opened


@pytest.mark.usefixtures("intake_breaks_on_one_post")
def test_the_host_can_ignore_it_and_the_dashboard_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(tmp_path)
    resolved = game.forumgm(_at(2, 19, 1), "run", "--once")
    assert "day 1: resolved" in resolved and "step failed" not in resolved
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    g = ReviewGame(game.path, game.db, game.board, game.thread)
    set_password(g)
    c = client(make_dashboard(g, monkeypatch, at=_at(2, 19, 2).isoformat()))
    log_in(c)
    for page in ("/", "/games/1", "/games/1/log", "/log", "/games/1/report"):
        r = c.get(page)
        assert r.status_code == 200, page
    assert UNREADABLE_MESSAGE in c.get("/games/1").text
    review = game.forumgm(_at(2, 19, 3), "review")
    game.forumgm(_at(2, 19, 4), "review", "--ignore", _warning_id(review))
    approved = game.forumgm(_at(2, 19, 5), "review", "--approve")
    assert "Traceback" not in approved
    opened = game.forumgm(_at(2, 19, 6), "run", "--once")
    assert "day 2 opened" in opened
    assert any("Петя" in post for post in game.gm_posts("2"))


def test_a_view_that_raises_leaves_the_rest_of_the_page_and_the_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dashboard's game page and `review` show whatever the store holds: a view of the
    phase that raises (here the ruleset's vote table) is one line saying so, not a 500 or
    a traceback."""
    game = _game(tmp_path)
    resolved = game.forumgm(_at(2, 19, 1), "run", "--once")
    assert "day 1: resolved" in resolved
    cls: Any = type(rulesets.find("votecount"))

    def broken(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("a ruleset's bug in its vote table")

    monkeypatch.setattr(cls, "vote_view", broken)
    review = game.forumgm(_at(2, 19, 2), "review", "--votes")
    assert "the vote table could not be shown (ZeroDivisionError" in review
    assert "draft(s) wait for approval" in review
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    g = ReviewGame(game.path, game.db, game.board, game.thread)
    set_password(g)
    c = client(make_dashboard(g, monkeypatch, at=_at(2, 19, 3).isoformat()))
    log_in(c)
    page = c.get("/games/1")
    assert page.status_code == 200
    assert "the vote table could not be shown (ZeroDivisionError" in page.text
    assert "голосую за Петю" in page.text or "Петя" in page.text
