"""What each rejection reason and parser warning means, for the host's review (§13.7): stored
in English, shown in the host's language from the warnings catalogue (`N_`)."""

from __future__ import annotations

from engine.core import warnings as w
from engine.core.warnings import N_
from rulesets.minimafik import roles as r

MESSAGES: dict[str, str] = {
    w.LATE: N_("sent after the deadline"),
    w.SENDER_NOT_IN_PLAY: N_("the sender is dead: the order is ignored"),
    w.UNKNOWN_COMMAND: N_("not an order"),
    w.UNKNOWN_TARGET: N_("the name is not a character of this game"),
    w.TARGET_NOT_IN_PLAY: N_("the target is dead"),
    w.TARGET_SELF: N_("this order may not target its sender"),
    w.INVALID_TARGET: N_("this target is forbidden by the rules"),
    w.ACTION_NOT_AVAILABLE: N_("the sender's role or status has no such action"),
    w.NO_USES_LEFT: N_("the ability is spent"),
    w.NOT_ALLOWED: N_("a precondition of the rule is not met"),
    w.BAD_PARAMETER: N_("a missing or out-of-range part of the order"),
    w.THREAD_ORDER_IGNORED: N_("orders count only by PM to the GM"),
    w.THREAD_VOTE_IGNORED: N_("votes are secret: they count only by PM to the GM"),
    r.WRONG_PHASE: N_("not possible in this phase"),
    r.NOT_IN_HAND: N_("the card is not in the sender's hand"),
    r.ROT_LOCKED: N_("Rot cannot be played, discarded or moved"),
    r.CARD_IN_USE: N_("the card is already used by another order of this phase"),
    r.TARGET_REQUIRED: N_("the card or order needs a target"),
    r.LEADER_NOT_VOTABLE: N_("nobody can vote for the Leader at the Veche"),
    r.CURRENT_LEADER: N_("the current Leader cannot be elected again"),
    r.INSUFFICIENT_PAYMENT: N_("not enough points for the cost"),
    r.BAD_PAYMENT: N_("the payment does not add up to the cost"),
    r.POINTS_ONLY: N_("citizens' armour is paid with a point, never with cards"),
    r.NOT_ELIGIBLE: N_("deck building is not open for this character now"),
    r.TOO_MANY_COPIES: N_("more copies of one card than the deck rules allow"),
    r.BAD_COMPOSITION: N_(
        "the deck does not have as many cards of each colour as the rules ask for"
    ),
    r.BAD_PICK: N_("a pick is not one of the two cards offered"),
    r.UNKNOWN_CARD: N_("no card of the collection has this name"),
    r.AMBIGUOUS_CARD: N_("the name fits several cards"),
    r.MESSAGE_MISSING: N_("the card sends a message and no text in «…» was given"),
    r.MESSAGE_HAS_LINK: N_("card messages may not contain links"),
    r.MESSAGE_TOO_LONG: N_("the message is longer than the game allows"),
    r.SIDE_DEFAULTED: N_("no side named: the light side is played"),
    r.TARGET_IGNORED: N_("the card has no target: the name is ignored"),
}
