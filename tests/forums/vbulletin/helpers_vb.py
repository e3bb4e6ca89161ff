"""Saved vBulletin pages and a fake board that serves them by route (fixtures/vbulletin)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx

from forums.vbulletin.board import VbulletinBoard
from tests.adapter_helpers import FakeTime

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
REAL = FIXTURES / "vbulletin" / "real"
MADE = FIXTURES / "vbulletin" / "templated"
VB3 = REAL / "vb3_animesuki_showthread_p152.html"
VB4 = REAL / "vb4_militarytimes_showthread_p1.html"
VB5 = FIXTURES / "vbulletin" / "real-vb5" / "vb5_fandompost_showthread_p1.html"
BOARD = "https://forums.animesuki.com/"
GM = "Kinematics"
PASSWORD = "s3cret-Пароль"


def page(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:  # vBulletin 3 serves ISO-8859-1
        return raw.decode("latin-1")


def made(name: str) -> str:
    return page(MADE / name)


def vb3_last_page() -> str:
    """The real vB3 page told it is the thread's last (page 152 of 152): a test-made copy."""
    return page(VB3).replace("Page 152 of 155", "Page 152 of 152")


def with_deleted_post() -> str:
    """The real vB3 page with post 5768676 soft-deleted (vB 3.8's postbit_deleted in its place)."""
    html = vb3_last_page()
    start = html.index('<table id="post5768676"')
    end = html.index("</table>", html.index('id="post_message_5768676"'))
    end = html.index("</table>", end + 1)  # the post's own table closes after its last row
    return html[:start] + made("postbit_deleted_5768676.html") + html[end + len("</table>") :]


Route = Callable[[httpx.Request], httpx.Response | None]


def html(text: str, status: int = 200) -> httpx.Response:
    return httpx.Response(status, text=text, headers={"Content-Type": "text/html; charset=utf-8"})


def fake_board(
    routes: Route, *, clock: FakeTime | None = None, username: str = GM, **options: object
) -> tuple[VbulletinBoard, list[httpx.Request], FakeTime]:
    sent: list[httpx.Request] = []
    clock = clock or FakeTime(datetime(2016, 2, 13, 17, 0, tzinfo=UTC))

    def transport(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        answer = routes(request)
        if answer is None:
            return httpx.Response(404, text=f"no route for {request.method} {request.url}")
        return answer

    board = VbulletinBoard(
        BOARD,
        username,
        PASSWORD,
        client=httpx.AsyncClient(transport=httpx.MockTransport(transport)),
        clock=clock,
        sleep=clock.sleep,
        min_delay=0,
        **options,
    )
    return board, sent, clock


def logged_in_routes(extra: Route) -> Route:
    """The board as the GM sees it: the index greets Kinematics; `extra` answers the rest."""

    def route(request: httpx.Request) -> httpx.Response | None:
        answer = extra(request)
        if answer is not None:
            return answer
        if request.url.path in ("/", "/index.php"):
            return html(page(VB3))
        return None

    return route
