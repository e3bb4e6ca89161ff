"""Loading a card collection: the shipped sample, a host's file, or a game state's copy.

`collection_of` turns the option value of a game (nothing: the shipped sample; a path; a
stored document) into a Collection; `rulesets.minimafik.schema` checks every document.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from engine.core.warnings import N_
from rulesets.minimafik.cards import SAMPLE, Collection
from rulesets.minimafik.schema import Checker, CollectionError, parse_collection

__all__ = [
    "COLLECTION_REFUSED",
    "CollectionError",
    "collection_of",
    "load_collection",
    "parse_collection",
    "stored",
]

COLLECTION_REFUSED = N_("option {key}: {said}")
"""A game file's collection (or visible_roles) option refused: `said` is the CollectionError,
itself made from templates, so the host reads the whole of it in his language."""


def _yaml_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line of each card (`cards`, index) and visible role in a YAML text."""
    lines: dict[tuple[str, ...], int] = {}
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return lines
    if not isinstance(root, yaml.MappingNode):
        return lines
    for key, value in root.value:
        section = str(key.value)
        lines[(section,)] = key.start_mark.line + 1
        if isinstance(value, yaml.SequenceNode):
            for i, item in enumerate(value.value):
                lines[(section, str(i))] = item.start_mark.line + 1
        elif isinstance(value, yaml.MappingNode):
            for k, _item in value.value:
                lines[(section, str(k.value))] = k.start_mark.line + 1
    return lines


def parse_collection_text(text: str, source: str) -> Collection:
    """A collection from the text of a YAML or (by a .toml name) TOML file."""
    if source.endswith(".toml"):
        try:
            doc: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            said = N_("{where}: not valid TOML: {reason}").format(where=source, reason=exc)
            raise CollectionError(said) from exc
        return parse_collection(doc, source)
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark is not None else source
        said = N_("{where}: not valid YAML: {reason}")  # the parser's words, as it says them
        why = getattr(exc, "problem", exc)
        raise CollectionError(said.format(where=where, reason=why)) from exc
    return parse_collection(doc, source, _yaml_lines(text))


@lru_cache(maxsize=8)
def sample_collection() -> Collection:
    text = resources.files("rulesets.minimafik").joinpath(SAMPLE).read_text(encoding="utf-8")
    return parse_collection_text(text, SAMPLE)


def load_collection(path: str | Path) -> Collection:
    """Read a host's collection file (YAML, or TOML by its extension)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise _unread(path, exc) from exc
    return parse_collection_text(text, str(path))


def _unread(path: str | Path, exc: OSError) -> CollectionError:
    said = N_("{where}: cannot read: {reason}")  # the system's words, as it says them
    return CollectionError(said.format(where=path, reason=exc.strerror or exc))


_BY_KEY: dict[str, Collection] = {}
STORED = "json"
"""A game state keeps its collection as ``{"json": "<the checked document>"}``: one string
is cheap to copy with the state every phase and is its own cache key."""


def stored(collection: Collection) -> dict[str, str]:
    """The form a game state keeps a collection in (see `STORED`)."""
    return {STORED: json.dumps(collection.as_doc(), sort_keys=True, ensure_ascii=False)}


def collection_of(value: Any) -> Collection:
    """The collection an option value names: None (the sample), a file path, a document
    (a scenario's inline cards) or the stored form of a game state.

    Stored and inline documents are cached by their content, so intake and resolution,
    called for every order, do not check the same cards again.
    """
    if value is None or value == "sample":
        return sample_collection()
    if isinstance(value, str | Path):
        return load_collection(value)
    if isinstance(value, Mapping):
        if set(value) == {STORED} and isinstance(value[STORED], str):
            key = value[STORED]
            hit = _BY_KEY.get(key)
            if hit is None:
                doc = json.loads(key)
                hit = parse_collection(doc, str(doc.get("source") or "<stored collection>"))
        else:
            key = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
            hit = _BY_KEY.get(key)
            if hit is None:
                hit = parse_collection(
                    dict(value), str(value.get("source") or "<options.collection>")
                )
        if len(_BY_KEY) > 32:
            _BY_KEY.clear()
        _BY_KEY[key] = hit
        return hit
    raise CollectionError(
        N_("collection: expected a file path, got {value}").format(value=repr(value))
    )


def with_visible_roles(collection: Collection, value: Any) -> Collection:
    """The collection with the `visible_roles` option's data (a path or a mapping) merged in."""
    if value is None or value == {}:
        return collection
    if isinstance(value, str | Path):
        path = str(value)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise _unread(path, exc) from exc
        try:
            doc = tomllib.loads(text) if path.endswith(".toml") else yaml.safe_load(text)
        except (yaml.YAMLError, tomllib.TOMLDecodeError) as exc:
            said = N_("{where}: cannot parse: {reason}").format(where=path, reason=exc)
            raise CollectionError(said) from exc
        lines = {} if path.endswith(".toml") else _yaml_lines(text)
        source = path
    elif isinstance(value, Mapping):
        doc, lines, source = dict(value), {}, "<options.visible_roles>"
    else:
        said = N_("visible_roles: expected a file path or a table, got {value}")
        raise CollectionError(said.format(value=repr(value)))
    if isinstance(doc, dict) and "visible_roles" in doc:
        doc = doc["visible_roles"]
        lines = {k[1:]: v for k, v in lines.items() if k[:1] == ("visible_roles",)}
    shifted = {("visible_roles", *k): v for k, v in lines.items()}
    roles = Checker(source, shifted).visible_roles(doc, collection.cards)
    return Collection(collection.cards, {**collection.visible_roles, **roles}, collection.source)
