"""`DiscourseBoard` over the in-memory Discourse of tests/discourse_board.py: real topics
(fixtures/discourse/), the API's answers in their real shapes.

Reading (every post, the rest of a chunked topic by id), cursors that fetch only what is
new, edits, deletions, personal messages, replies, the board's refusals and rate limits,
the key and the password only ever on the board.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, quote_plus

import httpx
import pytest

from forums import (
    BoardError,
    BoardUnavailable,
    Cursor,
    LayoutChanged,
    LoginFailed,
    NotFound,
    SessionExpired,
)
from forums.discourse.board import DiscourseBoard
from tests.adapter_helpers import FakeTime, run
from tests.discourse_board import (
    BASE,
    GM,
    KEY,
    PASSWORD,
    FakeDiscourse,
    errors,
    json_answer,
    rate_limited,
    real_posts,
)

T2108 = ("criticalfallibilism_t_2108_posts.json", "criticalfallibilism_t_2108_posts_pn_41.json")
LAST_CHUNK = "criticalfallibilism_t_2108_post_452.json"


def forum(**options: Any) -> FakeDiscourse:
    fake = FakeDiscourse(**options)
    fake.add_topic(
        2108, "Comments on The Boyfriend's Introduction to Feminism", real_posts(*T2108, LAST_CHUNK)
    )
    fake.add_user("Alu")
    fake.add_user("Бармалей")
    return fake


def board(
    fake: FakeDiscourse, *, key: bool = True, **options: Any
) -> tuple[DiscourseBoard, FakeTime]:
    clock = FakeTime()
    made = DiscourseBoard(
        BASE,
        GM,
        "" if key else PASSWORD,
        api_key=KEY if key else None,
        client=fake.client(),
        clock=clock,
        sleep=clock.sleep,
        min_delay=0,
        **options,
    )
    return made, clock


def paths(fake: FakeDiscourse) -> list[str]:
    out = []
    for r in fake.requests:
        query = r.url.query.decode()
        out.append(f"{r.method} {r.url.path}" + (f"?{query}" if query else ""))
    return out


def fetched_ids(fake: FakeDiscourse) -> list[int]:
    return [
        int(v)
        for r in fake.requests
        for k, v in parse_qsl(r.url.query.decode())
        if k == "post_ids[]"
    ]


# -- reading -----------------------------------------------------------------------------


def test_a_whole_topic_is_its_first_chunk_and_the_rest_by_id() -> None:
    fake = forum()
    gm, _ = board(fake)
    page = run(gm, lambda b: b.thread_posts("2108"))
    posts = page.items
    assert [p.number for p in posts] == [*range(1, 41), *range(433, 453)]
    assert paths(fake)[:2] == ["GET /session/current.json", "GET /t/2108.json"]
    assert len([p for p in paths(fake) if "/t/2108/posts.json" in p]) == 2  # 40 ids, 20 a time
    assert sorted(fetched_ids(fake)) == sorted(int(p.id) for p in posts[20:])
    first = posts[0]
    assert (first.id, first.author, first.author_id) == ("18843", "Elliot", "1")
    assert first.posted_at == datetime(2025, 9, 25, 19, 11, 22, 95000, tzinfo=UTC)
    assert first.url == BASE + "t/comments-on-the-boyfriends-introduction-to-feminism/2108/1"
    assert page.cursor.data == {"thread": "2108", "last_id": max(int(p.id) for p in posts)}
    # Every request carried the key, for the GM, and named forumgm.
    assert all(
        r.headers["Api-Key"] == KEY and r.headers["Api-Username"] == GM for r in fake.requests
    )
    assert all("forumgm" in r.headers["User-Agent"] for r in fake.requests)


def test_times_are_exact_to_the_millisecond() -> None:
    fake = forum()
    gm, _ = board(fake)
    posts = run(gm, lambda b: b.thread_posts("https://forum.example.org/t/some-slug/2108/40")).items
    by_number = {p.number: p for p in posts}
    # "created_at": "2025-12-12T21:24:58.916Z" in the saved answer.
    assert by_number[433].posted_at == datetime(2025, 12, 12, 21, 24, 58, 916000, tzinfo=UTC)
    assert DiscourseBoard.exact_times is True


def test_a_poll_fetches_only_the_posts_after_the_cursor() -> None:
    fake = forum()
    gm, _ = board(fake)
    whole = run(gm, lambda b: b.thread_posts("2108"))
    fake.requests.clear()

    gm, _ = board(fake)
    again = run(gm, lambda b: b.thread_posts("2108", whole.cursor))
    assert again.items == [] and again.cursor == whole.cursor
    assert paths(fake) == ["GET /session/current.json", "GET /t/2108.json"]

    fake.requests.clear()
    fake.now = datetime(2026, 1, 22, 12, 0, 0, tzinfo=UTC)  # on a whole minute: exact anyway
    made = fake.post(2108, "Alu", "Голосую за Бармалея")
    gm, _ = board(fake)
    new = run(gm, lambda b: b.thread_posts("2108", Cursor.loads(whole.cursor.dumps())))
    assert [(p.id, p.author, p.body.text()) for p in new.items] == [
        (str(made["id"]), "Alu", "Голосую за Бармалея")
    ]
    assert new.items[0].posted_at == datetime(2026, 1, 22, 12, 0, tzinfo=UTC)
    assert fetched_ids(fake) == [made["id"]]  # one post fetched, not the topic again
    assert new.cursor.data["last_id"] == made["id"]


def test_a_topic_is_its_number_or_its_address() -> None:
    assert DiscourseBoard.topic_id(" 2108 ") == "2108"
    assert DiscourseBoard.topic_id(f"{BASE}t/comments-on-feminism/2108/433?u=x") == "2108"
    assert DiscourseBoard.topic_id("/t/2108.json") == "2108"
    with pytest.raises(NotFound, match="not a Discourse topic"):
        DiscourseBoard.topic_id("threads/igra.2")


def test_a_cursor_of_another_topic_reads_the_topic_whole() -> None:
    fake = forum()
    gm, _ = board(fake)
    page = run(gm, lambda b: b.thread_posts("2108", Cursor({"thread": "99", "last_id": 10**9})))
    assert len(page.items) == 60


def test_an_older_topic_with_more_posts_than_its_first_chunk() -> None:
    """discourse.mozilla-community.org's /t/1148.json: 22 ids, posts #1–#20 served."""
    fake = FakeDiscourse()
    from tests.discourse_board import fixture

    saved = fixture("perceval_discourse_topic_1148.json")
    fake.add_topic(1148, saved["title"], saved["post_stream"]["posts"])
    gm, _ = board(fake)
    posts = run(gm, lambda b: b.thread_posts("1148")).items
    assert len(posts) == 20
    quoted = posts[3]
    assert quoted.number == 4
    runs = [(r.quoted, r.quote_author) for r in quoted.body.runs if r.text.strip()]
    assert (True, "noisycitytoonoisy") in runs  # the old quote form names him in its title
    assert "noisycitytoonoisy:" not in quoted.body.full_text()
    edited = {p.number: p.edit for p in posts if p.edit is not None}
    assert set(edited) == {2, 6, 19}
    assert edited[2] is not None and edited[2].count == 2  # version 3


