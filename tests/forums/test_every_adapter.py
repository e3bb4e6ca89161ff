"""What every web board adapter owes the board and the GM, checked on each one alike:
phpBB, MyBB, FluxBB, PunBB 1.4, SMF, vBulletin 3/4 and 5, XenForo over its pages and XenForo
over its REST API, Discourse over its JSON API with the GM's password or with an API key.

- The GM's password, session and API key go only to the configured board: a redirect to
  another host or from https to http is refused before anything is sent there, and an
  `http://` board needs the host's consent (forums.guard).
- A login form of the board's that posts elsewhere gets nothing: the engines that post the
  form's action refuse it before sending (forums.guard), vBulletin posts to its own script.
- Politeness: every request names forumgm, a busy board (503 with Retry-After) is waited
  for as long as it asks, and the retries are bounded (then `BoardUnavailable`).

The fake board answers whatever it is asked, so a request that went astray would be
recorded here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import httpx
import pytest

from engine.service.build import load_adapters
from forums import Board, BoardError, BoardUnavailable, board_factory
from forums.guard import ForeignOrigin, InsecureBoardUrl
from tests.adapter_helpers import FakeTime, run

BOARD = "https://forum.example.org/"
PASSWORD = "s3cret-Пароль-42"
KEY = "xf-api-key-9Qz"
ADAPTERS = {
    "fluxbb": {},
    "punbb": {},
    "phpbb": {},
    "mybb": {},
    "smf": {},
    "vbulletin": {},
    "vbulletin5": {},
    "xenforo": {},
    "xenforo-api": {"api_key": KEY},
    "discourse": {},
    "discourse-api": {"api_key": KEY},
}
KEY_HEADERS = {"xenforo-api": "XF-Api-Key", "discourse-api": "Api-Key"}
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LOGIN_PAGES = {
    "phpbb": "phpbb/3.3.10/en/login_page.html",
    "mybb": "mybb/1.8.37/login_page.html",
    "xenforo": "xenforo/synthetic/synthetic-login.html",
    "smf": "smf/2.1.4/login_form_en.html",
    "fluxbb": "fluxbb/1.5.11/login_form_en.html",
    "punbb": "punbb/1.4.4/login_form.html",
    "vbulletin": "vbulletin/real/vb4_militarytimes_showthread_p1.html",  # a guest's navbar login
    "vbulletin5": "vbulletin/templated5/login_form_badlogin.html",
}
OWN_LOGIN_URL = {"vbulletin", "vbulletin5"}
"""vBulletin posts the login to its own script (3/4: `login.php?do=login` with the password's
digests; 5: the login dialog's call), not to a form's action: the form cannot lead it away."""
"""Each engine that logs in by a form, with a saved page that holds its login form (Discourse
and the API adapters log in by JSON or a key: no form of the board's to follow)."""


def _board(
    name: str, answer: Callable[[httpx.Request], httpx.Response], **options: Any
) -> tuple[Board, list[httpx.Request], FakeTime]:
    load_adapters()
    sent: list[httpx.Request] = []

    def transport(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return answer(request)

    clock = FakeTime()
    engine = name.removesuffix("-api")
    board = board_factory(engine)(
        BOARD,
        "Ведущий",
        PASSWORD,
        client=httpx.AsyncClient(transport=httpx.MockTransport(transport)),
        clock=clock,
        sleep=clock.sleep,
        **ADAPTERS[name],
        **options,
    )
    return board, sent, clock


def _leaks(requests: list[httpx.Request]) -> list[str]:
    """Requests that carried the password anywhere, as written or form-encoded."""
    out = []
    for r in requests:
        text = r.content.decode("utf-8", "replace") + str(r.url) + repr(r.headers.raw)
        if PASSWORD in text or quote_plus(PASSWORD) in text:
            out.append(str(r.url))
    return out


@pytest.mark.parametrize("name", sorted(ADAPTERS))
@pytest.mark.parametrize(
    "elsewhere",
    [
        "https://evil.example/login/",
        "http://forum.example.org/login/",
        "https://forum.example.org:8443/",
    ],
    ids=["another-host", "https-to-http", "another-port"],
)
def test_a_redirect_off_the_board_is_refused_before_it_is_sent(name: str, elsewhere: str) -> None:
    board, sent, _ = _board(name, lambda r: httpx.Response(302, headers={"Location": elsewhere}))
    with pytest.raises(ForeignOrigin, match="nothing was sent"):
        run(board, lambda b: b.login())
    assert sent and all(str(r.url).startswith(BOARD) for r in sent)
    assert _leaks(sent) == []


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_a_plain_http_board_needs_the_hosts_consent(name: str) -> None:
    load_adapters()
    engine = name.removesuffix("-api")
    with pytest.raises(InsecureBoardUrl, match="allow_insecure_http"):
        board_factory(engine)("http://forum.example.org/", "Ведущий", PASSWORD, **ADAPTERS[name])


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_a_busy_board_is_waited_for_as_it_asks_then_unavailable(name: str) -> None:
    busy = httpx.Response(503, headers={"Retry-After": "37"}, text="busy")
    board, sent, clock = _board(name, lambda r: busy, max_tries=3, min_delay=2.0)
    with pytest.raises(BoardUnavailable, match=r"503 after 3 tries"):
        run(board, lambda b: b.login())
    assert len(sent) == 3  # bounded
    assert clock.slept.count(37) == 2  # Retry-After honoured between the tries
    assert all("forumgm" in r.headers["User-Agent"] for r in sent)
    if name in KEY_HEADERS:
        assert all(r.headers[KEY_HEADERS[name]] == KEY for r in sent)
    assert _leaks(sent) == []


@pytest.mark.parametrize("name", sorted(LOGIN_PAGES))
def test_a_login_form_that_posts_to_another_host_gets_nothing(name: str) -> None:
    """The board's own login page, its every form pointed at another host (a board taken
    over, a hostile proxy): the login fails with a board error, and no request, the password
    least of all, leaves the configured board."""
    page = (FIXTURES / LOGIN_PAGES[name]).read_bytes().decode("utf-8", "replace")
    evil = re.sub(r'action="[^"]*"', 'action="https://evil.example/login.php"', page)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text=evil, headers={"Content-Type": "text/html; charset=utf-8"})

    board, sent, _ = _board(name, answer)
    with pytest.raises(BoardError) as caught:
        run(board, lambda b: b.login())
    assert sent and all(str(r.url).startswith(BOARD) for r in sent)
    if name not in OWN_LOGIN_URL:
        assert isinstance(caught.value, ForeignOrigin), caught.value
