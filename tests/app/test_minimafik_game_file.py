"""`forumgm game validate` on minimafik game files: the collection file and role ids, with lines."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

import rulesets
from engine.app.cli import app
from engine.app.game_file import load_game
from engine.core.events import Event
from engine.render import Renderer

runner = CliRunner(env={"FORUMGM_NOW": "2026-11-30T12:00+03:00"})  # before the start

GAME = """\
[game]
ruleset = "minimafik"
seed = 3

[board]
engine = "local"
url = "sqlite:///board.sqlite"
thread = "1"
gm_user = "Ведущий"
password = "env:UNUSED"

[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-12-01 19:00"

[options]
collection = "cards.yaml"

[options.characters]
"Destiny" = {{name = "Grillby", visible_role = "{visible}"}}
"Cornix" = "Ворон"

[players]
players = ["Destiny", "Cornix", "Alu", "VanSLis", "Nekr0", "Ингероид"]

[roles]
"Alu" = "{role}"
"""

CARDS = Path(__file__).resolve().parents[2] / "rulesets" / "minimafik" / "sample_collection.yaml"


def _write(
    tmp_path: Path, *, visible: str = "bartender", role: str = "killer", cards: str | None = None
) -> Path:
    (tmp_path / "cards.yaml").write_text(
        cards if cards is not None else CARDS.read_text(encoding="utf-8"), encoding="utf-8"
    )
    game = tmp_path / "game.toml"
    game.write_text(GAME.format(visible=visible, role=role), encoding="utf-8")
    return game


def test_a_good_file_with_its_own_collection_next_to_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    game = _write(tmp_path)
    monkeypatch.chdir("/")  # the collection is found beside the game file, not in the cwd
    result = runner.invoke(app, ["game", "validate", str(game)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output and "minimafik, 6 players" in result.output


def test_a_broken_card_is_named_with_the_line_of_the_option(tmp_path: Path) -> None:
    broken = CARDS.read_text(encoding="utf-8").replace(
        "{id: poison, name: Яд, aliases: [Poison], colour: attack",
        "{id: poison, name: Яд, aliases: [Poison], colour: acid",
    )
    game = _write(tmp_path, cards=broken)
    result = runner.invoke(app, ["game", "validate", str(game)])
    assert result.exit_code == 1
    assert "line 18:" in result.output  # `collection = …` in the game file
    assert "cards.yaml:" in result.output and "card 'poison', field colour" in result.output


def test_an_unknown_visible_role_and_secret_role_point_at_their_lines(tmp_path: Path) -> None:
    result = runner.invoke(app, ["game", "validate", str(_write(tmp_path, visible="barman"))])
    assert result.exit_code == 1
    assert "line 21:" in result.output and "unknown visible role 'barman'" in result.output
    result = runner.invoke(app, ["game", "validate", str(_write(tmp_path, role="kiler"))])
    assert result.exit_code == 1
    assert "line 28:" in result.output and "unknown role 'kiler'" in result.output


def test_a_missing_collection_file_is_one_line(tmp_path: Path) -> None:
    game = _write(tmp_path)
    (tmp_path / "cards.yaml").unlink()
    result = runner.invoke(app, ["game", "validate", str(game)])
    assert result.exit_code == 1
    assert "cannot read" in result.output and "Traceback" not in result.output


def test_game_new_offers_minimafik_and_writes_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    answers = [
        "ru", "minimafik", "Минимафик", "local", "", "", "Ведущий", "", "", "", "2027-01-15 21:00",
        "Destiny, Cornix, Alu, VanSLis, Nekr0, Ингероид", "boss=1, killer=1",
        "Destiny=bartender, Cornix=photographer", "", "",
    ]  # fmt: skip
    result = runner.invoke(
        app,
        ["game", "new", str(path)],
        input="\n".join(answers) + "\n",
        env={"FORUMGM_NOW": "2027-01-10T12:00+03:00"},
    )
    assert result.exit_code == 0, result.output
    assert "minimafik" in result.output  # offered among the rulesets
    assert "It is valid." in result.output
    text = path.read_text(encoding="utf-8")
    assert 'characters = { "Destiny" = "Destiny", "Cornix" = "Cornix"' in text
    assert "boss = 1\nkiller = 1\ncitizen = 4" in text


def test_characters_are_told_apart_and_keep_their_players_gender(tmp_path: Path) -> None:
    """A character named like another player, or two alike, cannot be addressed; the
    spec's aliases by character name (`{Grillby: [Грилби]}`) and the player's gender carry
    over to the character."""
    game = _write(tmp_path)
    text = game.read_text(encoding="utf-8")
    for clash, who in (('"Cornix" = "Grillby"', "Grillby"), ('"Cornix" = "Alu"', "Alu")):
        game.write_text(text.replace('"Cornix" = "Ворон"', clash), encoding="utf-8")
        result = runner.invoke(app, ["game", "validate", str(game)])
        assert result.exit_code == 1, result.output
        assert "line 22:" in result.output and f"{who!r} is already" in result.output
    extra = '\naliases = { "Grillby" = ["Грилби"] }\ngender = { "Destiny" = "f" }\n'
    game.write_text(text.replace('"Ингероид"]', '"Ингероид"]' + extra), encoding="utf-8")
    config = load_game(game, now=datetime(2026, 11, 30, tzinfo=UTC))
    assert config.aliases == {"Destiny": ["Грилби"]}
    assert config.genders["Grillby"] == "f" and config.genders["Destiny"] == "f"
    renderer = Renderer.for_ruleset(rulesets.find("minimafik"), "ru", genders=config.genders)
    event = Event.private(
        "Alu", "partner_info", partner="Destiny", role="boss", visible_role=None, deck=[], hand=[]
    )
    text = (
        renderer.render_private(
            [event], "Alu", context={"characters": {"Destiny": "Grillby"}, "cards": {}}
        )
        or ""
    )
    assert text.startswith("Ваша напарница — [b]Grillby[/b]: Босс.")


def test_a_visible_role_dealt_twice_points_at_its_line(tmp_path: Path) -> None:
    game = _write(tmp_path)
    text = game.read_text(encoding="utf-8").replace(
        '"Ингероид"]', '"Ингероид"]\nvisible_roles = { "Cornix" = "bartender" }'
    )
    game.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["game", "validate", str(game)])
    assert result.exit_code == 1
    assert "line 26: [players] each visible role has one holder: bartender" in result.output
