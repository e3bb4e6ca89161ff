"""The shared adapter layer as several games on one board and GM account will use it.

- One `BoardClient` bounds the requests in flight to its board, whoever sends them.
- One `Session` (client, cookies, whom the board serves us as) can be held by several
  boards: the first logs in, the others ride on it; when the session goes, one new login
  serves every board that saw it go at the same time.
- A session is for one board only.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from forums import User
from forums.client import BoardClient
from forums.phpbb import PhpbbBoard
from forums.phpbb.client import PhpbbClient
from forums.session import Session
from forums.webboard import WebBoard
from tests.forums.phpbb.helpers_http import BASE, PASSWORD, USER, FakePhpbb, FakeTime


def test_requests_in_flight_to_one_board_are_bounded() -> None:
    open_now = [0]
    most = [0]

    async def answer(request: httpx.Request) -> httpx.Response:
        open_now[0] += 1
        most[0] = max(most[0], open_now[0])
        await asyncio.sleep(0.02)
        open_now[0] -= 1
        return httpx.Response(200, text="ok")

    client = BoardClient(
        "https://forum.example.org/",
        client=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
        min_delay=0,
        max_in_flight=2,
    )

    async def go() -> list[httpx.Response]:
        try:
            return await asyncio.gather(*(client.get(client.url(f"p{n}")) for n in range(8)))
        finally:
            await client.aclose()

    assert all(r.text == "ok" for r in asyncio.run(go()))
    assert most[0] == 2


class Counting(WebBoard):
    """A board whose login is counted: the session's part only."""

    engine = "counting"

    def __init__(self, session: Session) -> None:
        super().__init__("https://forum.example.org/", "GM", "pw", session=session)
        self.logins = 0

    async def login(self) -> User:
        self.session.me = None
        self.logins += 1
        await asyncio.sleep(0.01)  # another board asks meanwhile
        return self._logged_in(User(id="7", name="GM"))


def _session() -> Session:
    client = BoardClient(
        "https://forum.example.org/",
        client=httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200))),
    )
    return Session(client, "GM")


def test_boards_sharing_a_session_log_in_once_and_renew_it_once() -> None:
    session = _session()
    games = [Counting(session) for _ in range(3)]

    async def go() -> None:
        await asyncio.gather(*(g.ensure_login() for g in games))
        assert sum(g.logins for g in games) == 1
        # The board drops the session; every game sees it on its next page at once.
        for g in games:
            g.begin()
        await asyncio.gather(
            *(g.relogin("https://forum.example.org/x", "a login form") for g in games)
        )
        assert sum(g.logins for g in games) == 2
        # Closing a board that did not make the session leaves it to its owner.
        await games[0].close()
        assert not session.http.http.is_closed
        await session.aclose()

    asyncio.run(go())
    assert session.me == User(id="7", name="GM") and session.logins == 2


def test_a_phpbb_board_on_a_shared_session_uses_the_login_of_another() -> None:
    fake = FakePhpbb("en").with_login().with_thread()
    time = FakeTime()
    options: dict[str, Any] = {"tz": None, "clock": time, "sleep": time.sleep}
    client = PhpbbClient(
        BASE, client=fake.client(), sleep=time.sleep, allow_insecure_http=True, min_delay=0
    )
    session = Session(client, USER)
    first = PhpbbBoard(BASE, USER, PASSWORD, session=session, **options)
    second = PhpbbBoard(BASE, USER, PASSWORD, session=session, **options)

    async def go() -> None:
        await first.login()
        page = await second.thread_posts("2")
        assert page.items
        await session.aclose()

    asyncio.run(go())
    assert len(fake.posted("/ucp.php")) == 1  # one login for both games


def test_a_session_serves_one_board_only() -> None:
    assert Counting(_session()).session.http.base_url == "https://forum.example.org/"
    with pytest.raises(ValueError, match="cannot serve"):
        PhpbbBoard("https://other.example.org/", "GM", "pw", session=_session())
