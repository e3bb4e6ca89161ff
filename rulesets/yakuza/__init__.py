"""Mafia vs Yakuza with hit points (seed 004, yakuza.md)."""

from engine.core.ruleset import register
from rulesets.yakuza.ruleset import Yakuza

RULESET = register(Yakuza())

__all__ = ["RULESET", "Yakuza"]
