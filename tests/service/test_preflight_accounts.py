"""`game start`'s look at the board (engine.service.preflight): every player's account.

A name the board does not know stops the start; a name the board cannot look up (vBulletin
searches names of 3 letters or more) does not — the host is told to check it himself; a
board that stops answering during the look-ups stops the start until it answers."""

from __future__ import annotations

import asyncio

import pytest

from engine.service.preflight import NotReady, board_ready
from forums.errors import BoardError, BoardUnavailable
from forums.records import User

ACCOUNTS = {"вася": "1", "петя": "2", "ян": "3"}


class Board:
    def __init__(self, *, down: bool = False) -> None:
        self.down = down

    async def login(self) -> User:
        return User("9", "Ведущий")

    async def thread_posts(self, thread: str) -> object:
        return []

    async def find_user(self, name: str) -> User | None:
        if self.down:
            raise BoardUnavailable("503 Service Unavailable")
        if len(name) < 3:
            raise BoardError("the board looks up names of 3 letters or more")
        found = ACCOUNTS.get(name.casefold())
        return User(found, name) if found else None


def ready(board: Board, players: list[str]) -> object:
    return asyncio.run(
        board_ready(
            board,  # type: ignore[arg-type]
            "12",
            url="https://forum.example.org/",
            gm="Ведущий",
            game_file="game.toml",
            players=players,
        )
    )


def test_a_name_the_board_cannot_look_up_is_left_to_the_host() -> None:
    found = ready(Board(), ["Вася", "Петя", "Ян"])
    assert found.unchecked == (  # type: ignore[attr-defined]
        ("Ян", "BoardError: the board looks up names of 3 letters or more"),
    )


def test_an_unknown_name_stops_the_start_and_a_board_that_stops_answering_too() -> None:
    with pytest.raises(NotReady, match=r"no account on .* for 'Маня'"):
        ready(Board(), ["Вася", "Маня", "Ян"])
    with pytest.raises(NotReady, match="try again when the board answers"):
        ready(Board(down=True), ["Вася"])