def test_board_check_reads_the_first_and_the_last_chunk() -> None:
    fake = forum()
    gm, _ = board(fake)

    async def both(b: DiscourseBoard) -> tuple[Any, Any]:
        first = await b.topic_page("2108", 0)
        last = await b.topic_page("2108", (first.pages - 1) * first.per_page)
        return first, last

    first, last = run(gm, both)
    assert (first.title, first.total_posts, first.pages, first.per_page) == (
        "Comments on The Boyfriend's Introduction to Feminism",
        60,
        3,
        20,
    )
    assert [p.number for p in first.posts] == list(range(1, 21))
    assert (last.page, [p.number for p in last.posts][-1]) == (3, 452)


# -- edits and deletions ------------------------------------------------------------------


def test_an_edit_is_its_version_and_updated_at() -> None:
    fake = forum()
    target = real_posts(*T2108)[2]
    at = datetime(2026, 1, 22, 11, 59, 59, 123000, tzinfo=UTC)
    fake.edit(target["id"], "<p>Голосую за <s>Alu</s> Бармалея</p>", at)
    gm, _ = board(fake)
    post = next(
        p for p in run(gm, lambda b: b.thread_posts("2108")).items if p.id == str(target["id"])
    )
    assert post.edit is not None and (post.edit.at, post.edit.count) == (at, 1)
    assert post.body.text().split() == ["Голосую", "за", "Бармалея"]
    assert post.body.text(include_struck=True) == "Голосую за Alu Бармалея"
    # A post never edited has no edit notice, though it has an updated_at.
    assert next(p for p in run(board(fake)[0], lambda b: b.thread_posts("2108")).items).edit is None


