"""What the host sees of an open phase: deck building, and who has sent what (secretly)."""

from __future__ import annotations

from engine.core.model import GameState
from engine.core.ruleset import PhaseInputs
from rulesets.minimafik.roles import CARD_SLOT, DRAFT, LAW, REBUILD_SLOT
from rulesets.minimafik.state import alive, character


def host_progress(state: GameState, inputs: PhaseInputs) -> list[str]:
    """One line per living character: deck building (draft, rebuild) and the orders in force."""
    lines = []
    draft = inputs.phase.id.kind == DRAFT
    for p in state.players:
        if not alive(p):
            continue
        slots = inputs.orders.get(p.name, {})
        parts = []
        if draft or p.fields.get("can_rebuild"):
            build = slots.get(REBUILD_SLOT)
            what = "draft" if draft else "rebuild"
            if p.faction == LAW:
                picks = list(build.args["picks"]) if build else []
                done = sum(1 for x in picks if x is not None)
                total = len(p.fields.get("offers") or [])
                parts.append(f"{what}: {done}/{total} picks")
            else:
                parts.append(f"{what}: deck {'sent' if build else 'not sent yet'}")
        if not draft:
            card = slots.get(CARD_SLOT)
            if card is not None:
                parts.append(
                    f"{card.action} {card.args.get('card') or ','.join(card.args.get('cards', []))}"
                )
            for slot in sorted(slots):
                if slot not in (CARD_SLOT, REBUILD_SLOT):
                    parts.append(slot)
            vote = inputs.votes.get(p.name)
            parts.append(f"vote → {vote.target}" if vote else "no vote")
        name = p.name if character(p) == p.name else f"{p.name} ({character(p)})"
        lines.append(f"{name}: {'; '.join(parts) or 'nothing yet'}")
    return lines
