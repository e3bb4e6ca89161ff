"""Two votecount games on one phpBB GM account, driven by one `forumgm run`: a vote edited
after the deadline without an edit notice (phpBB records no edit time when the topic's last
post is edited without a reason), a vote deleted by its author, and the GM's password
changed on the board (one refused login, then no more until the host gives the new one)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.live.boards import LiveBoard
from tests.live.games import LiveGame, agree, game_file, gm_reader, gm_thread

MSK = ZoneInfo("Europe/Moscow")
A_PLAYERS = ("Вася", "Петя", "Маша", "Коля", "Оля")
B_PLAYERS = ("Лёша", "Dmitry", "Вася")
NEW_PASSWORD = "gm-live-pass-2"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


def test_two_games_an_edit_a_deletion_and_a_new_password(phpbb: LiveBoard, tmp_path: Path) -> None:
    assert phpbb.clock is not None
    phpbb.clock.set(at("2026-12-10 12:00"))
    gm = gm_reader(phpbb)
    thread_a = gm.open_topic("Мафия А", "Игра А.")
    phpbb.clock.advance(60)
    thread_b = gm.open_topic("Мафия Б", "Игра Б.")
    gm.close()
    kw = {"ruleset": "votecount", "start": "2026-12-10 19:00"}
    a = LiveGame(phpbb, tmp_path, thread_a, game_file(phpbb, thread_a, A_PLAYERS, **kw), "a")
    b = LiveGame(phpbb, tmp_path, thread_b, game_file(phpbb, thread_b, B_PLAYERS, **kw), "b")
    both = (str(a.path), str(b.path))

    def run(moment: str, code: int = 0) -> str:
        return a.forumgm(at(moment), "run", *both, "--once", game=False, code=code)

    for game in (a, b):
        game.forumgm(at("2026-12-10 18:00"), "game", "start")
        game.forumgm(at("2026-12-10 18:01"), "review", "--approve")
    out = run("2026-12-10 18:50")
    assert out.count("day 1: open until 2026-12-11 19:00 MSK") == 2, out
    a.post(at("2026-12-10 19:05"), "Вася", "Голосую за Петю")
    deleted = a.post(at("2026-12-10 19:10"), "Оля", "голосую за Машу")
    a.at(at("2026-12-10 19:11"))  # phpBB lets a member delete only the topic's last post
    a.member("Оля").delete(deleted)
    a.post(at("2026-12-10 19:12"), "Маша", "голосую за Колю")
    b.post(at("2026-12-10 19:13"), "Лёша", "голосую за Dmitry")
    b.post(at("2026-12-10 19:14"), "Вася", "голосую за Лёшу")  # Вася plays in both
    kolya = a.post(at("2026-12-11 18:30"), "Коля", "голосую за Петю")
    run("2026-12-11 18:40")  # a poll reads Коля's vote

    # The board's admin gives the GM a new password; the host has not heard yet.
    hashed = phpbb.php("-r", f"echo password_hash('{NEW_PASSWORD}', PASSWORD_BCRYPT);")
    phpbb.execute("UPDATE phpbb_users SET user_password = ? WHERE username = ?", hashed, phpbb.gm)

    def attempts() -> int:
        query = "SELECT user_login_attempts FROM phpbb_users WHERE username = ?"
        return int(phpbb.rows(query, phpbb.gm)[0][0])

    refused = run("2026-12-11 18:45", code=1)
    assert "LoginFailed" in refused and "forumgm board login" in refused, refused
    assert attempts() == 1  # one login for both games: they share the GM's account
    held = run("2026-12-11 18:50", code=1)
    assert "forumgm logs in there no more until you act" in held, held
    assert attempts() == 1  # held: no second try, so no CAPTCHA after three

    # After the deadline Коля edits his vote, still the topic's last post, without a reason:
    # phpBB keeps no edit time and shows no notice.
    a.at(at("2026-12-11 19:00:30"))
    a.member("Коля").edit(kolya, "голосую за Васю")
    [(text, edit_time)] = phpbb.rows(
        "SELECT post_text, post_edit_time FROM phpbb_posts WHERE post_id = ?", int(kolya)
    )
    assert "голосую за Васю" in text and edit_time == 0

    # The host gives forumgm the new password: both games go on, frozen as of the deadline.
    a.password = b.password = NEW_PASSWORD
    out = run("2026-12-11 19:01")
    assert out.count("day 1: results wait for the host (0 warnings)") == 2, out
    review = a.forumgm(at("2026-12-11 19:02"), "review")
    # The text read at the deadline differs from the one read before it: the vote counts as
    # it was read before (Петя), and the host is told.
    assert "edited_after_deadline Коля 'голосую за Петю'" in review, review
    assert "Коля: vote Петя" in a.forumgm(at("2026-12-11 19:02"), "review", "--orders")
    for game in (a, b):
        game.forumgm(at("2026-12-11 19:03"), "review", "--approve")
    run("2026-12-11 19:04")

    reads_a = a.member("Маша").thread(thread_a)
    results_a = next(p.body.full_text() for p in reads_a if "Итоги дня 1" in p.body.full_text())
    assert "Петя — 2 голоса (Вася, Коля)" in results_a, results_a
    assert "Не голосовали: Петя, Оля." in results_a  # Оля's vote was deleted before the deadline
    assert deleted not in {p.id for p in reads_a}
    reads_b = b.member("Лёша").thread(thread_b)
    results_b = next(p.body.full_text() for p in reads_b if "Итоги дня 1" in p.body.full_text())
    assert "Лёша — 1 голос (Вася)" in results_b and "Dmitry — 1 голос (Лёша)" in results_b
    assert "Петя" not in results_b  # each game's results in its own thread
    for game, reads in ((a, reads_a), (b, reads_b)):
        agree(phpbb, game.thread, reads)
        agree(phpbb, game.thread, gm_thread(phpbb, game.thread, NEW_PASSWORD))
    a.close()
    b.close()
