"""`forumgm` imports a subcommand's heavy modules only when that subcommand runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("sqlalchemy", "alembic", "httpx", "apscheduler", "pygments", "jinja2")


def _imported_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    modules = set(json.loads(out.splitlines()[-1]))
    return modules | {name.partition(".")[0] for name in modules}


def test_the_cli_module_imports_no_subcommand() -> None:
    loaded = _imported_after("import engine.app.cli")
    assert not loaded & set(HEAVY), loaded & set(HEAVY)
    assert "engine.app.service_cmd" not in loaded


def test_tally_needs_no_store_and_no_scheduler() -> None:
    loaded = _imported_after("import engine.app.tally_cmd")
    assert not loaded & {"sqlalchemy", "alembic", "apscheduler"}


def test_every_listed_command_loads_and_shows_its_help() -> None:
    from typer.testing import CliRunner

    from engine.app.cli import COMMANDS, app

    runner = CliRunner()
    for name in COMMANDS:
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Usage" in result.output
    listing = runner.invoke(app, ["--help"]).output
    assert all(name in listing for name in COMMANDS)


def test_a_tally_run_loads_no_http_client_and_no_pydantic(tmp_path: Path) -> None:
    """Reading an exported thread needs no board client (the MyBB and phpBB packages load
    theirs when first used), and Typer before 0.29 checks parameters without pydantic."""
    players = tmp_path / "players.json"
    players.write_text(json.dumps({"players": ["Вася", "Петя"]}), encoding="utf-8")
    posts = tmp_path / "posts.jsonl"
    post = {"number": 1, "id": "1", "user": "Вася", "content": "vote Петя"}
    posts.write_text(json.dumps(post, ensure_ascii=False) + "\n", encoding="utf-8")
    run = (
        "import sys\nfrom engine.app.cli import main\n"
        f"sys.argv = ['forumgm', 'tally', '--posts', {str(posts)!r}, '--players', "
        f"{str(players)!r}, '--json']\n"
        "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code"
    )
    loaded = _imported_after(run)
    assert not loaded & {"httpx", "pydantic", "sqlalchemy"}, loaded & {"httpx", "pydantic"}
