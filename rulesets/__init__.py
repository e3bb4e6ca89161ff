"""Game variants. Importing a ruleset module registers it; `load_all` imports every one."""

from __future__ import annotations

import importlib

from engine.core.ruleset import RulesError, Ruleset, get_ruleset

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
    """The ruleset named `ruleset_id`, importing only its package where the name says which
    (`twelve-rooms` → rulesets.twelve_rooms): a command that needs one ruleset loads one."""
    module = f"rulesets.{ruleset_id.replace('-', '_')}"
    if module in RULESET_MODULES:
        importlib.import_module(module)
        try:
            return get_ruleset(ruleset_id)
        except RulesError:
            pass  # registered under another name: look among all of them
    load_all()
    return get_ruleset(ruleset_id)
