"""Game files, schedules and credentials: every error with its line, no password anywhere."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

import rulesets
from engine.app.cli import app
from engine.config import ConfigError, parse_config
from engine.core.ruleset import get_ruleset, registered
from engine.credentials import CredentialsError, CredentialsRef, Secret, resolve_password
from engine.schedule import Schedule, ScheduleError

MSK = ZoneInfo("Europe/Moscow")
GOOD = """\
[game]
ruleset = "classic"
seed = 7

[board]
engine = "phpbb"
url = "https://forum.example.org"
thread = 2
gm_user = "Ведущий"
password = "env:FORUMGM_GM_PASSWORD"

[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-12-01 19:00"

[players]
players = ["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена"]
dead = ["Гена"]
aliases = {"Вася" = ["Васек"]}

[deal]
mafioso = 2
commissar = 1
doctor = 1
citizen = 3
"""


BEFORE_START = "2026-11-30T12:00+03:00"


def known() -> dict[str, object]:
    rulesets.load_all()
    return {r: get_ruleset(r) for r in registered()}


def test_a_good_file() -> None:
    config = parse_config(GOOD, rulesets=known())  # type: ignore[arg-type]
    assert config.thread == "2" and config.review == "warnings" and config.receipts
    assert config.start == datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
    assert str(config.password) == "env:FORUMGM_GM_PASSWORD"
    assert config.ruleset_options()["roles"]["mafioso"] == 2
    assert [s.state for s in config.seats()][5] == {"alive": False}


def test_every_problem_comes_with_its_line() -> None:
    bad = (
        GOOD.replace('ruleset = "classic"', 'ruleset = "classic"\nreview = "sometimes"')
        .replace('deadlines = "every day 19:00"', 'deadlines = "when we feel like it"')
        .replace('dead = ["Гена"]', 'dead = ["Гоша"]')
        .replace("[deal]", "[colours]\nred = 1\n[deal]")
    )
    with pytest.raises(ConfigError) as err:
        parse_config(bad, rulesets=known())  # type: ignore[arg-type]
    found = {(p.line, p.message.split(":")[0]) for p in err.value.problems}
    lines = bad.splitlines()
    assert (lines.index('review = "sometimes"') + 1, "[game] review") in found
    assert any(line == lines.index('deadlines = "when we feel like it"') + 1 for line, _ in found)
    assert any(line == lines.index('dead = ["Гоша"]') + 1 for line, _ in found)
    assert any(line == lines.index("[colours]") + 1 for line, _ in found)


def test_aliases_are_lists_of_names_for_a_player() -> None:
    """An alias for nobody on the roster, or a string where a list belongs, used to pass
    `game validate` and then stop the service at the first post it read (or alias every
    letter of the string)."""
    bad = GOOD.replace(
        'aliases = {"Вася" = ["Васек"]}', 'aliases = {"Васька" = ["Васек"], "Петя" = "Петр"}'
    )
    with pytest.raises(ConfigError) as err:
        parse_config(bad, rulesets=known())  # type: ignore[arg-type]
    line = bad.splitlines().index('aliases = {"Васька" = ["Васек"], "Петя" = "Петр"}') + 1
    messages = {p.message for p in err.value.problems if p.line == line}
    assert "[players] aliases: 'Васька' is not a player of the game" in messages
    assert any(m.startswith("[players] aliases: Петя: expected a list of names") for m in messages)
    assert parse_config(GOOD, rulesets=known()).aliases == {"Вася": ["Васек"]}  # type: ignore[arg-type]


def test_a_password_in_the_file_is_refused_without_echoing_it() -> None:
    bad = GOOD.replace('password = "env:FORUMGM_GM_PASSWORD"', 'password = "hunter2"')
    with pytest.raises(ConfigError) as err:
        parse_config(bad)
    assert "hunter2" not in str(err.value)
    assert "never put the password itself" in str(err.value)


def test_ruleset_options_and_setup_are_checked() -> None:
    bad = GOOD.replace("[deal]", '[options]\nteam_shot_by = "everyone"\n[deal]')
    with pytest.raises(ConfigError, match="team_shot_by"):
        parse_config(bad, rulesets=known())  # type: ignore[arg-type]
    short = GOOD.replace("citizen = 3", "citizen = 2")
    with pytest.raises(
        ConfigError,
        match=r"\[deal\] the ruleset cannot deal this game: option roles lists 6 roles for 7 players",
    ):
        parse_config(short, rulesets=known())  # type: ignore[arg-type]


def test_toml_syntax_error_has_a_line() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config("[game]\nruleset = \n")
    assert err.value.problems[0].line == 2


def test_schedule_every_day_across_daylight_saving() -> None:
    berlin = Schedule.parse("every day 19:00", "Europe/Berlin")
    before = datetime(2026, 10, 24, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    after = berlin.deadline_after(before)
    assert after is not None and (after.hour, after.minute, after.day) == (19, 0, 25)
    assert after.utcoffset() == timedelta(hours=1)  # the clocks went back that night


def test_schedule_forms() -> None:
    moment = datetime(2026, 12, 1, 12, 0, tzinfo=MSK)
    assert Schedule.parse("каждый день 19:00", "Europe/Moscow").deadline_after(
        moment
    ) == moment.replace(hour=19)
    assert Schedule.parse("every 12 hours", "Europe/Moscow").deadline_after(
        moment
    ) == moment + timedelta(hours=12)
    listed = Schedule.parse(["2026-12-02 19:00"], "Europe/Moscow")
    assert listed.deadline_after(moment) == datetime(2026, 12, 2, 19, tzinfo=MSK)
    assert listed.deadline_after(datetime(2026, 12, 3, tzinfo=MSK)) is None
    for bad in ("every day", "every 0 days 19:00", "every day 25:00", "someday"):
        with pytest.raises(ScheduleError):
            Schedule.parse(bad, "Europe/Moscow")
    with pytest.raises(ScheduleError, match="time zone"):
        Schedule.parse("every day 19:00", "Mars/Olympus")


def test_credentials_from_the_environment_only() -> None:
    ref = CredentialsRef.parse("env:GM_PW")
    secret = resolve_password(ref, "Ведущий", {"GM_PW": "s3cret"})
    assert secret.reveal() == "s3cret"
    assert (
        "s3cret" not in repr(secret) and "s3cret" not in f"{secret}" and "s3cret" not in str(secret)
    )
    with pytest.raises(CredentialsError, match=r"GM_PW .* is not set"):
        resolve_password(ref, "Ведущий", {})
    with pytest.raises(CredentialsError):
        CredentialsRef.parse("s3cret")
    assert Secret("a") == Secret("a")


def test_cli_validate(tmp_path: Path) -> None:
    good = tmp_path / "game.toml"
    good.write_text(GOOD, encoding="utf-8")
    runner = CliRunner(env={"FORUMGM_NOW": BEFORE_START, "FORUMGM_GM_PASSWORD": "x"})
    result = runner.invoke(app, ["game", "validate", str(good)])
    assert result.exit_code == 0 and "OK" in result.output and "7 players" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("seed = 7", 'seed = "seven"'), encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(bad)])
    assert result.exit_code == 1 and "line 3: [game] seed: expected int" in result.output


def test_cli_new_writes_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = "\n".join(
        [
            "ru",
            "classic",
            "Мафия #8",
            "phpbb",
            "https://f.example.org",
            "5",
            "Ведущий",
            "GM_PW",
            "Europe/Moscow",
            "every day 19:00",
            "2026-12-01 19:00",
            "Вася, Петя, Маша, Коля, Оля",
            "mafioso=1, commissar=1, citizen=3",
            "3",
            "warnings",
        ]
    )
    runner = CliRunner(env={"FORUMGM_NOW": BEFORE_START})
    result = runner.invoke(app, ["game", "new", str(path)], input=answers + "\n")
    assert result.exit_code == 0, result.output
    assert "It is valid." in result.output
    assert 'password = "env:GM_PW"' in path.read_text(encoding="utf-8")


def test_a_thread_address_is_kept_under_the_same_id_whatever_the_command_imported() -> None:
    """`[board] thread` given by its address becomes the id the engine's pages give, also in
    a process that has imported no board adapter yet (`game validate` before any board is
    made): a game started under one and run under the other would be two games."""
    import subprocess
    import sys

    text = GOOD.replace("thread = 2", 'thread = "https://forum.example.org/viewtopic.php?f=3&t=2"')
    probe = (
        "import sys, rulesets\n"
        "from engine.config import Checks, parse_config\n"
        "from engine.core.ruleset import get_ruleset, registered\n"
        "rulesets.load_all()\n"
        "assert not any(m.startswith('forums.phpbb') for m in sys.modules), 'adapter imported'\n"
        "known = {r: get_ruleset(r) for r in registered()}\n"
        "config = parse_config(sys.stdin.read(), rulesets=known,"
        " checks=Checks(allow_past=True))\n"
        "print(config.thread)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=text,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
