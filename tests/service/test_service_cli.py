"""The host's commands on a local-board game: start, review (fix, approve), run, status, votes, replace."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.config import load_config
from engine.service.build import make_driver
from engine.service.runner import Cadence, drive_once, next_run
from engine.store import open_store
from forums.local import LocalBoard
from tests.service.helpers import game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, LocalBoard]:
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(board_url, [*NAMES, "Лёша"])
    start = (datetime.now(MSK) - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
    path = tmp_path / "game.toml"
    roles = {
        "Вася": "commissar",
        "Петя": "mafioso",
        "Маша": "doctor",
        "Коля": "citizen",
        "Оля": "citizen",
    }
    text = game_toml(
        url=board_url,
        thread=thread,
        players=NAMES,
        review="warnings",
        password="env:TEST_GM_PASSWORD",
        deadlines="every 6 hours",
        start=start,
        roles=roles,
    )
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    return path, f"sqlite:///{tmp_path / 'store.sqlite'}", board


def test_the_host_flow(game: tuple[Path, str, LocalBoard]) -> None:
    path, db, board = game
    result = runner.invoke(app, ["game", "start", str(path), "--db", db, "--allow-past"])
    assert result.exit_code == 0, result.output
    assert "wait for approval" in result.output
    assert (
        runner.invoke(app, ["game", "start", str(path), "--db", db, "--allow-past"]).exit_code == 1
    )
    result = runner.invoke(app, ["review", str(path), "--db", db, "--preview"])
    assert "Ваша роль" in result.output and "6 draft(s)" in result.output
    assert runner.invoke(app, ["review", str(path), "--db", db, "--approve"]).exit_code == 0
    board.pm_as("Коля", ["Ведущий"], "ход", "голосую за Петьку")  # not a roster name
    board.pm_as("Оля", ["Ведущий"], "ход", "голосую за Петю")
    result = runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    assert result.exit_code == 0, result.output
    assert "open until" in result.output
    result = runner.invoke(app, ["status", "--db", db])
    assert "turn 1 (open)" in result.output and "posted:" in result.output
    result = runner.invoke(app, ["review", str(path), "--db", db])
    warning_id = next(
        line.split()[1].lstrip("#")
        for line in result.output.splitlines()
        if "unknown_target" in line
    )
    result = runner.invoke(app, ["review", str(path), "--db", db, "--fix", f"{warning_id}=Петя"])
    assert "✓" in result.output and "fixed: Петя" in result.output
    result = runner.invoke(app, ["votes", str(path), "--db", db])
    assert "Оля" in result.output and "Коля" in result.output
    assert "gm-secret" not in result.output
    result = runner.invoke(app, ["game", "replace", str(path), "Оля", "Лёша", "--db", db])
    assert result.exit_code == 0 and "Лёша (replaced Оля) now plays seat Оля" in result.output


def test_missing_password_is_a_clear_error(
    game: tuple[Path, str, LocalBoard], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, db, _ = game
    monkeypatch.delenv("TEST_GM_PASSWORD")
    result = runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    assert result.exit_code == 2 and "TEST_GM_PASSWORD" in result.output


def test_two_processes_never_drive_one_game(game: tuple[Path, str, LocalBoard]) -> None:
    import asyncio

    path, db, _ = game
    config = load_config(path)
    store = open_store(db)
    first = make_driver(config, store)
    first.start()
    second = make_driver(config, store)
    cadence = Cadence(lease=timedelta(minutes=5))
    assert "open until" in asyncio.run(drive_once(first, "host-a", cadence))
    assert asyncio.run(drive_once(second, "host-b", cadence)) == "driven by another process"
    later = lambda: datetime.now(MSK) + timedelta(minutes=6)  # noqa: E731 - "host-a" died
    second.clock = later
    assert "open until" in asyncio.run(drive_once(second, "host-b", cadence))
    when = next_run(second, later(), cadence)
    ph = store.current_phase(second.game_id)
    assert when is not None and ph is not None and when <= ph.deadline


def test_the_gm_password_is_in_no_log_row_or_error(
    game: tuple[Path, str, LocalBoard], caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    path, db, board = game
    caplog.set_level(logging.DEBUG)
    runner.invoke(app, ["game", "start", str(path), "--db", db, "--allow-past"])
    runner.invoke(app, ["review", str(path), "--db", db, "--approve"])
    board.pm_as("Оля", ["Ведущий"], "ход", "голосую за Петю")
    result = runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    status = runner.invoke(app, ["status", "--db", db])
    store_file = Path(db.removeprefix("sqlite:///"))
    assert store_file.exists()
    for text in (caplog.text, result.output, status.output):
        assert "gm-secret" not in text
    assert b"gm-secret" not in store_file.read_bytes()
    wrong = path.read_text(encoding="utf-8").replace("env:TEST_GM_PASSWORD", "gm-secret")
    path.write_text(wrong, encoding="utf-8")
    result = runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    assert result.exit_code == 2 and "gm-secret" not in result.output


def test_the_host_overrides_orders_before_resolution(game: tuple[Path, str, LocalBoard]) -> None:
    path, db, board = game
    runner.invoke(app, ["game", "start", str(path), "--db", db, "--allow-past"])
    runner.invoke(app, ["review", str(path), "--db", db, "--approve"])
    board.pm_as("Коля", ["Ведущий"], "ход", "голосую за Машу")  # he meant Петя, he says later
    board.pm_as("Оля", ["Ведущий"], "ход", "голосую за Машу")
    board.pm_as("Вася", ["Ведущий"], "ход", "голосую за Машу\\nпроверка Пети")
    runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    listing = runner.invoke(app, ["review", str(path), "--db", db, "--orders"]).output
    ids = {
        line.split()[1].rstrip(":"): line.split()[0].lstrip("#")
        for line in listing.splitlines()
        if line.strip().startswith("#") and " vote " in line
    }
    result = runner.invoke(
        app,
        [
            "review",
            str(path),
            "--db",
            db,
            "--orders",
            "--set",
            f"{ids['Коля']}=Петя",
            "--drop",
            ids["Оля"],
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Коля: vote Петя" in result.output and "Оля: vote" not in result.output
    driver = make_driver(load_config(path), open_store(db))
    ph = driver.store.current_phase(driver.game_id)
    assert ph is not None
    session = driver.replay(ph, ph.deadline).session
    assert session.inputs is not None
    assert {v: o.target for v, o in session.inputs.votes.items()} == {
        "Коля": "Петя",
        "Вася": "Маша",
    }
    bad = runner.invoke(app, ["review", str(path), "--db", db, "--drop", "99999"])
    assert bad.exit_code != 0 and "no order #99999" in bad.output


def _warning_ids(output: str) -> dict[str, str]:
    """The review's warning lines as text after the id → the id."""
    found = {}
    for line in output.splitlines():
        parts = line.split(maxsplit=2)
        if len(parts) == 3 and parts[0] in "!·✓" and parts[1].startswith("#"):
            found[parts[2]] = parts[1].lstrip("#")
    return found


