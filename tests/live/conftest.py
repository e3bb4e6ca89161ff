"""Fixtures of the live board tests: real phpBB 3.3.10, MyBB 1.8.37, FluxBB 1.5.11 and
SMF 2.1.4 on 127.0.0.1.

`phpbb` and `mybb` are per test module: a copy of the board installed once per run (a
template under the run's shared temporary folder, made by the first worker that needs it,
under a lock), served by PHP on a free port, stopped after the module. Each test's
`forumgm`, players and GM move the board's clock: every wait of forumgm's polite client
(`BoardClient.sleep`) moves the board's time on by as long instead of sleeping, so the
board's flood limits and form ages pass in board time and the tests take no real minutes.

Where PHP, libfaketime or the board sources are missing the tests skip with the reason;
with FORUMGM_REQUIRE_LIVE_BOARDS=1 (as `.ci/run` sets) they fail instead.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from forums.client import BoardClient
from tests.live import boards, smf
from tests.live.boards import LiveBoard


def _need(engine: str) -> None:
    why = smf.missing() if engine == "smf" else boards.missing(engine)
    if why is None:
        return
    if os.environ.get(boards.REQUIRE_ENV) == "1":
        pytest.fail(f"live {engine} board cannot run ({boards.REQUIRE_ENV}=1): {why}")
    pytest.skip(f"live {engine} board: {why}")


@pytest.fixture(scope="session")
def live_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the installed boards are kept for this run (shared by xdist's workers), or
    across runs in FORUMGM_LIVE_BOARDS_CACHE (a developer's loop: delete it after changing
    an installer)."""
    if os.environ.get("FORUMGM_LIVE_BOARDS_CACHE"):
        return Path(os.environ["FORUMGM_LIVE_BOARDS_CACHE"])
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    return base / "live-boards"


def _served(engine: str, cache: Path, folder: Path) -> Iterator[LiveBoard]:
    _need(engine)
    board = boards.copy_of(boards.template(engine, cache), folder)
    boards.serve(board)
    try:
        yield board
    finally:
        board.stop()


@pytest.fixture(scope="module")
def phpbb_board(live_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBoard]:
    yield from _served("phpbb", live_cache, tmp_path_factory.mktemp("phpbb"))


@pytest.fixture(scope="module")
def fluxbb_board(live_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBoard]:
    yield from _served("fluxbb", live_cache, tmp_path_factory.mktemp("fluxbb"))


@pytest.fixture(scope="module")
def mybb_board(live_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBoard]:
    yield from _served("mybb", live_cache, tmp_path_factory.mktemp("mybb"))


@pytest.fixture(scope="module")
def smf_board(live_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBoard]:
    """SMF 2.1.4 on a PostgreSQL database of its own (`tests/live/smf.py`)."""
    _need("smf")
    board = smf.copy_of(smf.template(live_cache), tmp_path_factory.mktemp("smf"))
    smf.serve(board)
    try:
        yield board
    finally:
        smf.drop(board)


def _board_time(board: LiveBoard, monkeypatch: pytest.MonkeyPatch) -> LiveBoard:
    clock = board.clock
    assert clock is not None

    async def waited(self: BoardClient, seconds: float) -> None:
        if seconds > 0:
            clock.advance(seconds)
        await asyncio.sleep(0)

    monkeypatch.setattr(BoardClient, "sleep", waited)
    return board


@pytest.fixture
def phpbb(phpbb_board: LiveBoard, monkeypatch: pytest.MonkeyPatch) -> LiveBoard:
    """The module's phpBB, its clock moved by every wait of forumgm's client."""
    return _board_time(phpbb_board, monkeypatch)


@pytest.fixture
def mybb(mybb_board: LiveBoard, monkeypatch: pytest.MonkeyPatch) -> LiveBoard:
    """The module's MyBB, its clock moved by every wait of forumgm's client."""
    return _board_time(mybb_board, monkeypatch)


@pytest.fixture
def fluxbb(fluxbb_board: LiveBoard, monkeypatch: pytest.MonkeyPatch) -> LiveBoard:
    """The module's FluxBB, its clock moved by every wait of forumgm's client."""
    return _board_time(fluxbb_board, monkeypatch)


@pytest.fixture
def smf_live(smf_board: LiveBoard, monkeypatch: pytest.MonkeyPatch) -> LiveBoard:
    """The module's SMF, its clock moved by every wait of forumgm's client."""
    return _board_time(smf_board, monkeypatch)
