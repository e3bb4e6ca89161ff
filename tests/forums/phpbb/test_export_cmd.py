"""`forumgm export` against the respx-backed saved board, and `tally` over what it wrote."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from helpers_http import BASE, FIXTURES, PASSWORD, USER, FakePhpbb, board_maker
from typer.testing import CliRunner

from engine.app import tally_cmd
from engine.app.cli import app

runner = CliRunner()
TRUTH: dict[str, Any] = json.loads((FIXTURES / "thread_truth.json").read_text(encoding="utf-8"))
ARGS = [
    "export",
    "--engine",
    "phpbb",
    "--url",
    BASE,
    "--user",
    USER,
    "--thread",
    "2",
    "--allow-insecure-http",
]


@pytest.fixture(params=["ru", "en"])
def fake(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePhpbb]:
    fake = FakePhpbb(request.param).with_login().with_thread()
    monkeypatch.setattr(tally_cmd, "make_board", board_maker(fake))
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", PASSWORD)
    yield fake


def test_export_writes_every_visible_post_as_the_board_served_it(
    fake: FakePhpbb, tmp_path: Path
) -> None:
    out = tmp_path / "thread.jsonl"
    result = runner.invoke(app, [*ARGS, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "61 posts written" in result.output and PASSWORD not in result.output
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    visible = [p for p in TRUTH["posts"] if p["visible_to_regular_users"]]
    assert [line["id"] for line in lines] == [str(p["post_id"]) for p in visible]
    assert [line["number"] for line in lines] == list(range(1, 62))
    for line, post in zip(lines, visible, strict=True):
        assert set(line) == {"number", "id", "user", "user_id", "time", "content"}
        assert (line["user"], line["user_id"]) == (post["author"], str(post["author_user_id"]))
        # The exact moment (prosilver's <time datetime>), in the board's zone.
        assert datetime.fromisoformat(line["time"]) == datetime.fromisoformat(
            post["posted_at"]["utc"]
        )
        assert line["time"].endswith("+03:00")
    # The body HTML as served: markup kept, no signature (it is not the post's content).
    served = "".join(line["content"] for line in lines)
    assert "<blockquote" in served and "<s>" in served and "Том &amp; Джерри" in served
    assert "здравый смысл" not in served  # Mr. Fiks's signature
    # One login, then the seven pages once each; nothing posted but the login form.
    assert [r.method for r in fake.requests].count("POST") == 1
    assert sum(t.startswith("/viewtopic.php") for t in fake.targets("GET")) == 7


def test_export_to_stdout_then_tally_gives_the_day_1_count(fake: FakePhpbb, tmp_path: Path) -> None:
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 0, result.output
    posts = tmp_path / "thread.jsonl"
    posts.write_text(result.stdout, encoding="utf-8")
    players = tmp_path / "players.yaml"
    names = [p["username"] for p in TRUTH["players"]]
    players.write_text(json.dumps({"players": names}, ensure_ascii=False), encoding="utf-8")
    # Post 37 is the last before the day-1 deadline (38 is Alu's late vote).
    args = ["tally", "--players", str(players), "--posts", str(posts), "--until", "37", "--json"]
    counted = runner.invoke(app, args)
    assert counted.exit_code == 0, counted.output
    final = TRUTH["expected_tallies"]["day1_final (GM post P39)"]
    assert json.loads(counted.stdout)["votes"] == final["each_players_vote"]


def test_export_needs_the_password_in_the_environment(
    fake: FakePhpbb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORUMGM_GM_PASSWORD")
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 2
    assert "FORUMGM_GM_PASSWORD" in result.output
    assert not fake.requests
    # There is no flag to give it on the command line (it would land in shell history).
    assert runner.invoke(app, [*ARGS, "--password", PASSWORD]).exit_code == 2


def test_export_reports_a_wrong_password_without_it(fake: FakePhpbb) -> None:
    fake.on("POST", "/ucp.php?mode=login", "login_failed_wrong_password.html")
    result = runner.invoke(app, ARGS)
    assert result.exit_code == 2
    assert "LoginFailed" in result.output and PASSWORD not in result.output
