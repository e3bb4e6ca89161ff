"""`forumgm report`: a game's page during it holds public facts only; after it, everything.

A public report is meant to be posted, so during a game nothing in it may be what only the
GM and one player know: a role PM, a secret (PM) vote, a night order, a check, the role of a
player still in play. These tests play games to the middle of a phase and read the page."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from markupsafe import Markup
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from engine.report import render, report_html
from engine.report.data import PhaseView, PlayerView, ReportData, VoteSpan
from engine.report.words import words
from engine.store import open_store
from engine.store.models import OutboxKind, PhaseStatus
from tests.app.rehearsal import Rehearsal
from tests.app.running_game import RunningGame, play_running

_TAG = re.compile(r"\[/?[a-zA-Z*]+(=[^\]]*)?\]")


def _text(html: str) -> str:
    tree = HTMLParser(html)
    assert tree.body is not None
    return tree.body.text(separator="\n")


def _lines(bbcode: str, shortest: int = 12) -> set[str]:
    return {
        line.strip()
        for line in _TAG.sub("", bbcode).splitlines()
        if len(line.strip()) >= shortest and not line.strip().startswith("fgm:")
    }


def _public_report(game: RunningGame) -> tuple[str, str]:
    store = open_store(f"sqlite:///{game.database}")
    now = store.phases(game.game_id)[-1].deadline - timedelta(minutes=1)
    html = report_html(store, game.game_id, public=True, now=now)
    return html, _text(html)


@pytest.mark.parametrize(("ruleset", "phases"), [("classic", 2), ("yakuza", 3)])
def test_a_public_report_during_a_game_holds_no_private_fact(
    tmp_path: Path, ruleset: str, phases: int
) -> None:
    game = play_running(ruleset, tmp_path / "game.sqlite", phases=phases)
    store = open_store(f"sqlite:///{game.database}")
    phases_now = store.phases(game.game_id)
    assert phases_now[-1].status is PhaseStatus.OPEN and len(phases_now) == phases + 1
    html, text = _public_report(game)
    tree = HTMLParser(html)
    assert tree.css_first("#mode").attributes["data-mode"] == "public"
    assert "<script" not in html and "http" not in html.split("</style>")[0]

    # The players' PMs: night orders and, in classic, every vote.
    for pm in game.pm_texts:
        for line in _lines(pm, 8):
            assert line not in text, line

    # What the GM sent by PM (role PMs, receipts, results PMs with checks) and is not also
    # in a public post.
    items = store.outbox(game.game_id)
    public_lines = set().union(
        *(_lines(i.bbcode) for i in items if i.kind is OutboxKind.POST), set()
    )
    private = [i for i in items if i.kind is OutboxKind.PM]
    assert private, "the game sent role PMs"
    for item in private:
        for line in _lines(item.bbcode) - public_lines:
            assert line not in text, (item.subject, line)

    # Roles of players still in play: nowhere in their row.
    living = [p for p in store.players(game.game_id) if p.in_play]
    assert living
    for p in living:
        row = tree.css_first(f'tr[data-player="{p.name}"]')
        assert row is not None and "data-role" not in row.attributes
        cells = [td.text() for td in row.css("td")]
        assert cells[2] == "?" and (p.role or "?") not in cells

    # No orders and no hidden numbers.
    w = words("ru")
    assert w["night_orders"] not in text and w["hp"] not in text and w["extras"] not in text

    # Votes: a secret vote shows only as a published count; a thread vote is public.
    open_phase = phases_now[-1].phase
    section = tree.css_first(f'section[data-phase="{open_phase}"]')
    assert section is not None
    charts = section.css("svg")
    if ruleset == "classic":
        assert not tree.css("svg[aria-label]") or all(
            s.attributes.get("aria-label") != w["vote_flow"] for s in tree.css("svg")
        )
        assert w["final_count"] not in section.text()
        for ph in phases_now[:-1]:
            [tally] = [e for e in store.events(game.game_id, ph.phase) if e.type == "vote_tally"]
            shown = tree.css_first(f'section[data-phase="{ph.phase}"]')
            assert shown is not None
            for voter, target in tally.fields["votes"].items():
                assert voter in shown.text() and target in shown.text()
    else:
        assert charts, "thread votes are public: the open day's votes are drawn"


def test_a_full_report_during_a_game_says_it_is_for_the_host(tmp_path: Path) -> None:
    game = play_running("classic", tmp_path / "game.sqlite", phases=1)
    store = open_store(f"sqlite:///{game.database}")
    now = store.phases(game.game_id)[-1].deadline - timedelta(minutes=1)
    html = report_html(store, game.game_id, public=False, now=now)
    tree = HTMLParser(html)
    assert tree.css_first("#mode").attributes["data-mode"] == "full"
    assert "ТОЛЬКО ДЛЯ ВЕДУЩЕГО" in tree.css_first("#mode").text()
    for p in store.players(game.game_id):
        row = tree.css_first(f'tr[data-player="{p.name}"]')
        assert row is not None and row.attributes.get("data-role") == p.role


# -- the host's command ---------------------------------------------------------------------


@pytest.fixture
def played(tmp_path: Path) -> Rehearsal:
    """A five-player classic game on the rehearsal board: turn 1 published, turn 2's votes
    and orders sent by PM and read, its deadline not reached."""
    game = Rehearsal(tmp_path)
    game("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    game.host("2026-12-01T18:00+03:00", "game start")
    game.host("2026-12-01T18:45+03:00", "review", "--approve")
    game.host("2026-12-01T18:50+03:00", "run", "--once")
    game.pm("2026-12-01T19:10+03:00", "Вася", "проверка Пети. Голосую за Олю")
    game.pm("2026-12-01T19:20+03:00", "Петя", "стреляем в Машу. Голосую за Колю")
    game.pm("2026-12-01T19:30+03:00", "Маша", "лечу себя. Голосую за Олю")
    game.pm("2026-12-01T20:00+03:00", "Коля", "голосую за Олю")
    game.pm("2026-12-01T21:00+03:00", "Оля", "голосую за Колю")
    game.pm("2026-12-01T22:00+03:00", "Оля", "снимаю голос. Голосую за Петю")
    game.post("2026-12-01T20:30+03:00", "Коля", "Оля подозрительно молчит")
    game.host("2026-12-02T19:01+03:00", "run", "--once")
    game.host("2026-12-02T19:02+03:00", "review", "--approve")
    game.host("2026-12-02T19:03+03:00", "run", "--once")
    game.pm("2026-12-02T19:30+03:00", "Вася", "Голосую за Петю")
    game.pm("2026-12-02T19:40+03:00", "Петя", "стреляем в Васю. Голосую за Васю")
    game.host("2026-12-02T19:50+03:00", "run", "--once")
    return game


def test_report_during_the_game_is_public_by_default(played: Rehearsal, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    out = played.host("2026-12-02T20:00+03:00", "report", "--out", str(page))
    assert f"wrote {page}" in out and "public facts only" in out
    html = page.read_text(encoding="utf-8")
    text = _text(html)
    tree = HTMLParser(html)
    assert "Оля" in text and "посажен в тюрьму" in text  # turn 1's published jailing
    for secret in ("проверка", "стреляем", "лечу", "Голосую за Петю", "mafioso", "commissar"):
        assert secret not in text, secret
    turn2 = tree.css_first('section[data-phase="turn 2"]')
    assert turn2 is not None and "svg" not in turn2.html
    full = tmp_path / "full.html"
    out = played.host("2026-12-02T20:00+03:00", "report", "--full", "--out", str(full))
    assert "Host only, do not post" in out
    full_text = _text(full.read_text(encoding="utf-8"))
    assert "Петя: team_shot → Вася" in full_text and "commissar" in full_text


def test_the_vote_flow_shows_an_unvote_and_the_switch(played: Rehearsal, tmp_path: Path) -> None:
    page = tmp_path / "full.html"
    played.host("2026-12-02T20:00+03:00", "report", "--full", "--out", str(page), "--lang", "en")
    tree = HTMLParser(page.read_text(encoding="utf-8"))
    turn1 = tree.css_first('section[data-phase="turn 1"]')
    assert turn1 is not None
    titles = [t.text() for t in turn1.css("svg title")]
    assert "Оля → Коля" in titles and "Оля → Петя" in titles and "unvoted" in titles


def test_report_names_the_game_when_the_store_holds_several_or_none(tmp_path: Path) -> None:
    game = Rehearsal(tmp_path)
    out = game("2026-12-02T20:00+03:00", "report", "GAME", "--db", game.db, code=1)
    assert "no game was started with it" in out or "has not started" in out


def test_names_and_texts_players_chose_stay_text(tmp_path: Path) -> None:
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    phase = PhaseView(
        id="day 1",
        label="Day 1",
        kind="day",
        opened="2027-01-01 19:00",
        deadline="2027-01-02 19:00",
        status="published",
        minutes=1440,
        results_public=True,
        out=[(evil, "lynched")],
        spans=[VoteSpan(evil, "Bob", 10, 1440, "deadline"), VoteSpan("Bob", evil, 5, 30, "unvote")],
    )
    player = PlayerView(evil, 1, None, None, "in play", True, [3], 1, None, None)
    data = ReportData(
        title=evil,
        ruleset="votecount",
        lang="en",
        public=True,
        finished=False,
        winner=None,
        as_of="2027-01-01 20:00",
        current="Day 1",
        players=[player],
        phases=[phase],
        opening=[Markup("<p>ok</p>")],
        extras=[],
        secret_votes=False,
        words=words("en"),
    )
    html = render(data)
    assert "<script>" not in html and "<img" not in html and "onerror=alert(2)>" not in html
    assert html.count("&lt;script&gt;") >= 4  # the title, the row, the chart, the deaths


def test_a_votecount_day_is_drawn_as_it_stands(tmp_path: Path) -> None:
    """The example votecount game, run as a host runs it: thread votes, an unvote and a
    switch, and the report of the open day, public, drawn up to now."""
    from typer.testing import CliRunner

    from engine.app.cli import app

    game = tmp_path / "game.toml"
    text = (Path(__file__).resolve().parents[2] / "docs/examples/votecount.toml").read_text()
    game.write_text(
        text.replace("sqlite:///rehearsal-board.sqlite", f"sqlite:///{tmp_path / 'b.sqlite'}")
    )
    runner = CliRunner(env={"FORUMGM_GM_PASSWORD": "x", "COLUMNS": "200"})
    db = str(tmp_path / "store.db")

    def cli(at: str, *words: str) -> str:
        result = runner.invoke(app, list(words), env={"FORUMGM_NOW": at})
        assert result.exit_code == 0, result.output
        return result.output

    cli("2027-01-15T12:00+00:00", "board", "local", "init", str(game))
    cli("2027-01-15T12:00+00:00", "game", "start", str(game), "--db", db)
    cli("2027-01-15T12:01+00:00", "review", str(game), "--approve", "--db", db)
    cli("2027-01-15T21:00+00:00", "run", str(game), "--once", "--db", db)
    for at, who, said in (
        ("22:00", "Alice", "vote Bob"),
        ("22:10", "Bob", "vote Carol"),
        ("23:00", "Dave", "vote Bob"),
        ("23:30", "Alice", "unvote"),
        ("23:40", "Alice", "vote Carol"),
    ):
        cli(f"2027-01-15T{at}+00:00", "board", "local", "post", str(game), "--as", who, said)
    cli("2027-01-16T08:00+00:00", "run", str(game), "--once", "--db", db)
    page = tmp_path / "day.html"
    out = cli("2027-01-16T09:00+00:00", "report", str(game), "--db", db, "--out", str(page))
    assert "public facts only" in out
    tree = HTMLParser(page.read_text(encoding="utf-8"))
    day = tree.css_first('section[data-phase="day 1"]')
    assert day is not None
    titles = [t.text() for t in day.css("svg title")]
    assert titles.count("Alice → Bob") == 1 and "Alice → Carol" in titles
    assert "Dave → Bob" in titles and "unvoted" in titles
    row = tree.css_first('tr[data-player="Alice"]')
    assert row is not None and row.css("td")[4].text() == "2"  # two votes, the unvote aside