def test_withdrawn_hidden_and_deleted_posts() -> None:
    fake = forum()
    posts = real_posts(*T2108)
    withdrawn, hidden, deleted = posts[3]["id"], posts[4]["id"], posts[5]["id"]
    fake.withdraw(withdrawn)
    fake.find(hidden)["hidden"] = True
    fake.delete(deleted)
    gm, _ = board(fake)
    read = {p.id: p for p in run(gm, lambda b: b.thread_posts("2108")).items}
    assert read[str(withdrawn)].deleted and read[str(hidden)].deleted
    assert str(deleted) not in read  # a member no longer gets its id
    assert not read[str(posts[6]["id"])].deleted


def test_small_actions_and_whispers_are_no_posts() -> None:
    fake = forum()
    action = fake.post(2108, GM, "closed", cooked="")
    action.update(post_type=3, action_code="closed.enabled")
    whisper = fake.post(2108, GM, "staff only note")
    whisper["post_type"] = 4
    gm, _ = board(fake)
    page = run(gm, lambda b: b.thread_posts("2108"))
    assert {str(action["id"]), str(whisper["id"])}.isdisjoint(p.id for p in page.items)
    assert page.cursor.data["last_id"] == whisper["id"]  # seen, not read again


# -- private messages -----------------------------------------------------------------------


def test_personal_messages_in_and_out_and_their_cursor() -> None:
    fake = forum()
    fake.now = datetime(2026, 1, 22, 10, 0, tzinfo=UTC)
    first = fake.pm("Alu", [GM], "Ночь 1", "Проверяю Бармалея")
    fake.pm(GM, ["Бармалей"], "Роль", "Вы мафия")
    gm, _ = board(fake)
    inbox = run(gm, lambda b: b.inbox())
    assert [(m.id, m.sender, m.recipients, m.subject, m.body.text()) for m in inbox.items] == [
        (str(first["id"]), "Alu", (GM,), "Ночь 1", "Проверяю Бармалея")
    ]
    assert inbox.items[0].sent_at == datetime(2026, 1, 22, 10, 0, tzinfo=UTC)
    gm, _ = board(fake)
    sent = run(gm, lambda b: b.sent())
    assert [(m.sender, m.recipients, m.body.text()) for m in sent.items] == [
        (GM, ("Бармалей",), "Вы мафия")
    ]

    # Nothing new: the list alone is read.
    fake.requests.clear()
    gm, _ = board(fake)
    assert run(gm, lambda b: b.inbox(inbox.cursor)).items == []
    assert paths(fake) == [
        "GET /session/current.json",
        f"GET /topics/private-messages/{GM}.json",
    ]

    # A reply in the topic: only that topic is read, only the new post taken.
    fake.now += timedelta(minutes=5)
    answer = fake.post(first["topic_id"], "Alu", "Передумал: проверяю Ведущего")
    fake.requests.clear()
    gm, _ = board(fake)
    later = run(gm, lambda b: b.inbox(inbox.cursor))
    assert [m.id for m in later.items] == [str(answer["id"])]
    assert [p for p in paths(fake) if p.startswith("GET /t/")] == [
        f"GET /t/{first['topic_id']}.json"
    ]


def test_a_long_message_list_is_read_page_by_page_until_nothing_is_new() -> None:
    fake = forum()
    for n in range(35):  # 30 topics a page on a stock Discourse
        fake.now = datetime(2026, 1, 20, tzinfo=UTC) + timedelta(minutes=n)
        fake.pm("Alu", [GM], f"Ход {n}", f"Проверяю игрока {n}")
    gm, _ = board(fake)
    inbox = run(gm, lambda b: b.inbox())
    assert len(inbox.items) == 35
    lists = [p for p in paths(fake) if p.startswith("GET /topics/")]
    first = f"GET /topics/private-messages/{GM}.json"
    assert lists == [first, f"{first}?page=1"]
    fake.requests.clear()
    fake.now += timedelta(hours=1)
    fake.pm("Alu", [GM], "Ход 36", "Проверяю Бармалея")
    gm, _ = board(fake)
    later = run(gm, lambda b: b.inbox(inbox.cursor))
    assert [m.subject for m in later.items] == ["Ход 36"]
    assert len([p for p in paths(fake) if p.startswith("GET /topics/")]) == 1


