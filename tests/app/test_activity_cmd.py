"""`forumgm activity` over the real mafiascum game 17378 (the tally tests' thread): the post
counts per player and day are a plain count of the exported posts."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app

GAME = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb" / "real" / "17378.jsonl"
DAY_ENDS = (239, 334, 411)
"""The moderator's day-ending posts (tests/app/test_tally_cmd.py, DAYS_17378)."""


def _lines() -> list[dict[str, object]]:
    return [json.loads(line) for line in GAME.read_text(encoding="utf-8").splitlines() if line]


def _activity(*args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(app, ["activity", "--posts", str(GAME), "--json", *args])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.output)
    return rows


def test_posts_per_player_and_game_day_are_a_plain_count() -> None:
    plain: Counter[tuple[str, str]] = Counter()
    for doc in _lines():
        number, user = int(str(doc["number"])), str(doc["user"])
        if user == "flinter":  # the moderator opened the thread
            continue
        day = next((n for n, end in enumerate(DAY_ENDS, start=1) if number <= end), None)
        if day is not None:
            plain[(user, f"day {day}")] += 1
    rows = _activity("--day-ends", ",".join(map(str, DAY_ENDS)))
    counted = {(str(r["player"]), str(r["day"])): r["posts"] for r in rows}
    assert counted == dict(plain)
    up_to_the_end = [d for d in _lines() if int(str(d["number"])) <= DAY_ENDS[-1]]
    assert sum(plain.values()) == sum(1 for d in up_to_the_end if d["user"] != "flinter")
    assert counted[("Spadille", "day 1")] == 37


def test_posts_per_player_and_date_are_a_plain_count() -> None:
    plain: Counter[tuple[str, str]] = Counter()
    for doc in _lines():
        if doc["user"] == "flinter":
            continue
        date = datetime.strptime(str(doc["time"]), "%a %b %d, %Y %I:%M %p").date().isoformat()
        plain[(str(doc["user"]), date)] += 1
    rows = _activity()
    assert {(str(r["player"]), str(r["day"])): r["posts"] for r in rows} == dict(plain)
    assert all(isinstance(r["words"], int) and r["words"] >= 0 for r in rows)
