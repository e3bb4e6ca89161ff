"""A broken or hostile board cannot hang or bloat `forumgm board check` (issue 22, item 3).

Each board here is a server on 127.0.0.1 that misbehaves in one way, and `forumgm board
check` runs against it as a host runs it: a child process, the password in the
environment. What the host must get is one line saying what the board did, exit code 1,
no traceback, soon:

- a board that drips its answer one byte at a time (httpx's per-read timeout never trips):
  the request's overall deadline ends it (`--timeout`, 60 s by default);
- a board whose page is 300 MB (declared, or sent without a length): refused at the
  client's cap, and the server sees the connection closed long before it sent it all;
- a board that redirects in a loop: one line naming the loop, not httpx's traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
import pytest

from forums.client import MAX_BYTES, AnswerTooLarge, BoardClient, RedirectLoop, TooSlow
from tests.adapter_helpers import FakeTime
from tests.local_http import running

PASSWORD = "hostile-s3cret"
HUGE = 300 * 1024 * 1024


@dataclass
class Hostile:
    """What the server did: bytes of body it managed to send, requests it answered."""

    url: str = ""
    sent: int = 0
    requests: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)


Behaviour = Callable[[BaseHTTPRequestHandler, Hostile], None]


def drip(handler: BaseHTTPRequestHandler, board: Hostile) -> None:
    """Headers at once, then one byte of body every half second, for ever."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    while not board.stop.is_set():
        handler.wfile.write(b"<")
        handler.wfile.flush()
        board.sent += 1
        board.stop.wait(0.5)


def _flood(handler: BaseHTTPRequestHandler, board: Hostile) -> None:
    chunk = b"<div>" * (64 * 1024 // 5)
    while board.sent < HUGE and not board.stop.is_set():
        handler.wfile.write(chunk)
        board.sent += len(chunk)


def huge_declared(handler: BaseHTTPRequestHandler, board: Hostile) -> None:
    """A page that says it is 300 MB, and starts sending them."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(HUGE))
    handler.end_headers()
    _flood(handler, board)


def huge_unannounced(handler: BaseHTTPRequestHandler, board: Hostile) -> None:
    """A page of 300 MB with no length: it ends when the connection closes."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Connection", "close")
    handler.end_headers()
    _flood(handler, board)


def redirect_loop(handler: BaseHTTPRequestHandler, board: Hostile) -> None:
    """/a → /b → /a → …, as a board whose URL settings disagree with its server's."""
    target = "/b" if handler.path.startswith("/a") else "/a"
    handler.send_response(302)
    handler.send_header("Location", f"{board.url.rstrip('/')}{target}?from={handler.path}")
    handler.send_header("Content-Length", "0")
    handler.end_headers()


@contextmanager
def serve(behaviour: Behaviour) -> Iterator[Hostile]:
    board = Hostile()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            board.requests.append(self.path)
            # The client hanging up is what it should do.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                behaviour(self, board)

        do_POST = do_GET

    with running(Handler) as url:
        board.url = url
        try:
            yield board
        finally:
            board.stop.set()


def board_check(url: str, *extra: str) -> tuple[int, str, float]:
    """`forumgm board check URL …` in a child process: (exit code, output, seconds)."""
    env = {**os.environ, "FORUMGM_GM_PASSWORD": PASSWORD, "COLUMNS": "400"}
    command = [
        sys.executable,
        "-c",
        "from engine.app.cli import main; main()",
        "board",
        "check",
        url,
        "--user",
        "GM",
        "--thread",
        "1",
        "--allow-insecure-http",
        *extra,
    ]
    started = time.monotonic()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=90)
    return done.returncode, done.stdout + done.stderr, time.monotonic() - started


def _one_line(output: str, kind: str) -> str:
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(f"{kind}: ")]
    assert len(errors) == 1, output
    assert PASSWORD not in output
    return errors[0]


def test_a_dripping_board_is_given_up_on_at_the_deadline() -> None:
    with serve(drip) as board:
        code, out, took = board_check(board.url, "--engine", "phpbb", "--timeout", "3")
    line = _one_line(out, "TooSlow")
    assert code == 1
    assert "ucp.php?mode=login: no whole answer within 3 s" in line and "not retried" in line
    assert took < 30  # the board would drip for 55 hours
    assert len(board.requests) == 1  # a board that took the whole deadline is not asked again


def test_a_dripping_board_stops_the_engine_detection_too() -> None:
    with serve(drip) as board:
        code, out, took = board_check(board.url, "--timeout", "2")
    line = _one_line(out, "TooSlow")
    assert code == 1 and "cannot read" in line and "within 2 s" in line and took < 30


@pytest.mark.parametrize("behaviour", [huge_declared, huge_unannounced])
def test_a_huge_page_is_refused_at_the_cap(behaviour: Behaviour) -> None:
    with serve(behaviour) as board:
        code, out, took = board_check(board.url, "--engine", "mybb")
        sent = board.sent
    line = _one_line(out, "AnswerTooLarge")
    assert code == 1 and "member.php?action=login" in line and "16 MiB" in line
    # Read no further than the cap (and what the sockets held): not 300 MB.
    assert sent < MAX_BYTES + 16 * 1024 * 1024, sent
    assert took < 60


