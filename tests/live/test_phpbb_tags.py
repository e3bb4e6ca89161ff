"""Issue 24 §7 on a real phpBB 3.3.10: two classic games on one GM account, a player in
both. A PM is routed by a game's tag as a whole word («МБ» in «Мафия МБ: проверка»; game A's
«МА» is only the start of «Мафия»), a PM that names no game is asked about once with both
tags in the question's subject, and the player's reply — phpBB's «Re: …» of that subject —
is routed by its first line («Для МА»), the rest read as the order it is."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.live.boards import LiveBoard
from tests.live.games import LiveGame, game_file, gm_reader

MSK = ZoneInfo("Europe/Moscow")
A_ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
A_ROLES["Оля"] = "citizen"
B_ROLES = {"Оля": "commissar", "Лёша": "mafioso", "Dmitry": "doctor", "Коля": "citizen"}
B_ROLES["Маша"] = "citizen"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


def test_a_tag_is_a_whole_word_and_the_answer_to_which_game_is_read(
    phpbb: LiveBoard, tmp_path: Path
) -> None:
    assert phpbb.clock is not None
    phpbb.clock.set(at("2026-12-12 12:00"))
    gm = gm_reader(phpbb)
    thread_a = gm.open_topic("Мафия А", "Игра А.")
    phpbb.clock.advance(60)
    thread_b = gm.open_topic("Мафия Б", "Игра Б.")
    gm.close()
    games = []
    for name, thread, roles, tag in (
        ("a", thread_a, A_ROLES, 'title = "Мафия А"\ntag = "МА"'),
        ("b", thread_b, B_ROLES, 'title = "Мафия Б"\ntag = "МБ"'),
    ):
        text = game_file(
            phpbb, thread, list(roles), ruleset="classic", roles=roles, extra=tag,
            start="2026-12-12 19:00",
        )  # fmt: skip
        games.append(LiveGame(phpbb, tmp_path, thread, text, name))
    a, b = games
    both = (str(a.path), str(b.path))

    def run(moment: str) -> str:
        return a.forumgm(at(moment), "run", *both, "--once", game=False)

    for game in games:
        game.forumgm(at("2026-12-12 18:00"), "game", "start")
        game.forumgm(at("2026-12-12 18:01"), "review", "--approve")
    run("2026-12-12 18:50")
    dealt = a.inbox("Оля")
    assert len(dealt) == 2, dealt  # one role PM per game

    a.pm(at("2026-12-12 19:05"), "Оля", "проверка Лёши", subject="Мафия МБ: проверка")
    run("2026-12-12 19:10")
    questions = [m for m in a.inbox("Оля") if m.startswith("Для какой игры")]
    assert questions == [], questions
    assert "pm_game_unclear" not in a.forumgm(at("2026-12-12 19:11"), "review")
    assert "Оля: check Лёша" in b.forumgm(at("2026-12-12 19:11"), "review", "--orders")

    a.pm(at("2026-12-12 19:12"), "Оля", "голосую за Петю", subject="вопрос")
    run("2026-12-12 19:15")
    [question] = [m for m in a.inbox("Оля") if m.startswith("Для какой игры")]
    subject = question.splitlines()[0]
    assert subject == "Для какой игры ваше сообщение? (МА, МБ)", question
    a.pm(at("2026-12-12 19:20"), "Оля", "Для МА\nголосую за Петю", subject=f"Re: {subject}")
    run("2026-12-12 19:25")
    votes = a.forumgm(at("2026-12-12 19:26"), "review", "--votes")
    rows = [[c.strip() for c in line.split("│")[1:3]] for line in votes.splitlines() if "│" in line]
    assert ["Оля", "Петя"] in rows, votes
    assert not re.search(r"Оля\s*│\s*Петя", b.forumgm(at("2026-12-12 19:26"), "review", "--votes"))
    a.close()
    b.close()
