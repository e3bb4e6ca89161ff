"""XenforoApiBoard over respx: every mocked response fits XenForo's official OpenAPI schema.

The responses are built here (the document has no examples) from the schemas' fields; each
one is checked against the schema of its operation and status before it is served. The
requests the adapter sends are checked against the same document (`requests_fit`).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs, parse_qsl

import httpx
import pytest
from openapi_check import check, errors, request_errors, response_schema
from typer.testing import CliRunner
from xf_helpers import BASE, FakeTime, FakeXenforo, as_json, run

from engine.app import board_cmd
from engine.app.cli import app
from forums import (
    Board,
    BoardUnavailable,
    Cursor,
    FloodControl,
    LayoutChanged,
    LoginFailed,
    NotFound,
    User,
    board_factory,
)
from forums.xenforo import XenforoApiBoard

KEY = "fGh7-api-key-Kq2"
GM = {"user_id": 58, "username": "Ведущий"}
ALU = {"user_id": 65, "username": "Alu"}
BARMALEY = {"user_id": 66, "username": "Бармалей"}
SERVED: list[tuple[str, str, int, Any]] = []
"""Every response the tests serve: (method, API path, status, body)."""


def api(fake: FakeXenforo, method: str, target: str, body: Any, status: int = 200) -> FakeXenforo:
    """Serve `body` for /api/`target`, after checking it against the official schema."""
    path = "/" + target.split("?")[0]
    check(method, path, status, body)
    SERVED.append((method, path, status, body))
    fake.on(method, f"/api/{target}", as_json(body, status))
    return fake


def requests_fit(fake: FakeXenforo) -> None:
    """Every request the adapter sent fits its operation in the official document (query
    parameters, form fields and their types)."""
    assert fake.requests
    for r in fake.requests:
        api_path = r.url.path.removeprefix("/api")
        query = parse_qsl(r.url.query.decode())
        form = parse_qsl(r.content.decode()) if r.method == "POST" else []
        assert request_errors(r.method, api_path, query, form) == [], (r.method, r.url)


def post(
    post_id: int, author: dict[str, Any], when: int, message: str, position: int, **extra: Any
) -> dict[str, Any]:
    return {
        "post_id": post_id,
        "thread_id": 2,
        "user_id": author["user_id"],
        "username": author["username"],
        "post_date": when,
        "message": message,
        "message_state": "visible",
        "position": position,
        "last_edit_date": 0,
        "is_first_post": position == 0,
        "view_url": f"{BASE}threads/igra.2/post-{post_id}",
        "User": author,
        **extra,
    }


def pagination(page: int, pages: int, per_page: int = 2, total: int = 5) -> dict[str, int]:
    return {
        "current_page": page,
        "last_page": pages,
        "per_page": per_page,
        "shown": per_page,
        "total": total,
    }


POSTS = [
    post(10, GM, 1796000000, "[b]День 1[/b]. Голосуем!", 0),
    post(11, ALU, 1796003600, "Голосую за [b]Бармалей[/b]", 1),
    post(
        12,
        BARMALEY,
        1796007200,
        '[quote="Alu, post: 11, member: 65"]Голосую за Бармалей[/quote]\nЯ мирный. [s]vote Alu[/s]',
        2,
        last_edit_date=1796007300,
    ),
    post(13, ALU, 1796010800, "[spoiler]vote GM[/spoiler] ок", 3),
    post(14, GM, 1796014400, "Итоги дня 1", 4),
]


def conversation(
    cid: int,
    title: str,
    starter: dict[str, Any],
    to: list[dict[str, Any]],
    first: int,
    last: int,
    last_date: int,
) -> dict[str, Any]:
    return {
        "conversation_id": cid,
        "title": title,
        "user_id": starter["user_id"],
        "username": starter["username"],
        "recipients": {str(u["user_id"]): u["username"] for u in to},
        "recipient_count": len(to) + 1,
        "start_date": last_date - 3600,
        "last_message_date": last_date,
        "first_message_id": first,
        "last_message_id": last,
        "reply_count": 1,
        "is_unread": False,
        "view_url": f"{BASE}conversations/c.{cid}/",
        "Starter": starter,
    }


def message(mid: int, cid: int, author: dict[str, Any], when: int, text: str) -> dict[str, Any]:
    return {
        "message_id": mid,
        "conversation_id": cid,
        "user_id": author["user_id"],
        "username": author["username"],
        "message_date": when,
        "message": text,
        "view_url": f"{BASE}conversations/messages/{mid}/",
        "User": author,
    }


CONV_412 = conversation(412, "Проверка, ночь 1", ALU, [GM], 903, 905, 1796162400)
CONV_411 = conversation(411, "Роль", GM, [ALU, BARMALEY], 880, 881, 1796076000)


def board_with(fake: FakeXenforo, time: FakeTime | None = None, **options: Any) -> XenforoApiBoard:
    time = time or FakeTime()
    return XenforoApiBoard(
        BASE,
        "Ведущий",
        KEY,
        client=fake.client(),
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=True,
        **options,
    )


def the_board() -> FakeXenforo:
    fake = FakeXenforo()
    api(fake, "GET", "me/", {"me": GM})
    api(fake, "GET", "threads/2/posts", {"posts": POSTS[:2], "pagination": pagination(1, 3)})
    api(
        fake, "GET", "threads/2/posts?page=2", {"posts": POSTS[2:4], "pagination": pagination(2, 3)}
    )
    api(fake, "GET", "threads/2/posts?page=3", {"posts": POSTS[4:], "pagination": pagination(3, 3)})
    api(
        fake,
        "GET",
        "conversations/",
        {"conversations": [CONV_412, CONV_411], "pagination": pagination(1, 1, 20, 2)},
    )
    api(
        fake,
        "GET",
        "conversations/412/messages",
        {
            "messages": [
                message(903, 412, ALU, 1796158800, "Проверяю [b]Бармалей[/b]"),
                message(905, 412, GM, 1796162400, "Принято."),
            ],
            "pagination": pagination(1, 1, 20, 2),
        },
    )
    api(
        fake,
        "GET",
        "conversations/411/messages",
        {
            "messages": [
                message(880, 411, GM, 1796072400, "Ваша роль: Комиссар."),
                message(881, 411, ALU, 1796076000, "Спасибо"),
            ],
            "pagination": pagination(1, 1, 20, 2),
        },
    )
    for user in (ALU, BARMALEY):
        api(
            fake,
            "GET",
            f"users/find-name?username={user['username']}",
            {"exact": user, "recommendations": []},
        )
    api(fake, "GET", "users/find-name?username=Nobody", {"exact": None, "recommendations": []})
    new = post(15, GM, 1796018000, "Спасибо всем за игру!", 5)
    api(fake, "POST", "posts/", {"success": True, "post": new})
    api(fake, "GET", "posts/15/", {"post": new})
    created = conversation(413, "Спасибо за игру", GM, [ALU, BARMALEY], 910, 910, 1796020000)
    api(fake, "POST", "conversations/", {"success": True, "conversation": created})
    api(
        fake,
        "GET",
        "conversations/413/messages",
        {
            "messages": [message(910, 413, GM, 1796020000, "Отличная игра!")],
            "pagination": pagination(1, 1, 20, 1),
        },
    )
    return fake


def test_end_to_end_login_sync_conversations_reply_start_conversation_over_the_api() -> None:
    fake = the_board()

    async def flow(b: XenforoApiBoard) -> dict[str, Any]:
        out: dict[str, Any] = {"me": await b.login()}
        out["all"] = await b.thread_posts("2")
        mark = len(fake.requests)
        out["poll"] = await b.thread_posts(
            "2", Cursor({"thread": "2", "last_id": 13, "page": 2, "per_page": 2})
        )
        out["poll_reads"] = [f"{r.url.path}?{r.url.query.decode()}" for r in fake.requests[mark:]]
        out["inbox"] = await b.inbox()
        out["sent"] = await b.sent()
        out["reply"] = await b.reply("2", "Спасибо всем за игру!")
        out["pm"] = await b.send_pm(["Alu", "Бармалей"], "Спасибо за игру", "Отличная игра!")
        return out

    board = board_with(fake)
    out = run(board, flow)
    assert out["me"] == User(id="58", name="Ведущий")
    assert isinstance(board, Board)
    posts = out["all"].items
    assert [p.id for p in posts] == ["10", "11", "12", "13", "14"]
    assert [p.number for p in posts] == [1, 2, 3, 4, 5]
    assert out["all"].cursor.data == {"thread": "2", "last_id": 14, "page": 3, "per_page": 2}
    # The BB code is read as the local board reads it: quotes, strikes, spoilers flagged.
    assert posts[1].body.text() == "Голосую за Бармалей" and any(r.bold for r in posts[1].body.runs)
    assert posts[2].body.text().split() == ["Я", "мирный."]
    assert [r.quote_author for r in posts[2].body.runs if r.quoted] == ["Alu"]
    assert posts[2].edit is not None and posts[2].edit.at is not None
    assert posts[3].body.text().strip() == "ок"
    assert posts[0].author_id == "58" and posts[0].posted_at.tzinfo is not None
    # A poll reads the cursor's page and what follows.
    assert [p.id for p in out["poll"].items] == ["14"]
    assert out["poll_reads"] == ["/api/threads/2/posts?page=2", "/api/threads/2/posts?page=3"]
    assert [(m.id, m.sender, m.recipients) for m in out["inbox"].items] == [
        ("881", "Alu", ("Ведущий", "Бармалей")),
        ("903", "Alu", ("Ведущий",)),
    ]
    assert [m.id for m in out["sent"].items] == ["880", "905"]
    assert out["inbox"].cursor.data["latest"] == 1796162400
    assert out["reply"] == "15" and out["pm"] == "910"
    (reply,) = [r for r in fake.requests if r.method == "POST" and r.url.path == "/api/posts/"]
    assert parse_qs(reply.content.decode()) == {
        "thread_id": ["2"],
        "message": ["Спасибо всем за игру!"],
    }
    (started,) = [
        r for r in fake.requests if r.method == "POST" and r.url.path == "/api/conversations/"
    ]
    assert parse_qs(started.content.decode())["recipient_ids[]"] == ["65", "66"]
    requests_fit(fake)
    # The key went with every request, to the board only; no page was parsed.
    assert all(r.headers["XF-Api-Key"] == KEY and r.url.host == "127.0.0.1" for r in fake.requests)
    assert all(r.url.path.startswith("/api/") for r in fake.requests)


def test_the_engine_registry_picks_the_api_when_there_is_a_key() -> None:
    assert isinstance(
        board_factory("xenforo")(BASE, "GM", "pw", api_key=KEY, allow_insecure_http=True),
        XenforoApiBoard,
    )


ERROR = {
    "errors": [
        {
            "code": "api_key_not_found",
            "message": "API key provided in request was not found.",
            "params": {},
        }
    ]
}


def test_a_refused_key_is_login_failed_without_the_key(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake = api(FakeXenforo(), "GET", "me/", ERROR, 401)
    with pytest.raises(LoginFailed) as caught:
        run(board_with(fake), lambda b: b.login())
    assert "API key provided in request was not found" in str(caught.value)
    assert KEY not in str(caught.value) and KEY not in repr(board_with(fake).__dict__)
    assert not any(KEY in r.getMessage() for r in caplog.records)


def test_a_key_of_someone_else_is_login_failed() -> None:
    fake = api(FakeXenforo(), "GET", "me/", {"me": ALU})
    with pytest.raises(LoginFailed, match="acts as Alu"):
        run(board_with(fake), lambda b: b.login())


def test_a_super_user_key_is_pointed_at_the_gm() -> None:
    fake = FakeXenforo()
    check("GET", "/me/", 200, {"me": {}})
    fake.on("GET", "/api/me/", as_json({"me": {}}), as_json({"me": GM}))
    api(
        fake,
        "GET",
        f"users/find-name?username={GM['username']}",
        {"exact": GM, "recommendations": []},
    )
    assert run(board_with(fake), lambda b: b.login()).id == "58"
    assert fake.requests[-1].headers["XF-Api-User"] == "58"


def test_flood_control_then_success_and_persistent_flood() -> None:
    flood = {
        "errors": [
            {
                "code": "must_wait_x_seconds",
                "message": "You must wait at least 20 seconds before performing this action.",
                "params": {"count": 20},
            }
        ]
    }
    check("POST", "/posts/", 400, flood)
    new = post(15, GM, 1796018000, "x", 5)
    fake = api(FakeXenforo(), "GET", "me/", {"me": GM})
    api(fake, "GET", "posts/15/", {"post": new})
    fake.on("POST", "/api/posts/", as_json(flood, 400), as_json({"success": True, "post": new}))
    time = FakeTime()
    assert run(board_with(fake, time), lambda b: b.reply("2", "x")) == "15"
    assert 20 in time.slept
    fake.on("POST", "/api/posts/", as_json(flood, 400))
    with pytest.raises(FloodControl) as caught:
        run(board_with(fake, flood_retries=1), lambda b: b.reply("2", "x"))
    assert caught.value.retry_after == 20


def test_missing_thread_unknown_user_and_odd_answers() -> None:
    missing = {
        "errors": [
            {
                "code": "requested_thread_not_found",
                "message": "The requested thread could not be found.",
                "params": {},
            }
        ]
    }
    fake = api(the_board(), "GET", "threads/9/posts", missing, 404)
    with pytest.raises(NotFound, match="could not be found"):
        run(board_with(fake), lambda b: b.thread_posts("9"))
    with pytest.raises(NotFound, match="Nobody"):
        run(board_with(the_board()), lambda b: b.send_pm(["Nobody"], "s", "b"))
    empty = api(
        the_board(), "GET", "threads/2/posts", {"posts": [], "pagination": pagination(1, 1)}
    )
    with pytest.raises(LayoutChanged, match="no posts"):
        run(board_with(empty), lambda b: b.thread_posts("2"))
    html = the_board().on(
        "GET", "/api/threads/2/posts", httpx.Response(200, text="<html>maintenance</html>")
    )
    with pytest.raises(LayoutChanged, match="not a JSON answer"):
        run(board_with(html), lambda b: b.thread_posts("2"))
    down = the_board().on("GET", "/api/threads/2/posts", httpx.Response(503, text=""))
    with pytest.raises(BoardUnavailable, match="503"):
        run(board_with(down, max_tries=2), lambda b: b.thread_posts("2"))


def test_the_manuals_error_example_is_read_too() -> None:
    # The manual shows `"params": []` (PHP's empty array); the schema says object. The
    # adapter reads both; the mocks above use the schema's form.
    fake = FakeXenforo().on(
        "GET",
        "/api/me/",
        as_json(
            {
                "errors": [
                    {
                        "code": "api_key_not_found",
                        "message": "API key provided in request was not found.",
                        "params": [],
                    }
                ]
            },
            401,
        ),
    )
    with pytest.raises(LoginFailed):
        run(board_with(fake), lambda b: b.login())


def test_every_served_response_fits_the_official_schema_and_the_check_can_fail() -> None:
    # `api` checks each response as it is served (the other tests' too); this test serves
    # the end-to-end board itself, so it does not depend on which tests ran before it.
    before = len(SERVED)
    the_board()
    assert len(SERVED) - before >= 14
    for method, path, status, body in SERVED[before:]:
        assert errors(body, response_schema(method, path, status)) == [], (method, path)
    wrong = {"posts": [{**POSTS[0], "post_date": "yesterday"}], "pagination": pagination(1, 1)}
    assert errors(wrong, response_schema("GET", "/threads/2/posts", 200)) == [
        "$.posts[0].post_date: str is not integer"
    ]
    # Requests are checked too: a form field the API does not take, a missing one, a name
    # where an id is wanted, an unknown parameter.
    assert request_errors(
        "POST", "/conversations/", [], [("recipients", "Alu"), ("title", "t"), ("message", "m")]
    ) == [
        "recipient_ids: required, missing",
        "recipients: not a field of POST /conversations/",
    ]
    assert request_errors(
        "POST",
        "/conversations/",
        [],
        [("recipient_ids[]", "Alu"), ("title", "t"), ("message", "m")],
    ) == ["recipient_ids: 'Alu' is not an integer"]
    assert request_errors("GET", "/threads/2/posts", [("start", "20")], []) == [
        "?start: not a parameter of GET /threads/2/posts"
    ]
    invented = {"me": {**GM, "is_gm": True}}
    assert errors(invented, response_schema("GET", "/me/", 200)) == [
        "$.me: 'is_gm' is not in the schema"
    ]


THREAD = {
    "thread_id": 2,
    "node_id": 5,
    "title": "Мафия #9: игровая тема",
    "reply_count": 4,
    "view_count": 120,
    "user_id": GM["user_id"],
    "username": GM["username"],
    "post_date": 1796000000,
    "discussion_state": "visible",
    "discussion_open": True,
    "discussion_type": "discussion",
    "first_post_id": 10,
    "last_post_id": 14,
    "last_post_date": 1796014400,
    "view_url": f"{BASE}threads/igra.2/",
}


def test_board_check_over_the_api_as_a_host_runs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = the_board()
    first = {"thread": THREAD, "posts": POSTS[:2], "pagination": pagination(1, 3)}
    api(fake, "GET", "threads/2/?with_posts=1", first)
    last = {"thread": THREAD, "posts": POSTS[4:], "pagination": pagination(3, 3)}
    api(fake, "GET", "threads/2/?with_posts=1&page=3", last)
    made: list[dict[str, Any]] = []

    def make(engine: str, url: str, user: str, password: str, **options: Any) -> Board:
        made.append({"engine": engine, "password": password, **options})
        time = FakeTime()
        return board_factory(engine)(
            url, user, password, client=fake.client(), clock=time, sleep=time.sleep,
            allow_insecure_http=True, **options,
        )  # fmt: skip

    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setenv("XF_KEY", KEY)
    monkeypatch.delenv("FORUMGM_GM_PASSWORD", raising=False)
    args = ["board", "check", BASE, "--engine", "xenforo", "--user", "Ведущий", "--thread", "2"]
    args += ["--allow-insecure-http", "--api-key-env", "XF_KEY"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert made == [{"engine": "xenforo", "password": "", "api_key": KEY}]
    out = result.output
    assert "Checking xenforo board http://127.0.0.1:8082/ over its REST API as Ведущий" in out
    assert "Logged in as Ведущий (user id 58)" in out
    assert "'Мафия #9: игровая тема', 5 posts on 3 page(s), 2 per page" in out
    assert "last post: #5 (id 14) by Ведущий" in out and "Итоги дня 1" in out
    assert "Inbox: 2 private messages" in out and "Posted nothing" in out
    assert KEY not in out
    assert [r.method for r in fake.requests] == ["GET"] * len(fake.requests)
    requests_fit(fake)
    # MyBB has no API: said in one line, nothing sent.
    sent = len(fake.requests)
    result = CliRunner().invoke(app, [*args[:4], "mybb", *args[5:]])
    assert result.exit_code == 2 and "the mybb board has no API forumgm uses" in result.output
    assert len(fake.requests) == sent


def test_a_message_in_the_same_second_as_the_last_one_seen_is_not_missed_over_the_api() -> None:
    seen = Cursor(
        {"last_id": 905, "latest": 1796162400, "pages": {"412": 1, "411": 1},
         "replies": {"412": 1, "411": 1}}
    )  # fmt: skip
    fake = the_board()
    busier = {**CONV_412, "reply_count": 2, "last_message_id": 906}
    listing = {"conversations": [busier, CONV_411], "pagination": pagination(1, 1, 20, 2)}
    api(fake, "GET", "conversations/", listing)
    messages = [
        message(903, 412, ALU, 1796158800, "Проверяю [b]Бармалей[/b]"),
        message(905, 412, GM, 1796162400, "Принято."),
        message(906, 412, ALU, 1796162400, "А если Лёху?"),
    ]
    api(
        fake,
        "GET",
        "conversations/412/messages",
        {"messages": messages, "pagination": pagination(1, 1, 20, 3)},
    )
    inbox = run(board_with(fake), lambda b: b.inbox(seen))
    assert [(m.id, m.body.text()) for m in inbox.items] == [("906", "А если Лёху?")]
    assert all("/411/" not in r.url.path for r in fake.requests)
    requests_fit(fake)
