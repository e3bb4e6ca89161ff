"""The rulesets' extras on the dashboard's game page, for games started from docs/examples:
yakuza's HP table, minimafik's hands, twelve-rooms' map (an SVG that cannot run scripts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app.game_file import load_game
from tests.app.dashboard_client import csrf_of, host_client
from tests.app.review_game import ReviewGame
from tests.service.helpers import local_board

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
BEFORE = "2027-01-10T12:00+03:00"


def _started(
    tmp_path: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[ReviewGame, str]:
    """The example game of `ruleset` started on a local board, its first phase open; and a
    moment in that phase."""
    source = EXAMPLES / f"{ruleset}.toml"
    config = load_game(source)
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(board_url, config.players, gm=config.gm_user)
    text = source.read_text(encoding="utf-8")
    text = text.replace('url = "sqlite:///rehearsal-board.sqlite"', f'url = "{board_url}"')
    path = tmp_path / "game.toml"
    path.write_text(text.replace('thread = "1"', f'thread = "{thread}"'), encoding="utf-8")
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", "gm-secret")
    g = ReviewGame(path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread)
    opened = config.start.isoformat()
    for words, at in (
        (("game", "start", str(path)), BEFORE),
        (("review", str(path), "--approve"), BEFORE),
        (("run", str(path), "--once"), opened),
    ):
        result = g.cli(*words, at=at)
        assert result.exit_code == 0, result.output
    return g, opened


@pytest.mark.parametrize(
    ("ruleset", "shown"),
    [
        ("yakuza", "<h2>HP</h2>"),
        ("minimafik", "<h2>Hands</h2>"),
        ("twelve-rooms", '<img class="picture" src="/games/1/picture.svg"'),
    ],
)
def test_the_rulesets_extras_on_the_game_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, shown: str
) -> None:
    g, opened = _started(tmp_path, ruleset, monkeypatch)
    c = host_client(g, monkeypatch, at=opened)
    page = c.get("/games/1")
    assert page.status_code == 200 and shown in page.text
    picture = c.get("/games/1/picture.svg")
    if ruleset == "twelve-rooms":
        assert picture.headers["content-type"] == "image/svg+xml"
        assert picture.headers["content-security-policy"].startswith("default-src 'none'")
        assert picture.text.startswith("<svg") and "<script" not in picture.text
        cli_map = g.cli("review", str(g.path), "--picture", str(tmp_path / "map.svg"), at=opened)
        assert cli_map.exit_code == 0, cli_map.output
        assert (tmp_path / "map.svg").read_text(encoding="utf-8") == picture.text
    else:
        assert picture.status_code == 404


def test_a_game_not_started_yet_and_the_command_without_a_host_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = EXAMPLES / "classic.toml"
    config = load_game(source)
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(board_url, config.players, gm=config.gm_user)
    text = source.read_text(encoding="utf-8")
    path = tmp_path / "game.toml"
    path.write_text(
        text.replace('url = "sqlite:///rehearsal-board.sqlite"', f'url = "{board_url}"'),
        encoding="utf-8",
    )
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", "gm-secret")
    g = ReviewGame(path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread)
    refused = g.cli("dashboard", str(path), at=BEFORE)
    assert refused.exit_code == 2
    assert "No host account yet: set a password first with `forumgm host set-password`" in (
        refused.output
    )
    c = host_client(g, monkeypatch, at=BEFORE)
    assert "not started" in c.get("/").text
    page = c.get("/games/1")
    assert page.status_code == 200 and "The game has not started" in page.text
    assert c.get("/games/2").status_code == 404
    token = csrf_of(page.text)
    r = c.post("/games/1/fix", data={"csrf": token, "warning": "1", "name": "x"})
    assert "the game has not started: there is nothing to fix yet" in r.text
    r = c.post("/logout", data={"csrf": token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert c.get("/", follow_redirects=False).status_code == 303
