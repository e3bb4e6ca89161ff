"""Vote counting only (votecount.md): the host runs the rest of the game by hand."""

from engine.core.ruleset import register
from rulesets.votecount.ruleset import Votecount

RULESET = register(Votecount())

__all__ = ["RULESET", "Votecount"]
