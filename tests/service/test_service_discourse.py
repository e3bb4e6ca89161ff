"""A `votecount` game on Discourse, end to end through the CLI a host uses.

The board is the in-memory Discourse of tests/discourse_board.py (real answer shapes); the
host runs `game start`, then `run --once` as the service's steps, at the moments
`FORUMGM_NOW` names. Players post in the topic as Discourse stores their posts (the cooked
HTML its Markdown gives): votes, a quoted vote, a struck one, an edit. What the players
read is the GM's posts in the topic.

Discourse dates posts to the millisecond and shows every edit, so the game file's
`review = "warnings"` holds nothing at the deadline: the last votes, read for the first
time at the freeze, are no doubt there (on a board that prints minutes they would be).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.service import build
from forums.discourse.board import DiscourseBoard
from forums.discourse.body import cooked_body
from tests.adapter_helpers import FakeTime
from tests.discourse_board import GM, KEY, FakeDiscourse

MSK = ZoneInfo("Europe/Moscow")
TOPIC = 7001
PLAYERS = ["Alu", "Бармалей", "Вася", "Оля"]
GAME = f"""\
[game]
ruleset = "votecount"
title = "Мафия на Discourse"
review = "warnings"

[board]
engine = "discourse"
url = "https://forum.example.org/"
thread = "{TOPIC}"
gm_user = "{GM}"
api_key = "env:DISCOURSE_KEY"
api_user = "{GM}"

[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-12-01 19:00"

[players]
players = [{", ".join(f'"{p}"' for p in PLAYERS)}]
"""


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscourse]:
    fake = FakeDiscourse()
    for name in PLAYERS:
        fake.add_user(name)
    fake.add_topic(TOPIC, "Мафия на Discourse", [])
    fake.now = at("2026-12-01 12:00")
    fake.post(TOPIC, GM, "Набор окончен, игра начнётся в 19:00.")
    time = FakeTime()

    def factory(engine: str) -> Any:
        assert engine == "discourse"

        def make(url: str, user: str, password: str, **options: Any) -> DiscourseBoard:
            return DiscourseBoard(
                url, user, password, client=fake.client(), sleep=time.sleep, **options
            )

        return make

    monkeypatch.setattr(build, "board_factory", factory)
    yield fake


def cli(*args: str, now: str) -> Any:
    runner = CliRunner(
        env={"DISCOURSE_KEY": KEY, "FORUMGM_NOW": at(now).isoformat(), "COLUMNS": "200"}
    )
    return runner.invoke(app, list(args))


def gm_posts(fake: FakeDiscourse) -> list[str]:
    """What the players read from the GM in the topic, as Discourse shows it."""
    return [
        cooked_body(p["cooked"]).text()
        for p in fake.topics[TOPIC].posts
        if p["username"] == GM and p["post_number"] > 1
    ]


def test_a_votecount_day_on_discourse(fake: FakeDiscourse, tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    assert cli("game", "validate", str(game), now="2026-12-01 18:00").exit_code == 0
    started = cli("game", "start", str(game), "--db", db, now="2026-12-01 18:30")
    assert started.exit_code == 0, started.output

    opened = cli("run", str(game), "--db", db, "--once", now="2026-12-01 19:01")
    assert opened.exit_code == 0, opened.output
    # The start waits for the host's approval, as on every board.
    approved = cli("review", str(game), "--db", db, "--approve", now="2026-12-01 19:02")
    assert approved.exit_code == 0, approved.output
    assert cli("run", str(game), "--db", db, "--once", now="2026-12-01 19:03").exit_code == 0
    (opening,) = gm_posts(fake)
    assert opening.startswith("Игра начинается!") and "голосую за Alu" in opening
    # Discourse has no [size] or [color]: the marker line is plain, and the last line.
    assert opening.splitlines()[-1].startswith("fgm:") and "[size" not in opening

    fake.now = at("2026-12-01 20:00")
    fake.post(TOPIC, "Alu", "Голосую за Бармалея")
    fake.now = at("2026-12-01 21:00")
    first = fake.post(TOPIC, "Вася", "голосую за Олю")
    fake.now = at("2026-12-01 22:00")
    quoted = (
        '<aside class="quote no-group" data-username="Alu" data-post="2" data-topic="7001">\n'
        '<div class="title">\n<div class="quote-controls"></div>\nAlu:</div>\n'
        "<blockquote>\n<p>Голосую за Бармалея</p>\n</blockquote>\n</aside>\n"
        "<p>Не согласен. <s>Голосую за Васю</s> Голосую за Алу</p>"
    )
    fake.post(TOPIC, "Бармалей", "", cooked=quoted)
    polled = cli("run", str(game), "--db", db, "--once", now="2026-12-01 22:30")
    assert polled.exit_code == 0, polled.output

    # Вася changes his mind by editing; Оля votes at the deadline's very moment (19:00:00.000:
    # Discourse's times are exact, so it is not "some time in the deadline's minute").
    fake.edit(first["id"], "<p>голосую за Бармалея</p>", at("2026-12-02 10:00"))
    fake.now = at("2026-12-02 19:00")
    fake.post(TOPIC, "Оля", "Голосую за Бармалея")
    fake.now = at("2026-12-02 19:00:30")
    fake.post(TOPIC, "Alu", "Снимаю голос")  # after the deadline: not day 1's

    resolved = cli("run", str(game), "--db", db, "--once", now="2026-12-02 19:02")
    assert resolved.exit_code == 0, resolved.output
    *_, results, day2 = gm_posts(fake)
    # Вася's edited vote counts, Бармалей's quote of Alu and his struck vote do not, nor
    # Alu's unvote after the deadline.
    assert results.splitlines()[:-1] == [
        "Итоги дня 1",
        "Бармалей — 3 голоса (Alu, Вася, Оля)",
        "Alu — 1 голос (Бармалей)",
        "Казнён игрок Бармалей (больше всех голосов).",
    ]
    assert day2.startswith("День 2 начинается.") and "В игре (3): Alu, Вася, Оля." in day2
    status = cli("status", "--db", db, now="2026-12-02 19:03")
    assert "day 2 (open)" in status.output, status.output


@pytest.mark.parametrize(
    ("word", "value", "vote_at", "held_as"),
    [
        ("edits_without_notice", True, "2026-12-02 18:59", "edited_after_deadline"),
        ("exact_times", False, "2026-12-02 19:00", "deadline_minute"),
    ],
)
def test_without_the_engines_word_the_last_vote_would_wait_for_review(
    fake: FakeDiscourse,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    word: str,
    value: bool,
    vote_at: str,
    held_as: str,
) -> None:
    """The same last vote on a board that might edit a post unseen (phpBB's last post), or
    one that prints minutes only, is held for the host: what Discourse's
    `edits_without_notice = False` and `exact_times = True` spare its games."""
    monkeypatch.setattr(DiscourseBoard, word, value)
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    assert cli("game", "start", str(game), "--db", db, now="2026-12-01 18:30").exit_code == 0
    cli("run", str(game), "--db", db, "--once", now="2026-12-01 19:01")
    cli("review", str(game), "--db", db, "--approve", now="2026-12-01 19:02")
    cli("run", str(game), "--db", db, "--once", now="2026-12-01 19:03")
    fake.now = at(vote_at)
    fake.post(TOPIC, "Оля", "Голосую за Бармалея")
    cli("run", str(game), "--db", db, "--once", now="2026-12-02 19:02")
    assert not any(p.startswith("Итоги дня 1") for p in gm_posts(fake))
    review = cli("review", str(game), "--db", db, now="2026-12-02 19:03")
    assert held_as in review.output, review.output
