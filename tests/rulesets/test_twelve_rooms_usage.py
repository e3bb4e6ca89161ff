"""«12 комнат» role PMs list each role's orders with examples that parse as those orders;
«помощь» answers with them; a refusal shows the form (issue 23)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.core.orders import Channel
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from rulesets.twelve_rooms.roles import ROLES
from tests.rulesets.usage_check import START, check_pm, opened

NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля", "Nekr0", "Гена", "Лена", "Дима", "Стас",
         "Катя", "Серёга"]  # fmt: skip


def _session() -> GameSession:
    return opened("twelve-rooms", [Seat(n, r) for n, r in zip(NAMES, ROLES, strict=True)], 5)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_role_pm_lists_orders_that_parse_as_named(lang: str) -> None:
    session = _session()
    assert session.log is not None
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    context = session.ruleset.render_context(session.state)
    seen: set[str] = set()
    for name in NAMES:
        seen.update(check_pm(session, renderer, session.log.events, name, context=context))
    wanted = {"ru": ("иду вверх", "личина ", "я сказал "), "en": ("go up", "guise ")}[lang]
    for example in wanted:
        assert any(s.startswith(example) for s in seen), sorted(seen)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_help_and_a_refusal_with_the_form(lang: str) -> None:
    session = _session()
    context = session.ruleset.render_context(session.state)
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    at = START + timedelta(hours=1)
    events, _ = session.submit_post("Лена", PostBody.plain("помощь"), Channel.PM, at=at)
    check_pm(session, renderer, events, "Лена", context=context)
    # Лена is the warden: «личина» on nobody of the game.
    events, _ = session.submit_post("Лена", PostBody.plain("личина Вовы"), Channel.PM, at=at)
    body = renderer.render_private(events, "Лена", context=context)
    said = {"ru": "Нужно: личина <игрок>, например: личина ", "en": "Write: guise <player>"}
    assert body is not None and said[lang] in body, body


def test_the_vote_view_shows_the_weight_the_pm_told() -> None:
    """Issue 23: the weight of a vote (what the position PM says) is what `review --votes`
    and the dashboard show."""
    from engine.core.orders import Order, OrderKind
    from engine.core.phases import PhaseId

    session = _session()
    session.state.player("Вася").fields["vote_weight"] = 2
    ruleset = session.ruleset
    session.state.phase = PhaseId("turn", 2)
    session.open_phase(START + timedelta(days=1), START + timedelta(days=2))
    assert session.inputs is not None
    session.inputs.votes["Вася"] = Order("Вася", OrderKind.VOTE, targets=("Петя",))
    view = ruleset.vote_view(session.state, session.inputs, public=False)
    assert view.weights == {"Вася": 2} and view.totals == {"Петя": 2}
