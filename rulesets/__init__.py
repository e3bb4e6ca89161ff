"""Game variants. Importing a ruleset module registers it; `load_all` imports every one."""

from __future__ import annotations

import importlib

from engine.core.ruleset import Ruleset, get_ruleset

RULESET_MODULES = [
    "rulesets.classic",
    "rulesets.votecount",
    "rulesets.yakuza",
    "rulesets.minimafik",
    "rulesets.twelve_rooms",
]
"""Every ruleset package; one test walks this list."""


def load_all() -> None:
    for module in RULESET_MODULES:
        importlib.import_module(module)


def find(ruleset_id: str) -> Ruleset:
    load_all()
    return get_ruleset(ruleset_id)
