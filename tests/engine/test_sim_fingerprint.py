"""Simulated games stay the games they were: the first games of each ruleset's example file
(docs/examples/) give the digests benchmarks/sim_fingerprint.json keeps (every phase's events
and warnings, the record, the final state with its random stream). A speed-up of the engine
or of the simulated players must leave them alone; a deliberate change of what a game does
saves new ones (`python benchmarks/sim_fingerprint.py --save`) and says why in its commit."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

HARNESS = Path(__file__).resolve().parents[2] / "benchmarks" / "sim_fingerprint.py"


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sim_fingerprint", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("ruleset", "games"),
    [
        ("classic", 400),
        ("classic-every-role", 200),
        ("yakuza", 20),
        ("twelve-rooms", 20),
        ("minimafik", 20),
    ],
)
def test_simulated_games_are_the_saved_ones(ruleset: str, games: int) -> None:
    harness = _harness()
    saved = json.loads(harness.SAVED.read_text(encoding="utf-8"))
    assert saved["seed"] == harness.SEED and games % harness.BLOCK == 0
    digests = harness.game_digests(ruleset, games)
    blocks = [
        harness.fingerprint(digests[i : i + harness.BLOCK]) for i in range(0, games, harness.BLOCK)
    ]
    known = saved["rulesets"][ruleset]["blocks"][: len(blocks)]
    differs = [
        i * harness.BLOCK for i, (a, b) in enumerate(zip(known, blocks, strict=True)) if a != b
    ]
    assert not differs, (
        f"{ruleset}: games from {differs[0]} on play otherwise than the saved ones; if the change "
        "is deliberate, save them again (python benchmarks/sim_fingerprint.py --save)"
    )
