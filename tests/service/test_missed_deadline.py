"""The published deadline is the one the service uses; one that passes while the results wait
for the host is the host's choice, never silent.

Turn 1's results used to go out after a late approval saying «Окончание хода: 02.12.2026
21:00» while the service, that having passed, silently gave turn 2 the schedule's next one.
Now the results wait, `run`, `status` and `review` say that the announced deadline passed,
and the host chooses: `--deadline shift` (turn 2 gets its whole length, every later
deadline moves) or `--deadline shorten` (turn 2 ends at the schedule's next deadline); the
results then announce exactly the deadline turn 2 gets.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.store import open_store
from tests.service.helpers import GM, CliGame, cli_game

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля", "Лена"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}


def _game(tmp_path: Path, review: str) -> CliGame:
    roles = {**ROLES, "Оля": "citizen", "Лена": "mafioso"}
    return cli_game(tmp_path, NAMES, review=review, deadlines="every day 21:00", roles=roles)


@pytest.mark.parametrize("choice", ["shift", "shorten"])
def test_a_deadline_passed_while_results_waited_is_the_hosts_choice(
    tmp_path: Path, choice: str
) -> None:
    g = _game(tmp_path, "warnings")
    path, cli, board, db = g.path, g.cli, g.board, g.db

    g.opened()
    pm = board.pm_as
    pm("Коля", [GM], "ход", "голосую за Петьку", at=datetime(2026, 12, 1, 19, 30, tzinfo=MSK))
    for voter in ("Оля", "Лена", "Маша"):
        pm(voter, [GM], "ход", "голосую за Петю", at=datetime(2026, 12, 1, 19, 31, tzinfo=MSK))
    assert "wait for the host" in cli("run", str(path), "--once", at="2026-12-01T21:01+03:00")
    shown = cli("review", str(path), at="2026-12-01T21:02+03:00")
    assert "--deadline" not in shown  # 2 Dec 21:00 has not passed: no choice yet

    # The host is away until 21:05 the next day: turn 2's announced deadline has passed.
    said = cli("run", str(path), "--once", at="2026-12-02T21:05+03:00")
    assert "the next deadline they announce (2026-12-02 21:00 MSK) passed meanwhile" in said
    assert "--deadline shift (it ends 2026-12-03 21:05 MSK)" in said
    assert "--deadline shorten (it ends 2026-12-03 21:00 MSK)" in said
    status = cli("status", at="2026-12-02T21:05+03:00")
    assert "passed while they waited" in status
    assert "results announce (2026-12-02 21:00 MSK) passed" in status  # as `run` says it
    shown = cli("review", str(path), at="2026-12-02T21:06+03:00")
    warning = next(
        line.split()[1].lstrip("#") for line in shown.splitlines() if "unknown_target" in line
    )
    assert "--deadline shift (it ends 2026-12-03 21:06 MSK)" in shown
    # Fixing the warning alone does not let the results out: they would say 2 Dec 21:00.
    cli("review", str(path), "--fix", f"{warning}=Петя", at="2026-12-02T21:07+03:00")
    cli("run", str(path), "--once", at="2026-12-02T21:07+03:00")
    assert not g.gm_posts("Итоги")
    chosen = cli("review", str(path), "--deadline", choice, at="2026-12-02T21:08+03:00")
    expected = {"shift": "2026-12-03 21:08 MSK", "shorten": "2026-12-03 21:00 MSK"}[choice]
    assert f"the next phase ends {expected}" in chosen
    cli("run", str(path), "--once", at="2026-12-02T21:09+03:00")
    [results] = g.gm_posts("Итоги")
    day, clock = expected.split()[0].split("-"), expected.split()[1]
    assert f"{day[2]}.{day[1]}.{day[0]} {clock}" in results  # what turn 2 really gets
    store = open_store(db)
    [game] = store.games()
    turn2 = store.current_phase(game.id)
    assert turn2 is not None and turn2.phase == "turn 2"
    assert turn2.deadline == datetime.fromisoformat(expected.replace(" MSK", "+03:00"))
    # A shift moves every later deadline as far; shorten keeps the schedule.
    cli("run", str(path), "--once", at="2026-12-03T21:10+03:00")
    turn3 = store.current_phase(game.id)
    assert turn3 is not None and turn3.phase == "turn 3"
    after = {"shift": "2026-12-04T21:08+03:00", "shorten": "2026-12-04T21:00+03:00"}[choice]
    assert turn3.deadline == datetime.fromisoformat(after)


def test_results_approved_in_time_announce_the_deadline_the_next_phase_gets(
    tmp_path: Path,
) -> None:
    g = _game(tmp_path, "always")
    path, cli, db = g.path, g.cli, g.db

    g.opened()
    cli("run", str(path), "--once", at="2026-12-01T21:01+03:00")
    cli("review", str(path), "--approve", at="2026-12-02T20:13+03:00")
    cli("run", str(path), "--once", at="2026-12-02T20:14+03:00")
    [results] = g.gm_posts("Итоги")
    assert "02.12.2026 21:00" in results
    [game] = open_store(db).games()
    turn2 = open_store(db).current_phase(game.id)
    assert turn2 is not None and turn2.deadline == datetime(2026, 12, 2, 21, tzinfo=MSK)
    # An approval after the announced deadline approves nothing of the results.
    cli("run", str(path), "--once", at="2026-12-02T21:01+03:00")
    late = cli("review", str(path), "--approve", at="2026-12-03T21:30+03:00")
    assert "passed while they waited" in late and "approved 0 item(s)" in late
