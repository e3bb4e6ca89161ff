"""Minimafik role PMs list each role's orders with examples (cards of the game's collection,
names of its players) that parse as those orders; the mafia PM states the deck rules and its
example deck is accepted; a refusal shows the form (issue 23)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.core.orders import Channel
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from rulesets import find
from tests.rulesets.usage_check import check_pm

NAMES = ["Катя", "Вася", "Петя", "Серёга", "Маша", "Дима"]
ROLES = ["boss", "killer", "citizen", "citizen", "citizen", "citizen"]
START = datetime(2026, 3, 1, 12, tzinfo=UTC)


def _session() -> GameSession:
    seats = [Seat(n, r) for n, r in zip(NAMES, ROLES, strict=True)]
    session = GameSession.new(find("minimafik"), seats, None, 3)
    session.open_phase(START, START + timedelta(days=1))
    return session


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_role_pm_lists_orders_that_parse_as_named(lang: str) -> None:
    session = _session()
    assert session.log is not None
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    context = session.ruleset.render_context(session.state)
    seen: set[str] = set()
    for name in NAMES:
        seen.update(check_pm(session, renderer, session.log.events, name, context=context))
    assert any(s.startswith(("колода: ", "deck: ")) for s in seen)
    mafia = renderer.render_private(session.log.events, "Катя", context=context)
    assert mafia is not None
    rules = {"ru": "Колода мафии — 13 карт: 10 карт ваших цветов", "en": "A mafia deck holds 13"}
    assert rules[lang] in mafia


def test_the_mafia_example_deck_is_accepted() -> None:
    session = _session()
    assert session.log is not None
    renderer = Renderer.for_ruleset(session.ruleset, "ru")
    for name in ("Катя", "Вася"):
        (entry,) = [
            u
            for e in session.log.events
            if e.type == "role_assigned" and name in e.to
            for u in e.fields["orders"]
            if u["action"] == "build_deck"
        ]
        text = renderer.usage_example(entry)
        events, warnings = session.submit_post(name, PostBody.plain(text), Channel.PM,
                                               at=START + timedelta(hours=1))  # fmt: skip
        assert [e.fields["action"] for e in events if e.type == "order_accepted"] == [
            "build_deck"
        ], (text, events, warnings)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_wrong_deck_shows_the_rules_and_the_form(lang: str) -> None:
    session = _session()
    context = session.ruleset.render_context(session.state)
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    at = START + timedelta(hours=1)
    events, _ = session.submit_post("Катя", PostBody.plain("колода: Удар"), Channel.PM, at=at)
    body = renderer.render_private(events, "Катя", context=context)
    assert body is not None
    said = {
        "ru": ("Приказ «Колода» не принят", "Колода мафии — 13 карт", "Нужно: колода: <карта>"),
        "en": ("A mafia deck holds 13 cards", "Write: deck: <card>"),
    }[lang]
    for words in said:
        assert words in body, body
    events, _ = session.submit_post("Петя", PostBody.plain("помощь"), Channel.PM, at=at)
    check_pm(session, renderer, events, "Петя", context=context)
