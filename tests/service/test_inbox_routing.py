"""Which game a PM in a GM account's shared inbox is for (`engine.service.inbox.route`)."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.service.inbox import GameNames, route
from forums.records import PostBody, PrivateMessage

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
