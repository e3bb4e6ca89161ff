"""What the host sees beside a phase: deck building, who has sent what, and the hands."""

from __future__ import annotations

from engine.core.model import GameState, PlayerState
from engine.core.ruleset import HostTable, PhaseInputs
from rulesets.minimafik.roles import BLANK, CARD_SLOT, DRAFT, LAW, REBUILD_SLOT, ROT
from rulesets.minimafik.state import alive, character, hand, leader


def _label(p: PlayerState) -> str:
    """The player as the host knows him, with his character where it has another name."""
    return p.name if character(p) == p.name else f"{p.name} ({character(p)})"


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
        lines.append(f"{_label(p)}: {'; '.join(parts) or 'nothing yet'}")
    return lines


def hands_table(state: GameState) -> HostTable:
    """Each character's hand size (a hand is a life: no cards, or only Rot, and it dies),
    its Rot and Blank cards, the deck and the points, as of the last resolution."""
    chief = leader(state)
    rows = []
    for p in state.players:
        cards = hand(p)
        notes = [] if alive(p) else ["dead"]
        if p.name == chief:
            notes.append("Leader")
        rows.append(
            (
                _label(p),
                p.role or "",
                str(len(cards)),
                str(sum(1 for c in cards if c == ROT)),
                str(sum(1 for c in cards if c == BLANK)),
                str(len(p.fields.get("deck") or [])),
                str(p.fields.get("points", 0)),
                ", ".join(notes),
            )
        )
    columns = ("character", "role", "hand", "Rot", "Blank", "deck", "points", "notes")
    return HostTable("Hands", columns, tuple(rows))
