"""A votecount vote sent by PM is answered, not dropped: votes are taken in the thread only.

Through the CLI with a game file on the local board, one votecount game alone on the GM's
account: a player PMs his vote to the GM and gets a receipt that says where votes count,
in the game's language; the vote does not count.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
PLAYERS = ["Оля", "Гена", "Лена", "Петя", "Катя"]
runner = CliRunner(env={"COLUMNS": "200", "TEST_GM_PASSWORD": "gm-secret"})


@pytest.mark.parametrize(
    ("language", "vote", "receipt"),
    [
        ("ru", "голосую за Петю", "Голос не принят: голоса принимаются только в игровой теме."),
        ("en", "vote Петя", "Your vote was not taken: votes count only in the game thread."),
    ],
)
def test_a_vote_by_pm_gets_a_receipt_saying_votes_go_in_the_thread(
    tmp_path: Path, language: str, vote: str, receipt: str
) -> None:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, PLAYERS, title="Голосовалка")
    text = game_toml(
        url=url,
        thread=thread,
        players=PLAYERS,
        ruleset="votecount",
        review="warnings",
        password="env:TEST_GM_PASSWORD",
    )
    text = text.replace(
        'ruleset = "votecount"\n', f'ruleset = "votecount"\nlanguage = "{language}"\n'
    )
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"

    def cli(*words: str, at: str) -> str:
        result = runner.invoke(app, [*words, "--db", db], env={"FORUMGM_NOW": at})
        assert result.exit_code == 0, result.output
        return result.output

    cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
    cli("review", str(path), "--approve", at="2026-12-01T18:00+03:00")
    cli("run", str(path), "--once", at="2026-12-01T19:01+03:00")
    gm = board.user(GM)
    assert gm is not None
    before = len(board.pms_after(gm, "sent", 0))
    board.pm_as("Гена", [GM], "голос", vote, at=datetime(2026, 12, 1, 20, 4, tzinfo=MSK))
    said = cli("run", str(path), "--once", at="2026-12-01T20:10+03:00")
    assert "1 receipt(s) queued" in said, said

    [answer] = board.pms_after(gm, "sent", 0)[before:]
    assert answer.recipients[0] == "Гена"
    assert receipt in answer.body.full_text()
    votes = cli("review", str(path), "--votes", at="2026-12-01T20:11+03:00")
    assert f"pm_vote_ignored Гена '{vote}'" in votes, votes  # the host sees it too
    assert "totals: none" in votes, votes  # and it does not count
