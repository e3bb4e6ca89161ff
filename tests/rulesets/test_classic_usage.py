"""Classic role PMs list each role's orders with examples that parse as those orders (issue 23)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.core.orders import Channel
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from rulesets.classic.roles import ROLES
from tests.rulesets.usage_check import START, check_pm, opened

NAMES = ["Маша", "Коля", "Лена", "Петя", "Nekr0", "Серёга", "Оля", "Дима", "Стас", "Вася",
         "Катя", "Гена", "Орёл"]  # fmt: skip


def _session() -> GameSession:
    return opened("classic", [Seat(n, r) for n, r in zip(NAMES, ROLES, strict=True)], 7)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_role_pm_lists_orders_that_parse_as_named(lang: str) -> None:
    session = _session()
    assert session.log is not None
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    seen = set()
    for name in NAMES:
        seen.update(check_pm(session, renderer, session.log.events, name))
    assert any(s.startswith(("лечу ", "heal ")) for s in seen)
    assert any(s.startswith(("проверка ", "check ")) for s in seen)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_help_and_refusals_show_the_form(lang: str) -> None:
    session = _session()
    renderer = Renderer.for_ruleset(session.ruleset, lang)
    at = START + timedelta(hours=1)
    events, _ = session.submit_post("Маша", PostBody.plain("помощь"), Channel.PM, at=at)
    check_pm(session, renderer, events, "Маша")
    help_en, _ = session.submit_post("Маша", PostBody.plain("help"), Channel.PM, at=at)
    assert [e.type for e in help_en] == ["orders_help"]
    # Коля is the commissar: a check of someone not in the game shows the form.
    events, _ = session.submit_post("Коля", PostBody.plain("проверка Вовы"), Channel.PM, at=at)
    body = renderer.render_private(events, "Коля")
    assert body is not None
    said = "Нужно: проверка <игрок>, например: проверка Маши" if lang == "ru" else "Write: check"
    assert said in body
    check_pm(session, renderer, events, "Коля", field="usage")
    # Two messages without a command in one receipt: the list once.
    first, _ = session.submit_post("Лена", PostBody.plain("привет"), Channel.PM, at=at)
    second, _ = session.submit_post("Лена", PostBody.plain("как дела"), Channel.PM, at=at)
    body = renderer.render_private(first + second, "Лена")
    assert body is not None
    assert body.count(renderer.usage_line(first[0].fields["orders"][0])) == 1
