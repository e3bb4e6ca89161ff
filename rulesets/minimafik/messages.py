"""What each rejection reason and parser warning means, for the host's review (§13.7)."""

from __future__ import annotations

from engine.core import warnings as w
from rulesets.minimafik import roles as r

MESSAGES: dict[str, str] = {
    w.LATE: "sent after the deadline",
    w.SENDER_NOT_IN_PLAY: "the sender is dead: the order is ignored",
    w.UNKNOWN_COMMAND: "not an order",
    w.UNKNOWN_TARGET: "the name is no character of the game",
    w.TARGET_NOT_IN_PLAY: "the target is dead",
    w.TARGET_SELF: "this order may not target its sender",
    w.INVALID_TARGET: "this target is forbidden by the rules",
    w.ACTION_NOT_AVAILABLE: "the sender's role or status has no such action",
    w.NO_USES_LEFT: "the ability is spent",
    w.NOT_ALLOWED: "a precondition of the rule is not met",
    w.BAD_PARAMETER: "a missing or out-of-range part of the order",
    w.THREAD_ORDER_IGNORED: "orders count only by PM to the GM",
    w.THREAD_VOTE_IGNORED: "votes are secret: they count only by PM to the GM",
    r.WRONG_PHASE: "not possible in this phase",
    r.NOT_IN_HAND: "no such card in the hand",
    r.ROT_LOCKED: "Rot cannot be played, discarded or moved",
    r.CARD_IN_USE: "the card is already used by another order of this phase",
    r.TARGET_REQUIRED: "the card or order needs a target",
    r.LEADER_NOT_VOTABLE: "nobody can vote for the Leader at the Veche",
    r.CURRENT_LEADER: "the current Leader cannot be elected again",
    r.INSUFFICIENT_PAYMENT: "not enough points for the cost",
    r.BAD_PAYMENT: "the payment does not add up to the cost",
    r.POINTS_ONLY: "citizens' armour is paid with a point, never with cards",
    r.NOT_ELIGIBLE: "deck building is not open for this character now",
    r.TOO_MANY_COPIES: "more copies of one card than the deck rules allow",
    r.BAD_COMPOSITION: "the deck does not have the colours the rules ask for",
    r.BAD_PICK: "a pick is not one of the two cards offered",
    r.UNKNOWN_CARD: "no card of the collection has this name",
    r.AMBIGUOUS_CARD: "the name fits several cards",
    r.MESSAGE_MISSING: "the card sends a message: write its text in «…»",
    r.MESSAGE_HAS_LINK: "card messages may not contain links",
    r.MESSAGE_TOO_LONG: "the message is longer than the game allows",
    r.SIDE_DEFAULTED: "no side named: the light side is played",
    r.TARGET_IGNORED: "the card has no target: the name is ignored",
}
