"""HP arithmetic (yakuza.md §6): damage and healing instances, counterattacks, clamping."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Protocol

from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from rulesets.yakuza.roles import COUNTERATTACK
from rulesets.yakuza.state import has_trait, in_hospital


class Ledger(Protocol):
    """What a resolution context offers the arithmetic (night and day)."""

    state: GameState

    def emit(self, event: Event) -> None: ...


def ceil(x: Fraction | int) -> int:
    return math.ceil(x)


def change(p: PlayerState, delta: int, *, day: bool = False) -> int:
    """Apply an HP change; a mortally wounded avenger's HP never changes (D15).

    By day the fake HP of a disinformed player moves too, kept within 1…max_hp (D32).
    """
    if p.fields.get("mortally_wounded") or delta == 0:
        return 0
    p.fields["hp"] = int(p.fields["hp"]) + delta
    if day and p.fields.get("fake_hp") is not None:
        fake = int(p.fields["fake_hp"]) + delta
        p.fields["fake_hp"] = max(1, min(int(p.fields["max_hp"]), fake))
    return delta


def healing(p: PlayerState, base: int) -> int:
    """Healing instance (§6.3): ×1.5 for the student, rounded up."""
    factor = Fraction(3, 2) if has_trait(p, "student") else Fraction(1)
    return ceil(base * factor)


def clamp(state: GameState, names: list[str]) -> None:
    """HP above max_hp is set to max_hp after a resolution (§5.3, D9)."""
    for name in names:
        p = state.player(name)
        if int(p.fields["hp"]) > int(p.fields["max_hp"]):
            p.fields["hp"] = int(p.fields["max_hp"])


def night_damage(
    ctx: Any,
    target: str,
    base: int | Fraction,
    source: str,
    action: str,
    *,
    attack: bool,
    mafia: bool = False,
    hunted_knife: bool = False,
    only_contract: bool = False,
) -> int:
    """One damage instance at night (§6.2) — and the paratrooper's answer to an attack (D25)."""
    state: GameState = ctx.state
    p = state.player(target)
    factor = Fraction(1)
    if p.fields.get("contracted"):
        factor *= 2
    if not only_contract:
        if mafia and p.fields.get("mafia_double"):
            factor *= 2
        if hunted_knife and p.fields.get("hunted"):
            factor *= 2
    if attack and target in ctx.protected:
        factor *= Fraction(1, 4)
    elif has_trait(p, "chief_doctor") and in_hospital(ctx.start_status.get(target), state.options):
        factor *= Fraction(1, 2)
    amount = ceil(base * factor)
    change(p, -amount)
    if amount > 0 and source not in ctx.dealers.setdefault(target, []):
        ctx.dealers[target].append(source)
    ctx.emit(
        Event.host(
            "damage", player=target, amount=amount, source=source, action=action, attack=attack
        )
    )
    if (
        attack
        and source != target
        and has_trait(p, "paratrooper")
        and ctx.start_status.get(target) != "coma"
        and not has_trait(state.player(source), "vip")
    ):
        hit = night_damage(ctx, source, COUNTERATTACK, target, "counterattack", attack=False)
        ctx.emit(Event.host("counterattack", player=target, attacker=source, amount=hit))
    return amount


def day_damage(ctx: Any, target: str, base: int, start_status: str | None) -> int:
    """Day damage (§6.2 D53): only the chief doctor's halving applies."""
    state: GameState = ctx.state
    p = state.player(target)
    factor = Fraction(1)
    if has_trait(p, "chief_doctor") and in_hospital(start_status, state.options):
        factor = Fraction(1, 2)
    return ceil(base * factor)
