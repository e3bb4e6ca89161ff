"""Minimafik: personal decks of cards, hands as lives, the Leader and the Вече (seed 003)."""

from engine.core.ruleset import register
from rulesets.minimafik.ruleset import Minimafik

RULESET = register(Minimafik())

__all__ = ["RULESET", "Minimafik"]
