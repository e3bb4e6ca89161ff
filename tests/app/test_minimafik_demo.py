"""`forumgm demo --ruleset minimafik`: the draft and the first night and day through the driver."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app.demo import minimafik_bots
from engine.app.demo.run import run_demo
from engine.store import open_store


def test_the_draft_night_and_day_are_played_and_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(minimafik_bots, "MAX_PHASES", 3)  # a whole game: `forumgm demo`
    db = tmp_path / "minimafik.sqlite"
    result = run_demo(1, 8, "ru", db, quiet=True, ruleset="minimafik")
    assert result.turns == 3
    assert result.transcript[0].startswith("[b]Сбор колод завершён")
    assert result.transcript[1].startswith("[b]Итоги ночи 1")
    assert result.transcript[2].startswith("[b]Итоги дня 1")
    assert "Карт в руке: [b]Grillby[/b]" in result.transcript[1]
    store = open_store(f"sqlite:///{db}")
    state = store.load_state(1)
    assert state is not None
    assert [p.fields["character"] for p in state.players][:3] == ["Grillby", "Ворон", "Mr. Fiks"]
    assert all(item.status == "posted" for item in store.outbox(1))
    warnings = [
        w.warning.code for ph in ("draft", "night 1", "day 1") for w in store.parse_warnings(1, ph)
    ]
    assert "unknown_command" not in warnings and "unknown_card" not in warnings
