"""Minimafik role PMs list each role's orders with examples (cards of the game's collection,
names of its players) that parse as those orders; the mafia PM states the deck rules and its
example deck is accepted; a refusal shows the form (issue 23)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.core.orders import Channel
from engine.core.phases import PhaseId
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from rulesets import find
from tests.rulesets.usage_check import START, check_pm, opened

NAMES = ["Катя", "Вася", "Петя", "Серёга", "Маша", "Дима"]
ROLES = ["boss", "killer", "citizen", "citizen", "citizen", "citizen"]


def _session() -> GameSession:
    return opened("minimafik", [Seat(n, r) for n, r in zip(NAMES, ROLES, strict=True)], 3)


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


def test_a_target_two_players_share_as_word_forms_is_ambiguous_not_missing() -> None:
    """«Засаду ⚫ на Ворону» while Ворон and Ворона both play: the host is offered both."""
    hand = ["strike", "ambush", "shield", "coin"]
    cast = [("Бадди", "citizen"), ("Ворон", "citizen"), ("Ворона", "citizen"),
            ("Клифф Бут", "killer"), ("Труп", "boss")]  # fmt: skip
    seats = [Seat(n, r, state={"hand": list(hand), "points": 3}) for n, r in cast]
    session = GameSession.new(find("minimafik"), seats, {}, 1)
    session.state.phase = PhaseId.parse("night 2")
    session.open_phase(START, START + timedelta(days=1))
    at = START + timedelta(hours=1)
    events, warnings = session.submit_post(
        "Бадди", PostBody.plain("Засаду ⚫ на Ворону"), Channel.PM, at=at, post_id="1"
    )
    (warning,) = [w for w in warnings if not w.accepted]
    assert warning.code == "ambiguous_target"
    assert set(warning.choices) == {"Ворон", "Ворона"}
    assert [e.fields["reason"] for e in events if e.type == "order_rejected"] == [
        "ambiguous_target"
    ]
    # A name that fits one player still plays.
    events, _ = session.submit_post(
        "Бадди", PostBody.plain("Засаду ⚫ на Клиффа Бута"), Channel.PM, at=at, post_id="2"
    )
    assert [e.fields.get("targets") for e in events if e.type == "order_accepted"] == [
        ["Клифф Бут"]
    ]
