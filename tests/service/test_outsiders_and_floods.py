"""Issue 10 §7: outsiders hold nothing, and no player can make the GM flood the board.

Driven as a host drives forumgm (a game file, the local board, `FORUMGM_NOW`, the CLI's own
commands), checking what players see on the board:
- a board member who is not in the game PMs the GM «привет» and posts a vote: in review mode
  `warnings` the day still resolves on its own; `forumgm status` lists both messages;
- one PM with thirty «рейтинг» lines makes one rating post, the same player's next request
  within ten minutes none (a PM says why), and a later one a post again;
- with a ruleset's own limit switched off by the host, a message asking thirty times for the
  count still gets one answer.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.service.helpers import GM, ClockedGame, clocked_game

MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "mafioso", "Петя": "commissar", "Маша": "doctor", "Коля": "citizen"}
ROLES["Оля"] = "citizen"


def _host(tmp_path: Path, ruleset: str, *, review: str, extra: str = "") -> ClockedGame:
    """A host at the terminal: a game file (`extra` at its end), a store, the CLI at chosen
    moments; Зритель is a member of the board who does not play."""
    roles = ROLES if ruleset == "classic" else None
    host = clocked_game(
        tmp_path, PLAYERS, start=START, others=["Зритель"], ruleset=ruleset, roles=roles,
        review=review,
    )  # fmt: skip
    host.path.write_text(host.path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return host


def test_messages_from_non_players_hold_nothing_and_are_listed_in_status(tmp_path: Path) -> None:
    host = _host(tmp_path, "votecount", review="warnings")
    host.forumgm(START, "game start")
    host.forumgm(START, "review", "--approve")
    host.forumgm(START, "run", "--once")  # the opening post
    host.clock.set(START + timedelta(hours=1))
    host.board.pm_as("Зритель", [GM], "вопрос", "привет! можно в следующую игру?")
    host.board.post_as("Зритель", host.thread, "голосую за Васю")
    for voter in ("Петя", "Маша", "Коля"):
        host.board.post_as(voter, host.thread, "голосую за Васю")
    host.forumgm(START + timedelta(hours=1, minutes=5), "run", "--once")

    review = host.forumgm(START + timedelta(hours=2), "review")
    assert "Зритель" not in review and "sender_not_in_play" not in review
    status = host.forumgm(START + timedelta(hours=2), "status", game=False)
    assert "post 2 by Зритель, who does not play (day 1, not read): 'голосую за Васю'" in status
    assert "by Зритель, who does not play (day 1, not read): 'привет! можно в" in status
    # The deadline: nothing waits for the host, the result is on the board.
    said = host.forumgm(START + timedelta(days=1, minutes=1), "run", "--once")
    assert "wait for the host" not in said
    results = next(p for p in host.gm_bbcode() if "Итоги" in p)
    assert "Вася" in results and "Зритель" not in results
    assert host.inbox("Зритель") == []  # no receipt, no answer to an outsider


def test_thirty_rating_requests_make_one_post_and_the_next_waits_ten_minutes(
    tmp_path: Path,
) -> None:
    host = _host(tmp_path, "classic", review="auto")
    host.forumgm(START, "game start")
    host.forumgm(START, "run", "--once")  # the opening and the role PMs
    host.clock.set(START + timedelta(hours=1))
    host.board.pm_as("Коля", [GM], "ход", "голосую за Васю")
    host.board.pm_as("Петя", [GM], "рейтинг", "рейтинг\n" * 30)
    host.forumgm(START + timedelta(hours=1, minutes=2), "run", "--once")
    ratings = [p for p in host.gm_bbcode() if "Рейтинг" in p]
    assert len(ratings) == 1 and "Коля" in ratings[0]
    # Five minutes later: refused by PM, nothing in the thread. Маша's own is published.
    host.clock.set(START + timedelta(hours=1, minutes=5))
    host.board.post_as("Петя", host.thread, "рейтинг")
    host.board.pm_as("Маша", [GM], "рейтинг", "рейтинг")
    host.forumgm(START + timedelta(hours=1, minutes=7), "run", "--once")
    assert len([p for p in host.gm_bbcode() if "Рейтинг" in p]) == 2
    told = [pm for pm in host.inbox("Петя") if "недавно запрашивали рейтинг" in pm]
    assert len(told) == 2  # the 29 repeats of the first PM in one receipt, then the post
    # Past his ten minutes, his next request is answered again.
    host.clock.set(START + timedelta(hours=1, minutes=11))
    host.board.pm_as("Петя", [GM], "рейтинг", "рейтинг")
    host.forumgm(START + timedelta(hours=1, minutes=13), "run", "--once")
    assert len([p for p in host.gm_bbcode() if "Рейтинг" in p]) == 3


def test_one_message_gets_one_answer_even_with_the_rulesets_limit_off(tmp_path: Path) -> None:
    extra = "[options]\nvote_count_cooldown_minutes = 0\n"
    host = _host(tmp_path, "votecount", review="auto", extra=extra)
    host.forumgm(START, "game start")
    host.forumgm(START, "run", "--once")
    host.clock.set(START + timedelta(hours=1))
    host.board.post_as("Маша", host.thread, "голосую за Васю")
    host.board.post_as("Оля", host.thread, "подсчет голосов\n" * 30)
    host.forumgm(START + timedelta(hours=1, minutes=2), "run", "--once")
    counts = host.gm_bbcode()[1:]
    assert len(counts) == 1 and "Маша" in counts[0]
