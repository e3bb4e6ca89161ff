"""What many simulated games add up to: win counts, game lengths and who survived.

Everything is kept as whole-number counts, so partial summaries from several workers merge to
the same figures in any order: a run is deterministic per seed whatever the worker count.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

NO_WINNER = "none"
"""The outcome of a game that reached the phase cap without a winner."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): unlike p ± z·se it stays
    inside [0, 1] and is honest for rates near 0 or 1 and for small samples."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class GameRecord:
    """One simulated game: who won, how many phases it took, and each seat's fate."""

    winner: str | None
    phases: int
    seats: tuple[tuple[str, str, bool], ...]
    """(role, faction, survived) per seat; role and faction as dealt."""


@dataclass
class Summary:
    """Counts over many games; `add` one game, `merge` another summary."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    dealt: Counter[str] = field(default_factory=Counter)
    survived: Counter[str] = field(default_factory=Counter)

    def add(self, game: GameRecord) -> None:
        self.games += 1
        self.wins[game.winner or NO_WINNER] += 1
        self.lengths[game.phases] += 1
        for role, faction, alive in game.seats:
            key = role_key(role, faction)
            self.dealt[key] += 1
            if alive:
                self.survived[key] += 1

    def merge(self, other: Summary) -> None:
        self.games += other.games
        self.wins.update(other.wins)
        self.lengths.update(other.lengths)
        self.dealt.update(other.dealt)
        self.survived.update(other.survived)

    # -- figures ---------------------------------------------------------------------------

    def win_rate(self, side: str) -> tuple[float, float, float]:
        """The share of games `side` won, with its 95% Wilson interval."""
        won = self.wins.get(side, 0)
        low, high = wilson(won, self.games)
        return (won / self.games if self.games else 0.0), low, high

    def length_mean(self) -> float:
        if not self.games:
            return 0.0
        return sum(n * c for n, c in self.lengths.items()) / self.games

    def length_sd(self) -> float:
        """The standard deviation of the game length (sample, n − 1)."""
        if self.games < 2:
            return 0.0
        mean = self.length_mean()
        square = sum(c * (n - mean) ** 2 for n, c in self.lengths.items())
        return math.sqrt(square / (self.games - 1))

    def length_quantile(self, q: float) -> int:
        """The smallest length at or below which a share `q` of the games ended."""
        if not self.games:
            return 0
        wanted, seen = q * self.games, 0
        for length in sorted(self.lengths):
            seen += self.lengths[length]
            if seen >= wanted:
                return length
        return max(self.lengths)

    def survival(self, key: str) -> float:
        dealt = self.dealt.get(key, 0)
        return self.survived.get(key, 0) / dealt if dealt else 0.0

    def sides(self) -> list[str]:
        """Outcomes seen, most wins first (no winner last)."""
        found = sorted(self.wins, key=lambda s: (s == NO_WINNER, -self.wins[s], s))
        return found

    def as_json(self) -> dict[str, Any]:
        lengths = sorted(self.lengths)
        return {
            "games": self.games,
            "wins": {
                side: {
                    "games": self.wins[side],
                    "rate": rate,
                    "interval95": [low, high],
                }
                for side in self.sides()
                for rate, low, high in [self.win_rate(side)]
            },
            "length": {
                "mean": self.length_mean(),
                "sd": self.length_sd(),
                "min": lengths[0] if lengths else 0,
                "median": self.length_quantile(0.5),
                "p90": self.length_quantile(0.9),
                "max": lengths[-1] if lengths else 0,
                "histogram": {str(n): self.lengths[n] for n in lengths},
            },
            "survival": {
                key: {
                    "dealt": self.dealt[key],
                    "survived": self.survived.get(key, 0),
                    "rate": self.survival(key),
                }
                for key in sorted(self.dealt)
            },
        }


def role_key(role: str, faction: str) -> str:
    """How a role is counted: "mafioso (mafia)", or the role alone where it has no faction."""
    return f"{role} ({faction})" if faction else role
