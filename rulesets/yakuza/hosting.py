"""What the host sees of a yakuza game beside the phase: the HP table (never published)."""

from __future__ import annotations

from engine.core.model import GameState, PlayerState
from engine.core.ruleset import HostTable
from rulesets.yakuza.state import alive


def _notes(p: PlayerState) -> str:
    notes = []
    if p.fields.get("mortally_wounded"):
        notes.append("mortally wounded (HP frozen)")
    if p.fields.get("fake_hp") is not None:
        notes.append(f"disinformed: shows {p.fields['fake_hp']} HP")
    public = p.fields.get("public_status")
    if public and public != p.fields.get("status"):
        notes.append(f"the town sees: {public}")
    return "; ".join(notes)


def hp_table(state: GameState) -> HostTable:
    """Everybody's real HP, maximum and status, with what the town sees where it differs."""
    rows = tuple(
        (
            p.name,
            p.role or "",
            str(p.fields.get("visible_role") or "—"),
            f"{p.fields.get('hp', 0)}/{p.fields.get('max_hp', 0)}",
            str(p.fields.get("status") or ("alive" if alive(p) else "dead")),
            _notes(p),
        )
        for p in state.players
    )
    return HostTable("HP", ("player", "role", "visible role", "HP", "status", "notes"), rows)
