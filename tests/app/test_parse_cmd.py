"""`forumgm parse` and the players file it reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.players_file import PlayersFileError, load_players

runner = CliRunner()
PLAYERS = """\
players: [Вася, Nekr0, Уставший Скиталец, Alu, SleepyKrew]
dead: [Лёха]
replacements: {SleepyKrew: kondi2424}
aliases: {Alu: [Алюминий]}
"""


@pytest.fixture
def players(tmp_path: Path) -> Path:
    path = tmp_path / "players.yaml"
    path.write_text(PLAYERS, encoding="utf-8")
    return path


def parse(players: Path, *args: str, stdin: str | None = None) -> dict:
    result = runner.invoke(app, ["parse", "--players", str(players), "--json", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_players_file(players: Path) -> None:
    cast = load_players(players)
    assert cast.players[-1] == "SleepyKrew" and cast.dead == ("Лёха",)
    assert cast.slot("kondi2424") == "SleepyKrew"
    assert cast.aliases == {"Alu": ("Алюминий",)}


@pytest.mark.parametrize(
    "text",
    ["players: Вася", "players: [Вася]\nfoo: 1", "players: [Вася]\ndead: [Вася]",
     "players: [Вася]\naliases: {Петя: [П]}", "players: [Вася]\nreplacements: {Петя: Коля}",
     "players: [Вася]\nreplacements: {Петя: Вася, Вася: Петя}"],
)  # fmt: skip
def test_bad_players_files(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlayersFileError):
        load_players(path)
    result = runner.invoke(app, ["parse", "--players", str(path), "vote Вася"])
    assert result.exit_code == 2


def test_votes_quotes_dead_substitutes_and_aliases(players: Path) -> None:
    out = parse(players, "--sender", "Вася", "[quote]vote Alu[/quote]\nголосую за Лёху\nvote kondi")
    assert [o["targets"] for o in out["orders"]] == [["SleepyKrew"]]
    assert [w["code"] for w in out["warnings"]] == ["multiple_votes", "target_not_in_play"]
    assert parse(players, "vote Алюминий")["orders"][0]["targets"] == ["Alu"]


def test_warnings_carry_the_choices(players: Path) -> None:
    out = parse(players, "--ruleset", "classic", "--channel", "pm", "виноват Уст")
    assert out["orders"] == []
    [warning] = out["warnings"]
    assert warning["code"] == "unknown_target"
    assert "Уставший Скиталец" in warning["choices"]


def test_reads_stdin_and_prints_text(players: Path) -> None:
    out = parse(players, "--ruleset", "classic", "--channel", "pm", "-", stdin="проверка: Nekr0\n")
    assert out["orders"][0]["action"] == "check"
    result = runner.invoke(
        app, ["parse", "--players", str(players), "--sender", "Alu", "Голосую за Вусю"]
    )
    assert result.exit_code == 0
    assert "unknown_target" in result.output and "choices: Вася" in result.output


def test_without_sender_it_says_whose_message_it_read(players: Path) -> None:
    """Issue 9 §3: `parse` with no --sender reads as the first player's and says so."""
    result = runner.invoke(app, ["parse", "--players", str(players), "голос за меня"])
    assert "from Вася (no --sender given: read as the first player's):" in result.output
    assert parse(players, "vote Alu")["sender_given"] is False
    given = runner.invoke(app, ["parse", "--players", str(players), "--sender", "Alu", "x"])
    assert "from Alu:" in given.output and "no --sender" not in given.output


def test_the_help_and_a_missing_file_say_what_the_players_file_looks_like(
    tmp_path: Path,
) -> None:
    shown = runner.invoke(app, ["parse", "--help"], env={"COLUMNS": "200"}).output
    assert "players: [Вася, Петя, Маша, Коля]" in shown and "replacements:" in shown
    missing = runner.invoke(app, ["parse", "голос за Васю", "--players", str(tmp_path / "p.yml")])
    assert missing.exit_code == 2
    assert "no such file" in missing.output and "players: [Вася, Петя, Маша]" in missing.output
