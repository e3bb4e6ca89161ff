"""The yakuza roles and abilities (yakuza.md §3, §7, §8, §14), as data."""

from __future__ import annotations

from dataclasses import dataclass

LAW, MAFIA, YAKUZA, NEUTRAL = "law", "mafia", "yakuza", "neutral"
DRAW = "draw"
NO_LYNCH = "no_lynch"

# Statuses (§5.1).
HEALTHY, LIGHT, HOSPITAL, COMA, DEAD = "healthy", "lightly_wounded", "hospital", "coma", "dead"


@dataclass(frozen=True)
class Action:
    """One ability: its resolution step (0 = day), and how the rules treat it."""

    id: str
    step: int
    attack: bool = False
    targeted: bool = True
    hospital: bool = False
    """Usable while the actor is in hospital (never in coma)."""
    once_per_game: bool = False
    mafia: bool = False
    """A mafia night ability (doubled by `mafia_double`)."""
    max_targets: int = 1
    """Targets an order names (0: none); pistol and shuriken are counted at intake."""
    paranoid_ok: bool = True
    """May target the paranoid (§8 #8)."""


ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        Action("disguise", 1, paranoid_ok=False),
        Action("revenge", 2, targeted=False, hospital=True, max_targets=0),
        Action("meditation", 3, targeted=False, max_targets=0),
        Action("meditation_off", 0, targeted=False, hospital=True, max_targets=0),
        Action("guard", 4, targeted=False, max_targets=0),
        Action("protection", 4, once_per_game=True),
        Action("assault", 5, attack=True, mafia=True),
        Action("katana", 6, attack=True),
        Action("pistol", 7, attack=True, mafia=True, max_targets=99),
        Action("sniper_rifle", 8, attack=True, mafia=True),
        Action("dual_pistols", 9, attack=True, mafia=True, max_targets=2),
        Action("shuriken", 10, attack=True, max_targets=99),
        Action("knife", 11, attack=True, hospital=True),
        Action("revolver", 12, attack=True),
        Action("trap", 13),
        Action("message", 14, paranoid_ok=False),
        Action("nagant", 15, attack=True, mafia=True),
        Action("surveillance", 16, paranoid_ok=False),
        Action("shadow", 17, paranoid_ok=False),
        Action("wiretap", 18, paranoid_ok=False),
        Action("dossier", 19, paranoid_ok=False),
        Action("contract", 20, paranoid_ok=False),
        Action("hunt", 21, paranoid_ok=False),
        Action("disinformation", 22, paranoid_ok=False),
        Action("kill", 23),
        Action("observation", 24, targeted=False, once_per_game=True, max_targets=0),
        Action("rest", 25, targeted=False, max_targets=0),
        Action("heal", 26, once_per_game=True),
    )
}
"""Night abilities of the secret roles, by id."""

DAY_ACTIONS: dict[str, str] = {
    "medic_heal": "medic",
    "shock": "electrician",
    "shakedown": "gopnik",
    "curse": "cultist",
    "plagiarize": "plagiarist",
    "loot": "marauder",
    "extra_votes": "revolutionary",
}
"""Day abilities → the visible role that has them (§8)."""

EXTRAS = frozenset({"revenge", "meditation_off"})
"""Orders that accompany the main action instead of replacing it (§7 general rules)."""

HOSPITAL_SPECIAL = {"knife": "maniac"}
"""Hospital-usable only for this role (the psycho's knife is not)."""


@dataclass(frozen=True)
class Role:
    id: str
    faction: str
    actions: tuple[str, ...]


ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        Role("sensei", YAKUZA, ("guard", "meditation", "heal", "revenge")),
        Role("ninja", YAKUZA, ("katana", "trap")),
        Role("shinobi", YAKUZA, ("shadow", "disguise", "disinformation", "shuriken")),
        Role("boss", MAFIA, ("contract", "pistol", "message")),
        Role("brute", MAFIA, ("assault", "wiretap")),
        Role("killer", MAFIA, ("sniper_rifle", "dual_pistols")),
        Role("maniac", NEUTRAL, ("knife", "kill")),
        Role("psycho", NEUTRAL, ("knife", "heal", "hunt")),
        Role("spy", LAW, ("surveillance",)),
        Role("commissar", LAW, ("dossier",)),
        Role("punisher", LAW, ("revolver",)),
        Role("citizen", LAW, ("observation", "heal", "protection", "rest")),
    )
}

ROLE_ORDER = tuple(ROLES)

VISIBLE_ROLES: tuple[str, ...] = (
    "monk",
    "strongman",
    "medic",
    "electrician",
    "authority",
    "paratrooper",
    "revolutionary",
    "paranoid",
    "marauder",
    "lawyer",
    "avenger",
    "chief_doctor",
    "plagiarist",
    "gravedigger",
    "student",
    "gopnik",
    "stuntman",
    "cultist",
    "hulk",
    "vip",
)
NO_VISIBLE = "none"

MAX_HP = {"strongman": 130, "hulk": 180}
START_HP = {"strongman": 130, "hulk": 110}

NOT_PLAGIARIZABLE = frozenset({"strongman", "stuntman", "hulk", "marauder", "plagiarist"})

OBSERVABLE = [
    "guard",
    "meditation",
    "revenge",
    "katana",
    "trap",
    "shadow",
    "disguise",
    "disinformation",
    "shuriken",
    "contract",
    "pistol",
    "message",
    "nagant",
    "assault",
    "wiretap",
    "sniper_rifle",
    "dual_pistols",
]
"""What a citizen may ask about with `observation` (§7.12; not `heal`)."""

PEACEFUL = frozenset({"citizen", "maniac", "psycho"})
"""Roles a dossier reports as `peaceful` (§7.10)."""

DEFAULT_SETUP = {
    "mafia": 3,
    "yakuza": 3,
    "punisher": 2,
    "spy": 1,
    "commissar": 1,
    "maniac": 1,
    "psycho": 1,
}
TEAM_ROLES = {MAFIA: ("boss", "brute", "killer"), YAKUZA: ("sensei", "ninja", "shinobi")}

# Damage and healing amounts (§7, §8).
KATANA, PISTOL, SNIPER, DUAL, SHURIKEN = 65, 20, 75, 35, 10
KNIFE, KNIFE_HOSPITAL, TRAP, NAGANT, REVENGE = 95, 45, 95, 30, 45
REVOLVER = (40, 30, 20)
HEAL, BOUNTY, MONK, REGEN, REGEN_CHIEF = 40, 15, 10, 15, 20
COUNTERATTACK, GRAVEDIGGER = 15, 20
SHOCK, SHAKEDOWN, CURSE_CAP, MEDIC, MEDIC_HOSPITAL = 10, 5, 33, 10, 15
REVOLUTION_DAMAGE, TIE_DAMAGE = 20, 50