def test_warning_and_order_ids_stay_when_the_phase_is_read_again(
    game: tuple[Path, str, LocalBoard],
) -> None:
    """Each `run --once` is a new process that reads the phase whole again: the ids the host
    saw in `review` still name the same warnings and orders (tests/store has the case
    where other rows came in between)."""
    path, db, board = game
    runner.invoke(app, ["game", "start", str(path), "--db", db, "--allow-past"])
    runner.invoke(app, ["review", str(path), "--db", db, "--approve"])
    board.pm_as("Оля", ["Ведущий"], "ход", "голосую за Машку")
    board.pm_as("Вася", ["Ведущий"], "ход", "голосую за Петю\nпроверка Петьки")
    runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    first = runner.invoke(app, ["review", str(path), "--db", db, "--orders"]).output
    seen = _warning_ids(first)
    assert len(seen) == 2, first
    board.pm_as("Маша", ["Ведущий"], "ход", "голосую за Васятку")  # a new warning
    runner.invoke(app, ["run", str(path), "--db", db, "--once"])
    again = runner.invoke(app, ["review", str(path), "--db", db, "--orders"]).output
    now = _warning_ids(again)
    assert len(now) == 3 and all(now[text] == wid for text, wid in seen.items()), again
    orders = [line.split()[0] for line in first.splitlines() if line.strip().startswith("#")]
    assert orders and all(f"{o} Вася" in again for o in orders)
    olya = next(wid for text, wid in seen.items() if "Машку" in text)
    fixed = runner.invoke(app, ["review", str(path), "--db", db, "--fix", f"{olya}=Маша"])
    assert fixed.exit_code == 0 and "fixed: Маша" in fixed.output
