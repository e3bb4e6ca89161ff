"""The game model and rules framework: no I/O, nothing of ours imported."""

from engine.core.events import Audience, Event
from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.model import GameState, PlayerState
from engine.core.orders import VOTE_KINDS, Channel, Order, OrderKind, Source
from engine.core.phases import Phase, PhaseId
from engine.core.ruleset import (
    IntakeResult,
    PhaseInputs,
    Resolution,
    Resolved,
    RulesError,
    Ruleset,
    Seat,
    Step,
    VoteView,
    get_ruleset,
    register,
    registered,
)
from engine.core.warnings import ParseWarning

__all__ = [
    "VOTE_KINDS",
    "ArgKind",
    "Audience",
    "Channel",
    "CommandForm",
    "Event",
    "GameState",
    "Grammar",
    "IntakeResult",
    "Order",
    "OrderKind",
    "ParseWarning",
    "Phase",
    "PhaseId",
    "PhaseInputs",
    "PlayerState",
    "Resolution",
    "Resolved",
    "RulesError",
    "Ruleset",
    "Seat",
    "Source",
    "Step",
    "VoteView",
    "get_ruleset",
    "register",
    "registered",
]
