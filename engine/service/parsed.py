"""Parse results kept per content of a post or PM, so a replay parses only what is new.

A key hashes everything `GameSession.parse` reads: the content (its hash), sender, channel,
board id, address and time, the ruleset's grammar, the roster and aliases, and the parser's
own code (the source of `scraper/` and `engine/core/` and the word-form dictionaries'
versions). A kept result is therefore exactly what parsing again would give; a result whose
JSON form would not read back equal is not kept at all.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from engine.core.orders import Channel, Source
from engine.core.warnings import ParseWarning
from engine.store.codec import order_from_json, order_to_json
from scraper.matcher import ParseResult

_ROOT = Path(__file__).resolve().parents[2]
_PARSER_SOURCES = ("scraper", "engine/core", "forums/records.py")
_PARSER_PACKAGES = ("pymorphy3", "pymorphy3-dicts-ru", "rapidfuzz", "pyspellchecker")


@cache
def parser_version() -> str:
    """A hash of the code and dictionaries a parse depends on (a new release parses anew)."""
    digest = hashlib.sha256()
    for name in _PARSER_SOURCES:
        path = _ROOT / name
        for source in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(source.relative_to(_ROOT).as_posix().encode())
            digest.update(source.read_bytes())
    for package in _PARSER_PACKAGES:
        try:
            digest.update(f"{package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package}=-".encode())
    return digest.hexdigest()


def canonical(value: Any) -> Any:
    """Plain JSON data for a grammar, roster or aliases: the same for equal values in every
    process (sets sorted, enums by value, dataclasses by field)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return canonical(value.value)
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, set | frozenset):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


_SEEN: dict[int, tuple[Any, Any]] = {}
"""id → (value, its canonical form) for the grammars: rulesets keep one object per variant,
and a grammar is plain frozen data, so its form is worked out once per process."""


def _canonical_once(value: Any) -> Any:
    known = _SEEN.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    form = canonical(value)
    if len(_SEEN) < 64:
        _SEEN[id(value)] = (value, form)  # the reference keeps the id from being reused
    return form


def context_key(context: Mapping[str, Any]) -> str:
    """The part of every key that is the same for a whole replay."""
    parts = {k: _canonical_once(v) if k == "grammar" else canonical(v) for k, v in context.items()}
    text = json.dumps([parser_version(), parts], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def item_key(
    context: str,
    channel: str,
    item_id: str,
    author: str,
    at: datetime,
    url: str | None,
    digest: str,
) -> str:
    text = json.dumps([context, channel, item_id, author, at.isoformat(), url, digest])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _warning_to_json(w: ParseWarning) -> dict[str, Any]:
    src = w.source
    return {
        "code": w.code,
        "message": w.message,
        "player": w.player,
        "source": None if src is None else dataclasses.asdict(src) | {"channel": src.channel.value},
        "choices": list(w.choices),
        "action": w.action,
        "accepted": w.accepted,
    }


def _warning_from_json(data: Mapping[str, Any]) -> ParseWarning:
    src = data["source"]
    return ParseWarning(
        code=data["code"],
        message=data["message"],
        player=data["player"],
        source=None if src is None else Source(**{**src, "channel": Channel(src["channel"])}),
        choices=tuple(data["choices"]),
        action=data["action"],
        accepted=data["accepted"],
    )


def result_to_json(result: ParseResult) -> dict[str, Any] | None:
    """The result as the store keeps it; None when its JSON would not read back equal."""
    try:
        data = {
            "orders": [order_to_json(o) for o in result.orders],
            "warnings": [_warning_to_json(w) for w in result.warnings],
        }
        data = json.loads(json.dumps(data))
    except (TypeError, ValueError):
        return None
    back = result_from_json(data)
    if back.orders != result.orders or back.warnings != result.warnings:
        return None
    return data


def result_from_json(data: Mapping[str, Any]) -> ParseResult:
    return ParseResult(
        orders=[order_from_json(o) for o in data["orders"]],
        warnings=[_warning_from_json(w) for w in data["warnings"]],
    )