def test_a_personal_message_topic_is_no_game_thread() -> None:
    fake = forum()
    made = fake.pm("Alu", [GM], "Ночь 1", "Проверяю Бармалея")
    gm, _ = board(fake)
    with pytest.raises(BoardError, match="personal message"):
        run(gm, lambda b: b.thread_posts(str(made["topic_id"])))


# -- replies -----------------------------------------------------------------------------


def test_a_reply_is_posted_and_confirmed() -> None:
    fake = forum()
    gm, _ = board(fake)
    post_id = run(gm, lambda b: b.reply("2108", "[b]Итоги дня[/b]\nfgm:0123456789abcdef01234567"))
    sent = [r for r in fake.requests if r.method == "POST"]
    assert [r.url.path for r in sent] == ["/posts.json"]
    assert dict(parse_qsl(sent[0].content.decode())) == {
        "topic_id": "2108",
        "raw": "[b]Итоги дня[/b]\nfgm:0123456789abcdef01234567",
    }
    assert fake.find(int(post_id))["username"] == GM
    assert paths(fake)[-1] == "GET /t/2108.json"  # read back


def test_a_new_personal_message_names_its_recipients() -> None:
    fake = forum()
    gm, _ = board(fake)
    post_id = run(gm, lambda b: b.send_pm(["alu", "Бармалей"], "Роль", "Вы мирный житель"))
    form = dict(parse_qsl(next(r for r in fake.requests if r.method == "POST").content.decode()))
    assert form == {
        "title": "Роль",
        "raw": "Вы мирный житель",
        "archetype": "private_message",
        "target_recipients": "Alu,Бармалей",  # the board's own spelling of each name
    }
    topic = fake.topics[fake.find(int(post_id))["topic_id"]]
    assert topic.members == [GM, "Alu", "Бармалей"]


def test_an_unknown_recipient_is_not_found_and_nothing_is_sent() -> None:
    fake = forum()
    gm, _ = board(fake)
    with pytest.raises(NotFound, match="Никто"):
        run(gm, lambda b: b.send_pm(["Alu", "Никто"], "Роль", "Вы мирный житель"))
    assert not [r for r in fake.requests if r.method == "POST"]


# -- refusals and errors ------------------------------------------------------------------


def test_a_rate_limit_is_waited_out_as_asked() -> None:
    fake = forum()
    is_post = lambda r: r.method == "POST"  # noqa: E731
    fake.queue(is_post, rate_limited(12))
    fake.queue(is_post, rate_limited(7))
    gm, clock = board(fake)
    post_id = run(gm, lambda b: b.reply("2108", "Итоги дня 1"))
    assert fake.find(int(post_id))["username"] == GM
    assert 12 in clock.slept and 7 in clock.slept
    assert len([r for r in fake.requests if r.method == "POST"]) == 3


def test_a_rate_limit_that_goes_on_is_unavailable_after_bounded_tries() -> None:
    fake = forum()
    for _ in range(10):
        fake.queue(lambda r: r.url.path == "/t/2108.json", rate_limited(30))
    gm, clock = board(fake, max_tries=3)
    with pytest.raises(BoardUnavailable, match="429 after 3 tries"):
        run(gm, lambda b: b.thread_posts("2108"))
    assert clock.slept.count(30) == 2


def test_a_refused_post_is_one_line_with_the_boards_words() -> None:
    fake = forum()
    fake.queue(
        lambda r: r.method == "POST",
        errors(422, "invalid_parameters", "Body is too similar to what you recently posted"),
    )
    gm, _ = board(fake)
    with pytest.raises(BoardError, match="too similar to what you recently posted"):
        run(gm, lambda b: b.reply("2108", "Итоги дня 1"))
    assert len([r for r in fake.requests if r.method == "POST"]) == 1


