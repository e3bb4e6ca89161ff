"""`forumgm simulate` as a host runs it on the example game files."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
runner = CliRunner(env={"COLUMNS": "200"})


def _run(*words: str, code: int = 0) -> str:
    result = runner.invoke(app, ["simulate", *words])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def test_the_table_names_the_players_and_the_figures() -> None:
    out = _run(str(EXAMPLES / "classic.toml"), "--games", "300", "--workers", "1")
    assert "classic, 9 players (mafioso 2, commissar 1, doctor 1, citizen 5)" in out
    assert "Players: --policy smart, after engine/app/demo/bots.py" in out
    assert "town — smart:" in out and "mafia — smart:" in out
    assert "Win rate (95% interval)" in out and "mean ± sd" in out
    assert "mafioso (mafia)" in out and "of 600" in out


def test_json_and_vary_put_setups_side_by_side() -> None:
    out = _run(
        str(EXAMPLES / "classic.toml"),
        "--games",
        "200",
        "--workers",
        "2",
        "--vary",
        "deal.mafioso=1..3",
        "--policy",
        "smart,mafia=random",
        "--json",
    )
    report = json.loads(out)
    assert [s["label"] for s in report["setups"]] == [
        "mafioso=1 (citizen=6)",
        "mafioso=2 (citizen=5)",
        "mafioso=3 (citizen=4)",
    ]
    assert report["policy"]["sides"]["mafia"].startswith("random:")
    town = [s["wins"].get("town", {}).get("rate", 0.0) for s in report["setups"]]
    assert town[0] > town[1] > town[2]  # more mafiosi, fewer town wins
    assert all(sum(s["length"]["histogram"].values()) == 200 for s in report["setups"])


def test_what_cannot_be_simulated_says_so_in_one_line() -> None:
    out = _run(str(EXAMPLES / "votecount.toml"), code=2)
    assert out.count("\n") == 1 and "no rules to simulate" in out
    out = _run(str(EXAMPLES / "classic.toml"), "--vary", "deal.mafioso=9", code=2)
    assert "not enough citizens" in out
    out = _run(str(EXAMPLES / "classic.toml"), "--vary", "mafioso", code=2)
    assert "write deal.ROLE=2..4" in out
    out = _run(str(EXAMPLES / "classic.toml"), "--policy", "mafia=clever", code=2)
    assert "'clever' is not one of smart, random" in out
    out = _run(str(EXAMPLES / "twelve-rooms.toml"), "--vary", "deal.manager=2", code=2)
    assert "cannot be dealt" in out
