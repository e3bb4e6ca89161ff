"""Crash tests: SIGKILL at each step between the deadline and "posted", then a restart.

After the restart every game reaches the same final thread and the same PMs as a run
that never crashed: no post missing, none doubled.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.publish import find_markers
from forums.local import LocalBoard, ManualClock

CHILD = Path(__file__).with_name("crash_child.py")
MSK = ZoneInfo("Europe/Moscow")
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
POINTS = [
    "after_freeze",
    "after_enqueue",
    "after_resolve",
    "during_publish",
    "accepted_not_recorded",
]


def _board(work: Path) -> LocalBoard:
    return LocalBoard(
        f"sqlite:///{work / 'game.sqlite'}", "Ведущий", "gm-secret", clock=ManualClock(START)
    )


def _prepare(work: Path) -> None:
    board = _board(work)
    board.create_schema()
    board.add_user("Ведущий", "gm-secret")
    for name in ["Вася", "Петя", "Маша", "Коля", "Оля"]:
        board.add_user(name, "pw")
    (work / "thread").write_text(board.create_thread("Мафия", "Ведущий"))
    _child(work, START)  # start the game and publish the opening
    clock = ManualClock(START + timedelta(hours=2))
    board = LocalBoard(f"sqlite:///{work / 'game.sqlite'}", "Ведущий", "gm-secret", clock=clock)
    thread = (work / "thread").read_text()
    board.post_as("Коля", thread, "Доброе утро! Кто что думает?")
    for voter, text in [
        ("Вася", "проверка Пети\nголосую за Петю"),
        ("Маша", "лечу себя\nголосую за Петю"),
        ("Петя", "стреляю в Колю\nголосую за Олю"),
        ("Оля", "голосую за Петю"),
    ]:
        board.pm_as(voter, ["Ведущий"], "ход", text)


def _child(work: Path, now: datetime, point: str = "") -> int:
    args = [sys.executable, str(CHILD), str(work), now.isoformat(), *([point] if point else [])]
    return subprocess.run(args, check=False, timeout=120).returncode


def _what_the_players_saw(work: Path) -> tuple[list[str], list[tuple[str, str]]]:
    import asyncio

    board = _board(work)

    async def read() -> tuple[list[str], list[tuple[str, str]]]:
        thread = (work / "thread").read_text()
        posts = [
            p.raw or "" for p in (await board.thread_posts(thread)).items if p.author == "Ведущий"
        ]
        pms = [(",".join(m.recipients), m.raw or "") for m in (await board.sent()).items]
        return posts, pms

    return asyncio.run(read())


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[tuple[str, str]]]:
    work = tmp_path_factory.mktemp("reference")
    _prepare(work)
    assert _child(work, START + timedelta(days=1, minutes=5)) == 0
    return _what_the_players_saw(work)


@pytest.mark.parametrize("point", POINTS)
def test_a_kill_at_each_step_changes_nothing_players_see(
    point: str, tmp_path: Path, reference: tuple[list[str], list[tuple[str, str]]]
) -> None:
    _prepare(tmp_path)
    after_deadline = START + timedelta(days=1, minutes=5)
    assert _child(tmp_path, after_deadline, point) == -signal.SIGKILL
    assert _child(tmp_path, after_deadline + timedelta(minutes=1)) == 0
    posts, pms = _what_the_players_saw(tmp_path)
    ref_posts, ref_pms = reference
    # Each store has its own marker key, so only the markers' values differ between runs.
    assert [_unmarked(p) for p in posts] == [_unmarked(p) for p in ref_posts]
    assert Counter((to, _unmarked(raw)) for to, raw in pms) == Counter(
        (to, _unmarked(raw)) for to, raw in ref_pms
    )
    markers = [m for text in [*posts, *(raw for _, raw in pms)] for m in find_markers(text)]
    assert len(markers) == len(posts) + len(pms) == len(set(markers))  # nothing twice
    assert any("Итоги хода 1" in p for p in posts)


def _unmarked(text: str) -> str:
    return re.sub(r"fgm:[0-9a-f]+", "fgm:…", text)
