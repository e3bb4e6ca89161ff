"""Rules tests of twelve-rooms beyond the scenario files: the map, the step order, setup."""

from __future__ import annotations

import pytest

import rulesets
from engine.core.ruleset import RulesError, Seat
from rulesets.twelve_rooms import texts
from rulesets.twelve_rooms.resolution import PLACEMENT_STEPS, TURN_STEPS
from rulesets.twelve_rooms.roles import DEFAULT_ROSTER, ROLES, SKILLS
from rulesets.twelve_rooms.rooms import DOWN, LEFT, PASS_THROUGH, RIGHT, UP, Grid, walk

RULESET = rulesets.find("twelve-rooms")

SPEC_NEIGHBOURS = {
    1: (9, 5, 4, 2),
    2: (10, 6, 1, 3),
    3: (11, 7, 2, 4),
    4: (12, 8, 3, 1),
    5: (1, 9, 8, 6),
    6: (2, 10, 5, 7),
    7: (3, 11, 6, 8),
    8: (4, 12, 7, 5),
    9: (5, 1, 12, 10),
    10: (6, 2, 9, 11),
    11: (7, 3, 10, 12),
    12: (8, 4, 11, 9),
}
"""The neighbour table of twelve-rooms.md §3.1 (up, down, left, right)."""

SEED_ORDER = [
    "Подготовка",
    "Отдыхай",
    "Останься",
    "Всепрощение",
    "Я сказал",
    "Молчать",
    "Голосование",
    "Знакомство",
    "Поддержка",
    "Обмен",
    "Обман",
    "Терапия",
    "Зародить сомнения",
    "Мафкилл",
    "Препарат",
    "Личина",
    "Устройство",
    "Перемещение",
    "По бумагам",
    "Кто здесь?",
    "Допрос",
    "Путевой лист",
    "Конец хода",
]
"""The seed's «алгоритм» (steps 1–21 in its order), with preparation and the end of the turn."""


def test_the_torus_matches_the_spec_table() -> None:
    grid = Grid(3, 4)
    for room, expected in SPEC_NEIGHBOURS.items():
        assert tuple(grid.neighbour(room, d) for d in (UP, DOWN, LEFT, RIGHT)) == expected


def test_a_walk_crosses_pass_through_rooms_and_a_whole_ring_is_no_move() -> None:
    grid = Grid(3, 4)
    passes = {12}.__contains__
    assert walk(grid, 11, RIGHT, passes).end == 9
    assert walk(grid, 11, RIGHT, passes).doors == ((11, 12), (9, 12))
    ring = {1, 2, 3}.__contains__  # the rest of row 1 is a corridor
    stuck = walk(grid, 4, RIGHT, ring)
    assert stuck.end == 4 and stuck.doors == ()


def test_the_steps_are_the_seeds_algorithm_in_order() -> None:
    names = [step.name.split(" ", 1) for step in TURN_STEPS]
    assert [int(number) for number, _ in names] == list(range(23))
    assert [label for _, label in names] == SEED_ORDER
    for step in (*TURN_STEPS, *PLACEMENT_STEPS):
        assert step.doc.strip(), f"step {step.name} has no docstring"


def test_every_skill_resolves_at_the_step_named_after_it() -> None:
    by_step = {int(s.name.split()[0]): s.name.split(" ", 1)[1] for s in TURN_STEPS}
    for skill in SKILLS.values():
        if skill.step is not None:
            assert by_step[skill.step] == texts.SKILLS["ru"][skill.id], skill.id


def test_default_deal_is_the_seeds_ten_roles() -> None:
    seats = [Seat(f"P{i}") for i in range(10)]
    state, events = RULESET.setup(seats, None, 5)
    assert sorted(p.role or "" for p in state.players) == sorted(DEFAULT_ROSTER)
    assert sum(1 for p in state.players if p.faction == "mafia") == 5
    layout = [state.data["rooms"][str(n)]["type"] for n in range(1, 13)]
    assert len(set(layout)) == 12  # a permutation of the twelve room types
    again, _ = RULESET.setup(seats, None, 5)
    assert [p.role for p in again.players] == [p.role for p in state.players]
    assert [p.fields["room"] for p in again.players] == [p.fields["room"] for p in state.players]
    assert sum(1 for e in events if e.type == "mafia_team") == 5
    assert all(ROLES[p.role or ""].faction == p.faction for p in state.players)


@pytest.mark.parametrize(
    ("options", "where", "words"),
    [
        ({"rows": 0}, ("options", "rows"), "rows"),
        ({"layout": ["safe"] * 11}, ("options", "layout"), "12 room types"),
        ({"layout": [*["safe"] * 11, "kitchen"]}, ("options", "layout"), "room 12"),
        ({"rows": 2}, ("options", "layout"), "needs a layout"),
        ({"start_rooms": {"P1": 13}}, ("options", "start_rooms", "P1"), "P1"),
        ({"roles": {"wizard": 1}}, ("options", "roles", "wizard"), "wizard"),
        ({"map_bonus": "yes"}, ("options", "map_bonus"), "true or false"),
    ],
)
def test_bad_options_name_their_key(options: dict, where: tuple, words: str) -> None:
    seats = [Seat(f"P{i}") for i in range(10)]
    with pytest.raises(RulesError) as caught:
        RULESET.setup(seats, options, 1)
    assert caught.value.where == where
    assert words in str(caught.value)


def test_a_bad_role_names_the_player() -> None:
    seats = [Seat("P1", "wizard"), *(Seat(f"P{i}") for i in range(2, 11))]
    with pytest.raises(RulesError) as caught:
        RULESET.setup(seats, None, 1)
    assert caught.value.where == ("roles", "P1")


def test_other_map_shapes_take_a_layout() -> None:
    seats = [Seat(f"P{i}", "citizen" if i % 2 else "mafioso") for i in range(4)]
    layout = ["safe", "cameras", "pistol", "cocoa", "detector", "pass_through"]
    state, _ = RULESET.setup(seats, {"rows": 2, "cols": 3, "layout": layout}, 2)
    assert [state.data["rooms"][str(n)]["type"] for n in range(1, 7)] == layout
    assert all(1 <= p.fields["room"] <= 6 for p in state.players)
    assert PASS_THROUGH in layout


def test_the_hosts_map_as_text_and_as_svg() -> None:
    from xml.etree import ElementTree

    from rulesets.twelve_rooms.mapview import svg_map, text_map

    layout = ["safe", "isolated", "sticky", "inverted", "detector", "cocoa",
              "cameras", "pistol", "megaphone", "laughter", "silence", "pass_through"]  # fmt: skip
    seats = [
        Seat("Вася", "manager", state={"room": 1}),
        Seat("<Эй & ты>", "observer", state={"room": 7}),
        Seat("Маша", "citizen", state={"room": 7, "alive": False}),
    ]
    state, _ = RULESET.setup(seats, {"layout": layout, "room_state": {8: {"entries": 3}}}, 1)
    text = text_map(state, "ru")
    assert "1. Безопасная комната" in text and "*Вася — Распорядитель" in text
    assert "<Эй & ты> — Наблюдатель" in text and "Маша" not in text  # the dead are not shown
    assert "входов: 3" in text and "7. Комната с камерами" in text
    assert "Pistol room" in text_map(state, "en")
    svg = svg_map(state, "en")
    root = ElementTree.fromstring(svg)  # well-formed: player names are escaped
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "<Эй & ты> — Observer" in texts and any(t.startswith("12. Passage") for t in texts)
