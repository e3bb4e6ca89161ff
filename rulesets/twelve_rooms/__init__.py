"""«12 комнат»: a mafia game on a hidden map of twelve rooms (seed 000, twelve-rooms.md)."""

from engine.core.ruleset import register
from rulesets.twelve_rooms.ruleset import TwelveRooms

RULESET = register(TwelveRooms())

__all__ = ["RULESET", "TwelveRooms"]
