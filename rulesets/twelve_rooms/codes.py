"""Rejection reasons of twelve-rooms (§12.6), beside the shared codes of `engine.core.warnings`."""

from __future__ import annotations

from engine.core import warnings as w

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
    w.LATE: "sent after the deadline",
    w.SENDER_NOT_IN_PLAY: "the sender is out of the game",
    w.TARGET_NOT_IN_PLAY: "the target is out of the game",
    w.UNKNOWN_TARGET: "the target is not on the roster",
    w.UNKNOWN_COMMAND: "not an order of this game",
    w.TARGET_SELF: "this skill may not target its user",
    w.ACTION_NOT_AVAILABLE: "the sender does not hold this skill now",
    w.NO_USES_LEFT: "the once-per-game skill is spent",
    w.INVALID_TARGET: "this target is forbidden by a rule",
    w.BAD_PARAMETER: "a missing or unreadable argument",
    w.NOT_ALLOWED: "not allowed in this phase or for this player",
    w.THREAD_VOTE_IGNORED: "votes count only by PM to the GM",
    w.THREAD_ORDER_IGNORED: "orders count only by PM to the GM",
    CHANGE_IGNORED: "this part of the turn was already sent; changes are not accepted",
    NOT_SAME_ROOM: "the target is not in the sender's room",
    SAME_TARGET_TWICE: "the same target as last turn",
    TOO_MANY_SKILLS: "more active skills than the role allows in a turn",
    SKILL_LOST: "the skill was lost",
    NOT_ADJACENT: "the rooms of a door must be neighbours",
    INVALID_ROOM: "no room with this number",
    SWAP_LIMIT: "the limit of swapped pairs is reached",
    SWAP_BUSY: "a player may be in one swapped pair only",
    MAFKILL_TAKEN: "the mafia kill of this turn was already sent",
    TEAMKILL: "the mafia may not kill a mafia member",
    GUESS_TOO_EARLY: "room guesses start later in the game",
    GUESS_LIMIT: "one room guess per turn",
    MAP_LIMIT: "one map per turn",
    NO_VEST: "no vest to use",
    NO_INHERIT_OFFER: "no skill to inherit from this player",
    ANON_LIMIT: "one anonymous message per turn",
    LAUGHTER_VIOLATION: "text posted from the laughter room",
}
