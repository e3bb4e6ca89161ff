"""Every ruleset runs from a game file: docs/examples/<ruleset>.toml validates, starts and opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from engine.app.game_file import known_rulesets, load_game
from tests.service.helpers import local_board

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
BEFORE = "2027-01-10T12:00+03:00"


EXAMPLE_RULESETS = sorted(p.stem for p in EXAMPLES.glob("*.toml"))


def test_the_readmes_rulesets_have_an_example_game_file() -> None:
    assert {"classic", "yakuza", "votecount"} <= set(EXAMPLE_RULESETS)
    assert set(EXAMPLE_RULESETS) <= set(known_rulesets())


@pytest.mark.parametrize("ruleset", EXAMPLE_RULESETS)
def test_a_game_validates_and_starts_from_its_file(tmp_path: Path, ruleset: str) -> None:
    source = EXAMPLES / f"{ruleset}.toml"
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    config = load_game(source)
    board, thread = local_board(board_url, config.players, gm=config.gm_user)
    path = tmp_path / "game.toml"
    text = source.read_text(encoding="utf-8")
    text = text.replace('url = "sqlite:///rehearsal-board.sqlite"', f'url = "{board_url}"')
    path.write_text(text.replace('thread = "1"', f'thread = "{thread}"'), encoding="utf-8")
    runner = CliRunner(env={"FORUMGM_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})
    db = ["--db", f"sqlite:///{tmp_path / 'store.sqlite'}"]

    result = runner.invoke(app, ["game", "validate", str(path)], env={"FORUMGM_NOW": BEFORE})
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"OK {path}: {ruleset}, {len(config.players)} players")
    result = runner.invoke(app, ["game", "start", str(path), *db], env={"FORUMGM_NOW": BEFORE})
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app, ["review", str(path), *db, "--approve"], env={"FORUMGM_NOW": BEFORE}
    )
    assert result.exit_code == 0, result.output
    opened = config.start.isoformat()
    result = runner.invoke(app, ["run", str(path), *db, "--once"], env={"FORUMGM_NOW": opened})
    assert result.exit_code == 0 and "open until" in result.output, result.output
    posts = board.posts_after(thread, 0)
    assert [p.author for p in posts] == [config.gm_user]
    opening = posts[0].body.full_text()
    assert all(name in opening for name in config.players)
    for name, visible in config.visible_roles.items():  # yakuza: everybody's visible role
        line = next(line for line in opening.splitlines() if f" {name} — " in line)
        assert visible != "none" and "явной роли" not in line
    if known_rulesets()[ruleset].deal_option is not None:  # every player has a role PM
        for name in config.players:
            pms = board.pms_after(board._resolve(name), "inbox", 0)
            assert len(pms) == 1 and pms[0].sender == config.gm_user
