"""Activity in a running game on the local board: `forumgm activity` counts what players
did, a quiet player is prodded by PM once per phase (issue 29 item 2)."""

from __future__ import annotations

import json
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.service.helpers import ClockedGame, clocked_game

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "mafioso", "Петя": "commissar", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"
ACTIVITY = """
[activity]
min_posts = 1
check_before = 6     # hours before the deadline
prod = true
"""


def quiet_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ClockedGame:
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    host = clocked_game(
        tmp_path, PLAYERS, start=START, others=["Лёша", "Дима"], roles=ROLES, review="auto"
    )
    host.path.write_text(host.path.read_text(encoding="utf-8") + ACTIVITY, encoding="utf-8")
    host.forumgm(START, "game start")
    host.forumgm(START, "run", "--once")
    for n, who in enumerate(["Вася", "Петя", "Маша", "Коля"]):
        host.clock.set(START + timedelta(hours=1, minutes=n))
        host.board.post_as(who, host.thread, f"Всем привет, я {who}. Подозреваю всех сразу.")
    host.pm(START + timedelta(hours=1, minutes=10), "Вася", "голосую за Колю")
    host.forumgm(START + timedelta(hours=2), "run", "--once")
    return host


def reminders(host: ClockedGame, player: str) -> list[str]:
    return [m for m in host.inbox(player) if "напоминание от ведущего" in m]


def test_a_quiet_player_is_prodded_once_per_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = quiet_game(tmp_path, monkeypatch)
    assert reminders(host, "Оля") == []  # not yet: the check is 6 hours before the deadline
    deadline = START + timedelta(days=1)
    host.forumgm(deadline - timedelta(hours=5), "run", "--once")
    (prod,) = reminders(host, "Оля")
    assert "[b]Оля[/b], напоминание от ведущего" in prod
    assert "Ваших сообщений в теме игры за эту фазу: 0." in prod
    assert "2026-12-02 19:00 MSK" in prod
    host.forumgm(deadline - timedelta(hours=4), "run", "--once")
    assert len(reminders(host, "Оля")) == 1  # once per phase
    assert all(reminders(host, p) == [] for p in ["Вася", "Петя", "Маша", "Коля"])
    # Nothing of it is public.
    assert not host.gm_posts("напоминание")

    rows = json.loads(host.forumgm(deadline - timedelta(hours=3), "activity", "--json"))
    by = {(r["player"], r["day"]): r for r in rows}
    phase = rows[0]["day"]
    assert by[("Вася", phase)]["posts"] == 1 and by[("Вася", phase)]["votes"] == 1
    assert by[("Вася", phase)]["words"] == 7
    assert by[("Оля", phase)]["posts"] == 0 and by[("Оля", phase)]["last_post"] is None
    assert "fewer than 1" in by[("Оля", phase)]["quiet"]
    assert by[("Маша", phase)]["quiet"] is None
    table = host.forumgm(deadline - timedelta(hours=3), "activity")
    assert "Оля" in table and "quiet" in table


def with_reserve(host: ClockedGame, extra: str = "") -> None:
    text = host.path.read_text(encoding="utf-8")
    text = text.replace("[players]\n", '[players]\nreserve = ["Лёша", "Дима"]\n', 1)
    text = text.replace(
        "prod = true\n", "prod = true\nsubstitute = true\noffer_hours = 12\n" + extra
    )
    host.path.write_text(text, encoding="utf-8")


ROLE_WORDS = ("ваша роль", "житель", "мафи", "комиссар", "доктор")


def test_a_player_prodded_twice_is_replaced_from_the_reserve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = quiet_game(tmp_path, monkeypatch)
    with_reserve(host)
    day2 = START + timedelta(days=1)
    host.forumgm(day2 - timedelta(hours=5), "run", "--once")  # the first prod
    host.forumgm(day2 + timedelta(minutes=1), "run", "--once")  # turn 1 resolved
    host.forumgm(day2 + timedelta(minutes=2), "run", "--once")  # and published
    assert reminders(host, "Оля") and reminders(host, "Лёша") == []
    assert host.inbox("Лёша") == []  # one prod: no offer yet
    day3 = day2 + timedelta(days=1)
    host.forumgm(day3 - timedelta(hours=5), "run", "--once")  # the second prod: an offer
    assert len(reminders(host, "Оля")) == 2
    (offer,) = host.inbox("Лёша")
    assert "в игре освобождается место: игрок [b]Оля[/b] выходит" in offer
    assert "«беру»" in offer
    assert not any(word in offer.lower() for word in ROLE_WORDS)  # nothing of the role
    assert host.inbox("Дима") == []

    host.pm(day3 - timedelta(hours=4), "Лёша", "беру")
    host.forumgm(day3 - timedelta(hours=4) + timedelta(minutes=5), "run", "--once")
    pms = host.inbox("Лёша")
    assert len(pms) == 2 and "Замена: ваша роль" not in pms[0]
    assert "теперь вы играете вместо Оли" in pms[1]
    assert "Ваша роль: [b]Честный житель[/b]" in pms[1]
    assert host.gm_posts("Замена: вместо Оли теперь играет Лёша.")
    said = host.forumgm(day3 - timedelta(hours=3), "activity")
    assert "Лёша (replaced Оля)" in said
    written = tomllib.loads(host.path.read_text(encoding="utf-8"))
    assert written["players"]["replacements"]["Лёша"]["replaces"] == "Оля"


def test_the_host_asks_and_the_reserve_declines_or_stays_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = quiet_game(tmp_path, monkeypatch)
    with_reserve(host)
    at = START + timedelta(hours=3)
    said = host.forumgm(at, "game sub", "Маша", "--hours", "2")
    assert "seat Маша (Маша) offered to Лёша until 2026-12-02 00:00 MSK" in said
    host.forumgm(at + timedelta(minutes=1), "run", "--once")
    assert "[b]Маша[/b] выходит" in host.inbox("Лёша")[0]
    status = host.forumgm(at + timedelta(minutes=2), "status", game=False)
    assert "seat Маша (Маша) is offered to Лёша until 2026-12-02 00:00 MSK" in status
    host.pm(at + timedelta(minutes=30), "Лёша", "нет")
    host.forumgm(at + timedelta(minutes=35), "run", "--once")  # declined: the next is asked
    (offer,) = host.inbox("Дима")
    assert "[b]Маша[/b] выходит" in offer
    host.forumgm(at + timedelta(hours=3), "run", "--once")  # Дима never answers
    failed = host.cli(
        "game", "sub", str(host.path), "Маша", at=(at + timedelta(hours=4)).isoformat(), code=1
    )
    assert "nobody in the reserve to offer Маша's seat to" in failed
    assert not host.gm_posts("Замена")
    assert all(not any(w in m.lower() for w in ROLE_WORDS) for m in host.inbox("Дима"))
    assert all(not any(w in m.lower() for w in ROLE_WORDS) for m in host.inbox("Лёша"))
