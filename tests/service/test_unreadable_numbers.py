"""Numbers no rule allows, in a yakuza game (issue 22 item 1), driven as players and a host do.

A day vote with 5,000 nines, a pistol shot «x» 5,000 nines and a phase tag «Ночь ²» once
made every poll fail (`int()` refuses 4,300 digits and «²», which `isdigit()` accepts): the
phase froze for good and `review` ended in a traceback. Now each is read for what it is (a
too-large amount, a multiplier beyond the cap, a tag that is no number) and the game goes
on: the phases resolve, `review`, `review --votes`, `status` and `votes` show them.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from engine.core.numbers import CAP, whole_number
from tests.service.helpers import cli_app, clocked_game

MSK = ZoneInfo("Europe/Moscow")
ROLES = {
    "Alice": "boss",
    "Bob": "brute",
    "Carol": "killer",
    "Judy": "commissar",
    "Leo": "citizen",
    "Петя": "citizen",
}
NINES = "9" * 5_000


def test_whole_number_reads_digits_of_any_script_and_never_raises() -> None:
    assert whole_number("42") == 42
    assert whole_number("٤٢") == 42  # Arabic-Indic digits: what int() reads too
    assert whole_number("４２") == 42  # fullwidth
    assert whole_number(NINES) == CAP  # int() refuses more than 4,300 digits
    assert whole_number("0" * 5_000 + "7") == 7
    for not_a_number in ("", "²", "①", "½", "1.5", "-3", "+3", "3x", "Ⅻ", "三"):
        assert whole_number(not_a_number) is None, not_a_number


def test_huge_numbers_and_a_superscript_tag_do_not_stop_a_yakuza_game(tmp_path: Path) -> None:
    game = clocked_game(
        tmp_path, list(ROLES), start=datetime(2026, 12, 1, 18, tzinfo=MSK), ruleset="yakuza",
        roles=ROLES, review="warnings",
    )  # fmt: skip
    text = game.path.read_text(encoding="utf-8")
    players = next(line for line in text.splitlines() if line.startswith("players = "))
    visible = '\nvisible_roles = { Leo = "revolutionary" }'
    small = "\n[options]\nmin_players = 6\n"  # a small game to look at (the rules say 18)
    game.path.write_text(text.replace(players, players + visible) + small, encoding="utf-8")
    game.opened()
    # Night 1, by PM: a tag that is no number, a multiplier of 5,000 digits, a plain order.
    game.pm(datetime(2026, 12, 1, 20, tzinfo=MSK), "Judy", "Ночь ²: досье Leo")
    game.pm(datetime(2026, 12, 1, 20, 1, tzinfo=MSK), "Alice", f"пистолет Leo x{NINES}")
    game.pm(datetime(2026, 12, 1, 20, 2, tzinfo=MSK), "Bob", "прослушка Judy")
    polled = game.forumgm(datetime(2026, 12, 1, 20, 30, tzinfo=MSK), "run", "--once")
    assert "step failed" not in polled and "night 1: open until" in polled
    night = game.forumgm(datetime(2026, 12, 2, 19, 1, tzinfo=MSK), "run", "--once")
    assert "step failed" not in night
    assert "night 1: resolved" in night
    review = game.forumgm(datetime(2026, 12, 2, 19, 2, tzinfo=MSK), "review", "--orders")
    assert "Traceback" not in review
    # The multiplier stands for at most 50 shots: more than the boss's one pistol shot.
    assert "too_many_targets Alice" in review
    # «Ночь ²» is no night's number: the line is no command the host can take as it stands.
    assert "unknown_command Judy 'Ночь ²: досье Leo'" in review
    game.forumgm(datetime(2026, 12, 2, 19, 3, tzinfo=MSK), "review", "--approve")
    opened = game.forumgm(datetime(2026, 12, 2, 19, 4, tzinfo=MSK), "run", "--once")
    assert "day 1 opened" in opened, opened

    # Day 1, in the thread: a vote with 5,000 digits of extra votes, and a plain vote.
    game.clock.set(datetime(2026, 12, 2, 20, tzinfo=MSK))
    game.board.post_as("Leo", game.thread, f"голос Петя {NINES}")
    game.board.post_as("Bob", game.thread, "голос Петя")
    polled = game.forumgm(datetime(2026, 12, 2, 20, 30, tzinfo=MSK), "run", "--once")
    assert "step failed" not in polled and "day 1: open until" in polled
    votes = game.forumgm(datetime(2026, 12, 2, 20, 31, tzinfo=MSK), "votes")
    assert "Петя" in votes and "Traceback" not in votes
    day = game.forumgm(datetime(2026, 12, 3, 19, 1, tzinfo=MSK), "run", "--once")
    assert "step failed" not in day and "day 1: resolved" in day
    review = game.forumgm(datetime(2026, 12, 3, 19, 2, tzinfo=MSK), "review", "--votes")
    assert "Traceback" not in review
    # Leo's vote counts; the revolutionary's 10⁹ extra votes are refused (1 to 3 allowed).
    assert "│ Leo   │ Петя │" in review
    assert "too_many_targets Leo" in review
    status = game.forumgm(datetime(2026, 12, 3, 19, 3, tzinfo=MSK), "status", game=False)
    assert "day 1" in status


def test_parse_reads_a_superscript_tag_as_no_tag(tmp_path: Path) -> None:
    """`forumgm parse` once crashed on «Ночь ²: катана Вася» (the phase tag's `int()`)."""
    players = tmp_path / "players.yaml"
    players.write_text("players: [Вася, Петя]\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli_app(),
        ["parse", "--players", str(players), "--ruleset", "yakuza", "--channel", "pm",
         "--sender", "Петя", "--json", "Ночь ²: катана Вася\nночь 3: катана Вася"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    read = json.loads(result.output)
    assert [o["args"].get("phase") for o in read["orders"]] == ["night 3"]
    assert read["orders"][0]["targets"] == ["Вася"]
