"""Loading the saved phpBB pages: their HTML, URL and capture time, and the truth files."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "phpbb"
BOARD = FIXTURES / "3.3.10"
REAL = FIXTURES / "real"
BASE_URL = "http://127.0.0.1:8081"


@dataclass(frozen=True)
class SavedPage:
    """One captured page: `name` is e.g. "ru/viewtopic_p1"."""

    name: str
    html: str
    url: str
    captured_at: datetime


@cache
def _capture_log() -> dict[str, dict[str, Any]]:
    entries = json.loads((BOARD / "capture_log.json").read_text(encoding="utf-8"))
    return {entry["file"]: entry for entry in entries}


def load_saved_page(name: str) -> SavedPage:
    entry = _capture_log()[f"{name}.html"]
    path = entry["url"].split("#", 1)[0]
    return SavedPage(
        name=name,
        html=(BOARD / f"{name}.html").read_text(encoding="utf-8"),
        url=BASE_URL + path,
        captured_at=datetime.strptime(entry["captured_at"], "%Y-%m-%dT%H:%M:%S%z"),
    )


@pytest.fixture(scope="session")
def saved_page() -> Callable[[str], SavedPage]:
    """`saved_page("ru/viewtopic_p1")`: the page with its URL and capture time."""
    return load_saved_page


@pytest.fixture(scope="session")
def thread_truth() -> dict[str, Any]:
    return json.loads((BOARD / "thread_truth.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def pms_truth() -> dict[str, Any]:
    return json.loads((BOARD / "pms_truth.json").read_text(encoding="utf-8"))


@pytest.fixture
def real_page() -> Callable[[str], str]:
    """`real_page("phpBB.html")`: a phpBB 3.0 page from `fixtures/phpbb/real/`."""
    return lambda name: (REAL / name).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def mafiascum_posts() -> list[dict[str, Any]]:
    lines = (REAL / "17378.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
