"""The per-game players file a host keeps (issue 4): who plays, who is out, substitutes, aliases.

```yaml
players: [Вася, Петя, SleepyKrew]     # in play, in seating order
dead: [Оля]                           # out of play: votes by or for them do not count
replacements:                         # new: old — the substitute took the old player's slot
  SleepyKrew: kondi2424               #   from the substitute's first post on
  Новичок: {replaces: Вася, from_post: 284}   # or from a post number (or `at: 2026-12-03 12:00`)
  Вася: Дима                          # chains in any order: Новичок replaced Вася, who replaced Дима
aliases: {Петя: [Пётр, PT]}           # extra short forms the host accepts
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from engine.core.slots import Handover, SlotError
from engine.i18n import _
from scraper.reading import Cast

PLAYERS_HELP = (
    "The game's players YAML file: `players: [Вася, Петя, Маша]` (the names in play, in "
    "seating order), and optionally `dead: [Оля]`, `replacements: {Новичок: Вася}` "
    "(substitute: player replaced) and `aliases: {Петя: [Пётр, PT]}`."
)
"""What `--players` says in the help of the commands that read a players file."""


class PlayersFileError(ValueError):
    """The players file is not valid; the message says where."""


def _names(doc: Mapping[str, Any], key: str) -> list[str]:
    value = doc.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise PlayersFileError(_("{key}: expected a list of names").format(key=key))
    return [str(v) for v in value]


def parse_players(doc: Any) -> Cast:
    """A `Cast` from the loaded YAML document."""
    if not isinstance(doc, Mapping):
        raise PlayersFileError(
            _("expected a mapping with players:, dead:, replacements:, aliases:")
        )
    unknown = set(doc) - {"players", "dead", "replacements", "aliases"}
    if unknown:
        said = _("unknown keys: {keys}").format(keys=", ".join(sorted(map(str, unknown))))
        raise PlayersFileError(said)
    players = _names(doc, "players")
    dead = _names(doc, "dead")
    if not players:
        raise PlayersFileError(_("players: at least one player is needed"))
    twice = {n for n in players + dead if (players + dead).count(n) > 1}
    if twice:
        raise PlayersFileError(_("listed twice: {names}").format(names=", ".join(sorted(twice))))
    handovers = _handovers(doc.get("replacements") or {})
    try:
        cast = Cast(tuple(players), tuple(dead), {h.new: h.old for h in handovers}, {}, handovers)
        cast.slots  # noqa: B018 - checks the chains: cycles, a name in two chains
    except SlotError as exc:
        from engine.config import slot_problem

        raise PlayersFileError(slot_problem(exc)) from None
    aliases = doc.get("aliases") or {}
    if not isinstance(aliases, Mapping):
        raise PlayersFileError(_("aliases: expected a mapping name: [forms]"))
    everyone = set(cast.roster)
    clean: dict[str, tuple[str, ...]] = {}
    for name, forms in aliases.items():
        if str(name) not in everyone:
            raise PlayersFileError(_("aliases: {name} is not a player").format(name=name))
        forms = [forms] if isinstance(forms, str) else forms
        if not isinstance(forms, list):
            raise PlayersFileError(_("aliases: {name}: expected a list of forms").format(name=name))
        clean[str(name)] = tuple(str(f) for f in forms)
    return replace(cast, aliases=clean)


def _handovers(doc: Any) -> tuple[Handover, ...]:
    """`replacements:` as handovers: `new: old` or `new: {replaces: old, from_post: N}`."""
    if not isinstance(doc, Mapping):
        raise PlayersFileError(_("replacements: expected a mapping new: old"))
    out = []
    for new, value in doc.items():
        if isinstance(value, str | int):
            out.append(Handover(str(new), str(value)))
            continue
        if not isinstance(value, Mapping) or "replaces" not in value:
            raise PlayersFileError(
                _(
                    "replacements: {new}: expected the name they replaced, or "
                    "{{replaces: name, from_post: number}}"
                ).format(new=new)
            )
        unknown = set(value) - {"replaces", "from_post", "at"}
        if unknown:
            said = _("replacements: {new}: unknown keys {keys}")
            raise PlayersFileError(said.format(new=new, keys=", ".join(sorted(unknown))))
        post, at = value.get("from_post"), value.get("at")
        if post is not None and (not isinstance(post, int) or isinstance(post, bool) or post < 0):
            said = _("replacements: {new}: from_post must be a post number")
            raise PlayersFileError(said.format(new=new))
        if at is not None:
            at = _moment(new, at)
        out.append(Handover(str(new), str(value["replaces"]), at=at, post=post))
    return tuple(out)


def _moment(new: object, value: object) -> datetime:
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            said = _("replacements: {new}: at {value!r} is not a date and time")
            raise PlayersFileError(said.format(new=new, value=value)) from None
    if moment.tzinfo is None:
        said = _("replacements: {new}: at {value!r} needs a UTC offset (+03:00)")
        raise PlayersFileError(said.format(new=new, value=value))
    return moment


class _UniqueKeys(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice (YAML would keep the last silently)."""


def _mapping(loader: _UniqueKeys, node: yaml.MappingNode) -> dict[Any, Any]:
    keys = [loader.construct_object(k) for k, _ in node.value]
    twice = sorted({str(k) for k in keys if keys.count(k) > 1})
    if twice:
        said = _("line {line}: {keys} given twice")
        raise PlayersFileError(said.format(line=node.start_mark.line + 1, keys=", ".join(twice)))
    return loader.construct_mapping(node)


_UniqueKeys.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def load_players(path: str | Path) -> Cast:
    """Read a players file; `PlayersFileError` names the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        said = _(
            "{path}: no such file; write one with the game's names, e.g. "
            "`players: [Вася, Петя, Маша]` (--help shows the whole format)"
        )
        raise PlayersFileError(said.format(path=path)) from None
    except OSError as exc:
        raise PlayersFileError(f"{path}: {exc}") from exc
    try:
        return parse_players(yaml.load(text, Loader=_UniqueKeys))
    except (yaml.YAMLError, PlayersFileError) as exc:
        raise PlayersFileError(f"{path}: {exc}") from exc
