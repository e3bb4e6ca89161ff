"""The minimafik roles, factions, colours and identifiers (minimafik.md §3, §4.1, §13), as data."""

from __future__ import annotations

from dataclasses import dataclass

LAW, MAFIA, DRAW = "law", "mafia", "draw"
BOSS, KILLER, CITIZEN = "boss", "killer", "citizen"

ATTACK, DEFENCE, SUPPORT, INFORMATION, NEUTRAL, NONE = (
    "attack",
    "defence",
    "support",
    "information",
    "neutral",
    "none",
)
COLOURS = (ATTACK, DEFENCE, SUPPORT, INFORMATION, NEUTRAL)
"""The five colours a collection card may have (`none` is Rot's alone)."""

ROT, BLANK = "rot", "blank"
"""The two reserved special cards (§4.1)."""

LIGHT, DARK = "light", "dark"
SIDES = (LIGHT, DARK)

NIGHT, DAY, ANY, CONDITIONAL_DAY = "night", "day", "any", "conditional_day"
TIMINGS = (NIGHT, ANY, DAY, CONDITIONAL_DAY)

TARGET_NONE, TARGET_OTHER, TARGET_ANY = "none", "other", "any"
TARGET_RULES = (TARGET_NONE, TARGET_OTHER, TARGET_ANY)

BEATING, EXECUTION = "beating", "execution"
PUNISHMENTS = (BEATING, EXECUTION)

DRAFT = "draft"
"""The deck-building phase before night 1 (§2)."""


@dataclass(frozen=True)
class Role:
    """A secret role: its faction, the colours it builds with, its night vote weight."""

    id: str
    faction: str
    colours: tuple[str, ...]
    vote_weight_option: str | None = None


ROLES: dict[str, Role] = {
    BOSS: Role(BOSS, MAFIA, (SUPPORT, INFORMATION), "boss_vote_weight"),
    KILLER: Role(KILLER, MAFIA, (ATTACK, DEFENCE), "killer_vote_weight"),
    CITIZEN: Role(CITIZEN, LAW, COLOURS),
}
ROLE_ORDER = (BOSS, KILLER, CITIZEN)

VISIBLE_ROLES = (
    "bartender",
    "photographer",
    "courier",
    "designer",
    "stuntman",
    "engineer",
    "dancer",
    "scientist",
    "ex_mafioso",
)
"""The seed's visible roles («Класс», §3.3); a host's `visible_roles` data may add more."""

ACTIONS = (
    "play_card",
    "discard",
    "mafia_vote",
    "armor",
    "leader_vote",
    "vece_vote",
    "punishment",
    "order_hand",
    "draft_pick",
    "build_deck",
    "use_ability",
    "cancel",
)
"""Every action id (§13.2)."""

CARD_SLOT = "card"
"""The ledger slot shared by `play_card` and `discard` (they replace each other, §6.2)."""
REBUILD_SLOT = "deck"
"""The ledger slot of `draft_pick` / `build_deck` (draft and rebuild)."""

SLOT_OF = {
    "play_card": CARD_SLOT,
    "discard": CARD_SLOT,
    "mafia_vote": "mafia_vote",
    "armor": "armor",
    "leader_vote": "leader_vote",
    "punishment": "punishment",
    "draft_pick": REBUILD_SLOT,
    "build_deck": REBUILD_SLOT,
}
"""Ledger slot per action; `use_ability` uses ``ability:<id>``, votes live in `inputs.votes`."""

# This ruleset's own rejection reasons (§13.7); the common ones are in engine.core.warnings.
WRONG_PHASE = "wrong_phase"
NOT_IN_HAND = "not_in_hand"
ROT_LOCKED = "rot_locked"
CARD_IN_USE = "card_in_use"
TARGET_REQUIRED = "target_required"
LEADER_NOT_VOTABLE = "leader_not_votable"
CURRENT_LEADER = "current_leader"
INSUFFICIENT_PAYMENT = "insufficient_payment"
BAD_PAYMENT = "bad_payment"
POINTS_ONLY = "points_only"
NOT_ELIGIBLE = "not_eligible"
TOO_MANY_COPIES = "too_many_copies"
BAD_COMPOSITION = "bad_composition"
BAD_PICK = "bad_pick"
UNKNOWN_CARD = "unknown_card"
MESSAGE_MISSING = "message_missing"
MESSAGE_HAS_LINK = "message_has_link"
MESSAGE_TOO_LONG = "message_too_long"
# Parser warnings of this ruleset (accepted orders the host may want to look at).
SIDE_DEFAULTED = "side_defaulted"
TARGET_IGNORED = "target_ignored"
AMBIGUOUS_CARD = "ambiguous_card"
