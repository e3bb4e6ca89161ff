"""Issue 25 (items 1 and 4), what the QA sweep found: a host command given twice at the same
moment — from the CLI or by the dashboard's form sent twice — says so and queues nothing
more, so the players read one post; an ended game's phase reads as ended; and the host's
Russian lines are declined and cased as the rest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from engine.app.cli import app as cli_app
from engine.app.dashboard.web import Dashboard
from engine.app.service_cmd import driver_for
from engine.service.build import database_url
from engine.store import open_store
from tests.app.dashboard_client import client, csrf_of, log_in
from tests.app.rehearsal import Rehearsal
from tests.app.steer_game import steer_game

PASSWORD = "correct horse battery"
_ONCE = re.compile(r'name="once" value="([^"]+)"')


@pytest.fixture
def game(tmp_path: Path) -> Rehearsal:
    return steer_game(tmp_path)


def test_a_second_removal_of_the_same_player_at_the_same_moment_is_refused(
    game: Rehearsal,
) -> None:
    at = "2026-12-01T20:00+03:00"
    game.host(at, "steer remove", "Петя", "--approve")
    again = game.host(at, "steer remove", "Петя", "--approve", code=2)
    assert "Петя" in again and "removed" in again
    game.host("2026-12-01T20:01+03:00", "run", "--once")
    assert game.thread().count("Петя выбывает из игры") == 1


def test_a_second_end_is_refused_and_the_final_post_goes_out_once(game: Rehearsal) -> None:
    at = "2026-12-01T20:00+03:00"
    game.host(at, "steer end", "draw", "--approve")
    again = game.host(at, "steer end", "draw", "--approve", code=2)
    assert "over" in again
    game.host("2026-12-01T20:01+03:00", "run", "--once")
    assert game.thread().count("ничь") == 1


def test_the_same_new_deadline_twice_and_a_second_pause_are_refused(game: Rehearsal) -> None:
    at = "2026-12-01T20:00+03:00"
    game.host(at, "steer deadline", "--at", "2026-12-03 21:30", "--approve")
    again = game.host(at, "steer deadline", "--at", "2026-12-03 21:30", "--approve", code=2)
    assert "turn 1 ends 2026-12-03 21:30 MSK already: nothing to change" in again
    game.host(at, "steer pause", "--approve")
    assert "paused already" in game.host(at, "steer pause", "--approve", code=2)
    game.host("2026-12-01T20:01+03:00", "run", "--once")
    thread = game.thread()
    assert thread.count("теперь заканчивается") == 1
    assert thread.count("игра на паузе") == 1


def _browser(g: Rehearsal, monkeypatch: pytest.MonkeyPatch, at: str) -> TestClient:
    """The host's browser on the dashboard at the moment `at`, logged in."""
    result = g.runner.invoke(
        cli_app,
        ["host", "set-password", "--user", "host", "--password-stdin", "--db", g.db],
        input=PASSWORD + "\n",
    )
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("FORUMGM_NOW", at)
    monkeypatch.setenv("REHEARSAL_GM_PASSWORD", "gm-secret")
    store = open_store(database_url(g.db))
    c = client(Dashboard(store, [driver_for(g.game, g.db, store)]))
    log_in(c, PASSWORD)
    return c


def _sent(c: TestClient, page: str, action: str, **fields: str) -> str:
    """One of `page`'s forms sent as it was rendered (its tokens); the page it lands on."""
    once = _ONCE.search(page)
    assert once is not None
    data = {"csrf": csrf_of(page), "once": once.group(1), "back": "steer", **fields}
    r = c.post(f"/games/1/{action}", data=data)
    assert r.status_code == 200, r.text
    return re.sub(r"<[^>]+>", " ", r.text)


