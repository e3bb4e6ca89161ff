"""Questions about a yakuza game state: traits, HP shown, statuses, who may act (§5, §8)."""

from __future__ import annotations

from typing import Any

from engine.core.model import GameState, PlayerState
from rulesets.yakuza.roles import (
    ACTIONS,
    COMA,
    DEAD,
    HEALTHY,
    HOSPITAL,
    LIGHT,
    MAFIA,
    MAX_HP,
    NO_VISIBLE,
    START_HP,
    YAKUZA,
)


def alive(p: PlayerState) -> bool:
    return bool(p.fields.get("alive", True))


def alive_names(state: GameState) -> list[str]:
    return [p.name for p in state.players if alive(p)]


def has_trait(p: PlayerState, trait: str) -> bool:
    """Own visible role, or a plagiarist's/marauder's copy of one (§8 #9, #13)."""
    return p.fields.get("visible_role") == trait or p.fields.get("copied_role") == trait


def shown_hp(p: PlayerState) -> int:
    """The HP that drives reports and statuses: the fake HP while disinformed (§7.3)."""
    if p.fields.get("mortally_wounded"):
        return 100
    fake = p.fields.get("fake_hp")
    return int(fake if fake is not None else p.fields["hp"])


def status_from_hp(p: PlayerState, hp: int, current: str | None) -> str:
    """The mechanical status for `hp` (§5.1; stuntman's own thresholds [D14])."""
    if p.fields.get("mortally_wounded"):
        return HEALTHY
    if hp <= 0:
        return DEAD
    if has_trait(p, "stuntman"):
        if (current == HOSPITAL and hp <= 49) or hp < 30:
            return HOSPITAL
        return HEALTHY if hp >= 75 else LIGHT
    if hp >= 75:
        return HEALTHY
    if hp >= 50:
        return LIGHT
    if hp >= 20:
        return HOSPITAL
    return COMA


def public_status_of(p: PlayerState, status: str) -> str:
    """What the town sees (§5.2): the stuntman looks healthy unless in hospital."""
    if has_trait(p, "stuntman") and status != HOSPITAL:
        return HEALTHY
    return status


def in_hospital(status: str | None, options: dict[str, Any]) -> bool:
    """Hospital for the chief doctor, the medic and pistol accumulation ([D13])."""
    return status == HOSPITAL or (status == COMA and bool(options.get("coma_is_hospital", True)))


def faction_for(role: str, base: str, options: dict[str, Any]) -> str:
    if base == "neutral" and not options.get("neutral_joint_win", True):
        return role
    return base


def is_team(p: PlayerState, team: str) -> bool:
    return p.faction == team


def is_yakuza(p: PlayerState) -> bool:
    return p.faction == YAKUZA


def is_mafia(p: PlayerState) -> bool:
    return p.faction == MAFIA


def max_hp_for(visible: str | None) -> int:
    return MAX_HP.get(visible or NO_VISIBLE, 100)


def start_hp_for(visible: str | None) -> int:
    return START_HP.get(visible or NO_VISIBLE, 100)


def night_actions(p: PlayerState) -> list[str]:
    """What the player's secret role may order tonight (conditional abilities included)."""
    from rulesets.yakuza.roles import ROLES

    acts = list(ROLES[p.role or "citizen"].actions)
    if p.role == "sensei" and p.fields.get("has_katana"):
        acts.append("katana")
    if p.role == "sensei" and p.fields.get("auto_meditation"):
        acts.append("meditation_off")
    if p.role == "brute" and p.fields.get("has_pistol"):
        acts.append("pistol")
    if p.fields.get("nagant_victim"):
        acts.append("nagant")
    return acts


def is_extra(p: PlayerState, action: str) -> bool:
    """An order that goes with the main action (revenge, meditation_off, brute's pistol)."""
    return action in ("revenge", "meditation_off") or (action == "pistol" and p.role == "brute")


def may_act_in(p: PlayerState, action: str) -> bool:
    """Whether the status at the start of the night allows the order (§5.1 exceptions)."""
    status = p.fields.get("status", HEALTHY)
    if status == COMA:
        return False
    if status == HOSPITAL:
        if action == "knife":
            return p.role == "maniac"
        return ACTIONS[action].hospital if action in ACTIONS else False
    return True


def day_actions(p: PlayerState) -> list[str]:
    """Day abilities of the visible role and of a copy (§8)."""
    from rulesets.yakuza.roles import DAY_ACTIONS

    traits = {p.fields.get("visible_role"), p.fields.get("copied_role")}
    return [a for a, owner in DAY_ACTIONS.items() if owner in traits]
