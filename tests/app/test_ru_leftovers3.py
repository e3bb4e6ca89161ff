"""What was left in English after tests/app/test_ru_leftovers.py, said in the host's language:
a replaced seat in `review`'s and the dashboard's vote tables, a player listed more than
twice, minimafik's card-file errors. Each through the CLI (or the dashboard), the Russian
beside the English."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import i18n
from engine.app.cli import app
from engine.app.review import Review
from engine.app.service_cmd import driver_for
from tests.app.dashboard_client import client, log_in, make_dashboard, set_password
from tests.app.review_game import ReviewGame, review_game
from tests.app.test_minimafik_game_file import CARDS, GAME
from tests.engine.test_config import GOOD

__all__ = ["review_game"]

NOW = "2026-11-30T12:00+03:00"
runner = CliRunner(env={"COLUMNS": "300"})


def _lines(text: str) -> str:
    return " ".join(text.split())


def _seat_replaced(g: ReviewGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """Коля's vote fixed to Петя, then Петя's seat handed to Новичок (a Russian game)."""
    monkeypatch.delenv(i18n.ENV, raising=False)
    rv = Review(driver_for(g.path, g.db), by="t", via="test")
    kolya = next(w.id for w in rv.warnings() if w.warning.player == "Коля")
    fixed = g.cli("review", str(g.path), "--fix", f"{kolya}=Петя")
    assert fixed.exit_code == 0, fixed.output
    g.board.add_user("Новичок", None)  # `game replace` looks the account up on the board
    replaced = g.cli("game", "replace", str(g.path), "Петя", "Новичок")
    assert replaced.exit_code == 0, replaced.output


def test_reviews_vote_table_names_a_replaced_seat_in_the_hosts_language(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = review_game
    _seat_replaced(g, monkeypatch)
    russian = g.cli("review", str(g.path), "--votes")
    assert russian.exit_code == 0, russian.output
    said = _lines(russian.output)
    assert "Новичок (вместо Пети)" in said, said
    assert "replaced" not in said
    english = _lines(g.cli("--lang", "en", "review", str(g.path), "--votes").output)
    assert "Новичок (replaced Петя)" in english and "вместо" not in english, english


def test_the_dashboards_vote_table_names_a_replaced_seat_in_the_hosts_language(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = review_game
    _seat_replaced(g, monkeypatch)
    set_password(g)
    c = client(make_dashboard(g, monkeypatch))
    log_in(c)

    def votes() -> str:
        page = html.unescape(c.get("/games/1").text)
        return page.split('id="votes"', 1)[1].split("</section>", 1)[0]

    russian = votes()
    assert '<td class="name">Коля</td><td class="name">Новичок (вместо Пети)</td>' in russian
    assert '<span class="name">Новичок (вместо Пети)</span> 1' in russian
    assert "replaced" not in russian
    c.headers["accept-language"] = "en"
    english = votes()
    assert '<span class="name">Новичок (replaced Петя)</span> 1' in english, english


def _validate(tmp_path: Path, text: str, *words: str) -> str:
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, [*words, "game", "validate", str(path)], env={"FORUMGM_NOW": NOW})
    assert result.exit_code == 1, result.output
    return _lines(result.output)


@pytest.mark.parametrize(
    ("extra", "russian", "english"),
    [
        (1, "'петя' указан дважды", "'петя' is listed twice"),
        (2, "'петя' указан 3 раза", "'петя' is listed 3 times"),
        (4, "'петя' указан 5 раз", "'петя' is listed 5 times"),
    ],
)
def test_a_player_listed_many_times_is_one_problem_that_says_how_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: int, russian: str, english: str
) -> None:
    monkeypatch.delenv(i18n.ENV, raising=False)
    text = GOOD.replace('"Лена"]', '"Лена"' + ', "петя"' * extra + "]")
    said = _validate(tmp_path, text)
    assert said.count("[players]") == 1 and f"1 проблема строка 18: [players] {russian}" in said
    said = _validate(tmp_path, text, "--lang", "en")
    assert said.count("[players]") == 1 and f"line 18: [players] {english}" in said, said


ABILITY = "      - {id: pour, name: Налить, uses: {per_phase: 2}, effects: [{do: deal_damage}]}\n"


@pytest.mark.parametrize(
    ("old", "new", "russian", "english"),
    [
        (
            "colour: attack, cost: 0, timing: night,\n     light: {target: other, effects: "
            "[{do: deal_damage, n: 1}]}",
            "colour: acid, cost: 0, timing: night,\n     light: {target: other, effects: "
            "[{do: deal_damage, n: 1}]}",
            "cards.yaml:15: карта 'poison', поле colour: значение 'acid' недопустимо, выберите "
            "одно из: attack, defence",
            "cards.yaml:15: card 'poison', field colour: 'acid' is not one of attack, defence",
        ),
        (
            "dark:  {target: other, effects: [{do: deal_damage, n: 3}]}}",
            "dark:  {target: other, effects: [{do: deal_damage, n: 0}]}}",
            "cards.yaml:9: карта 'strike', поле dark.effects[0].n: нужно целое число ≥ 1, а не 0",
            "cards.yaml:9: card 'strike', field dark.effects[0].n: expected a whole number ≥ 1, "
            "got 0",
        ),
        (
            "cards:\n",
            f"visible_roles:\n  barman:\n    name: Бармен\n    abilities:\n{ABILITY}cards:\n",
            "cards.yaml:9: видимая роль 'barman', способность 'pour', поле uses: способность "
            "применяют не больше раза за фазу: per_phase — это 1",
            "cards.yaml:9: visible role 'barman', ability 'pour', field uses: an ability is used "
            "at most once a phase: per_phase is 1",
        ),
        (
            "cards:\n",
            "extras: 1\ncards:\n",
            "cards.yaml:8: extras: неизвестный раздел (известные: cards, visible_roles)",
            "cards.yaml:8: extras: unknown section (known: cards, visible_roles)",
        ),
        (
            "cards:\n",
            "cards: [\n",
            "cards.yaml:9: ошибка в YAML:",
            "cards.yaml:9: not valid YAML:",
        ),
    ],
)
def test_a_card_files_error_reads_in_the_hosts_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    old: str,
    new: str,
    russian: str,
    english: str,
) -> None:
    """Inside «опция collection: …», the card file's error: where, what and why."""
    monkeypatch.delenv(i18n.ENV, raising=False)
    cards = CARDS.read_text(encoding="utf-8")
    assert old in cards
    (tmp_path / "cards.yaml").write_text(cards.replace(old, new, 1), encoding="utf-8")
    game = GAME.format(visible="bartender", role="killer")
    said = _validate(tmp_path, game, "--lang", "ru")
    assert f"строка 18: [options] опция collection: {tmp_path / russian}" in said, said
    mine = said.split(" YAML: ")[0]  # the YAML parser's own words stay as it says them
    assert "option collection" not in mine and "field" not in mine and "expected" not in mine
    said = _validate(tmp_path, game, "--lang", "en")
    assert f"line 18: [options] option collection: {tmp_path / english}" in said, said


def test_a_template_holding_another_text_matches_only_when_that_text_is_a_template() -> None:
    """«option {key}: {said}» takes no ruleset's refusal for a card file's error: a text
    inside it made from no template leaves the message to the templates after it."""
    assert i18n.warning_text("option roles: 'x' is not one of a, b", "ru") == (
        "опция roles: значение 'x' недопустимо, выберите одно из: a, b"
    )
    unknown = "option roles: words of no template: 'x'"
    assert i18n.warning_text(unknown, "ru") == unknown
    nested = "option collection: c.yaml:3: card 'x', field cost: expected a string"
    assert i18n.warning_text(nested, "ru") == (
        "опция collection: c.yaml:3: карта 'x', поле cost: нужна строка"
    )