def test_a_dashboard_form_sent_twice_is_done_once(
    game: Rehearsal, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _browser(game, monkeypatch, "2026-12-01T20:00+03:00")
    page = c.get("/games/1").text
    assert "Петя: removed from play" in _sent(c, page, "steer-remove", player="Петя")
    twice = _sent(c, page, "steer-remove", player="Петя")
    assert "this form was sent already and is done" in twice
    # Another form of the same page still goes; sent again, it is refused too.
    assert "turn 1 now ends 2026-12-02 21:00 MSK" in _sent(c, page, "steer-deadline", extend="2h")
    assert "sent already" in _sent(c, page, "steer-deadline", extend="2h")
    # A fresh page makes fresh forms: the removal is refused by the rules this time.
    fresh = c.get("/games/1").text
    refused = _sent(c, fresh, "steer-remove", player="Петя")
    assert "Петя is removed already" in refused or "Петя is not in play" in refused
    assert "Approved 2 item(s)" in _sent(c, fresh, "approve-publish")
    thread = game.thread()
    assert thread.count("Петя выбывает из игры") == 1
    assert thread.count("теперь заканчивается") == 1


def test_the_refusals_are_russian_for_a_russian_host(game: Rehearsal) -> None:
    at = "2026-12-01T20:00+03:00"
    game.host(at, "steer remove", "Оля", "--approve")
    again = game.host(at, "--lang ru steer remove", "Оля", code=2)
    assert "Оля уже выбывает из игры по решению ведущего (мера №1, фаза: ход 1)" in again
    game.host(at, "steer deadline", "--at", "2026-12-03 21:30")
    same = game.host(at, "--lang ru steer deadline", "--at", "2026-12-03 21:30", code=2)
    assert "ход 1 и так заканчивается 2026-12-03 21:30 MSK: менять нечего" in same


def test_an_ended_game_shows_its_phase_as_over_and_run_resolves_nothing_more(
    game: Rehearsal, monkeypatch: pytest.MonkeyPatch
) -> None:
    game.host("2026-12-01T20:00+03:00", "steer end", "draw", "--approve")
    game.host("2026-12-01T20:01+03:00", "run", "--once")
    status = game("2026-12-01T20:02+03:00", "--lang", "ru", "status", "--db", game.db)
    assert "ход 1 (игра окончена)" in status and "идёт" not in status
    assert "2026-12-02 19:00" not in status  # no deadline is to come
    # The old deadline passes: nothing is resolved, nothing more is posted.
    posts = game.gm_posts()
    assert "finished" in game.host("2026-12-02T19:05+03:00", "run", "--once")
    assert game.gm_posts() == posts and "Итоги" not in game.thread()
    status = game("2026-12-02T19:06+03:00", "status", "--db", game.db)
    assert "turn 1 (the game is over)" in status and "(open)" not in status
    # The dashboard agrees: its list and the game page.
    c = _browser(game, monkeypatch, "2026-12-02T19:07+03:00")
    listed = c.get("/").text
    assert "turn 1 (the game is over)" in listed and "(open)" not in listed
    page = c.get("/games/1").text
    assert "<strong>turn 1</strong> (the game is over)" in page
    assert "deadline 2026-12-02" not in page


def test_game_sub_declines_the_seat_in_russian(game: Rehearsal) -> None:
    said = game.host("2026-12-01T20:00+03:00", "--lang ru game sub", "Оля", code=1)
    assert "кому предложить место Оли (" in " ".join(said.split()), said
    english = game.host("2026-12-01T20:00+03:00", "game sub", "Оля", code=1)
    assert "nobody in the reserve to offer Оля's seat to" in " ".join(english.split())


def test_an_offered_seat_is_declined_on_every_line_about_it(game: Rehearsal) -> None:
    text = game.game.read_text(encoding="utf-8")
    game.game.write_text(text.replace("[players]\n", '[players]\nreserve = ["Лёша"]\n'), "utf-8")
    offered = " ".join(game.host("2026-12-01T20:00+03:00", "--lang ru game sub", "Оля").split())
    assert "место Оли (сейчас играет Оля) предложено Лёше до" in offered, offered
    status = game("2026-12-01T20:01+03:00", "--lang", "ru", "status", "--db", game.db)
    assert "место Оли (сейчас играет Оля) предложено Лёше до" in " ".join(status.split())


def test_activity_names_the_phase_as_every_other_command(game: Rehearsal) -> None:
    shown = game.host("2026-12-01T20:00+03:00", "--lang ru activity")
    rows = [line for line in shown.splitlines() if "Коля" in line]
    assert rows and all("ход 1" in row and "Ход" not in row for row in rows), shown
    assert "turn 1" in game.host("2026-12-01T20:00+03:00", "activity")


def test_the_preview_line_of_a_post_with_no_subject_ends_in_no_colon(game: Rehearsal) -> None:
    said = game.host("2026-12-01T20:00+03:00", "--lang ru steer say", "Все на месте?")
    assert "--- пост в тему (черновик)\n" in said and "(черновик): " not in said, said
    preview = game.host("2026-12-01T20:01+03:00", "review", "--preview")
    assert "--- draft post to thread\n" in preview and "to thread: \n" not in preview
    pm = game.host("2026-12-01T20:02+03:00", "steer say", "Ты где?", "--to", "Оля")
    assert "--- draft pm to Оля: От ведущего\n" in pm  # a PM's subject is still shown


def test_validate_names_the_players_roles_leaves_out(tmp_path: Path) -> None:
    g = Rehearsal(tmp_path)
    text = g.game.read_text(encoding="utf-8")
    g.game.write_text(text.replace('"Оля" = "citizen"\n', ""), encoding="utf-8")
    ru = " ".join(
        g("2026-12-01T17:00+03:00", "--lang", "ru", "game", "validate", "GAME", code=1).split()
    )
    assert "[roles] не даёт роли игроку: Оля; добавьте строку (имя = роль)" in ru, ru
    assert "[deal] (в файле нет)" not in ru
    two = text.replace('"Оля" = "citizen"\n', "").replace('"Коля" = "citizen"\n', "")
    g.game.write_text(two, encoding="utf-8")
    en = " ".join(g("2026-12-01T17:00+03:00", "game", "validate", "GAME", code=1).split())
    assert "[roles] gives no role to Коля, Оля: add a line (name = role) for each of them" in en
    assert "no roles are given" not in en
    # A player listed twice is said once, on his line; every player has a role.
    twice = text.replace('"Коля", "Оля"', '"Коля", "Оля", "Оля"')
    g.game.write_text(twice, encoding="utf-8")
    said = g("2026-12-01T17:00+03:00", "game", "validate", "GAME", code=1)
    assert "'Оля'" in said and "no role" not in said and "[deal]" not in said, said
    # No [roles] and no [deal]: the hint to add one stays.
    g.game.write_text(text.partition("[roles]")[0], encoding="utf-8")
    none = g("2026-12-01T17:00+03:00", "game", "validate", "GAME", code=1)
    assert "no roles are given: add a [deal] table" in " ".join(none.split())
