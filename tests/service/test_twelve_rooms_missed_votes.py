"""Issue 29 item 4: twelve-rooms' missed votes and `forumgm activity` are one count.

The rules warn a player who sent no vote by the deadline (§2.5). A running game tells the
ruleset who voted from the same count the host reads in `forumgm activity`: a vote among the
orders resolution takes. A vote the parser refused (no such player) does not count: the
player's receipt says so at once, the rules warn him at the deadline, and `activity` shows
no vote and a missed vote, as for a player who sent nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from forums.local import LocalBoard
from tests.service.helpers import GM
from tests.service.test_twelve_rooms_service import NAMES, at, cli, game, thread_text

__all__ = ["game"]


def test_a_refused_vote_is_a_missed_vote_for_the_rules_and_for_activity(
    game: tuple[Path, str, LocalBoard, str],
) -> None:
    path, db, board, thread = game
    cli("game", "start", str(path), "--db", db, now=at(15))
    cli("review", str(path), "--db", db, "--approve", now=at(15))
    cli("run", str(path), "--db", db, "--once", now=at(15, 1))
    silent, refused = "Лена", "Гена"
    for n, player in enumerate(p for p in NAMES if p != silent):
        text = "голос за Хрюшу" if player == refused else "не судить"
        board.pm_as(player, [GM], "ход", text, at=at(16, n))
    cli("run", str(path), "--db", db, "--once", now=at(18))
    cli("run", str(path), "--db", db, "--once", now=at(19, 1))
    cli("review", str(path), "--db", db, "--approve", now=at(19, 2))
    cli("run", str(path), "--db", db, "--once", now=at(19, 3))
    results = next(post for post in thread_text(board, thread) if "Итоги хода 1" in post)
    for name in (silent, refused):
        assert f"[b]{name}[/b]: голос не получен — предупреждение 1 из 2." in results, results
    warned = {n for n in NAMES if f"[b]{n}[/b]: голос не получен" in results}
    assert warned == {silent, refused}, results

    rows = json.loads(cli("activity", str(path), "--db", db, "--json", now=at(19, 5)))
    turn_1 = {r["player"]: r for r in rows if r["day"] == "turn 1"}
    assert {n for n, r in turn_1.items() if r["missed_vote"]} == warned
    assert turn_1[refused]["votes"] == 0 and turn_1[silent]["votes"] == 0
    assert all(r["votes"] == 1 for n, r in turn_1.items() if n not in warned)
    assert all(r["missed_vote"] is None for r in rows if r["day"] == "turn 2")  # still open
    table = cli("activity", str(path), "--db", db, now=at(19, 5))
    assert "missed vote" in table and table.count("missed") == 1 + len(warned), table
