"""`forumgm scenario run`: exit codes, the readable difference and `--json`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app

HERE = Path(__file__).resolve().parents[1]
EXAMPLE = HERE / "scenarios" / "classic" / "spec" / "01_basic_game.yaml"
runner = CliRunner()


def test_examples_pass() -> None:
    files = sorted(str(p) for p in (HERE / "scenarios" / "classic" / "spec").glob("*.yaml"))
    assert len(files) == 4
    result = runner.invoke(app, ["scenario", "run", *files])
    assert result.exit_code == 0, result.output
    assert result.output.count("PASS") == 4


def test_wrong_expectation_exits_1_with_the_difference(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace("died: [Zoya, Boris]", "died: [Zoya, Anna]")
    )
    result = runner.invoke(app, ["scenario", "run", str(wrong)])
    assert result.exit_code == 1
    assert "turn 1: died: missing Anna; unexpected Boris" in result.output
    assert "expected: [Anna, Zoya]" in result.output


def test_malformed_file_exits_2_with_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: classic\nplayers:\n  - {name: A, role: citizen}\nphases:\n  - phase: turn 1\n    expect: {diedd: []}\n"
    )
    result = runner.invoke(app, ["scenario", "run", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:6: unknown key `diedd`" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("ruleset: classic\nplayers: [\n")
    result = runner.invoke(app, ["scenario", "run", str(broken)])
    assert result.exit_code == 2 and "not valid YAML" in result.output


def test_unknown_role_and_ruleset_are_invalid_files(tmp_path: Path) -> None:
    bad = tmp_path / "role.yaml"
    bad.write_text(
        "ruleset: classic\nplayers:\n  - {name: A, role: wizard}\n  - {name: B, role: citizen}\nphases:\n  - phase: turn 1\n"
    )
    assert runner.invoke(app, ["scenario", "run", str(bad)]).exit_code == 2
    bad.write_text("ruleset: chess\nplayers:\n  - {name: A}\nphases:\n  - phase: turn 1\n")
    result = runner.invoke(app, ["scenario", "run", str(bad)])
    assert result.exit_code == 2 and "unknown ruleset 'chess'" in result.output


def test_json_prints_state_and_events() -> None:
    result = runner.invoke(app, ["scenario", "run", "--json", str(EXAMPLE)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["passed"] is True
    assert data["state"]["winner"] == "town"
    turn1 = data["phases"][0]
    assert {"type": "death", "player": "Boris"}.items() <= next(
        e for e in turn1["events"] if e["type"] == "death"
    ).items()