def test_a_missing_topic_is_not_found_and_a_page_that_is_no_json_is_a_layout_change() -> None:
    fake = forum()
    gm, _ = board(fake)
    with pytest.raises(NotFound):
        run(gm, lambda b: b.thread_posts("404"))
    fake.queue(
        lambda r: r.url.path == "/t/2108.json",
        httpx.Response(200, text="<html>Discourse is upgrading</html>"),
    )
    gm, _ = board(fake)
    with pytest.raises(LayoutChanged, match="not a JSON answer"):
        run(gm, lambda b: b.thread_posts("2108"))
    fake.queue(lambda r: r.url.path == "/t/2108.json", json_answer({"id": 2108, "post_stream": {}}))
    gm, _ = board(fake)
    with pytest.raises(LayoutChanged, match="post_stream"):
        run(gm, lambda b: b.thread_posts("2108"))


def test_a_refused_key_or_a_key_of_another_user_cannot_log_in() -> None:
    fake = forum(key="another-key")
    gm, _ = board(fake)
    with pytest.raises(LoginFailed, match="refused the API key"):
        run(gm, lambda b: b.login())
    fake = forum()
    gm, _ = board(fake, api_user="Alu")
    with pytest.raises(LoginFailed, match="serves 'Alu', not the GM"):
        run(gm, lambda b: b.login())


# -- login by password ------------------------------------------------------------------------


def test_password_login_sends_the_password_once_with_the_csrf_token() -> None:
    fake = forum()
    gm, _ = board(fake, key=False)
    post_id = run(gm, lambda b: b.reply("2108", "Итоги дня 1"))
    assert fake.find(int(post_id))["username"] == GM
    assert paths(fake)[:3] == ["GET /session/csrf", "POST /session", "GET /session/current.json"]
    carrying = [r for r in fake.requests if quote_plus(PASSWORD).encode() in r.content]
    assert [r.url.path for r in carrying] == ["/session"]
    assert all("Api-Key" not in r.headers for r in fake.requests)
    reply = next(r for r in fake.requests if r.url.path == "/posts.json")
    assert reply.headers["X-CSRF-Token"]


def test_a_stale_csrf_token_is_fetched_anew_once() -> None:
    fake = forum()
    gm, _ = board(fake, key=False)
    fake.queue(lambda r: r.url.path == "/posts.json", json_answer(["BAD CSRF"], 403))
    run(gm, lambda b: b.reply("2108", "Итоги дня 1"))
    assert [p for p in paths(fake) if "csrf" in p or ("posts.json" in p and "POST" in p)] == [
        "GET /session/csrf",
        "GET /session/csrf",
        "POST /posts.json",
        "GET /session/csrf",
        "POST /posts.json",
    ]


def test_a_wrong_password_or_a_board_without_password_logins() -> None:
    fake = forum()
    fake.passwords[GM.casefold()] = "another"
    gm, _ = board(fake, key=False)
    with pytest.raises(LoginFailed, match="Incorrect username, email or password"):
        run(gm, lambda b: b.login())
    fake = forum()
    fake.password_logins = False
    gm, _ = board(fake, key=False)
    with pytest.raises(LoginFailed, match="not allowed"):
        run(gm, lambda b: b.login())
    assert quote_plus(PASSWORD) not in "".join(str(r.url) for r in fake.requests)


def test_a_lost_session_is_logged_in_again_once() -> None:
    fake = forum()
    fake.pm("Alu", [GM], "Ночь 1", "Проверяю Бармалея")
    gm, _ = board(fake, key=False)

    async def twice(b: DiscourseBoard) -> int:
        first = await b.inbox()
        fake.sessions.clear()  # the board forgot every session
        again = await b.inbox()
        return len(first.items) + len(again.items)

    assert run(gm, twice) == 2
    assert [p for p in paths(fake) if p == "POST /session"] == ["POST /session"] * 2

    # A board that drops every session before it answers the message list.
    original = fake._pm_list

    def forgetful(who: str | None, query: list[tuple[str, str]]) -> httpx.Response:
        fake.sessions.clear()
        return original(None, query)

    fake._pm_list = forgetful  # type: ignore[method-assign]
    fake.requests.clear()
    gm, _ = board(fake, key=False)
    with pytest.raises(SessionExpired, match="again right after a fresh login"):
        run(gm, lambda b: b.inbox())
    assert [p for p in paths(fake) if p == "POST /session"] == ["POST /session"] * 2
