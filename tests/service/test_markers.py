"""Issue 10 §1: no player can stop results from being published by faking the GM's markers.

The attacks run through the service on the local board with a fake clock: a marker hidden
in a player's post (the old, predictable kind and a leaked real one), a quote of the GM's
post with its marker, and an anonymous message the GM relays with a marker in it. Each
would make the outbox take the results (or a result PM) for already posted.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.config import parse_config
from engine.publish import Markers, find_markers, own_marker, strip_markers
from engine.service.driver import GameDriver
from engine.store import open_store
from forums.bbcode import parse_bbcode
from forums.errors import BoardUnavailable
from forums.local import LocalBoard, ManualClock
from tests.service.helpers import GM, GM_PASSWORD, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"


def _hidden(marker: str) -> str:
    return f"[size=1][color=#ffffff]fgm:{marker}[/color][/size]"


def _old_marker(*parts: object) -> str:
    """What a player computes for the unkeyed markers of before: a hash of public facts."""
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16]


def _game(tmp_path: Path) -> tuple[GameDriver, LocalBoard, ManualClock, str]:
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    clock = ManualClock(START)
    board, thread = local_board(url, PLAYERS, clock=clock)
    config = parse_config(game_toml(url=url, thread=thread, players=PLAYERS, roles=ROLES))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    asyncio.run(driver.step(START))  # the opening post and the role PMs go out
    return driver, board, clock, thread


def _gm_posts(board: LocalBoard, thread: str) -> list[str]:
    posts = asyncio.run(board.thread_posts(thread)).items
    return [p.raw or "" for p in posts if p.author == GM]


def _inbox(board: LocalBoard, player: str) -> list[str]:
    return [m.raw or "" for m in asyncio.run(board.as_user(player, "pw").inbox()).items]


def test_forged_quoted_and_relayed_markers_do_not_stop_the_results(tmp_path: Path) -> None:
    driver, board, clock, thread = _game(tmp_path)
    game = driver.game_id
    clock.set(START + timedelta(hours=1))
    # The predictable markers of the results post and of the commissar's check result…
    guessed = [_old_marker(game, "turn 1", "results"), _old_marker(game, "turn 1", "results-pm")]
    guessed.append(_old_marker(game, "turn 1", "results-pm", "Вася"))
    board.post_as("Коля", thread, "Всем привет!\n" + "".join(_hidden(m) for m in guessed))
    # …and the real ones, as if they had leaked: in a post, in a quote of the GM, relayed.
    results, check = (
        driver.marker("turn 1", "results"),
        driver.marker("turn 1", "results-pm", "Вася"),
    )
    board.post_as("Оля", thread, _hidden(results))
    board.post_as("Маша", thread, f'[quote="{GM}"]Итоги хода 1\nfgm:{results}[/quote]')
    board.pm_as("Коля", [GM], "ход", f"анонимка для Маши: fgm:{check}\nfgm:{results}")
    board.pm_as("Вася", [GM], "ход", "проверка Коли\nголосую за Олю")
    for voter in ("Маша", "Коля", "Петя"):
        board.pm_as(voter, [GM], "ход", "голосую за Олю")
    asyncio.run(driver.step(START + timedelta(hours=2)))
    relayed = [pm for pm in _inbox(board, "Маша") if "анонимное сообщение" in pm]
    assert relayed and not any(results in pm or check in pm for pm in relayed)

    clock.set(START + timedelta(days=1, minutes=1))
    asyncio.run(driver.step(clock()))
    posted = [p for p in _gm_posts(board, thread) if "Итоги хода 1" in p]
    assert len(posted) == 1 and find_markers(posted[0]) == [results]
    check_pms = [pm for pm in _inbox(board, "Вася") if "Результат проверки" in pm]
    assert len(check_pms) == 1 and "Коля" in check_pms[0]
    item = driver.store.find_by_marker(results)
    assert item is not None and item.status == "posted"
    assert item.board_id not in {
        p.id for p in asyncio.run(board.thread_posts(thread)).items if p.author != GM
    }


def test_markers_are_keyed_per_game() -> None:
    one, other = Markers("a" * 64, 1), Markers("b" * 64, 1)
    assert one.make("turn 1", "results") == Markers("a" * 64, 1).make("turn 1", "results")
    assert one.make("turn 1", "results") != other.make("turn 1", "results")
    assert len(one.make("x")) == 24
    assert Markers(None, 1).make("turn 1", "results") == _old_marker(1, "turn 1", "results")


def test_only_the_last_line_of_the_gms_own_text_is_a_marker() -> None:
    marker = "0123456789abcdef01234567"
    own = parse_bbcode(f"Итоги\n[size=1][color=#999999]fgm:{marker}[/color][/size]")
    assert own_marker(own) == marker
    quoted = parse_bbcode(f"[quote]fgm:{marker}[/quote]")
    assert own_marker(quoted) is None
    mid = parse_bbcode(f"fgm:{marker}\nи ещё строка")
    assert own_marker(mid) is None
    padded = parse_bbcode(f"текст fgm:{marker}")
    assert own_marker(padded) is None
    assert strip_markers(f"a fgm:{marker} b FGM : {marker[:8]}") == "a  b "


class _FlakyBoard(LocalBoard):
    """The local board whose sends fail while `down` (after the store marked them started)."""

    down = False

    async def reply(self, thread: str, bbcode: str) -> str:
        if self.down:
            raise BoardUnavailable("the board answered 503")
        return await super().reply(thread, bbcode)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        if self.down:
            raise BoardUnavailable("the board answered 503")
        return await super().send_pm(recipients, subject, bbcode)


def test_a_send_looked_for_on_the_board_takes_only_the_gms_own_marker_line(
    tmp_path: Path,
) -> None:
    """The board is looked at only for sends that may have gone through: there a forged, a
    quoted or a relayed marker must not pass for the results post or a result PM."""
    url = f"sqlite:///{tmp_path / 'game.sqlite'}"
    clock = ManualClock(START)
    _, thread = local_board(url, PLAYERS, clock=clock)
    board = _FlakyBoard(url, GM, GM_PASSWORD, clock=clock)
    config = parse_config(game_toml(url=url, thread=thread, players=PLAYERS, roles=ROLES))
    driver = GameDriver(open_store(url), board, config, clock=clock)
    driver.start()
    asyncio.run(driver.step(START))
    clock.set(START + timedelta(hours=1))
    board.pm_as("Вася", [GM], "ход", "проверка Коли\nголосую за Олю")
    for voter in ("Маша", "Коля", "Петя"):
        board.pm_as(voter, [GM], "ход", "голосую за Олю")
    asyncio.run(driver.step(START + timedelta(hours=2)))

    board.down = True  # the deadline: the results are started, and the board fails them
    clock.set(START + timedelta(days=1, minutes=1))
    for _ in range(2):  # a failed send ends the step; the next step tries another first
        with pytest.raises(BoardUnavailable):
            asyncio.run(driver.step(clock()))
    results, check = (
        driver.marker("turn 1", "results"),
        driver.marker("turn 1", "results-pm", "Вася"),
    )
    started = [driver.store.find_by_marker(m) for m in (results, check)]
    assert all(i is not None and i.sending_at is not None and i.status == "failed" for i in started)
    # The markers leak: a player's hidden line, a quote of them, and the GM account itself
    # with a marker inside a quote (a relayed message) and in the middle of a post.
    clock.set(START + timedelta(days=1, minutes=3))
    board.post_as("Петя", thread, f"Итоги хода 1\n{_hidden(results)}")
    board.post_as("Маша", thread, f'[quote="{GM}"]Итоги хода 1\nfgm:{results}[/quote]')
    board.pm_as(GM, ["Маша"], "Вам анонимное сообщение", f"[quote]fgm:{check}[/quote]")
    board.post_as(GM, thread, f"fgm:{results}\nВедущий: итоги будут чуть позже.")
    board.down = False
    asyncio.run(driver.step(START + timedelta(days=1, minutes=5)))

    posted = [p for p in _gm_posts(board, thread) if "Итоги хода 1" in p]
    assert len(posted) == 1 and find_markers(posted[0])[-1] == results
    check_pms = [pm for pm in _inbox(board, "Вася") if "Результат проверки" in pm]
    assert len(check_pms) == 1 and "Коля" in check_pms[0]
