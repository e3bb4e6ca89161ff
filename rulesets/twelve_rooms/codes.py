"""Rejection reasons of twelve-rooms (§12.6), beside the shared codes of `engine.core.warnings`."""

from __future__ import annotations

from engine.core import warnings as w
from engine.core.warnings import N_

CHANGE_IGNORED = "change_ignored"
NOT_SAME_ROOM = "not_same_room"
SAME_TARGET_TWICE = "same_target_twice"
TOO_MANY_SKILLS = "too_many_skills"
SKILL_LOST = "skill_lost"
NOT_ADJACENT = "not_adjacent"
INVALID_ROOM = "invalid_room"
SWAP_LIMIT = "swap_limit"
SWAP_BUSY = "swap_busy"
MAFKILL_TAKEN = "mafkill_taken"
TEAMKILL = "teamkill"
GUESS_TOO_EARLY = "guess_too_early"
GUESS_LIMIT = "guess_limit"
MAP_LIMIT = "map_limit"
NO_VEST = "no_vest"
NO_INHERIT_OFFER = "no_inherit_offer"
ANON_LIMIT = "anon_limit"
LAUGHTER_VIOLATION = "laughter_violation"

MESSAGES: dict[str, str] = {
    w.LATE: N_("sent after the deadline"),
    w.SENDER_NOT_IN_PLAY: N_("the sender is out of the game"),
    w.TARGET_NOT_IN_PLAY: N_("the target is out of the game"),
    w.UNKNOWN_TARGET: N_("the target is not on the roster"),
    w.UNKNOWN_COMMAND: N_("not an order of this game"),
    w.TARGET_SELF: N_("this skill may not target its user"),
    w.ACTION_NOT_AVAILABLE: N_("the sender does not hold this skill now"),
    w.NO_USES_LEFT: N_("the once-per-game skill is spent"),
    w.INVALID_TARGET: N_("this target is forbidden by a rule"),
    w.BAD_PARAMETER: N_("a missing or unreadable argument"),
    w.NOT_ALLOWED: N_("not allowed in this phase or for this player"),
    w.THREAD_VOTE_IGNORED: N_("votes count only by PM to the GM"),
    w.THREAD_ORDER_IGNORED: N_("orders count only by PM to the GM"),
    CHANGE_IGNORED: N_("this part of the turn was already sent; changes are not accepted"),
    NOT_SAME_ROOM: N_("the target is not in the sender's room"),
    SAME_TARGET_TWICE: N_("the same target as last turn"),
    TOO_MANY_SKILLS: N_("more active skills than the role allows in a turn"),
    SKILL_LOST: N_("the skill was lost"),
    NOT_ADJACENT: N_("the rooms of a door must be neighbours"),
    INVALID_ROOM: N_("no room with this number"),
    SWAP_LIMIT: N_("the limit of swapped pairs is reached"),
    SWAP_BUSY: N_("a player may be in one swapped pair only"),
    MAFKILL_TAKEN: N_("the mafia kill of this turn was already sent"),
    TEAMKILL: N_("the mafia may not kill a mafia member"),
    GUESS_TOO_EARLY: N_("room guesses start later in the game"),
    GUESS_LIMIT: N_("one room guess per turn"),
    MAP_LIMIT: N_("one map per turn"),
    NO_VEST: N_("no vest to use"),
    NO_INHERIT_OFFER: N_("no skill to inherit from this player"),
    ANON_LIMIT: N_("one anonymous message per turn"),
    LAUGHTER_VIOLATION: N_("text posted from the laughter room"),
}
