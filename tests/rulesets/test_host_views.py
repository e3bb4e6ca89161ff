"""The rulesets' extras for the host (dashboard and `forumgm review`): yakuza's HP table and vote
weights, minimafik's hands, twelve-rooms' map picture. Never published: host's eyes only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from xml.etree import ElementTree

import rulesets
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import Seat
from engine.session import GameSession

START = datetime(2026, 12, 1, 16, 0, tzinfo=UTC)


def test_yakuza_hp_table_shows_real_hp_and_what_the_town_sees() -> None:
    ruleset = rulesets.find("yakuza")
    seats = [
        Seat("Вася", "citizen", visible_role="authority"),
        Seat("Петя", "citizen", visible_role="lawyer"),
        Seat("Маша", "citizen", visible_role="stuntman"),
        Seat("Коля", "killer"),
        Seat("Оля", "citizen"),
    ]
    state, _ = ruleset.setup(seats, None, 1)
    state.player("Маша").fields.update(hp=40, status="hospital", public_status="hospital")
    state.player("Коля").fields.update(fake_hp=70)
    # What the town sees differs: the stuntman looks healthy (§5.2).
    state.player("Петя").fields.update(hp=60, status="wounded", public_status="healthy")
    state.player("Оля").fields.update(hp=0, status="dead", alive=False)
    [table] = ruleset.host_tables(state, None)
    assert table.title == "HP" and table.columns[:5] == (
        "player",
        "role",
        "visible role",
        "HP",
        "status",
    )
    rows = {r[0]: r for r in table.rows}
    assert rows["Вася"][2:4] == ("authority", "100/100")
    assert rows["Маша"][3:5] == ("40/100", "hospital")
    assert rows["Коля"][5] == "disinformed: shows 70 HP"
    assert rows["Петя"][4:] == ("wounded", "the town sees: healthy")
    assert rows["Оля"][4] == "dead"


def test_yakuza_host_vote_view_has_the_weights_of_the_rules() -> None:
    ruleset = rulesets.find("yakuza")
    seats = [
        Seat("Вася", "citizen", visible_role="authority"),
        Seat("Петя", "citizen", visible_role="lawyer"),
        Seat("Маша", "citizen"),
        Seat("Коля", "killer"),
        Seat("Оля", "citizen", visible_role="vip"),
    ]
    session = GameSession.new(ruleset, seats, {}, 1)
    session.open_phase(START, START + timedelta(days=1))
    session.resolve()  # night 1: nobody acts
    session.open_phase(START + timedelta(days=1), START + timedelta(days=2))
    for voter, target in (("Вася", "Коля"), ("Петя", "Коля"), ("Маша", "Коля"), ("Коля", "Оля")):
        session.submit(Order(voter, OrderKind.VOTE, targets=(target,), channel=Channel.THREAD))
    assert session.inputs is not None
    view = ruleset.vote_view(session.state, session.inputs, public=False)
    assert view.votes["Вася"] == "Коля" and view.weights == {"Вася": 2.5, "Петя": 1.5}
    # Коля's vote for the VIP counts 1 whatever he is; Маша's counts 1: neither is listed.
    # The totals keep the halves (2.5 + 1.5 + 1 = 5 is whole; a lone lawyer would be 1.5).
    assert view.totals == {"Коля": 5, "Оля": 1}


def test_yakuza_vote_count_keeps_a_half_vote_in_both_languages() -> None:
    """A lawyer's 1.5 is not cut to 1 in the count players read: «1,5 голоса», "1.5 votes"."""
    from engine.render import Renderer
    from engine.service.posts import renderer_for

    ruleset = rulesets.find("yakuza")
    seats = [Seat("Петя", "citizen", visible_role="lawyer"), Seat("Маша", "citizen")]
    seats += [Seat("Коля", "killer"), Seat("Оля", "citizen")]
    session = GameSession.new(ruleset, seats, {}, 1)
    session.open_phase(START, START + timedelta(days=1))
    session.resolve()
    session.open_phase(START + timedelta(days=1), START + timedelta(days=2))
    for voter, target in (("Петя", "Коля"), ("Маша", "Оля")):
        session.submit(Order(voter, OrderKind.VOTE, targets=(target,), channel=Channel.THREAD))
    assert session.inputs is not None
    view = ruleset.vote_view(session.state, session.inputs, public=True)
    assert view.totals == {"Коля": 1.5, "Оля": 1}
    context = {"totals": view.totals, "votes": view.votes, "not_voting": view.not_voting}
    ru = renderer_for(Renderer.for_ruleset(ruleset, "ru"), "vote_count")
    en = renderer_for(Renderer.for_ruleset(ruleset, "en"), "vote_count")
    ru, en = ru.render_post("vote_count", **context), en.render_post("vote_count", **context)
    assert "— 1,5 голоса (Петя)" in ru and "— 1 голос (Маша)" in ru
    assert "— 1.5 votes (Петя)" in en and "— 1 vote (Маша)" in en


def test_minimafik_hands_table() -> None:
    ruleset = rulesets.find("minimafik")
    names = ["Аня", "Боря", "Вика", "Гена", "Даша", "Егор", "Женя", "Зоя"]
    state, _ = ruleset.setup([Seat(n) for n in names], None, 5)
    state.player("Аня").fields.update(
        hand=["rot", "blank", "blank", "x"], deck=["a", "b"], points=3
    )
    state.player("Боря").fields.update(alive=False, hand=[])
    state.data["leader"] = "Вика"
    [table] = ruleset.host_tables(state, None)
    assert table.title == "Hands"
    rows = {r[0]: r for r in table.rows}
    assert rows["Аня"][2:7] == ("4", "1", "2", "2", "3")
    assert rows["Боря"][2] == "0" and rows["Боря"][7] == "dead"
    assert rows["Вика"][7] == "Leader"
    assert len(table.rows) == len(names)


def test_twelve_rooms_picture_is_the_map_and_other_rulesets_have_none() -> None:
    ruleset = rulesets.find("twelve-rooms")
    seats = [Seat("Вася", "manager"), Seat("<b>Ты</b>", "citizen"), Seat("Маша", "citizen")]
    state, _ = ruleset.setup(seats, None, 1)
    svg = ruleset.host_picture(state, "ru")
    assert svg is not None
    root = ElementTree.fromstring(svg)  # well-formed: a nickname cannot add markup
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert any("<b>Ты</b>" in t for t in texts)
    assert not list(root.iter("{http://www.w3.org/2000/svg}script"))
    classic = rulesets.find("classic")
    cstate, _ = classic.setup(
        [Seat("A", "mafioso"), Seat("B", "citizen"), Seat("C", "citizen")], None, 1
    )
    assert classic.host_picture(cstate, "ru") is None and classic.host_tables(cstate, None) == []
