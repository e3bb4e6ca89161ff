"""Names, titles and texts with square brackets print as written in every host command.

rich reads `[…]` as markup: `Eve[/i]` used to end `tally` with a MarkupError, a title with
`[/i]` ended `status` and `run`, and `[url=…]Zed[/url]` printed as "Zed". Each command that
prints what a player or host wrote runs here over such names, through the CLI.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.service.helpers import GM, cli_game

MSK = ZoneInfo("Europe/Moscow")
EVE = "Eve[/i]"
ZED = "[url=http://evil.example]Zed[/url]"
BOB = "Bob[/b]"
TITLE = "Игра [/i] [bold]"
NAMES = [EVE, ZED, "Маша", "Коля", "Оля"]
ROLES = {EVE: "commissar", ZED: "mafioso", "Маша": "doctor", "Коля": "citizen", "Оля": "citizen"}


def test_every_host_command_prints_bracketed_names_literally(tmp_path: Path) -> None:
    g = cli_game(
        tmp_path, NAMES, others=[BOB], review="warnings", roles=ROLES,
        game_extra=f'title = "{TITLE}"',
    )  # fmt: skip
    board, path, db = g.board, g.path, g.db

    def cli(*words: str, at: str = "2026-12-01T20:00+03:00") -> str:
        return g.cli(*words, at=at, db=False)

    before = "2026-12-01T18:00+03:00"
    cli("game", "validate", str(path), at=before)
    cli("game", "start", str(path), "--db", db, at=before)
    cli("review", str(path), "--db", db, "--approve", at=before)
    board.pm_as(
        "Коля", [GM], "ход", f"голосую за {EVE}", at=datetime(2026, 12, 1, 19, 30, tzinfo=MSK)
    )
    board.pm_as("Маша", [GM], "ход", "голосую за Zed", at=datetime(2026, 12, 1, 19, 31, tzinfo=MSK))
    board.pm_as(EVE, [GM], "ход", "голосую за Zedd", at=datetime(2026, 12, 1, 19, 32, tzinfo=MSK))
    assert TITLE in cli("run", str(path), "--db", db, "--once")
    assert f"1 {TITLE}" in cli("status", "--db", db)
    votes = cli("votes", str(path), "--db", db)
    assert EVE in votes and "Коля" in votes
    shown = cli("review", str(path), "--db", db, "--orders", "--votes", "--preview", "--log")
    assert f"Коля: vote {EVE}" in shown and ZED in shown  # the vote table lists every player
    assert f"unknown_target {EVE} 'голосую за Zedd'" in shown
    replaced = cli("game", "replace", str(path), "Оля", BOB, "--db", db)
    assert f"{BOB} (replaced Оля) now plays seat Оля" in replaced
    assert "approve" in cli("host", "log", "--db", db)

    players = tmp_path / "players.yaml"
    players.write_text(json.dumps({"players": NAMES}, ensure_ascii=False), encoding="utf-8")
    posts = tmp_path / "thread.jsonl"
    lines = [
        {"number": 1, "id": "1", "user": GM, "time": None, "content": "День 1"},
        {"number": 2, "id": "2", "user": "Коля", "time": None, "content": f"голос за {EVE}"},
        {"number": 3, "id": "3", "user": EVE, "time": None, "content": "голос за Zed"},
    ]
    posts.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    counted = cli("tally", "--posts", str(posts), "--players", str(players))
    assert f"{EVE} — 1 (Коля)" in counted and f"{ZED} — 1 ({EVE})" in counted
