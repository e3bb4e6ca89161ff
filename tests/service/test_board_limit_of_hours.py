"""A day's personal messages spent on Discourse, through the CLI a host uses.

Discourse lets an account of a low trust level send `max_personal_messages_per_day` PMs (20
on a stock forum) and then refuses each for up to a day (HTTP 429). A classic game sends a
PM for each role, each receipt and each private result: a GM account without staff rights
meets that limit. Whatever the PMs wait for, the game goes on: the thread and the inbox are
read, votes counted, the turn resolved at its deadline and its results posted in the topic;
the PMs stay queued and go out in their order when the limit lifts. The limit is kept in the
store (each `run --once` is a new process): no run spends a request on a PM before it lifts,
and `run`, `status` and the dashboard say how many PMs wait and until when.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest

from tests.discourse_board import GM, FakeDiscourse, rate_limited
from tests.service.test_service_discourse import GAME as VOTECOUNT
from tests.service.test_service_discourse import TOPIC, at, cli, fake, gm_posts

__all__ = ["fake"]  # the Discourse fixture of the votecount test, used here

PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
GAME = f"""\
[game]
ruleset = "classic"
title = "Мафия на Discourse"
seed = 5
review = "auto"

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

[roles]
"Вася" = "commissar"
"Петя" = "mafioso"
"Маша" = "doctor"
"Коля" = "citizen"
"Оля" = "citizen"
"""


def pms_tried(fake: FakeDiscourse, since: int = 0) -> list[str]:
    """To whom the GM tried to send a PM (accepted or refused), from request `since` on."""
    tried = []
    for request in fake.requests[since:]:
        if request.method == "POST" and request.url.path == "/posts.json":
            form = parse_qs(request.content.decode())
            if form.get("archetype") == ["private_message"]:
                tried += form["target_recipients"]
    return tried


def pms_received(fake: FakeDiscourse) -> list[str]:
    """Who got a PM from the GM, in the order the board took them."""
    return [
        t.members[1]
        for t in fake.topics.values()
        if t.archetype == "private_message" and t.members[0] == GM
    ]


def run(game: Path, db: str, now: str) -> tuple[int, str]:
    done = cli("run", str(game), "--db", db, "--once", now=now)
    return done.exit_code, " ".join(done.output.split())


@pytest.fixture
def game(fake: FakeDiscourse, tmp_path: Path) -> tuple[Path, str]:
    for name in PLAYERS:
        fake.add_user(name)
    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    started = cli("game", "start", str(path), "--db", db, now="2026-12-01 18:30")
    assert started.exit_code == 0, started.output
    fake.pms_per_day, fake.pms_today = 20, 20  # the GM account sent its 20 today
    return path, db


def test_a_turn_goes_on_while_the_pms_wait_for_the_day_limit_and_they_go_out_when_it_lifts(
    fake: FakeDiscourse, game: tuple[Path, str]
) -> None:
    path, db = game
    code, said = run(path, db, "2026-12-01 19:01")
    # The opening post is in the topic; the first role PM was refused once, for 20 hours.
    (opening,) = gm_posts(fake)
    assert opening.startswith("Игра начинается!")
    assert pms_tried(fake) == ["Вася"] and pms_received(fake) == []
    assert code == 1  # news for the host: the board refused a send
    assert "5 PMs wait behind the board's limit until about 2026-12-02 15:01 MSK" in said
    assert "max_personal_messages_per_day" in said and "nothing was lost" in said

    # The players vote by PM, as classic wants: the inbox is read, the votes taken, and
    # the receipts wait with the role PMs. No run sends a PM before the limit lifts.
    fake.now = at("2026-12-01 20:00")
    for voter in ("Вася", "Маша", "Петя"):
        fake.pm(voter, [GM], "голос", "виноват Коля")
    before = len(fake.requests)
    code, said = run(path, db, "2026-12-01 20:30")
    assert code == 0, said
    assert "3 new PM(s); 3 receipt(s) queued" in said
    assert "8 PMs wait behind the board's limit until about 2026-12-02 15:01 MSK" in said
    assert pms_tried(fake, before) == []
    status = cli("status", "--db", db, now="2026-12-01 20:40")
    shown = " ".join(status.output.split())
    assert "game 1: 8 PMs wait behind the board's limit until about 2026-12-02 15:01 MSK" in shown
    assert "approved:8" in shown  # nothing lost, nothing failed

    # When the limit was to lift, one PM is tried; still refused, the next wait is kept.
    before = len(fake.requests)
    code, said = run(path, db, "2026-12-02 15:30")
    assert pms_tried(fake, before) == ["Вася"] and code == 1
    assert "until about 2026-12-03 11:30 MSK" in said

    # The deadline: the turn is read again, resolved, and its results posted in the topic;
    # turn 2 opens at the deadline the results announce. Not one PM is tried.
    fake.now = at("2026-12-02 18:00")
    fake.pm("Оля", [GM], "голос", "виноват Вася")
    before = len(fake.requests)
    code, said = run(path, db, "2026-12-02 19:02")
    assert code == 0, said
    assert pms_tried(fake, before) == []
    *_, results = gm_posts(fake)
    assert results.startswith("Итоги хода 1")
    assert "Коля" in results and "Начинается ход 2" in results
    assert "turn 2: open until 2026-12-03 19:00 MSK" in said
    assert "PMs wait behind the board's limit until about 2026-12-03 11:30 MSK" in said

    # The limit lifts: every PM goes out in the order the game needs — the roles first,
    # then the receipts as the votes came.
    fake.pms_per_day = None
    code, said = run(path, db, "2026-12-03 11:31")
    assert code == 0, said
    got = pms_received(fake)
    assert got[:5] == PLAYERS
    assert got[5:] == ["Вася", "Маша", "Петя"]
    assert "wait behind the board's limit" not in said
    status = cli("status", "--db", db, now="2026-12-03 11:32")
    shown = " ".join(status.output.split())
    assert "wait behind" not in shown and "approved" not in shown and "failed" not in shown


def test_the_hosts_publish_tries_again_at_once_when_the_administrator_raised_the_limit(
    fake: FakeDiscourse, game: tuple[Path, str]
) -> None:
    """The store keeps the limit until the time Discourse named; an administrator who raised
    it meanwhile (or made the GM account staff) need not wait: `review --publish`, the
    host's own try, sends what waits — and while the board still refuses, that one refusal
    keeps the limit again."""
    path, db = game
    code, said = run(path, db, "2026-12-01 19:01")
    assert code == 1 and "5 PMs wait behind the board's limit" in said
    assert pms_received(fake) == []

    before = len(fake.requests)
    tried = cli("review", str(path), "--db", db, "--publish", now="2026-12-01 19:20")
    assert pms_tried(fake, before) == ["Вася"] and pms_received(fake) == []
    assert "5 PMs wait behind the board's limit until about 2026-12-02 15:20 MSK" in " ".join(
        tried.output.split()
    )

    fake.pms_per_day = None  # the administrator raised it
    published = cli("review", str(path), "--db", db, "--publish", now="2026-12-01 19:30")
    assert published.exit_code == 0, published.output
    assert "published 5 item(s)" in published.output
    assert pms_received(fake) == PLAYERS
    shown = " ".join(cli("status", "--db", db, now="2026-12-01 19:31").output.split())
    assert "wait behind" not in shown and "approved" not in shown


def test_results_refused_for_hours_wait_for_the_board_not_for_the_host(
    fake: FakeDiscourse, tmp_path: Path
) -> None:
    """A new account's posts a day spent: the results post itself waits. The step says the
    results are approved and wait for the board until when — not that they wait for the
    host — and they go out, and the next day opens, when the limit lifts."""
    path = tmp_path / "game.toml"
    path.write_text(VOTECOUNT, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    assert cli("game", "start", str(path), "--db", db, now="2026-12-01 18:30").exit_code == 0
    assert cli("review", str(path), "--db", db, "--approve", now="2026-12-01 18:31").exit_code == 0
    assert run(path, db, "2026-12-01 19:01")[0] == 0
    fake.now = at("2026-12-01 20:00")
    fake.post(TOPIC, "Вася", "Голосую за Олю")

    def a_reply(request: object) -> bool:
        return getattr(request, "method", "") == "POST" and b"topic_id" in getattr(
            request, "content", b""
        )

    fake.queue(a_reply, rate_limited(3 * 3600))
    code, said = run(path, db, "2026-12-02 19:02")
    assert code == 1  # the refusal is news, once
    assert "day 1: results approved; they wait for the board" in said
    assert "1 post waits behind the board's limit until about 2026-12-02 22:02 MSK" in said
    assert "wait for the host" not in said
    assert not any(p.startswith("Итоги дня 1") for p in gm_posts(fake))

    code, said = run(path, db, "2026-12-02 20:00")  # no request: the store keeps the wait
    assert code == 0 and "results approved; they wait for the board" in said

    code, said = run(path, db, "2026-12-02 22:03")
    assert code == 0, said
    *_, results, day2 = gm_posts(fake)
    assert results.startswith("Итоги дня 1") and "Оля — 1 голос (Вася)" in results
    assert day2.startswith("День 2 начинается.")
    assert "day 2: open until 2026-12-03 19:00 MSK" in said
