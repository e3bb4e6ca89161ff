"""What the host sees of a yakuza game beside the phase: the HP table (never published)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.model import GameState, PlayerState
from engine.core.ruleset import HostTable
from rulesets.yakuza.state import alive
from rulesets.yakuza.texts import HOST, HOST_STATUSES, ROLES, VISIBLE


def _status(code: str, lang: str) -> str:
    """A state code in the host's words; a code the table does not know stays as it is."""
    return HOST_STATUSES.get(lang, {}).get(code, code)


def _notes(p: PlayerState, lang: str, words: Mapping[str, str]) -> str:
    notes = []
    if p.fields.get("mortally_wounded"):
        notes.append(words["mortally wounded"])
    if p.fields.get("fake_hp") is not None:
        notes.append(words["disinformed"].format(hp=p.fields["fake_hp"]))
    public = p.fields.get("public_status")
    if public and public != p.fields.get("status"):
        notes.append(words["town sees"].format(status=_status(str(public), lang)))
    return "; ".join(notes)


def hp_table(state: GameState, lang: str = "en") -> HostTable:
    """Everybody's real HP, maximum and status, with what the town sees where it differs, in
    the host's language (English keeps the role and status codes, as it always has)."""
    words = HOST.get(lang, HOST["en"])
    roles = ROLES[lang] if lang != "en" and lang in ROLES else {}
    visible = VISIBLE[lang] if lang != "en" and lang in VISIBLE else {}
    rows = []
    for p in state.players:
        shown = p.fields.get("visible_role")
        status = str(p.fields.get("status") or ("alive" if alive(p) else "dead"))
        rows.append(
            (
                p.name,
                roles.get(p.role or "", p.role or ""),
                visible.get(str(shown), str(shown)) if shown else "—",
                f"{p.fields.get('hp', 0)}/{p.fields.get('max_hp', 0)}",
                _status(status, lang),
                _notes(p, lang, words),
            )
        )
    columns = ("player", "role", "visible role", "HP", "status", "notes")
    return HostTable(words["title"], tuple(words[c] for c in columns), tuple(rows))
