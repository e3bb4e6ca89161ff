"""Events: the structured results of intake and resolution. Text is rendered from them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Audience(StrEnum):
    """Who may see an event."""

    PUBLIC = "public"
    """The results post (or another public post) in the game thread."""
    PRIVATE = "private"
    """A PM to each player listed in `to`."""
    HOST = "host"
    """The host's log only (e.g. the real sender of an anonymous message)."""


_PUBLIC, _PRIVATE, _HOST = Audience.PUBLIC, Audience.PRIVATE, Audience.HOST
"""Read once: in Python 3.11 an enum class's attribute goes through its metaclass's
__getattr__ hook, several times a global's cost, and every event asks."""


@dataclass(frozen=True)
class Event:
    """A structured result: `type` plus fields, and who may see it."""

    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    audience: Audience = Audience.PUBLIC
    to: tuple[str, ...] = ()

    # The constructors below fill the instance's fields directly: a frozen dataclass's
    # __init__ sets each through object.__setattr__, and every order and result makes events
    # (a simulation makes millions). The instance is the same as `cls(type, fields, …)`.

    @classmethod
    def public(cls, type: str, /, **fields: Any) -> Event:
        return _event(cls, type, fields, _PUBLIC, ())  # **fields is a fresh dict

    @classmethod
    def private(cls, to: str | Iterable[str], type: str, /, **fields: Any) -> Event:
        recipients = (to,) if isinstance(to, str) else tuple(to)
        return _event(cls, type, fields, _PRIVATE, recipients)

    @classmethod
    def host(cls, type: str, /, **fields: Any) -> Event:
        return _event(cls, type, fields, _HOST, ())

    @property
    def is_public(self) -> bool:
        return self.audience is _PUBLIC

    def visible_to(self, player: str) -> bool:
        return self.audience is _PRIVATE and player in self.to

    def as_dict(self) -> dict[str, Any]:
        """The event as scenario files and JSON output write it."""
        out: dict[str, Any] = {"type": self.type, **self.fields}
        out["audience"] = self.audience.value
        if self.to:
            out["to"] = list(self.to)
        return out


def _event(
    cls: type[Event], kind: str, fields: Mapping[str, Any], audience: Audience, to: tuple[str, ...]
) -> Event:
    event = object.__new__(cls)
    event.__dict__.update(type=kind, fields=fields, audience=audience, to=to)
    return event


def public_events(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.is_public]


def private_events(events: Iterable[Event], player: str) -> list[Event]:
    return [e for e in events if e.visible_to(player)]


def fields_of(event: Event) -> Mapping[str, Any]:
    return {"type": event.type, **event.fields}
