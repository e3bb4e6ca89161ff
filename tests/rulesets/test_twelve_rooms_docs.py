"""docs/rulesets/twelve-rooms.md maps every step, room and ability to existing scenarios."""

from __future__ import annotations

import re
from pathlib import Path

from rulesets.twelve_rooms.resolution import PLACEMENT_STEPS, TURN_STEPS
from rulesets.twelve_rooms.roles import SKILLS, TURN_ACTIONS
from rulesets.twelve_rooms.rooms import ROOM_TYPES

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "rulesets" / "twelve-rooms.md"
SCENARIOS = REPO / "tests" / "scenarios" / "twelve-rooms"
REQUESTS = ("guess_room", "submit_map", "anon", "start_room")


def _rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[1].startswith("`"):
            rows[cells[0]] = re.findall(r"`([^`]+\.yaml)`", cells[1])
    return rows


def test_no_row_is_empty_and_every_file_exists() -> None:
    rows = _rows()
    assert rows
    for name, files in rows.items():
        assert files, f"row {name!r} names no scenario"
        for file in files:
            assert (SCENARIOS / file).exists(), f"row {name!r}: {file} does not exist"


def test_every_step_room_and_ability_has_a_row() -> None:
    keys = " ".join(_rows())
    for step in TURN_STEPS:
        number, label = step.name.split(" ", 1)
        assert f"Step {number} {label}" in keys, step.name
    for step in PLACEMENT_STEPS:
        assert step.name.split(" ", 1)[-1] in keys, step.name
    for room in ROOM_TYPES:
        assert f"Room `{room}`" in keys, room
    for ability in (*SKILLS, *sorted(TURN_ACTIONS - set(SKILLS)), *REQUESTS):
        assert f"Ability `{ability}`" in keys, ability
