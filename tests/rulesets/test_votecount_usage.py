"""The vote-count opening post shows how to vote with forms from the grammar, and a vote
that cannot be taken («не линчевать» where no lynch is not allowed) shows the form (issue
23)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.core.orders import Channel
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from rulesets import find
from tests.rulesets.usage_check import matches

NAMES = ["Коля", "Маша", "Nekr0", "Серёга"]
START = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("no_lynch", [True, False])
def test_the_opening_post_shows_forms_that_parse(lang: str, no_lynch: bool) -> None:
    ruleset = find("votecount")
    session = GameSession.new(ruleset, [Seat(n) for n in NAMES], {"no_lynch": no_lynch}, 1)
    log = session.open_phase(START, START + timedelta(days=1))
    renderer = Renderer.for_ruleset(ruleset, lang)
    (started,) = [e for e in log.events if e.type == "game_started"]
    post = renderer.render_event_post(started)
    kinds = set()
    for entry in started.fields["orders"]:
        assert renderer.usage_line(entry) in post
        parsed = session.read("Маша", PostBody.plain(renderer.usage_example(entry)), Channel.THREAD)
        assert len(parsed.orders) == 1, (entry, parsed)
        assert matches(parsed.orders[0], entry, lang)
        kinds.add(entry["kind"])
    assert ("no_lynch" in kinds) is no_lynch


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_vote_not_taken_shows_the_form(lang: str) -> None:
    ruleset = find("votecount")
    session = GameSession.new(ruleset, [Seat(n) for n in NAMES], None, 1)
    session.open_phase(START, START + timedelta(days=1))
    at = START + timedelta(hours=1)
    events, _ = session.submit_post("Маша", PostBody.plain("не линчевать"), Channel.THREAD, at=at)
    body = Renderer.for_ruleset(ruleset, lang).render_private(events, "Маша")
    said = {"ru": "Нужно: голосую за <игрок>, например: голосую за Колю", "en": "Write: vote"}
    assert body is not None and said[lang] in body
