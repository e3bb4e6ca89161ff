"""Which game a PM in a GM account's shared inbox is for (`engine.service.inbox.route`)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.config import parse_config
from engine.service.driver import GameDriver
from engine.service.inbox import GameNames, route
from engine.store import open_store
from forums.local import ManualClock
from forums.records import PostBody, PrivateMessage
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")

MAFIA = GameNames.of(1, "Мафия", None, ["Вася", "Оля"])
MAFIA2 = GameNames.of(2, "Мафия 2", "М2", ["Оля", "Гена"])
VOTES = GameNames.of(3, "Голосовалка", "Г", ["Оля", "Катя"])


def _pm(sender: str, subject: str) -> PrivateMessage:
    at = datetime(2026, 12, 1, tzinfo=UTC)
    return PrivateMessage("1", sender, None, ("Ведущий",), at, subject, PostBody.plain("ход"))


def test_a_pm_goes_by_its_sender_then_by_its_subject() -> None:
    games = [MAFIA, MAFIA2, VOTES]
    assert [g.game_id for g in route(_pm("вася", "ход"), games).games] == [1]  # any letter case
    assert [g.game_id for g in route(_pm("Гена", "Мафия"), games).games] == [2]  # sender first
    # Оля plays in all three: the subject says which; a longer name is not also the shorter.
    assert [g.game_id for g in route(_pm("Оля", "Re: Ваша роль [М2]"), games).games] == [2]
    assert [g.game_id for g in route(_pm("Оля", "ход, Мафия 2"), games).games] == [2]
    assert [g.game_id for g in route(_pm("Оля", "МАФИЯ: ход"), games).games] == [1]
    unclear = route(_pm("Оля", "ход"), games)
    assert unclear.unclear and unclear.asker == 1 and len(unclear.games) == 3
    both = route(_pm("Оля", "Мафия и Голосовалка"), games)
    assert both.unclear and {g.game_id for g in both.games} == {1, 2, 3}
    # Someone in none of them: every game keeps it (as a stranger's), no question.
    stranger = route(_pm("Дима", "Мафия"), games)
    assert not stranger.unclear and stranger.asker is None and len(stranger.games) == 3


def test_a_title_is_found_whatever_its_spacing() -> None:
    """A title written with two spaces (or a line break) in the game file is found in a
    subject a player typed with one."""
    autumn = GameNames.of(4, "Осенняя  мафия\n", None, ["Оля"])
    found = route(_pm("Оля", "Re: осенняя мафия: ход"), [MAFIA2, autumn])
    assert [g.game_id for g in found.games] == [4] and not found.unclear


def test_a_substitute_s_pm_goes_to_the_game_they_joined(tmp_path: Path) -> None:
    """`game replace` routes the substitute's PMs by their player row: two running games on
    one GM account, and the other game does not take them for a stranger's."""
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    clock = ManualClock(datetime(2026, 12, 1, 19, 30, tzinfo=MSK))
    first, second = ["Вася", "Петя", "Маша", "Коля", "Оля"], ["Гена", "Лена", "Катя"]
    board, thread = local_board(url, [*first, *second, "Дима"], clock=clock)
    other = board.create_thread("Голосовалка", GM)
    store = open_store(f"sqlite:///{tmp_path / 'store.sqlite'}")
    drivers = []
    for players, where, extra in ((first, thread, 'tag = "М1"'), (second, other, 'tag = "Г2"')):
        text = game_toml(
            url=url, thread=where, players=players, ruleset="votecount", game_extra=extra
        )
        driver = GameDriver(store, board, parse_config(text), clock=clock)
        driver.start()
        drivers.append(driver)
    mafia, votes = drivers
    mafia.replace("Коля", "Дима")
    board.pm_as("Дима", [GM], "вопрос", "я заменяю Колю")
    for driver in drivers:
        asyncio.run(driver.read(full=False))
    mine = [m.id for m in store.pms_in(mafia.game_id, clock())]
    assert len(mine) == 1 and store.pms_in(votes.game_id, clock()) == []
