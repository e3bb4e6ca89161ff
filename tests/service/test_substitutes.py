"""Issue 10 §4 and issue 11 §1 in a live game: a replaced player really leaves.

Through the CLI with a game file, the local board and a chosen clock: Петя, the commissar,
is replaced by Новичок in the middle of turn 1 and Новичок later by Лёша (a chain). Петя's
later orders are refused (`sender_not_in_play`), every PM for the seat (receipts, the
check result) goes to whoever holds it when it is sent, each substitute gets the role PM
and the seat's history, and a vote naming any holder lands on the seat.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast
from zoneinfo import ZoneInfo

import pytest

from engine.config import load_config
from engine.service.build import make_driver
from engine.service.substitutes import _offer_text
from engine.store import open_store
from tests.service.helpers import ClockedGame, clocked_game

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "mafioso", "Петя": "commissar", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"


def _host(tmp_path: Path) -> ClockedGame:
    """A host at the terminal: a game file, a store, the CLI at chosen moments."""
    others = ["Новичок", "Лёша"]
    return clocked_game(tmp_path, PLAYERS, start=START, others=others, roles=ROLES, review="auto")


def test_a_replaced_player_keeps_nothing_and_the_substitutes_get_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    host = _host(tmp_path)
    host.forumgm(START, "game start")
    host.forumgm(START, "run", "--once")  # the opening and the role PMs
    host.pm(START + timedelta(hours=1), "Петя", "проверка Васи")  # the seat's first check
    host.forumgm(START + timedelta(hours=1, minutes=5), "run", "--once")
    said = host.forumgm(START + timedelta(hours=2), "game replace", "Петя", "Новичок")
    assert "Новичок (replaced Петя) now plays seat Петя" in said
    # Петя still writes: his check does not count, and he hears nothing more.
    host.pm(START + timedelta(hours=3), "Петя", "проверка Маши")
    host.pm(START + timedelta(hours=3), "Коля", "голосую за Новичка")  # names the new holder
    host.pm(START + timedelta(hours=3), "Оля", "голосую за Петю")  # names the old one
    host.forumgm(START + timedelta(hours=3, minutes=5), "run", "--once")
    # The host names the one leaving now (Новичок), not the seat: the chain grows.
    said = host.forumgm(START + timedelta(hours=4), "game replace", "Новичок", "Лёша")
    assert "Лёша (replaced Новичок, replaced Петя) now plays seat Петя" in said
    host.pm(START + timedelta(hours=5), "Новичок", "проверка Коли")  # replaced in turn
    for voter in ("Вася", "Маша", "Лёша"):  # Лёша votes for the seat he now holds
        host.pm(START + timedelta(hours=5), voter, "голосую за Колю")
    host.forumgm(START + timedelta(hours=5, minutes=5), "run", "--once")
    # The host's vote table names the seat as it is held now, for the votes it cast and
    # the votes that name any of its holders.
    table = host.forumgm(START + timedelta(hours=6), "review", "--votes")
    seat = "Лёша (replaced Новичок, replaced Петя)"
    rows = [line for line in table.splitlines() if seat in line]
    assert any("Коля" in row and row.index(seat) < row.index("Коля") for row in rows)
    assert f"{seat} 2" in table  # Коля's and Оля's votes, for Новичок and for Петя
    host.forumgm(START + timedelta(days=1, minutes=5), "run", "--once")  # the deadline

    shown = host.forumgm(START + timedelta(days=1, minutes=6), "votes")
    assert "Лёша (replaced Новичок, replaced Петя)" in shown  # the seat's vote, cast by Лёша
    driver = make_driver(load_config(host.path), open_store(host.db))
    warnings = driver.store.parse_warnings(driver.game_id, "turn 1")
    refused = [w.warning for w in warnings if w.warning.code == "sender_not_in_play"]
    assert sorted(w.player or "" for w in refused) == ["Новичок", "Петя"]
    assert "Петя no longer plays this seat" in refused[0].message + refused[1].message
    orders = driver.store.parsed_orders(driver.game_id, "turn 1")
    votes = {o.order.player: o.order.target for o in orders if o.order.kind == "vote"}
    assert votes == {"Коля": "Петя", "Оля": "Петя", "Вася": "Коля", "Маша": "Коля", "Петя": "Коля"}

    petya, novichok, lyosha = host.inbox("Петя"), host.inbox("Новичок"), host.inbox("Лёша")
    assert len(petya) == 2  # his role PM and the receipt of his own first check, nothing after
    assert any("Ваша роль" in pm for pm in petya)
    handover = [pm for pm in novichok if "на замену" in pm]
    assert len(handover) == 1 and "Комиссар" in handover[0]
    later = [pm for pm in lyosha if "на замену" in pm]
    assert len(later) == 1 and "Комиссар" in later[0] and "до вас — Новичок" in later[0]
    # The check result of turn 1 (Петя's check of Вася, taken while he held the seat) goes to
    # the holder at the time it is sent: Лёша.
    results = [pm for pm in lyosha if "Результат проверки" in pm]
    assert len(results) == 1 and "Вася" in results[0]
    assert not any("Результат проверки" in pm for pm in petya + novichok)


def test_the_host_chooses_whether_the_seats_history_goes_to_the_substitute(
    tmp_path: Path,
) -> None:
    host = _host(tmp_path)
    host.forumgm(START, "game start")
    host.forumgm(START, "run", "--once")
    host.pm(START + timedelta(hours=1), "Петя", "проверка Васи")
    host.forumgm(START + timedelta(days=1, minutes=5), "run", "--once")  # turn 1's results
    (result,) = [pm for pm in host.inbox("Петя") if "(цель — [b]Вася[/b])" in pm]
    line = result.splitlines()[0]  # what the GM told the seat about its check
    said = host.forumgm(
        START + timedelta(days=1, hours=1), "game replace", "Петя", "Новичок", "--history", "none"
    )
    assert "Новичок gets the role PM\n" in said
    host.forumgm(START + timedelta(days=1, hours=1, minutes=1), "run", "--once")
    (handover,) = [pm for pm in host.inbox("Новичок") if "на замену" in pm]
    assert "Комиссар" in handover and line not in handover
    said = host.forumgm(START + timedelta(days=1, hours=2), "game replace", "Петя", "Лёша")
    assert "Лёша gets the role PM and the seat history" in said
    host.forumgm(START + timedelta(days=1, hours=2, minutes=1), "run", "--once")
    (handover,) = [pm for pm in host.inbox("Лёша") if "на замену" in pm]
    assert "Что ведущий сообщал этому месту" in handover and line in handover


def test_the_english_offer_names_its_deadline_and_words_as_english_posts_do() -> None:
    """The reserve's offer in an English game: the date as every English post writes it
    (not 02.12.2026), the game and the words to answer in “…” like the other English texts."""
    config = SimpleNamespace(schedule=SimpleNamespace(tz=MSK), title="Winter", language="en")
    offer = SimpleNamespace(
        candidate="Lesha",
        leaving="Olya",
        expires_at=datetime(2026, 12, 2, 16, 0, tzinfo=ZoneInfo("UTC")),
    )
    subject, body = _offer_text(cast(Any, SimpleNamespace(config=config)), cast(Any, offer))
    assert subject == "GM: a seat for you"
    assert "a seat in the game “Winter” is free: [b]Olya[/b] is leaving" in body
    assert "the one word “accept” by 2 Dec 2026 19:00 MSK; “decline” if you cannot" in body
    assert '"' not in body
