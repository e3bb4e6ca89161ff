"""Reading scenario YAML files into checked data, with the line of every problem."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.core.phases import PhaseId


class ScenarioError(Exception):
    """The scenario file itself is invalid (exit code 2)."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {reason}")
        self.path, self.line, self.reason = path, line, reason


class _Map(dict[str, Any]):
    line: int = 0


class _List(list[Any]):
    line: int = 0


class _Loader(yaml.SafeLoader):
    """A safe loader that remembers the line of every mapping and list."""


def _map(loader: _Loader, node: yaml.MappingNode) -> _Map:
    out = _Map()
    out.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            )
        out[str(key) if not isinstance(key, str) else key] = loader.construct_object(
            value_node, deep=True
        )
    return out


def _seq(loader: _Loader, node: yaml.SequenceNode) -> _List:
    out = _List(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _seq)


def line_of(value: Any) -> int | None:
    return getattr(value, "line", None)


@dataclass
class ScenarioPhase:
    phase: PhaseId
    orders: list[Mapping[str, Any]]
    votes: Mapping[str, Any]
    posts: list[Mapping[str, Any]]
    expect: Mapping[str, Any] | None
    line: int | None = None
    host: list[Mapping[str, Any]] = field(default_factory=list)
    """The host's measures, applied after `orders` and `votes`, before `posts`:
    `{remove: NAME, reveal: true|false}`, `{grant: ID, player: NAME, value: …}`,
    `{end: FACTION | draw | abandoned}` (the phase then ends unresolved)."""


@dataclass
class Scenario:
    path: str
    ruleset: str
    options: dict[str, Any]
    seed: int
    players: list[Mapping[str, Any]]
    phases: list[ScenarioPhase]
    timezone: str = "Europe/Moscow"
    raw: Mapping[str, Any] = field(default_factory=dict)


_TOP = {"ruleset", "options", "seed", "players", "phases", "timezone", "description"}
_PHASE = {"phase", "orders", "votes", "posts", "expect", "host"}
_HOST = {"remove", "reveal", "grant", "player", "value", "end"}
_EXPECT = {"died", "alive", "state", "public", "private", "winner", "parse_warnings"}


def load_scenario(path: str | Path) -> Scenario:
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(name, None, f"cannot read: {exc.strerror or exc}") from exc
    return parse_scenario(text, name)


def parse_scenario(text: str, name: str = "<scenario>") -> Scenario:
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ScenarioError(
            name, mark.line + 1 if mark else None, f"not valid YAML: {exc.problem}"
        ) from exc
    except yaml.YAMLError as exc:
        raise ScenarioError(name, None, f"not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ScenarioError(name, 1, "a scenario is a mapping with ruleset, players and phases")

    def fail(where: Any, reason: str) -> ScenarioError:
        return ScenarioError(name, line_of(where) or line_of(data), reason)

    _no_unknown(data, _TOP, "scenario", fail)
    for key in ("ruleset", "players", "phases"):
        if key not in data:
            raise fail(data, f"missing `{key}`")
    if not isinstance(data["ruleset"], str):
        raise fail(data, "`ruleset` must be a ruleset id such as classic")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise fail(data, "`options` must be a mapping")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise fail(data, "`seed` must be an integer")
    players = data["players"]
    if not isinstance(players, list) or not players:
        raise fail(data, "`players` must be a non-empty list")
    for p in players:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str | int):
            raise fail(p if isinstance(p, dict) else players, "each player needs a `name`")
        p["name"] = str(p["name"])
    phases = data["phases"]
    if not isinstance(phases, list) or not phases:
        raise fail(data, "`phases` must be a non-empty list")
    return Scenario(
        path=name,
        ruleset=data["ruleset"],
        options=dict(options),
        seed=seed,
        players=players,
        phases=[_phase(ph, fail) for ph in phases],
        timezone=str(data.get("timezone", "Europe/Moscow")),
        raw=data,
    )


def _phase(ph: Any, fail: Any) -> ScenarioPhase:
    if not isinstance(ph, dict) or "phase" not in ph:
        raise fail(ph, "each phase needs `phase:` (e.g. `turn 1`)")
    _no_unknown(ph, _PHASE, "phase", fail)
    try:
        phase_id = PhaseId.parse(str(ph["phase"]))
    except ValueError as exc:
        raise fail(ph, str(exc)) from exc
    orders = ph.get("orders") or []
    votes = ph.get("votes") or {}
    posts = ph.get("posts") or []
    expect = ph.get("expect")
    if not isinstance(orders, list):
        raise fail(ph, "`orders` must be a list")
    for o in orders:
        if not isinstance(o, dict) or "player" not in o or "action" not in o:
            raise fail(o if isinstance(o, dict) else orders, "an order needs `player` and `action`")
        if not isinstance(o.get("targets", []), list):
            raise fail(o, "`targets` must be a list")
    if not isinstance(votes, dict):
        raise fail(ph, "`votes` must be a mapping voter -> target")
    if not isinstance(posts, list):
        raise fail(ph, "`posts` must be a list")
    for p in posts:
        if not isinstance(p, dict) or "player" not in p or "text" not in p:
            raise fail(p if isinstance(p, dict) else posts, "a post needs `player` and `text`")
        if p.get("channel", "thread") not in ("pm", "thread"):
            raise fail(p, "`channel` must be pm or thread")
    host = ph.get("host") or []
    if not isinstance(host, list):
        raise fail(ph, "`host` must be a list")
    for m in host:
        if not isinstance(m, dict) or len({"remove", "grant", "end"} & set(m)) != 1:
            raise fail(
                m if isinstance(m, dict) else host,
                "a host entry is one of `remove`, `grant`, `end`",
            )
        _no_unknown(m, _HOST, "host entry", fail)
        if "grant" in m and "player" not in m:
            raise fail(m, "a grant needs `player`")
    if expect is not None:
        if not isinstance(expect, dict):
            raise fail(ph, "`expect` must be a mapping")
        _no_unknown(expect, _EXPECT, "expect", fail)
    return ScenarioPhase(phase_id, orders, votes, posts, expect, line_of(ph), host)


def _no_unknown(data: Mapping[str, Any], known: set[str], what: str, fail: Any) -> None:
    for key in data:
        if key not in known:
            raise fail(data, f"unknown key `{key}` in {what} (known: {', '.join(sorted(known))})")
