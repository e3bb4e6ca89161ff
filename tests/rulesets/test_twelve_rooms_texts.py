"""Golden texts of every twelve-rooms template, in Russian and English.

Each template is rendered from a fixed set of events that takes every branch it has; the
result must equal the file under tests/rulesets/golden/twelve_rooms/<lang>/. After an intended
change of wording, regenerate with `FORUMGM_UPDATE_GOLDEN=1 pytest <this file>` and read
the diff. Player-written text (nicknames, anonymous messages) must come out BBCode-safe.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import rulesets
import rulesets.twelve_rooms
from engine.core.events import Event
from engine.render import Renderer
from rulesets.twelve_rooms import texts
from rulesets.twelve_rooms.codes import MESSAGES
from rulesets.twelve_rooms.roles import ROLE_ORDER, ROLES, SKILLS

RULESET = rulesets.find("twelve-rooms")
GOLDEN = Path(__file__).parent / "golden" / "twelve_rooms"
DEADLINE = datetime(2026, 12, 2, 19, 0, tzinfo=ZoneInfo("Europe/Moscow")).isoformat()
ME = "Маша"
PLAYERS = ["Вася", "Маша", "Коля", "Orel [b]X[/b]", "Nekr0"]


def results_events() -> list[Event]:
    pub = Event.public
    return [
        pub(
            "vote_tally",
            votes=[
                {"voter": "Вася", "target": "Коля", "weight": 2, "substituted": False},
                {"voter": "Коля", "target": "no_lynch", "weight": 1, "substituted": True},
                {"voter": "Маша", "target": "Коля", "weight": 3, "substituted": False},
            ],
            totals={"Коля": 2.5, "no_lynch": 1},
        ),
        pub("lynch_avoided", player="Коля", reason="shield"),
        pub("lynch_avoided", player="Вася", reason="immunity"),
        pub("lynch_avoided", player="Маша", reason="safe_room"),
        pub("death", player="Nekr0", cause="lynch", deferred=False),
        pub("death", player="Вася", cause="lynch", deferred=True),
        pub("no_lynch"),
        pub("warning", player="Orel [b]X[/b]", count=1, limit=2),
        pub("warning", player="Nekr0", count=2, limit=2),
        pub("death", player="Nekr0", cause="inactivity", deferred=False),
        pub("death", player="Вася", cause="mafkill", room_type="cameras", deferred=False),
        pub("death", player="Маша", cause="mafkill", room_type="safe", deferred=True),
        pub("death", player="Коля", cause="injection", deferred=False, role="manager"),
        pub("death", player="Вася", cause="pistol", room_type="pistol", deferred=False),
        pub("death", player="Маша", cause="sticky_room", room_type="sticky", deferred=False),
        pub("mafia_gathering", room=7),
        pub("room_converted", room=4),
        pub("camera_report", players=["Вася", "Orel [b]X[/b]"]),
        pub("camera_report", players=[]),
        pub("detector_report", positive=2, negative=1),
        pub("megaphone_report", targets=["Коля", "Маша"]),
        pub("turn_started", turn=4, deadline=DEADLINE),
    ]


def game_over() -> Event:
    return Event.public(
        "game_over",
        winner="mafia",
        survivors=["Коля", "Маша"],
        roles={name: role for name, role in zip(PLAYERS, ROLE_ORDER, strict=False)},
    )


def private_events() -> list[Event]:
    me = ME

    def to(type: str, **fields: object) -> Event:
        return Event.private(me, type, **fields)

    events = []
    for role in ROLE_ORDER:
        spec = ROLES[role]
        actives = spec.actives
        skills = [
            {
                "skill": s,
                "kind": SKILLS[s].kind,
                "slot": actives.index(s) + 1 if s in actives and len(actives) > 1 else None,
            }
            for s in spec.skills
        ]
        events.append(to("role_assigned", role=role, faction=spec.faction, skills=skills))
    events += [
        to("mafia_team", players=["Коля", me]),
        to("position", room=7, vote_weight=3),
        to("roommates", of=me, players=["Вася"]),
        to("roommates", of="Коля", players=[]),
        to("laughter_room"),
        to("role_check", target="Вася", role="savior"),
        to("room_roles", room=5, roles=["custodian", "manager"]),
        to("room_roles", room=6, roles=[], players=[]),
        to("room_roles", room=8, roles=["warden"], players=["Nekr0"]),
        to("status_compare", targets=["Вася", "Коля"], result="same"),
        to("status_compare", targets=["Вася", "Коля"], result="different"),
        to("guilt_check", target="Коля", result="guilty"),
        to("guilt_check", target="Коля", result="not_detected"),
        to("guilt_check", target="Nekr0", result="guilty"),
        to("route", target="Вася", rooms=[1, 4, 12, 12]),
        to(
            "door_report",
            doors=[{"door": [6, 7], "players": ["Вася"]}, {"door": [9, 12], "players": []}],
        ),
        to("no_result", skill="who_is_here"),
        to("role_changed", role="observer"),
        to("inherit_offer", **{"from": "Коля", "skills": ["i_said", "hush"]}),
        to("skill_inherited", **{"from": "Коля", "skill": "rest"}),
        to("inherit_offer", **{"from": "Оля", "skills": ["therapy", "sow_doubt"]}),
        to(
            "room_guess_result",
            guess="detector",
            correct=True,
            revealed_room=9,
            revealed_type="megaphone",
        ),
        to(
            "room_guess_result",
            guess="cameras",
            correct=True,
            revealed_room=None,
            revealed_type=None,
        ),
        to(
            "room_guess_result",
            guess="laughter",
            correct=False,
            revealed_room=None,
            revealed_type=None,
        ),
        to("map_check", correct=True, bonus=True),
        to("map_check", correct=False, bonus=False),
        to("anon_sent"),
        to("anon_not_sent"),
        to("vote_accepted", target="Коля", invalid=False),
        to("vote_accepted", target="no_lynch", invalid=True),
        to("order_accepted", action="move", direction="up"),
        to("order_accepted", action="start_room", room=5),
        to("order_accepted", action="inherit", skill="rest", **{"from": "Коля"}),
        to("order_accepted", action="guise", targets=["Вася"]),
        to(
            "order_accepted",
            action="i_said",
            targets=["Вася", "Коля"],
            vote_for=["Маша", "no_lynch"],
        ),
        to("order_accepted", action="hush", room=7),
        to("order_accepted", action="door_cameras", doors=[[6, 7], [9, 12]]),
        to("order_accepted", action="absolution"),
        to("turn_ack", complete=False, missing=["move", "vote"]),
        to("turn_ack", complete=True, missing=[]),
    ]
    for reason in sorted(set(MESSAGES) - {"laughter_violation"}):
        events.append(to("order_rejected", action="mafkill", reason=reason))
    events += _orders_samples(to)
    return events


def _orders_samples(to: Callable[..., Event]) -> list[Event]:
    """What the game writes about orders (issue 23), from a real game's state: the role PMs
    with their lists, «помощь», a miswritten order with its form, an unknown command."""
    from engine.core.ruleset import Seat
    from rulesets import find
    from rulesets.twelve_rooms.help import action_usage, orders_of

    names = ["Вася", "Петя", "Маша", "Коля", "Оля", "Nekr0", "Гена", "Лена", "Дима", "Стас"]
    seats = [Seat(n, r) for n, r in zip(names, ROLE_ORDER, strict=False)]
    state, setup = find("twelve-rooms").setup(seats, None, 5)
    out = [
        to(e.type, **e.fields)
        for e in setup
        if e.type == "role_assigned" and e.to[0] in ("Вася", "Оля", "Лена")
    ]
    out.append(to("orders_help", orders=orders_of(state, "Дима")))
    usage = action_usage(state, "Лена", "guise")
    out.append(to("order_rejected", action="guise", reason="unknown_target", usage=usage))
    out.append(
        to(
            "order_rejected",
            action="order",
            reason="unknown_command",
            orders=orders_of(state, "Стас"),
        )
    )
    return out


def _golden(lang: str, name: str, text: str) -> None:
    path = GOLDEN / lang / f"{name}.txt"
    if os.environ.get("FORUMGM_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with FORUMGM_UPDATE_GOLDEN=1"
    assert text + "\n" == path.read_text(encoding="utf-8"), f"{path} differs"


@pytest.fixture(scope="module", params=["ru", "en"])
def renderer(request: pytest.FixtureRequest) -> Renderer:
    return Renderer.for_ruleset(RULESET, request.param)


def test_results_post(renderer: Renderer) -> None:
    text = renderer.render_public(
        results_events(), phase="turn 3", context={"players": PLAYERS, "turn": 3}
    )
    _golden(renderer.lang, "results", text)
    assert "[b]X[/b]" not in text  # a nickname cannot open BBCode tags


def test_placement_and_final_posts(renderer: Renderer) -> None:
    placement = [
        Event.public("detector_report", positive=0, negative=1),
        Event.public("camera_report", players=["Вася"]),
        Event.public("turn_started", turn=1, deadline=DEADLINE),
    ]
    first = renderer.render_public(placement, phase="turn", context={"turn": 0})
    last = renderer.render_public([game_over()], phase="turn 9", context={"players": PLAYERS})
    _golden(renderer.lang, "placement_and_end", first + "\n\n-----\n\n" + last)


def test_private_messages(renderer: Renderer) -> None:
    text = renderer.render_private(private_events(), ME)
    assert text is not None
    # A receipt of a turn not yet complete names what is missing (only the last one counts).
    ack = renderer.render_private(
        [
            Event.private(ME, "order_accepted", action="move", direction="stay"),
            Event.private(ME, "turn_ack", complete=False, missing=["move", "vote"]),
            Event.private(ME, "turn_ack", complete=False, missing=["vote"]),
        ],
        ME,
    )
    assert ack is not None
    _golden(renderer.lang, "private", text + "\n\n-----\n\n" + ack)
    assert text.count("Ход получен полностью") + text.count("Your turn is complete") == 1


def test_a_turn_with_no_ballots(renderer: Renderer) -> None:
    events = [
        Event.public("vote_tally", votes=[], totals={}),
        Event.public("no_lynch"),
        Event.public("turn_started", turn=5, deadline=DEADLINE),
    ]
    text = renderer.render_public(events, phase="turn 4", context={"players": PLAYERS, "turn": 4})
    _golden(renderer.lang, "results_no_ballots", text)


def test_every_word_of_the_tables(renderer: Renderer) -> None:
    """A sample of each entry of the word tables the templates print (rooms, the rooms
    deaths happen in, actions, refusals, what a turn still lacks, winners): the golden
    file shows every one (`tests/render/test_golden_posts.py` checks it)."""
    words = texts.TEXTS["ru"]
    to = Event.private
    private = [to(ME, "room_guess_result", guess=r, correct=False) for r in words["rooms"]]
    private += [
        to(ME, "order_rejected", action=a, reason="late")
        for a in ("guess_room", "cancel", "unvote")
    ]
    private += [
        to(ME, "order_rejected", action="mafkill", reason=r)
        for r in words["reasons"]
        if r != "unknown_command"
    ]
    private.append(to(ME, "turn_ack", complete=False, missing=list(words["missing"])))
    pm = renderer.render_private(private, ME)
    assert pm is not None
    deaths = [
        Event.public("death", player="Коля", cause="mafkill", room_type=r, deferred=False)
        for r in words["rooms_in"]
    ]
    results = renderer.render_public(deaths, phase="turn 5", context={"players": PLAYERS})
    ends = [
        renderer.render_public(
            [Event.public("game_over", winner=w, survivors=["Коля"], roles={"Коля": "citizen"})],
            phase="turn 9",
            context={"players": PLAYERS},
        )
        for w in words["winners"]
        if w != "neutral"
    ]
    _golden(renderer.lang, "every_word", "\n\n-----\n\n".join([pm, results, *ends]))


TEMPLATES_COVERED = {
    "anonymous_message": "test_anonymous_message",
    "game_started": "test_opening_posts",
    "private": "test_private_messages, test_every_word_of_the_tables",
    "reports": "test_results_post, test_opening_posts (imported)",
    "results": "test_results_post, test_placement_and_final_posts, test_a_turn_with_no_ballots, "
    "test_every_word_of_the_tables",
}


@pytest.mark.parametrize("lang", texts.LANGS)
def test_every_template_file_has_a_golden_test(lang: str) -> None:
    folder = Path(rulesets.twelve_rooms.__file__).parent / "templates" / lang
    assert {p.stem for p in folder.glob("*.j2")} == set(TEMPLATES_COVERED)


def test_opening_posts(renderer: Renderer) -> None:
    with_turn0 = Event.public(
        "game_started",
        players=PLAYERS,
        rows=3,
        cols=4,
        placement=True,
        reports=[],
        deadline=DEADLINE,
    )
    without = Event.public(
        "game_started",
        players=PLAYERS,
        rows=3,
        cols=4,
        placement=False,
        reports=[
            {"type": "camera_report", "players": ["Коля"]},
            {"type": "detector_report", "positive": 1, "negative": 1},
        ],
        deadline=DEADLINE,
    )
    text = (
        renderer.render_event_post(with_turn0)
        + "\n\n-----\n\n"
        + renderer.render_event_post(without)
    )
    _golden(renderer.lang, "game_started", text)


def test_anonymous_message(renderer: Renderer) -> None:
    event = Event.public("anonymous_message", text="Вася — мафия! [url=http://x]клик[/url]")
    text = renderer.render_event_post(event)
    _golden(renderer.lang, "anonymous_message", text)
    assert "[url" not in text


def test_every_word_table_is_complete() -> None:
    for lang in texts.LANGS:
        tables = texts.TEXTS[lang]
        assert set(tables["roles"]) == set(ROLES)
        assert set(tables["skills"]) == set(SKILLS) == set(tables["hints"])
        assert set(MESSAGES) - {"laughter_violation"} <= set(tables["reasons"])
