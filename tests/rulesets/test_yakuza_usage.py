"""Yakuza role PMs list each role's night and day orders with examples that parse as those
orders; a refusal shows the form; a replaced main action says so (issue 23)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.core.orders import Channel
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from tests.rulesets.usage_check import START, check_pm, opened

NAMES = ["Катя", "Вася", "Петя", "Серёга", "Маша", "Дима", "Стас", "Оля", "Лена", "Гена",
         "Коля", "Nekr0"]  # fmt: skip
ROLES = ["boss", "brute", "killer", "sensei", "ninja", "shinobi", "maniac", "psycho", "spy",
         "commissar", "punisher", "citizen"]  # fmt: skip
VISIBLE = ["medic", "electrician", "gopnik", "cultist", "plagiarist", "marauder",
           "revolutionary", None, None, None, None, None]  # fmt: skip


def _session() -> GameSession:
    seats = [Seat(n, r, visible_role=v) for n, r, v in zip(NAMES, ROLES, VISIBLE, strict=True)]
    return opened("yakuza", seats, 3)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_role_pm_lists_orders_that_parse_as_named(lang: str) -> None:
    session = _session()
    assert session.log is not None
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    seen: set[str] = set()
    for name in NAMES:
        seen.update(check_pm(session, renderer, session.log.events, name))
        seen.update(check_pm(session, renderer, session.log.events, name, field="day_orders"))
    wanted = {"ru": ("наблюдение катана", "заказ Вася"), "en": ("observe katana",)}[lang]
    for example in wanted:
        assert example in seen, sorted(seen)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_refusal_shows_the_form_and_help_lists_the_orders(lang: str) -> None:
    session = _session()
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    at = START + timedelta(hours=1)
    events, _ = session.submit_post("Nekr0", PostBody.plain("наблюдаю за Серегой"), Channel.PM,
                                    at=at, post_id="1")  # fmt: skip
    body = renderer.render_private(events, "Nekr0")
    assert body is not None
    said = {
        "ru": "Нужно: наблюдение <способность>, например: наблюдение катана",
        "en": "Write: observe <ability>, e.g. observe katana",
    }[lang]
    assert said in body
    events, _ = session.submit_post("Nekr0", PostBody.plain("помощь"), Channel.PM, at=at)
    check_pm(session, renderer, events, "Nekr0")
    check_pm(session, renderer, events, "Nekr0", field="day_orders")
