"""The CLI in the host's language: `forumgm --lang ru` (or FORUMGM_LANG), else the game's
language, for review and status; the parse warnings it prints are translated too."""

from __future__ import annotations

import pytest

from engine import i18n
from tests.app.review_game import ReviewGame, review_game

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
    assert refused.exit_code == 2 and "в turn 1 нет предупреждения №999" in refused.output
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
