"""yakuza phase tags and proxy orders (issue 11 item 4), driven as a host drives forumgm.

A boss orders the killer's shot for him, a commissar files a check for night 3, and a
receipt tells each player what was taken and for whom; at the end of the night the shot
lands as the results post shows it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from engine.app.cli import app
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
ROLES = {
    "Alice": "boss",
    "Bob": "brute",
    "Carol": "killer",
    "Judy": "commissar",
    "Leo": "citizen",
    "Mia": "citizen",
}


def test_proxy_and_tagged_orders_get_receipts_and_count(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, list(ROLES))
    path = tmp_path / "game.toml"
    path.write_text(
        game_toml(
            url=url,
            thread=thread,
            players=list(ROLES),
            ruleset="yakuza",
            roles=ROLES,
            password="env:TEST_GM_PASSWORD",
        )
        + "[options]\nmin_players = 6\n",  # a small game to look at (the rules say 18)
        encoding="utf-8",
    )
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})

    def forumgm(now: str, *args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": now})
        assert result.exit_code == 0, result.output
        return result.output

    def inbox(name: str) -> str:
        user = board.user(name)
        assert user is not None
        return "\n".join(m.body.full_text() for m in board.pms_after(user, "inbox", 0))

    forumgm("2026-12-01T18:00+03:00", "game", "start", str(path))
    forumgm("2026-12-01T19:05+03:00", "run", str(path), "--once")
    at = datetime(2026, 12, 1, 20, tzinfo=MSK)
    board.pm_as("Alice", [GM], "ночь", "за Carol: снайперка Leo", at=at)
    board.pm_as("Judy", [GM], "ночь", "N3 досье Mia", at=at)
    board.pm_as("Bob", [GM], "ночь", "за Alice — пистолет Mia", at=at)
    forumgm("2026-12-01T20:30+03:00", "run", str(path), "--once")
    assert "от имени Alice" in inbox("Bob")
    board.pm_as(
        "Alice", [GM], "ночь", "пистолет Judy", at=datetime(2026, 12, 1, 20, 40, tzinfo=MSK)
    )
    forumgm("2026-12-01T21:00+03:00", "run", str(path), "--once")
    assert "Carol" in inbox("Alice")  # «от имени Carol»
    assert "Alice" in inbox("Carol")  # «этот приказ за вас отдал игрок Alice»
    assert "на ночь 3" in inbox("Judy")
    # Alice's own order replaced Bob's for her, and Bob hears it.
    assert (
        "Ваш приказ от имени Alice («Пистолет») отменён: игрок Alice прислал свой приказ"
        in inbox("Bob")
    )
    forumgm("2026-12-02T19:01+03:00", "run", str(path), "--once")
    results = [p.body.full_text() for p in board.posts_after(thread, 1) if p.author == GM]
    assert any("Leo: тяжёлое ранение" in text for text in results)  # the killer's shot (75)
    review = forumgm("2026-12-02T19:02+03:00", "review", str(path))
    assert "not_allowed" not in review and "late" not in review


def test_a_receipt_says_which_main_action_counts_and_a_refusal_shows_the_form(
    tmp_path: Path,
) -> None:
    """Issue 23: «заказ Вася» and «пистолет Петя» in one PM — only the last counts, and the
    receipt says so; «наблюдаю за Leo» is refused with the form to write."""
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, list(ROLES))
    path = tmp_path / "game.toml"
    path.write_text(
        game_toml(url=url, thread=thread, players=list(ROLES), ruleset="yakuza", roles=ROLES,
                  password="env:TEST_GM_PASSWORD")
        + "[options]\nmin_players = 6\n",  # a small game to look at (the rules say 18)
        encoding="utf-8",
    )  # fmt: skip
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})

    def forumgm(now: str, *args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": now})
        assert result.exit_code == 0, result.output
        return result.output

    def inbox(name: str) -> str:
        user = board.user(name)
        assert user is not None
        return "\n".join(m.body.full_text() for m in board.pms_after(user, "inbox", 0))

    forumgm("2026-12-01T18:00+03:00", "game", "start", str(path))
    forumgm("2026-12-01T19:05+03:00", "run", str(path), "--once")
    assert "заказ <игрок> — например: заказ " in inbox("Alice")  # the role PM
    at = datetime(2026, 12, 1, 20, tzinfo=MSK)
    board.pm_as("Alice", [GM], "ночь", "заказ Leo\nпистолет Mia", at=at)
    board.pm_as("Leo", [GM], "ночь", "наблюдаю за Mia", at=at)
    forumgm("2026-12-01T20:30+03:00", "run", str(path), "--once")
    alice = inbox("Alice")
    assert "Приказ принят: Пистолет — Mia (заменяет приказ «Заказ» — Leo)." in alice, alice
    leo = inbox("Leo")
    assert "Нужно: наблюдение <способность>, например: наблюдение катана" in leo, leo
    review = forumgm("2026-12-01T20:31+03:00", "review", str(path))
    assert "multiple_actions Alice 'пистолет Mia'" in review, review
