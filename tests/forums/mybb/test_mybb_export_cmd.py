"""`forumgm export --engine mybb` over the saved board, and `tally --engine mybb` over what it wrote."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from helpers_mybb import BASE, PASSWORD, USER, FakeMybb, board_maker, truth
from typer.testing import CliRunner

from engine.app import tally_cmd
from engine.app.cli import app
from engine.app.tally_cmd import READERS

runner = CliRunner()
TRUTH = truth("thread_truth.json")
ARGS = [
    "export",
    "--engine",
    "mybb",
    "--url",
    BASE,
    "--user",
    USER,
    "--thread",
    "1",
    "--allow-insecure-http",
]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMybb]:
    fake = FakeMybb().with_login().with_thread()
    monkeypatch.setattr(tally_cmd, "make_board", board_maker(fake))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


def test_export_then_tally_gives_the_day_1_count(fake: FakeMybb, tmp_path: Path) -> None:
    posts = tmp_path / "thread.jsonl"
    result = runner.invoke(app, [*ARGS, "--out", str(posts)])
    assert result.exit_code == 0, result.output
    assert "61 posts written" in result.output and PASSWORD not in result.output
    lines = [json.loads(line) for line in posts.read_text(encoding="utf-8").splitlines()]
    visible = [t for t in TRUTH["posts"] if t["visible_to_regular_users"]]
    assert [line["id"] for line in lines] == [str(t["pid"]) for t in visible]  # no stub
    served = "".join(line["content"] for line in lines)
    assert 'class="mycode_quote"' in served and 'class="mycode_s"' in served
    players = tmp_path / "players.yaml"
    names = [p["username"] for p in TRUTH["players"]]
    players.write_text(json.dumps({"players": names}, ensure_ascii=False), encoding="utf-8")
    deadline = datetime.fromisoformat(TRUTH["deadlines"]["day1"])
    until = max(
        line["number"] for line in lines if datetime.fromisoformat(line["time"]) <= deadline
    )
    args = ["tally", "--engine", "mybb", "--players", str(players), "--posts", str(posts)]
    counted = runner.invoke(app, [*args, "--until", str(until), "--json"])
    assert counted.exit_code == 0, counted.output
    final = TRUTH["expected_tallies"]["day1_final (GM post P39)"]
    assert json.loads(counted.stdout)["votes"] == final["each_players_vote"]
    unknown = runner.invoke(app, [*args, "--engine", "ipboard"])
    assert unknown.exit_code == 2 and f"post HTML of {', '.join(READERS)} can be read" in (
        unknown.output
    )
