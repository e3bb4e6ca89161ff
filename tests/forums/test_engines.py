"""The board engines: the game file's list is the registry, and every adapter builds without I/O."""

from __future__ import annotations

import httpx

from engine.config import BOARD_ENGINES
from engine.service.build import ADAPTERS, load_adapters
from forums import Board, board_factory, engines


def test_the_game_file_knows_exactly_the_engines_the_service_loads() -> None:
    load_adapters()
    assert set(BOARD_ENGINES) <= set(engines())
    loaded = {
        name
        for name in engines()
        if board_factory(name).__module__.startswith(tuple(f"{a}." for a in ADAPTERS))
    }
    assert loaded == set(BOARD_ENGINES)


def test_every_remote_adapter_builds_without_a_request() -> None:
    load_adapters()
    sent: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(500)

    for name in engines():
        if name == "local":
            continue  # backed by a database, not a URL
        client = httpx.AsyncClient(transport=httpx.MockTransport(refuse))
        board = board_factory(name)("https://forum.example.org/", "GM", "pw", client=client)
        assert isinstance(board, Board) and board.engine == name
    assert sent == []
