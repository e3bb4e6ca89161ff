"""The saved FluxBB 1.5.11 pages (fixtures/fluxbb/1.5.11) and the board's truth about them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

PAGES = Path(__file__).resolve().parents[3] / "fixtures" / "fluxbb" / "1.5.11"
MSK = timezone(timedelta(hours=3))
SEEN_EN = datetime(2026, 11, 25, 14, 25, 10, tzinfo=MSK)
"""When the English topic pages were read (README.md)."""
SEEN_RU = datetime(2026, 11, 25, 14, 27, 30, tzinfo=MSK)
BASE = "http://127.0.0.1:8080/"


def page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def truth() -> dict[str, dict[str, Any]]:
    """The board's posts table for topic 2, by post id."""
    rows = json.loads((PAGES / "truth.json").read_text(encoding="utf-8"))
    return {str(r["id"]): r for r in rows}


def stamp(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)
