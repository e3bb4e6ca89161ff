"""Classic forum mafia (2008 rules, seed 002): one turn a deadline, PM votes and orders."""

from engine.core.ruleset import register
from rulesets.classic.ruleset import Classic

RULESET = register(Classic())

__all__ = ["RULESET", "Classic"]
