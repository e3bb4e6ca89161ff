"""`forumgm demo --ruleset yakuza`: the first phases through the driver, visible roles dealt."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app.demo import yakuza_bots
from engine.app.demo.run import run_demo
from engine.store import open_store


def test_the_first_night_and_day_are_played_and_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yakuza_bots, "MAX_PHASES", 2)  # a whole game takes too long here
    db = tmp_path / "yakuza.sqlite"
    result = run_demo(1, 18, "ru", db, quiet=True, ruleset="yakuza")
    assert result.turns == 2
    assert result.transcript[0].startswith("[b]Утро после ночи 1")
    assert result.transcript[1].startswith("[b]Итоги дня 1")
    store = open_store(f"sqlite:///{db}")
    state = store.load_state(1)
    assert state is not None and len(state.players) == 18
    visible = [p.fields["visible_role"] for p in state.players]
    assert len(set(visible)) == 18 and set(visible) <= set(yakuza_bots.VISIBLE)
    assert all(item.status == "posted" for item in store.outbox(1))
