"""How simulated players decide: `smart` or `random`, for every side or side by side.

`--policy smart` (the default) plays each side as the ruleset's demo bots do, with what their
PMs tell them; `--policy random` sends random but legal orders; `--policy smart,mafia=random`
plays the mafia at random and everyone else smart. A side is a faction id as the ruleset deals
it (classic: town, mafia, mafia_b, loner; yakuza: law, mafia, yakuza, neutral; …).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.i18n import L_

SMART = "smart"
RANDOM = "random"
LEVELS = (SMART, RANDOM)


class PolicyError(ValueError):
    """A --policy text that names no level or an unknown one."""


@dataclass(frozen=True)
class Policy:
    default: str = SMART
    sides: tuple[tuple[str, str], ...] = ()
    """(side, level) where a side plays otherwise than `default`."""

    def level(self, side: str | None) -> str:
        for name, level in self.sides:
            if name == side:
                return level
        return self.default

    def smart(self, side: str | None) -> bool:
        return self.level(side) == SMART

    @classmethod
    def parse(cls, text: str) -> Policy:
        """ "smart", "random", "random,mafia=smart", "town=random" (the rest smart)."""
        default, sides = SMART, []
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            raise PolicyError(L_("--policy: write smart, random, or e.g. smart,mafia=random"))
        for part in parts:
            side, eq, level = part.partition("=")
            level = (level if eq else side).strip().lower()
            if level not in LEVELS:
                said = L_(
                    "--policy: {level!r} is not one of {levels}",
                    level=level,
                    levels=", ".join(LEVELS),
                )
                raise PolicyError(said)
            if eq:
                if not side.strip():
                    raise PolicyError(L_("--policy: {part!r} names no side", part=part))
                sides.append((side.strip(), level))
            else:
                default = level
        return cls(default, tuple(sides))

    def check_sides(self, known: Iterable[str]) -> None:
        known = sorted(set(known))
        for side, _ in self.sides:
            if side not in known:
                said = L_(
                    "--policy: no side {side!r} in this game ({known})",
                    side=side,
                    known=", ".join(known),
                )
                raise PolicyError(said)

    def __str__(self) -> str:
        return ",".join([self.default, *(f"{s}={lv}" for s, lv in self.sides)])
