"""Issue 25: the host steers a running game from the dashboard — the same commands as
`forumgm steer`, through the game page's forms — and the players read it on the board."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from engine.app.cli import app as cli_app
from engine.app.dashboard.web import Dashboard
from engine.app.service_cmd import driver_for
from engine.service.build import database_url
from engine.store import open_store
from tests.app.dashboard_client import client, csrf_of, log_in
from tests.app.rehearsal import Rehearsal
from tests.app.steer_game import steer_game
from tests.service.helpers import GM_PASSWORD, PASSWORD_ENV, cli_game

MSK = ZoneInfo("Europe/Moscow")

PASSWORD = "correct horse battery"


@pytest.fixture
def game(tmp_path: Path) -> Rehearsal:
    g = steer_game(tmp_path)
    result = g.runner.invoke(
        cli_app,
        ["host", "set-password", "--user", "host", "--password-stdin", "--db", g.db],
        input=PASSWORD + "\n",
    )
    assert result.exit_code == 0, result.output
    return g


def browser(g: Rehearsal, monkeypatch: pytest.MonkeyPatch, at: str) -> TestClient:
    """The host's browser on the dashboard `forumgm dashboard` serves at the moment `at`."""
    monkeypatch.setenv("FORUMGM_NOW", at)
    monkeypatch.setenv("REHEARSAL_GM_PASSWORD", "gm-secret")
    store = open_store(database_url(g.db))
    c = client(Dashboard(store, [driver_for(g.game, g.db, store)]))
    log_in(c, PASSWORD)
    return c


def act(c: TestClient, action: str, **fields: str) -> str:
    """Post one of the game page's forms; the page it lands on, as text."""
    token = csrf_of(c.get("/games/1").text)
    r = c.post(f"/games/1/{action}", data={"csrf": token, "back": "steer", **fields})
    assert r.status_code == 200, r.text
    return re.sub(r"<[^>]+>", " ", r.text)


def test_every_host_command_from_the_dashboard(
    game: Rehearsal, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = browser(game, monkeypatch, "2026-12-01T20:00+03:00")
    page = c.get("/games/1").text
    assert "When something happens mid-game" in page
    # No player is picked in advance: one misclick removes nobody.
    assert '<option value="" selected disabled>player to remove…</option>' in page
    assert "Петя: removed from play (counts for turn 1)" in act(
        c, "steer-remove", player="Петя", reveal="yes"
    )
    assert "no player chosen" in act(c, "steer-remove", player="", reveal="")  # refused
    said = act(c, "steer-deadline", extend="1d")
    assert "turn 1 now ends 2026-12-03 19:00 MSK" in said
    assert "fill one of" in act(c, "steer-deadline", extend="1d", shift="2h")
    assert "paused: no deadline passes until resume" in act(c, "steer-pause")
    assert "Ксюша" in act(c, "steer-say", text="Ксюша, вы где?", to="")
    waiting = act(c, "approve-publish")
    assert "Approved 4 item(s)" in waiting
    thread = game.thread()
    assert "Петя выбывает из игры по решению ведущего. Роль: Мафиози." in thread
    assert "Ход 1 теперь заканчивается 03.12.2026 19:00" in thread
    assert "игра на паузе" in thread and "Ксюша, вы где?" in thread

    c = browser(game, monkeypatch, "2026-12-02T02:00+03:00")
    assert "Paused since 2026-12-01 20:00" in c.get("/games/1").text
    said = act(c, "steer-resume")
    assert "resumed after 6 h; turn 1 ends 2026-12-04 01:00 MSK" in said
    assert "tick “I mean it”" in act(c, "steer-end", outcome="town")
    assert "the game ends: town" in act(c, "steer-end", outcome="town", confirm="yes")
    act(c, "approve-publish")
    final = game.thread().rpartition("--- #")[2]
    assert "От ведущего: игра окончена досрочно.\nПобеда: честные жители." in final
    assert "Петя — Мафиози" in final
    page = c.get("/games/1").text
    assert "When something happens mid-game" not in page  # nothing more to steer

    log = open_store(database_url(game.db)).host_actions(1)
    steered = [
        (a.action, a.via) for a in reversed(log) if a.action not in ("login", "approve", "publish")
    ]
    assert steered == [
        ("remove", "dashboard"),
        ("deadline", "dashboard"),
        ("pause", "dashboard"),
        ("say", "dashboard"),
        ("resume", "dashboard"),
        ("end", "dashboard"),
    ]


def test_a_grant_from_the_dashboard_changes_the_count_players_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """votecount: Маша's vote counts 2 from the dashboard's grant form; the thread says so
    and the results count it."""
    names = ["Вася", "Петя", "Маша", "Коля", "Оля"]
    g = cli_game(tmp_path, names, ruleset="votecount", review="auto")
    g.opened()
    at = datetime(2026, 12, 1, 20, 0, tzinfo=MSK)
    g.board.post_as("Вася", g.thread, "голос за Петю", at=at)
    g.board.post_as("Петя", g.thread, "голос за Васю", at=at + timedelta(minutes=1))
    g.board.post_as("Коля", g.thread, "голос за Васю", at=at + timedelta(minutes=2))
    g.board.post_as("Маша", g.thread, "голос за Петю", at=at + timedelta(minutes=3))
    g.cli("run", str(g.path), "--once", at="2026-12-01T20:10+03:00")
    words = ["host", "set-password", "--user", "host", "--password-stdin", "--db", g.db]
    done = CliRunner().invoke(cli_app, words, input=PASSWORD + "\n")
    assert done.exit_code == 0, done.output
    monkeypatch.setenv("FORUMGM_NOW", "2026-12-01T21:00+03:00")
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    store = open_store(g.db)
    c = client(Dashboard(store, [driver_for(g.path, g.db, store)]))
    log_in(c, PASSWORD)
    page = c.get("/games/1").text
    assert '<option value="weight" title=' in page and '<option value="vest"' not in page
    assert "granted weight" in act(c, "steer-grant", player="Маша", grant="weight", value="2")
    assert "weight: a whole number" in act(
        c, "steer-grant", player="Оля", grant="weight", value="lots"
    )
    g.cli("run", str(g.path), "--once", at="2026-12-01T21:05+03:00")
    assert "Вес голоса Маши теперь — 2." in "\n".join(g.gm_posts("От ведущего"))
    g.cli("run", str(g.path), "--once", at="2026-12-02T19:01+03:00")
    assert "Петя — 3 голоса" in g.gm_posts("Итоги дня 1")[0]
    log = [(a.action, a.via) for a in store.host_actions(1) if a.action == "grant"]
    assert log == [("grant", "dashboard")]
