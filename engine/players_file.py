"""The per-game players file a host keeps (issue 4): who plays, who is out, substitutes, aliases.

```yaml
players: [Вася, Петя, SleepyKrew]     # in play, in seating order
dead: [Оля]                           # out of play: votes by or for them do not count
replacements: {SleepyKrew: kondi2424} # new: old — the substitute took the old player's slot
aliases: {Петя: [Пётр, PT]}           # extra short forms the host accepts
```
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from scraper.reading import Cast


class PlayersFileError(ValueError):
    """The players file is not valid; the message says where."""


def _names(doc: Mapping[str, Any], key: str) -> list[str]:
    value = doc.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise PlayersFileError(f"{key}: expected a list of names")
    return [str(v) for v in value]


def parse_players(doc: Any) -> Cast:
    """A `Cast` from the loaded YAML document."""
    if not isinstance(doc, Mapping):
        raise PlayersFileError("expected a mapping with players:, dead:, replacements:, aliases:")
    unknown = set(doc) - {"players", "dead", "replacements", "aliases"}
    if unknown:
        raise PlayersFileError(f"unknown keys: {', '.join(sorted(map(str, unknown)))}")
    players = _names(doc, "players")
    dead = _names(doc, "dead")
    if not players:
        raise PlayersFileError("players: at least one player is needed")
    twice = {n for n in players + dead if (players + dead).count(n) > 1}
    if twice:
        raise PlayersFileError(f"listed twice: {', '.join(sorted(twice))}")
    replacements = doc.get("replacements") or {}
    if not isinstance(replacements, Mapping):
        raise PlayersFileError("replacements: expected a mapping new: old")
    replacements = {str(k): str(v) for k, v in replacements.items()}
    for new in replacements:
        if new not in players and new not in dead:
            raise PlayersFileError(f"replacements: {new} is neither in players nor in dead")
    aliases = doc.get("aliases") or {}
    if not isinstance(aliases, Mapping):
        raise PlayersFileError("aliases: expected a mapping name: [forms]")
    everyone = set(players) | set(dead) | set(replacements.values())
    clean: dict[str, tuple[str, ...]] = {}
    for name, forms in aliases.items():
        if str(name) not in everyone:
            raise PlayersFileError(f"aliases: {name} is not a player")
        forms = [forms] if isinstance(forms, str) else forms
        if not isinstance(forms, list):
            raise PlayersFileError(f"aliases: {name}: expected a list of forms")
        clean[str(name)] = tuple(str(f) for f in forms)
    return Cast(tuple(players), tuple(dead), replacements, clean)


def load_players(path: str | Path) -> Cast:
    """Read a players file; `PlayersFileError` names the problem."""
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise PlayersFileError(f"{path}: {exc}") from exc
    try:
        return parse_players(doc)
    except PlayersFileError as exc:
        raise PlayersFileError(f"{path}: {exc}") from exc
