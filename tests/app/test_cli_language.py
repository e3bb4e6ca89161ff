"""The CLI in the host's language: `forumgm --lang ru` (or FORUMGM_LANG), else the game's
language, for review and status; the parse warnings it prints are translated too."""

from __future__ import annotations

import pytest

from engine import i18n
from engine.app.cli import app
from tests.app.review_game import AFTER_DEADLINE, ReviewGame, review_game, runner

__all__ = ["review_game"]


def test_review_and_status_in_russian(review_game: ReviewGame) -> None:
    g = review_game
    said = g.cli("--lang", "ru", "review", str(g.path), "--votes")
    assert said.exit_code == 0, said.output
    assert "игроки: Вася, Петя, Маша, Коля, Оля" in said.output
    assert "итоги держат предупреждения (3): решите их через --fix, --ignore или --typed" in (
        said.output
    )
    assert "1 черновик ждёт одобрения" in said.output  # Russian's plural forms
    refused = g.cli("--lang", "ru", "review", str(g.path), "--fix", "999=Петя")
    assert refused.exit_code == 2 and "среди предупреждений хода 1 нет №999" in refused.output
    status = g.cli("--lang", "ru", "status")
    assert status.exit_code == 0, status.output
    assert "дедлайн" in status.output and "предупреждения" in status.output


def test_the_games_language_when_the_host_names_none(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(i18n.ENV)  # the game file's language is ru (the default)
    said = review_game.cli("review", str(review_game.path))
    assert "игроки: Вася" in said.output, said.output
    english = review_game.cli("--lang", "en", "review", str(review_game.path))
    assert "players: Вася" in english.output


def test_an_unknown_language_is_one_clear_line(review_game: ReviewGame) -> None:
    said = review_game.cli("--lang", "de", "status")
    assert said.exit_code == 2 and "language 'de': one of en, ru" in said.output


def test_game_validate_and_start_in_russian(review_game: ReviewGame) -> None:
    g = review_game
    words = ["--lang", "ru", "game", "validate", str(g.path), "--allow-past"]
    valid = runner.invoke(app, words, env={"FORUMGM_NOW": AFTER_DEADLINE})
    assert valid.exit_code == 0, valid.output
    assert f"OK {g.path}: classic, игроков: 5, дедлайны" in " ".join(valid.output.split())
    again = g.cli("--lang", "ru", "game", "start", str(g.path))
    assert again.exit_code == 1 and "игра 1 уже начата" in again.output
