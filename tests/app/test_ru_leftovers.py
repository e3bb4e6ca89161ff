"""What the rulesets and the core say to a host through `forumgm game validate`, `game start`
and `simulate`, in the host's language: made in English from `N_`/`Nn_` templates where they
are made (a ruleset may import no language), shown translated, with Russian's plural forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from engine import i18n
from engine.app.cli import app
from tests.engine.test_config import GOOD

NOW = "2026-11-30T12:00+03:00"
EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
runner = CliRunner(env={"COLUMNS": "300"})


@pytest.fixture(autouse=True)
def _no_language_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """No FORUMGM_LANG (tests/conftest.py sets en): the game file's language speaks."""
    monkeypatch.delenv(i18n.ENV, raising=False)


def _cli(*words: str, now: str = NOW) -> Result:
    return runner.invoke(app, list(words), env={"FORUMGM_NOW": now})


def _lines(result: Result) -> str:
    return " ".join(result.output.split())


def _file(tmp_path: Path, text: str, name: str = "game.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_deal_the_ruleset_refuses_is_said_in_the_hosts_language(tmp_path: Path) -> None:
    path = _file(tmp_path, GOOD.replace("citizen = 3", "citizen = 2"))
    said = _cli("game", "validate", str(path))
    assert said.exit_code == 1, said.output
    assert (
        "строка 22: [deal] правила не могут раздать роли в этой игре: в опции roles 6 ролей, а "
        "игроков без роли — 7"
    ) in _lines(said), said.output
    assert "cannot deal" not in said.output and "lists" not in said.output
    en = _cli("--lang", "en", "game", "validate", str(path))
    assert (
        "line 22: [deal] the ruleset cannot deal this game: option roles lists 6 roles for 7 "
        "players"
    ) in _lines(en)


@pytest.mark.parametrize(
    ("deal", "said"),
    [
        ("mafioso = 1", "в опции roles 1 роль, а игроков без роли — 7"),
        ("mafioso = 1\ndoctor = 1", "в опции roles 2 роли, а игроков без роли — 7"),
        ("mafioso = 2\ndoctor = 1\ncitizen = 2", "в опции roles 5 ролей, а игроков без роли — 7"),
        (
            "mafioso = 2\ndoctor = 1\ncitizen = 18",
            "в опции roles 21 роль, а игроков без роли — 7",
        ),
    ],
)
def test_the_count_of_a_deal_takes_russians_plural_form(
    tmp_path: Path, deal: str, said: str
) -> None:
    text = GOOD.split("[deal]")[0] + "[deal]\n" + deal + "\n"
    result = _cli("game", "validate", str(_file(tmp_path, text)))
    assert result.exit_code == 1 and said in _lines(result), result.output


def test_an_option_value_the_ruleset_refuses_is_said_in_russian_on_its_line(
    tmp_path: Path,
) -> None:
    path = _file(tmp_path, GOOD.replace("[deal]", '[options]\nteam_shot_by = "everyone"\n[deal]'))
    said = _lines(_cli("game", "validate", str(path)))
    assert (
        "строка 23: [options] опция team_shot_by: значение 'everyone' недопустимо, выберите "
        "одно из: ('mafioso', 'any_member')"
    ) in said, said
    english = _lines(_cli("--lang", "en", "game", "validate", str(path)))
    assert "line 23: [options] option team_shot_by: 'everyone' is not one of" in english


def test_twelve_rooms_and_minimafik_refusals_read_in_russian(tmp_path: Path) -> None:
    rooms = (EXAMPLES / "twelve-rooms.toml").read_text(encoding="utf-8")
    rooms = rooms.replace("rows = 3 ", "rows = 2 ").replace('"Вася" = 1\n', '"Вася" = 3\n')
    said = _lines(_cli("game", "validate", str(_file(tmp_path, rooms, "rooms.toml"))))
    assert (
        "[options] опция layout: карте 2×4 нужна раскладка из 8 типов комнат (наугад "
        "раскладывается только карта 3×4)"
    ) in said, said
    cards = (EXAMPLES / "minimafik.toml").read_text(encoding="utf-8")
    cards = cards.replace("citizen = 6", "citizen = 7")
    said = _lines(_cli("game", "validate", str(_file(tmp_path, cards, "cards.toml"))))
    assert (
        "[deal] правила не могут раздать роли в этой игре: расклад (setup) раздаёт 9 ролей, "
        "а свободных мест — 8"
    ) in said, said
    yakuza = (EXAMPLES / "yakuza.toml").read_text(encoding="utf-8")
    yakuza = yakuza.replace("psycho = 1\n", "psycho = 1\ncitizen = 7\n")
    said = _lines(_cli("game", "validate", str(_file(tmp_path, yakuza, "yakuza.toml"))))
    assert (
        "строка 49: [deal] правила не могут раздать роли в этой игре: расклад (setup) требует "
        "19 игроков, а свободных мест — 18"
    ) in said, said


def test_game_start_refuses_a_deal_in_russian_and_makes_no_store(tmp_path: Path) -> None:
    path = _file(tmp_path, GOOD.replace("citizen = 3", "citizen = 2"))
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    said = _cli("game", "start", str(path), "--db", db)
    assert said.exit_code == 2, said.output
    assert (
        f"{path}: строка 22: [deal] правила не могут раздать роли в этой игре: в опции roles 6 "
        "ролей, а игроков без роли — 7"
    ) in _lines(said), said.output
    assert not (tmp_path / "store.sqlite").exists()
