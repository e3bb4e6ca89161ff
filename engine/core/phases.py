"""Phase identifiers ("turn 3", "night 1") and phases with timezone-aware deadlines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

_PHASE_RE = re.compile(r"^\s*([a-z_]+)\s*(\d+)?\s*$")


@dataclass(frozen=True, order=True)
class PhaseId:
    """A phase as the ruleset names it: a kind ("turn", "day", "night") and a number."""

    kind: str
    number: int = 0

    @classmethod
    def parse(cls, text: str) -> PhaseId:
        match = _PHASE_RE.match(text.lower())
        if not match:
            raise ValueError(f"not a phase name: {text!r} (expected e.g. 'turn 1' or 'night 2')")
        return cls(match.group(1), int(match.group(2) or 0))

    def __str__(self) -> str:
        return f"{self.kind} {self.number}" if self.number else self.kind


@dataclass(frozen=True)
class Phase:
    """One phase of a game: its id, when it opened and its deadline (both timezone-aware)."""

    id: PhaseId
    opened_at: datetime
    deadline: datetime

    def __post_init__(self) -> None:
        for label, value in (("opened_at", self.opened_at), ("deadline", self.deadline)):
            if value.tzinfo is None or value.utcoffset() is None:
                raise ValueError(f"phase {self.id}: {label} must be timezone-aware, got {value}")
        if self.deadline <= self.opened_at:
            raise ValueError(f"phase {self.id}: deadline {self.deadline} is not after opening")

    def is_late(self, at: datetime | None) -> bool:
        """True when something submitted at `at` missed this phase's deadline."""
        return at is not None and at > self.deadline