def test_a_redirect_loop_is_one_line_from_board_check() -> None:
    with serve(redirect_loop) as board:
        code, out, _ = board_check(board.url, "--engine", "xenforo")
        detected = board_check(board.url)
    line = _one_line(out, "RedirectLoop")
    assert code == 1 and "more than 10 redirects" in line and "[board] url" in line
    assert "TooManyRedirects" not in out
    code, out, _ = detected
    assert code == 1 and "cannot read" in _one_line(out, "RedirectLoop")


# -- the client's bounds, over mocked transports --------------------------------------


def _client(answer: Callable[[httpx.Request], httpx.Response], **options: Any) -> BoardClient:
    time = FakeTime()
    return BoardClient(
        "https://forum.example.org/",
        client=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
        sleep=time.sleep,
        min_delay=0,
        **options,
    )


def _get(client: BoardClient, path: str = "index.php") -> httpx.Response:
    async def go() -> httpx.Response:
        try:
            return await client.get(client.url(path))
        finally:
            await client.aclose()

    return asyncio.run(go())


def test_an_answer_over_the_cap_is_refused_declared_or_not() -> None:
    body = b"x" * 2048
    declared = _client(lambda r: httpx.Response(200, content=body), max_bytes=1024)
    with pytest.raises(AnswerTooLarge, match="2048 bytes, over the 1024 bytes"):
        _get(declared)

    def streamed(request: httpx.Request) -> httpx.Response:
        async def pieces() -> Any:
            yield body[:1000]
            yield body[1000:]

        return httpx.Response(200, content=pieces())

    with pytest.raises(AnswerTooLarge, match="goes on past the 1024 bytes"):
        _get(_client(streamed, max_bytes=1024))
    assert _get(_client(streamed, max_bytes=4096)).content == body


def test_a_redirect_body_counts_against_the_cap_too() -> None:
    """httpx would read a redirect's body whole before following it: the client follows
    redirects itself, reading each answer under the cap."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/index.php":
            return httpx.Response(302, headers={"Location": "/home"}, content=b"x" * 5000)
        return httpx.Response(200, text="home")

    with pytest.raises(AnswerTooLarge):
        _get(_client(answer, max_bytes=1024))
    response = _get(_client(answer))
    assert response.text == "home" and [r.status_code for r in response.history] == [302]
    assert str(response.url) == "https://forum.example.org/home"


def test_a_redirect_loop_is_refused_after_the_limit_without_retries() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return httpx.Response(302, headers={"Location": f"/p{len(seen)}"})

    with pytest.raises(RedirectLoop, match="more than 3 redirects"):
        _get(_client(answer, max_redirects=3))
    assert len(seen) == 4  # the request and three redirects; no try again


def test_the_deadline_covers_the_whole_exchange() -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        async def body() -> Any:
            for _ in range(100):
                await asyncio.sleep(0.05)
                yield b"x"

        return httpx.Response(200, content=body())

    client = BoardClient(
        "https://forum.example.org/",
        client=httpx.AsyncClient(transport=httpx.MockTransport(slow)),
        min_delay=0,
        deadline=0.5,
    )
    with pytest.raises(TooSlow, match=r"within 0\.5 s \(the board sent \d+ bytes"):
        _get(client)


def test_a_poll_of_a_dripping_board_fails_its_step_at_the_deadline(tmp_path: Path) -> None:
    """The service's poll (`forumgm run`'s step) goes through the same client: the step
    fails with one line at the deadline, the game goes on at the next poll."""
    from zoneinfo import ZoneInfo

    from engine.config import parse_config
    from engine.service.driver import GameDriver
    from engine.service.runner import Cadence, drive_once
    from engine.store import open_store
    from forums.local import ManualClock
    from forums.phpbb import PhpbbBoard
    from tests.service.helpers import game_toml

    with serve(drip) as board:
        players = ["Лёха", "Кира", "Марат", "Ника", "Оскар"]
        text = game_toml(url=board.url, thread="2", players=players, ruleset="votecount", gm="GM")
        text = text.replace('engine = "local"', 'engine = "phpbb"').replace(
            f'url = "{board.url}"', f'url = "{board.url}"\nallow_insecure_http = true'
        )
        gm = PhpbbBoard(
            board.url, "GM", PASSWORD, allow_insecure_http=True, min_delay=0, deadline=2
        )
        clock = ManualClock(datetime(2026, 12, 1, 20, tzinfo=ZoneInfo("Europe/Moscow")))
        store = open_store(f"sqlite:///{tmp_path / 'store.sqlite'}")
        driver = GameDriver(store, gm, parse_config(text), clock=clock)
        driver.start()

        async def step() -> str:
            try:
                return await drive_once(driver, "test", Cadence())
            finally:
                await gm.close()

        started = time.monotonic()
        said = asyncio.run(step())
        took = time.monotonic() - started
    assert said.startswith("step failed: GET ") and "no whole answer within 2 s" in said, said
    assert took < 20
