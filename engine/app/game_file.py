"""Reading a game file the way every command does: against the registered rulesets and boards."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from engine.config import Checks, ConfigError, GameConfig, load_config
from engine.core.ruleset import Ruleset


def known_rulesets() -> dict[str, Ruleset]:
    import rulesets
    from engine.core.ruleset import get_ruleset, registered

    rulesets.load_all()
    return {r: get_ruleset(r) for r in registered()}


def load_game(
    path: Path | str, *, now: datetime | None = None, allow_past: bool = False
) -> GameConfig:
    """The checked game file; `now` also refuses a past start (unless `allow_past`).

    Raises ConfigError with every problem; the config's `warnings` say what is not fatal.
    """
    checks = Checks(
        rulesets=known_rulesets(),
        now=now,
        allow_past=allow_past,
        environ=os.environ,
    )
    return load_config(path, checks=checks)


__all__ = ["ConfigError", "known_rulesets", "load_game"]
