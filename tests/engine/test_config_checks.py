"""`game validate` catches what `game start` and `run` would trip on (issue 9 §1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.app.game_file import known_rulesets
from engine.config import BOARD_ENGINES, Checks, ConfigError, parse_config
from tests.engine.test_config import GOOD

NOW = "2026-11-30T12:00+03:00"


def problems(text: str, **checks: object) -> list[str]:
    given = Checks(rulesets=known_rulesets(), **checks)  # type: ignore[arg-type]
    with pytest.raises(ConfigError) as err:
        parse_config(text, checks=given)
    return [str(p) for p in err.value.problems]


def test_players_gender_and_visible_roles() -> None:
    text = GOOD.replace(
        'dead = ["Гена"]', 'dead = ["Гена"]\ngender = { "Лена" = "ж", "Гоша" = "m" }'
    )
    assert problems(text) == ["line 20: [players] gender: 'Гоша' is not in players"]
    bad = GOOD.replace('dead = ["Гена"]', 'gender = { "Лена" = "she" }')
    assert problems(bad) == ["line 19: [players] gender: 'Лена': 'she': write m or f (м or ж)"]
    good = GOOD.replace('dead = ["Гена"]', 'gender = { "Лена" = "ж" }')
    assert parse_config(good, checks=Checks(rulesets=known_rulesets())).genders == {"Лена": "f"}
    visible = GOOD.replace('dead = ["Гена"]', 'visible_roles = { "Лена" = "monk" }')
    assert problems(visible) == ["line 19: [players] visible_roles: classic has no visible roles"]


def test_unknown_roles_list_the_role_ids() -> None:
    (message,) = problems(GOOD.replace("doctor = 1", "medic = 1"))
    assert message.startswith("line 25: [deal] unknown role 'medic' for classic (roles: citizen,")
    assert "commissar, doctor" in message
    (message,) = problems(GOOD.replace("[deal]", '[roles]\n"Вася" = "sheriffs"\n[deal]'))
    assert "[roles] Вася: unknown role 'sheriffs' for classic (roles: citizen" in message


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ('engine = "phpbb"\n', "[board] needs `engine`"),
        ('url = "https://forum.example.org"\n', "[board] needs `url`"),
        ("thread = 2\n", "[board] needs `thread`"),
        ('gm_user = "Ведущий"\n', "[board] needs `gm_user`"),
        ('password = "env:FORUMGM_GM_PASSWORD"\n', "[board] needs `password`"),
    ],
)
def test_every_board_key_is_required(change: str, expected: str) -> None:
    assert problems(GOOD.replace(change, "")) == [f"line 5: {expected}"]


def test_engine_url_and_time_zone_are_checked_on_their_lines() -> None:
    assert problems(GOOD.replace('engine = "phpbb"', 'engine = "ipboard"')) == [
        f"line 6: [board] engine: one of {', '.join(BOARD_ENGINES)}, got 'ipboard'"
    ]
    assert problems(GOOD.replace('"https://forum.example.org"', '"not a url"')) == [
        "line 7: [board] url: 'not a url' is not a board address; write e.g. https://forum.example.org/"
    ]
    local = GOOD.replace('engine = "phpbb"', 'engine = "local"')
    assert problems(local)[0].startswith(
        "line 7: [board] url: 'https://forum.example.org': the local"
    )
    assert problems(GOOD.replace('"Europe/Moscow"', '"Europe/Moskva"')) == [
        "line 13: [schedule] timezone: unknown time zone 'Europe/Moskva' (e.g. Europe/Moscow)"
    ]


def test_a_problem_without_a_line_names_its_table() -> None:
    text = GOOD[: GOOD.index("[schedule]")] + GOOD[GOOD.index("[players]") :]
    found = problems(text)
    assert "[schedule] needs `deadlines`" in found and "[schedule] needs `start`" in found
    assert all(not p.startswith("line") for p in found)
    no_deal = GOOD[: GOOD.index("[deal]")]
    (message,) = problems(no_deal)
    assert message == (
        "[deal] (not in the file): no roles are given: add a [deal] table (role = count) or a "
        "[roles] table (name = role)"
    )


def test_a_past_start_is_refused_or_allowed_with_a_warning() -> None:
    late = "2026-12-01T20:00+03:00"  # an hour after the start, before the first deadline
    (message,) = problems(GOOD, now=_at(late))
    assert message == (
        "line 15: [schedule] start 2026-12-01 19:00 MSK is already past (now 2026-12-01 20:00 "
        "MSK): the first phase is shorter than planned; move it, or pass --allow-past"
    )
    (message,) = problems(GOOD, now=_at("2026-12-03T12:00+03:00"))
    assert "the first deadline 2026-12-02 19:00 MSK is already past" in message
    assert "turn 1 would be resolved at once" in message
    allowed = parse_config(GOOD, checks=Checks(now=_at(late), allow_past=True))
    (warning,) = allowed.warnings
    assert warning.warning and "allowed by --allow-past" in str(warning)


def test_an_unset_password_variable_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(app, ["game", "validate", str(path)], env={"FORUMGM_NOW": NOW})
    assert result.exit_code == 0, result.output
    assert (
        "line 10: warning: [board] password: the environment variable FORUMGM_GM_PASSWORD is "
        "not set; `game start` and `run` need it"
    ) in result.output
    result = CliRunner().invoke(
        app, ["game", "validate", str(path)], env={"FORUMGM_NOW": "2026-12-01T20:00+03:00"}
    )
    assert result.exit_code == 1 and "pass --allow-past" in result.output
    result = CliRunner().invoke(
        app,
        ["game", "validate", "--allow-past", str(path)],
        env={"FORUMGM_NOW": "2026-12-01T20:00+03:00"},
    )
    assert result.exit_code == 0 and "allowed by --allow-past" in result.output


def test_game_new_with_its_own_example_answer_writes_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = [
        "ru", "classic", "Мафия", "local", "", "", "Ведущий", "", "", "", "not a date",
        "2026-11-01 19:00", "2026-12-05 19:00", "Вася", "Вася, Петя, Маша, Коля, Оля",
        "mafioso=2, commissar=1", "", "",
    ]  # fmt: skip
    result = CliRunner().invoke(
        app, ["game", "new", str(path)], input="\n".join(answers) + "\n", env={"FORUMGM_NOW": NOW}
    )
    assert result.exit_code == 0, result.output
    assert "'not a date': write YYYY-MM-DD HH:MM" in result.output
    assert "2026-11-01 19:00 is already past" in result.output
    assert "a game needs at least two players" in result.output
    assert "The other seats are dealt as citizen: 2 in all." in result.output
    assert "It is valid." in result.output
    text = path.read_text(encoding="utf-8")
    assert "mafioso = 2\ncommissar = 1\ncitizen = 2" in text
    assert 'url = "sqlite:///rehearsal-board.sqlite"' in text


def test_game_new_takes_a_list_of_deadlines_as_it_says(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = [
        "ru", "classic", "Мафия", "local", "", "", "Ведущий", "", "",
        "2026-12-06 19:00, 2026-12-07 19:00; 2026-12-08 21:30", "2026-12-05 19:00",
        "Вася, Петя, Маша, Коля, Оля", "mafioso=1", "", "",
    ]  # fmt: skip
    result = CliRunner().invoke(
        app, ["game", "new", str(path)], input="\n".join(answers) + "\n", env={"FORUMGM_NOW": NOW}
    )
    assert result.exit_code == 0, result.output
    assert "cannot read the schedule" not in result.output and "It is valid." in result.output
    text = path.read_text(encoding="utf-8")
    assert 'deadlines = ["2026-12-06 19:00", "2026-12-07 19:00", "2026-12-08 21:30"]' in text
    checked = CliRunner().invoke(app, ["game", "validate", str(path)], env={"FORUMGM_NOW": NOW})
    assert "deadlines 2026-12-06 19:00, 2026-12-07 19:00, 2026-12-08 21:30" in checked.output


def _at(text: str):  # type: ignore[no-untyped-def]
    from datetime import datetime

    return datetime.fromisoformat(text)
