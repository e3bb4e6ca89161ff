"""What the rulesets and the core say to a host through `forumgm game validate`, `game start`
and `simulate`, in the host's language: made in English from `N_`/`Nn_` templates where they
are made (a ruleset may import no language), shown translated, with Russian's plural forms."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

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


@pytest.mark.parametrize(
    ("broken", "header"),
    [
        ({"citizen = 3": "citizen = 2"}, "1 проблема"),
        (
            {
                'timezone = "Europe/Moscow"': 'timezone = "Europe/Mosow"',
                'deadlines = "every day 19:00"': 'deadlines = "every blue moon"',
            },
            "2 проблемы",
        ),
        (
            {
                'timezone = "Europe/Moscow"': 'timezone = "Europe/Mosow"',
                'deadlines = "every day 19:00"': 'deadlines = "every blue moon"',
                '"Лена"]': '"Лена", "петя"]',
                "seed = 7": 'seed = 7\nlanguag = "ru"\nreview = "never"',
            },
            "5 проблем",
        ),
    ],
)
def test_the_validate_header_counts_problems_in_russian(
    tmp_path: Path, broken: dict[str, str], header: str
) -> None:
    text = GOOD
    for old, new in broken.items():
        text = text.replace(old, new)
    path = _file(tmp_path, text)
    said = _cli("game", "validate", str(path))
    assert said.exit_code == 1 and said.output.startswith(f"{path}: {header}\n"), said.output
    english = _cli("--lang", "en", "game", "validate", str(path))
    assert english.output.startswith(f"{path}: {header.split()[0]} problem(s)\n")


def _replaced_game(tmp_path: Path) -> object:
    """A Russian game on the local board whose seat Оля went to Лёша, then to Дима."""
    from tests.service.helpers import cli_game

    names = ["Вася", "Петя", "Маша", "Коля", "Оля"]
    roles = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
    g = cli_game(tmp_path, names, others=["Лёша", "Дима"], roles={**roles, "Оля": "citizen"})
    g.opened()
    later = "2026-12-01T20:00+03:00"
    g.cli("game", "replace", str(g.path), "Оля", "Лёша", at=later)
    g.cli("game", "replace", str(g.path), "Лёша", "Дима", at=later)
    return g


def test_a_seat_that_changed_hands_is_named_in_russian(tmp_path: Path) -> None:
    g: Any = _replaced_game(tmp_path)
    at = "2026-12-01T21:00+03:00"
    sent = datetime(2026, 12, 1, 20, 30, tzinfo=timezone(timedelta(hours=3)))
    g.board.post_as("Дима", g.thread, "всем привет", at=sent)
    g.cli("run", str(g.path), "--once", at=at)
    activity = g.cli("activity", str(g.path), at=at)
    assert "Дима (вместо Лёши, вместо Оли)" in activity, activity
    assert "replaced" not in activity
    english = g.cli("--lang", "en", "activity", str(g.path), at=at)
    assert "Дима (replaced Лёша, replaced Оля)" in english
    as_json = g.cli("activity", str(g.path), "--json", at=at)
    assert '"shown_as": "Дима (replaced Лёша, replaced Оля)"' in as_json


def test_a_file_whose_substitutes_disagree_with_the_games_is_refused_in_russian(
    tmp_path: Path,
) -> None:
    """The host edits the replacements `game replace` wrote: the seat's holders cannot be
    one chain. Each command on the running game says so in his language, no traceback."""
    g: Any = _replaced_game(tmp_path)
    text = g.path.read_text(encoding="utf-8")
    g.path.write_text(text.replace('replaces = "Оля"', 'replaces = "Петя"'), encoding="utf-8")
    at = "2026-12-01T21:00+03:00"
    said = " ".join(g.cli("votes", str(g.path), at=at, code=1).split())
    assert (
        f"{g.path}: замены из [players] replacements файла не сходятся с заменами, которые "
        "записала игра: replacements: Лёша заменяет сразу двоих — Петя и Оля; верните в "
        "replacements то, что записал game replace"
    ) in said, said
    said = " ".join(
        g.cli("game", "replace", str(g.path), "Маша", "Новенький", at=at, code=1).split()
    )
    assert "не сходятся с заменами, которые записала игра" in said, said
    english = " ".join(g.cli("--lang", "en", "votes", str(g.path), at=at, code=1).split())
    assert "replacements: Лёша replaces two players, Петя and Оля" in english


def test_simulate_says_how_each_side_plays_in_the_hosts_language() -> None:
    classic = str(EXAMPLES / "classic.toml")  # language = "ru"
    said = _lines(_cli("simulate", classic, "--games", "20", "--workers", "1"))
    assert (
        "town — smart: комиссар, нашедший мафиози, называет его в теме, и город голосует за "
        "него (4 раза из 5);"
    ) in said, said
    assert (
        "mafia — smart: клан сходится на одной ночной цели вне клана (прежде всего — на "
        "открывшемся комиссаре) и никогда не голосует за своих"
    ) in said
    randomly = _lines(
        _cli("simulate", classic, "--games", "20", "--workers", "1", "--policy", "random")
    )
    assert "town — random: голос за случайного другого игрока в игре;" in randomly, randomly
    cards = str(EXAMPLES / "minimafik.toml")
    said = _lines(_cli("simulate", cards, "--games", "5", "--workers", "1"))
    assert "mafia — smart: боты демо: колода мафии наугад, ночное убийство и карты атаки" in said
    english = _lines(_cli("--lang", "en", "simulate", classic, "--games", "20", "--workers", "1"))
    assert "town — smart: a commissar who found a mafioso claims him in the thread" in english
    report = _cli("simulate", classic, "--games", "20", "--workers", "1", "--json")

    sides = json.loads(report.output)["policy"]["sides"]
    assert sides["mafia"] == (
        "smart: the clan agrees on one night target outside the clan (a claimer first) and "
        "never votes its own"
    )


def test_a_board_address_that_is_none_is_refused_in_russian(tmp_path: Path) -> None:
    path = _file(
        tmp_path, GOOD.replace('url = "https://forum.example.org"', 'url = "forum example"')
    )
    said = _lines(_cli("game", "validate", str(path)))
    assert "'forum example' — не адрес форума; напишите, например, https://forum.example.org/" in (
        said
    ), said


def test_tallys_table_names_a_twice_handed_seat_in_russian(tmp_path: Path) -> None:
    from tests.app.test_tally_chains import _cast, _thread

    thread, cast = _thread(tmp_path), _cast(tmp_path)
    args = ["tally", "--players", str(cast), "--posts", str(thread), "--until", "238"]
    human = _lines(runner.invoke(app, ["--lang", "ru", *args]))
    assert "pappums rat (вместо Nightfall, вместо redtail896)" in human, human
    assert "SleepyKrew (вместо kondi2424)" in human and "replaced" not in human
    as_json = json.loads(runner.invoke(app, ["--lang", "ru", *args, "--json"]).output)
    assert as_json["slots"]["SleepyKrew"] == "SleepyKrew (replaced kondi2424)"


@pytest.mark.parametrize(
    ("copies", "said"), [(1, "не больше 1 копии каждой"), (2, "не больше 2 копий каждой")]
)
def test_a_card_collection_too_small_for_a_mafia_deck_is_said_in_russian(
    tmp_path: Path, copies: int, said: str
) -> None:
    cards = (EXAMPLES / "minimafik.toml").read_text(encoding="utf-8")
    options = f"[options]\nmafia_own_colour_cards = 400\nmafia_max_copies = {copies}\n"
    path = _file(tmp_path, cards.replace("[options]\n", options, 1))
    text = _lines(_cli("game", "validate", str(path)))
    assert (
        "[options] опция collection: колоде роли boss нужно карт цветов support/information: "
        f"400, {said}, а таких видов карт в коллекции: 8"
    ) in text, text


def test_a_file_that_is_not_toml_is_refused_in_the_language_it_names(tmp_path: Path) -> None:
    broken = GOOD.replace("seed = 7", "seed = 7\nseed = 8")  # a key written twice
    said = _lines(_cli("game", "validate", str(_file(tmp_path, broken))))
    assert "1 проблема строка 4: ошибка в TOML:" in said, said  # a game is Russian by default
    english = broken.replace("seed = 8", 'seed = 8\nlanguage = "en"')
    said = _lines(_cli("game", "validate", str(_file(tmp_path, english, "en.toml"))))
    assert "1 problem(s) line 4: not valid TOML:" in said, said
    said = _lines(_cli("--lang", "en", "game", "validate", str(_file(tmp_path, broken, "b.toml"))))
    assert "line 4: not valid TOML:" in said, said


def test_a_votecount_option_naming_no_player_is_refused_on_its_own_line(tmp_path: Path) -> None:
    text = (EXAMPLES / "votecount.toml").read_text(encoding="utf-8")
    text = text.replace('language = "en"', 'language = "ru"')
    text = text.replace("no_lynch = true\n", 'no_lynch = true\ncannot_vote = ["Никто"]\n')
    path = _file(tmp_path, text)
    said = _lines(_cli("game", "validate", str(path)))
    assert "строка 25: [options] в опциях названо имя 'Никто', но такого игрока в игре нет" in (
        said
    ), said
    english = _lines(_cli("--lang", "en", "game", "validate", str(path)))
    assert "line 25: [options] options name 'Никто', who is not a player" in english, english


@pytest.mark.parametrize(
    ("character", "said"),
    [
        (
            "5",
            "строка 28: [options] опция characters.Destiny: нужно имя персонажа или таблица с name и visible_role",
        ),
        ('""', "строка 28: [options] опция characters.Destiny: пустое имя персонажа"),
        (
            '"Ворон"',
            "строка 29: [options] опция characters.Cornix: 'Ворон' — уже ник или персонаж игрока "
            "Destiny; игроки должны различать персонажей",
        ),
    ],
)
def test_a_minimafik_character_that_cannot_be_is_refused_in_russian(
    tmp_path: Path, character: str, said: str
) -> None:
    text = (EXAMPLES / "minimafik.toml").read_text(encoding="utf-8")
    text = text.replace('"Destiny" = "Grillby"', f'"Destiny" = {character}')
    result = _cli("game", "validate", str(_file(tmp_path, text)))
    assert result.exit_code == 1 and said in _lines(result), result.output


@pytest.mark.parametrize(
    ("words", "russian", "english"),
    [
        (
            ["--policy", "smart,aliens=random"],
            "--policy: стороны 'aliens' в этой игре нет (есть: mafia, town)",
            "--policy: no side 'aliens' in this game (mafia, town)",
        ),
        (
            ["--vary", "deal.mafioso=9"],
            "--vary deal.mafioso=9: чтобы освободить места, не хватает ролей citizen (в файле: 5)",
            "--vary deal.mafioso=9: not enough citizens to make room (5 in the file)",
        ),
        (
            ["--vary", "deal.citizen=2"],
            "эту расстановку нельзя раздать (citizen=2): в опции roles 6 ролей, а игроков без "
            "роли — 9",
            "this setup cannot be dealt (citizen=2): option roles lists 6 roles for 9 players",
        ),
    ],
)
def test_simulate_refuses_a_policy_or_a_setup_in_the_hosts_language(
    words: list[str], russian: str, english: str
) -> None:
    classic = str(EXAMPLES / "classic.toml")
    said = _cli("simulate", classic, *words, "--games", "5", "--workers", "1")
    assert said.exit_code == 2 and f"{classic}: {russian}" in _lines(said), said.output
    said = _cli("--lang", "en", "simulate", classic, *words, "--games", "5", "--workers", "1")
    assert f"{classic}: {english}" in _lines(said), said.output
