"""`game replace` as a host runs it: the game file says so too, and the posts name the substitute.

It used to change the store only: the game file still named the old player (a new store or
`game validate` knew nothing of the substitute), and every post went on naming the seat by
the player who had left.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.service.helpers import GM, cli_game

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]


def test_replace_writes_the_game_file_and_posts_name_the_substitute(tmp_path: Path) -> None:
    g = cli_game(tmp_path, NAMES, others=["Лёша"], ruleset="votecount")
    path, board, thread, cli = g.path, g.board, g.thread, g.cli
    path.write_text("# the host's own note\n" + path.read_text(encoding="utf-8"), "utf-8")

    cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
    cli("run", str(path), "--once", at="2026-12-01T19:01+03:00")
    said = cli("game", "replace", str(path), "Оля", "Лёша", at="2026-12-01T20:00+03:00")
    assert "Лёша (replaced Оля) now plays seat Оля" in said
    assert "replacements now says Лёша replaces Оля" in said
    written = path.read_text(encoding="utf-8")
    assert written.startswith("# the host's own note\n")
    doc = tomllib.loads(written)
    assert doc["players"]["replacements"] == {
        "Лёша": {"replaces": "Оля", "at": datetime(2026, 12, 1, 20, 0, tzinfo=MSK)}
    }
    validated = cli(
        "game", "validate", "--allow-past", str(path), at="2026-12-01T20:01+03:00", db=False
    )
    assert "OK" in validated

    board.post_as("Лёша", thread, "голос за Петю", at=datetime(2026, 12, 1, 20, 30, tzinfo=MSK))
    board.post_as("Вася", thread, "голос за Лёшу", at=datetime(2026, 12, 1, 20, 31, tzinfo=MSK))
    cli("run", str(path), "--once", at="2026-12-02T19:01+03:00")
    posts = g.gm_posts()
    results = next(p for p in posts if "Итоги дня 1" in p)
    assert "Петя — 1 голос (Лёша)" in results and "Лёша — 1 голос (Вася)" in results
    opened = next(p for p in posts if "День 2" in p)
    assert "Лёша" in opened and "Оля" not in opened
    # A restart from the file alone (a new store) knows the substitute as well.
    again = f"sqlite:///{tmp_path / 'again.sqlite'}"
    args = ["game", "start", str(path), "--db", again, "--allow-past"]
    cli(*args, at="2026-12-02T19:02+03:00", db=False)


def test_after_a_replace_review_names_the_seat_by_its_new_player(tmp_path: Path) -> None:
    """Issue 23: `review --orders` and its players line show the substitute, a vote from the
    player who left is refused with its words shown, and the substitute's PM has one
    «Ваша роль»."""
    roles = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen",
             "Оля": "citizen"}  # fmt: skip
    g = cli_game(tmp_path, NAMES, others=["Лёша"], ruleset="classic", roles=roles)
    path, board, cli = g.path, g.board, g.cli
    cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
    cli("run", str(path), "--once", at="2026-12-01T19:01+03:00")
    cli("game", "replace", str(path), "Оля", "Лёша", at="2026-12-01T20:00+03:00")
    cli("run", str(path), "--once", at="2026-12-01T20:01+03:00")
    board.pm_as(
        "Лёша", [GM], "ход", "голосую за Петю", at=datetime(2026, 12, 1, 20, 30, tzinfo=MSK)
    )
    board.pm_as("Оля", [GM], "ход", "голосую за Колю", at=datetime(2026, 12, 1, 20, 31, tzinfo=MSK))
    cli("run", str(path), "--once", at="2026-12-01T20:40+03:00")
    review = cli("review", str(path), "--orders", at="2026-12-01T20:41+03:00")
    assert "Лёша (replaced Оля): vote Петя 'голосую за Петю'" in review, review
    players = next(line for line in review.splitlines() if line.startswith("players:"))
    assert "Лёша (replaced Оля)" in players, players
    refused = next(line for line in review.splitlines() if "sender_not_in_play" in line)
    assert "'голосую за Колю'" in refused, refused
    user = board.user("Лёша")
    assert user is not None
    inbox = "\n".join(m.body.full_text() for m in board.pms_after(user, "inbox", 0))
    assert "Вы заходите в игру на замену" in inbox
    assert inbox.count("Ваша роль") == 1, inbox
