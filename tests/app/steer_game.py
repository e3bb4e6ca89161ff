"""A classic rehearsal game whose turn 1 is open on the board with four votes cast: what the
host's commands (`forumgm steer`, the dashboard's forms) are tried on."""

from __future__ import annotations

from pathlib import Path

from tests.app.rehearsal import Rehearsal


def steer_game(tmp_path: Path) -> Rehearsal:
    """Review mode warnings; turn 1 opened 2026-12-01 19:00 MSK, deadline a day later."""
    g = Rehearsal(tmp_path)
    g("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    g.host("2026-12-01T18:00+03:00", "game start")
    g.host("2026-12-01T18:45+03:00", "review", "--approve")
    g.host("2026-12-01T19:01+03:00", "run", "--once")
    g.pm("2026-12-01T19:10+03:00", "Коля", "голосую за Петю")
    g.pm("2026-12-01T19:11+03:00", "Петя", "голосую за Колю")
    g.pm("2026-12-01T19:12+03:00", "Маша", "голосую за Петю")
    g.pm("2026-12-01T19:13+03:00", "Оля", "голосую за Колю")
    g.host("2026-12-01T19:30+03:00", "run", "--once")
    return g
