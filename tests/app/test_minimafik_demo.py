"""`forumgm demo --ruleset minimafik`: the draft and the first night and day through the driver."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app.demo import minimafik_bots
from engine.app.demo.run import run_demo
from engine.store import open_store


def test_a_whole_game_from_the_draft_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "minimafik.sqlite"
    result = run_demo(1, 8, "ru", db, quiet=False, ruleset="minimafik")
    assert result.winner in ("mafia", "law", "draw")
    assert 3 <= result.turns < minimafik_bots.MAX_PHASES
    assert "[b]Игра окончена." in result.transcript[-1]
    shown = capsys.readouterr().out
    assert "Пост ведущего в теме" in shown and "Рейтинг" not in shown  # phase openings
    last = shown.strip().splitlines()[-1]  # the winner in the demo's language
    assert last.startswith("Игра окончена") and f"Фаз: {result.turns}." in last
    assert result.winner not in last
    assert result.transcript[0].startswith("[b]Сбор колод завершён")
    assert result.transcript[1].startswith("[b]Итоги ночи 1")
    assert result.transcript[2].startswith("[b]Итоги дня 1")
    assert "Карт в руке: [b]Grillby[/b]" in result.transcript[1]
    store = open_store(f"sqlite:///{db}")
    state = store.load_state(1)
    assert state is not None and state.finished and state.winner == result.winner
    assert [p.fields["character"] for p in state.players][:3] == ["Grillby", "Ворон", "Mr. Fiks"]
    assert all(item.status == "posted" for item in store.outbox(1))
    warnings = [w.warning.code for ph in store.phases(1) for w in store.parse_warnings(1, ph.phase)]
    assert "unknown_command" not in warnings and "unknown_card" not in warnings
