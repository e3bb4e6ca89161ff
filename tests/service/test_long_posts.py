"""Crafted posts in the thread (issue 10 items 2 and 5), driven as a host drives forumgm.

Before the matcher read each line once, a 60 KB post took minutes per poll (60 KB of
«vote Вася » 374 s) and outlived the game's lease. Now one poll reads it at once, the post
is read up to `[game] max_post_chars` (its start and its end), and the host is told. A vote
written in white, tiny or reversed text is not counted and waits for the host.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import ConfigError, parse_config
from forums.local import LocalBoard
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
# The question, tag and abbreviation attacks of the issue, one per line, then a last vote.
ATTACK = (
    "голосую за Васю " + "?" * 20_000 + "a\n" + "[a=" * 5_000 + "\n" + "A. " * 5_000 + "\n"
    "[quote=" * 1_000 + "\n" + "." * 5_000 + "\n"
)


Host = Callable[..., str]


def _host(tmp_path: Path, names: list[str] = NAMES) -> tuple[Host, LocalBoard, str, Path]:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, names)
    path = tmp_path / "game.toml"
    path.write_text(
        game_toml(
            url=url,
            thread=thread,
            players=names,
            ruleset="votecount",
            review="warnings",
            password="env:TEST_GM_PASSWORD",
        ),
        encoding="utf-8",
    )
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})

    def forumgm(now: str, *args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": now})
        assert result.exit_code == 0, result.output
        return result.output

    forumgm("2026-12-01T18:00+03:00", "game", "start", str(path))
    forumgm("2026-12-01T18:01+03:00", "review", str(path), "--approve")
    forumgm("2026-12-01T19:05+03:00", "run", str(path), "--once")
    return forumgm, board, thread, path


def test_a_60_kb_post_is_read_in_one_quick_poll_and_flagged(tmp_path: Path) -> None:
    forumgm, board, thread, path = _host(tmp_path)

    def gm_posts() -> list[str]:
        return [p.body.full_text() for p in board.posts_after(thread, 0) if p.author == GM]

    board.post_as("Маша", thread, "голос за Петю", at=datetime(2026, 12, 1, 20, tzinfo=MSK))
    crafted = ATTACK + "бла " * 1_000 + "\nИтого: голос за Колю"
    assert len(crafted) > 60_000
    board.post_as("Оля", thread, crafted, at=datetime(2026, 12, 1, 21, tzinfo=MSK))
    started = time.process_time()
    forumgm("2026-12-01T22:00+03:00", "run", str(path), "--once")
    assert time.process_time() - started < 30  # minutes before the matcher read lines once
    review = forumgm("2026-12-01T22:01+03:00", "review", str(path))
    assert "truncated" in review and "Оля" in review
    votes = forumgm("2026-12-01T22:02+03:00", "votes", str(path))
    assert "Коля" in votes  # the post's last line was read: the start and the end count
    # At the deadline the results wait for the host, who has been told about the post.
    out = forumgm("2026-12-02T19:01+03:00", "run", str(path), "--once")
    assert "wait for the host" in out
    assert len(gm_posts()) == 1  # the opening post only
    forumgm("2026-12-02T19:02+03:00", "review", str(path), "--approve")
    forumgm("2026-12-02T19:03+03:00", "run", str(path), "--once")
    assert any("Коля" in text and "Петя" in text for text in gm_posts()[1:])


def test_a_vote_in_hidden_text_waits_for_the_host(tmp_path: Path) -> None:
    forumgm, board, thread, path = _host(tmp_path)
    at = datetime(2026, 12, 1, 20, tzinfo=MSK)
    board.post_as("Маша", thread, "Доброе утро! [color=#ffffff]голос за Петю[/color]", at=at)
    board.post_as("Коля", thread, "голос за [size=1]Олю[/size]", at=at)
    board.post_as("Вася", thread, "голосую за \u202eКолю\u202c", at=at)
    board.post_as("Петя", thread, "голос за Олю", at=at)
    forumgm("2026-12-01T21:00+03:00", "run", str(path), "--once")
    review = forumgm("2026-12-01T21:01+03:00", "review", str(path))
    assert review.count("hidden_text") == 3
    votes = forumgm("2026-12-01T21:02+03:00", "votes", str(path))
    assert "Петя" in votes and "Маша" not in votes and "Вася" not in votes


def test_short_nicks_and_votes_inside_a_sentence_as_players_write_them(tmp_path: Path) -> None:
    names = ["TheFroggyOne", "SleepyKrew", "RaudhrGarm", "Internet Stranger", "lobstermania"]
    forumgm, board, thread, path = _host(tmp_path, names)
    at = datetime(2026, 12, 1, 20, tzinfo=MSK)
    for author, text in [
        ("TheFroggyOne", "I think Krew is scum. VOTE: Krew"),
        ("RaudhrGarm", "vote Froggy\nActually, vote SK"),  # a change of mind: no warning
        ("Internet Stranger", "ok fine, unvote, vote Garm"),
        ("lobstermania", "vote me"),  # talk, not a self-vote
        ("SleepyKrew", "Can we vote scum now? Would you vote TFO?"),  # questions: talk
    ]:
        board.post_as(author, thread, text, at=at)
    forumgm("2026-12-01T21:00+03:00", "run", str(path), "--once")
    review = forumgm("2026-12-01T21:01+03:00", "review", str(path))
    assert "multiple_votes" not in review and "unknown_target" not in review
    out = forumgm("2026-12-02T19:01+03:00", "run", str(path), "--once")
    assert "wait for the host" not in out  # nothing for the host to look at
    results = [p.body.full_text() for p in board.posts_after(thread, 1) if p.author == GM]
    assert any("SleepyKrew" in text for text in results)
    votes = forumgm("2026-12-02T19:02+03:00", "votes", str(path))
    assert "RaudhrGarm" in votes and "lobstermania" not in votes


def test_the_cap_is_a_game_option_with_a_clear_error() -> None:
    base = game_toml(url="sqlite://", thread="1", players=NAMES, ruleset="votecount")
    assert parse_config(base).max_post_chars is None
    text = base.replace("[board]", "max_post_chars = 5000\n[board]")
    assert parse_config(text).max_post_chars == 5000
    with pytest.raises(ConfigError, match="max_post_chars: a number of characters"):
        parse_config(base.replace("[board]", "max_post_chars = 10\n[board]"))


def test_a_name_spelt_like_another_players_declined_name_goes_to_the_host(
    tmp_path: Path,
) -> None:
    names = ["Вася", "Васю", "Коля", "Коли", "Оля"]
    forumgm, board, thread, path = _host(tmp_path, names)
    at = datetime(2026, 12, 1, 20, tzinfo=MSK)
    board.post_as("Коля", thread, "голосую за Васю", at=at)  # Вася, or the player Васю?
    board.post_as("Оля", thread, "голос за Колю", at=at)  # no twin: counted
    forumgm("2026-12-01T21:00+03:00", "run", str(path), "--once")
    review = forumgm("2026-12-01T21:01+03:00", "review", str(path))
    assert "ambiguous_target Коля 'голосую за Васю' choices: Вася, Васю" in review
    votes = forumgm("2026-12-01T21:02+03:00", "votes", str(path))
    assert "Оля" in votes and "Вас" not in votes  # only Оля's vote counts
    out = forumgm("2026-12-02T19:01+03:00", "run", str(path), "--once")
    assert "results wait for the host (1 warnings)" in out
