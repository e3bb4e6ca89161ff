"""Matching a phase's outcome against a scenario's `expect`, with a readable difference."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from engine.core.events import Event


@dataclass
class Failure:
    phase: str
    key: str
    message: str
    expected: Any = None
    actual: Any = None

    def render(self) -> str:
        lines = [f"  {self.phase}: {self.key}: {self.message}"]
        if self.expected is not None or self.actual is not None:
            lines.append(f"    expected: {_flow(self.expected)}")
            lines.append(f"    actual:   {_flow(self.actual)}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "key": self.key,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
        }


def _flow(value: Any) -> str:
    return yaml.safe_dump(
        _plain(value), default_flow_style=True, allow_unicode=True, width=10_000, sort_keys=False
    ).strip()


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_plain(v) for v in value]
        return sorted(items, key=str) if isinstance(value, set | frozenset) else items
    return value


def norm(value: Any) -> Any:
    """Names compare as the parser compares nicknames: case and ё/е do not matter."""
    if isinstance(value, str):
        return value.strip().casefold().replace("ё", "е")
    if isinstance(value, Mapping):
        return {norm(k): norm(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [norm(v) for v in value]
    return value


def event_matches(expected: Mapping[str, Any], event: Event) -> bool:
    actual = {"type": event.type, **event.fields}
    for key, want in expected.items():
        if key not in actual or norm(actual[key]) != norm(want):
            return False
    return True


def check_events(
    phase: str, key: str, expected: Iterable[Mapping[str, Any]], events: list[Event]
) -> list[Failure]:
    failures = []
    for want in expected:
        if any(event_matches(want, e) for e in events):
            continue
        same_type = [{"type": e.type, **e.fields} for e in events if e.type == want.get("type")]
        if same_type:
            message = f"no {want.get('type')} event matches; events of that type"
            failures.append(Failure(phase, key, message, dict(want), same_type))
        else:
            seen = sorted({e.type for e in events})
            message = f"no {want.get('type')} event at all (event types seen: {', '.join(seen) or 'none'})"
            failures.append(Failure(phase, key, message, dict(want), None))
    return failures


def check_set(
    phase: str, key: str, expected: Iterable[Any], actual: Iterable[str]
) -> list[Failure]:
    want = {norm(str(x)) for x in expected}
    got = list(actual)
    if want == {norm(x) for x in got}:
        return []
    extra = sorted(x for x in got if norm(x) not in want)
    missing = sorted(str(x) for x in expected if norm(str(x)) not in {norm(g) for g in got})
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"unexpected {', '.join(extra)}")
    return [Failure(phase, key, "; ".join(parts), sorted(str(x) for x in expected), sorted(got))]
