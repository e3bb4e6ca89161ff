"""What every step of a turn shares: start positions, blocks, protections, and eliminations.

`attempt` is the elimination attempt of §9 (used by the mafia kill, the injection, the
pistol, the sticky room and pending kills leaving the safe room); `eliminate` does what
every elimination does (death, guilt, Спаситель's loss, the Заместитель's inheritance).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core.events import Event
from engine.core.model import PlayerState
from engine.core.orders import Order
from engine.core.ruleset import Resolution
from rulesets.twelve_rooms.roles import ACTIVE, SKILLS
from rulesets.twelve_rooms.rooms import MEGAPHONE, SAFE
from rulesets.twelve_rooms.state import (
    alive,
    immune,
    is_town,
    reliable,
    role_of,
    role_state,
    room_type,
    skills_of,
)

LYNCH, MAFKILL, INJECTION = "lynch", "mafkill", "injection"
PISTOL_SHOT, STICKY_ROOM, INACTIVITY = "pistol", "sticky_room", "inactivity"
ROOM_CAUSES = frozenset({MAFKILL, PISTOL_SHOT, STICKY_ROOM})
"""Deaths published with the name of the room (§5.4, §10.1)."""


@dataclass
class Turn(Resolution):
    """The working state of one turn's resolution."""

    start_room: dict[str, int] = field(default_factory=dict)
    start_alive: list[str] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)
    """Eliminated for inactivity at step 0: votes for them are discarded (§2.4)."""
    blocked: set[str] = field(default_factory=set)
    held: set[str] = field(default_factory=set)
    protected: set[str] = field(default_factory=set)
    redirect_to: str | None = None
    hidden: set[str] = field(default_factory=set)
    doubted: set[str] = field(default_factory=set)
    ballots: dict[str, dict[str, Any]] = field(default_factory=dict)
    hushed: set[int] = field(default_factory=set)
    megaphone: dict[int, set[str]] = field(default_factory=dict)
    watches: list[tuple[str, list[tuple[int, int]]]] = field(default_factory=list)
    crossings: list[tuple[tuple[int, int], str]] = field(default_factory=list)
    died: list[str] = field(default_factory=list)
    late_deaths: list[Event] = field(default_factory=list)
    """Step-0 deaths, published after the vote (§10.1: the lynch comes first)."""
    results: list[Event] = field(default_factory=list)
    """Private results, delivered at the end to players still in the game (§2.7)."""

    @property
    def number(self) -> int:
        return self.inputs.phase.id.number

    def p(self, name: str) -> PlayerState:
        return self.state.player(name)

    def tell(self, to: str, type: str, **fields: Any) -> None:
        self.results.append(Event.private(to, type, **fields))

    # -- orders ----------------------------------------------------------------------------

    def order(self, player: str, slot: str) -> Order | None:
        return self.inputs.orders.get(player, {}).get(slot)

    def orders(self, slot: str) -> Iterator[tuple[str, Order]]:
        """Every order of one slot, in seating order, from players still in the game."""
        for name in self.state.names:
            order = self.order(name, slot)
            if order is not None and alive(self.p(name)):
                yield name, order

    def can_use(self, player: str, skill: str) -> bool:
        """Alive, still holding the skill, and (for an АС) not blocked (§6)."""
        p = self.p(player)
        if not alive(p) or skill not in skills_of(p):
            return False
        if SKILLS[skill].kind != ACTIVE:
            return True
        if player in self.blocked:
            return False
        # «Можно расслабиться»: the Спаситель's АС does not work from the safe room.
        return not (
            "relax" in skills_of(p) and room_type(self.state, self.start_room[player]) == SAFE
        )

    def living(self, *names: str) -> bool:
        return all(alive(self.p(n)) for n in names)

    def applied(self, user: str, targets: tuple[str, ...], *, after_movement: bool = False) -> None:
        """An АС took effect: the megaphone room publishes its player targets (§4)."""
        here = self.p(user).fields["room"] if after_movement else self.start_room[user]
        if room_type(self.state, here) == MEGAPHONE:
            self.megaphone.setdefault(here, set()).update(targets)

    def no_result(self, user: str, skill: str) -> None:
        if SKILLS[skill].information and alive(self.p(user)):
            self.tell(user, "no_result", skill=skill)

    # -- eliminations (§9 «Elimination attempt») ----------------------------------------------

    def attempt(
        self,
        target: str,
        cause: str,
        *,
        by: str | None = None,
        where: int | None = None,
        kind: str | None = None,
    ) -> str:
        """One attempt on `target`: "void", "deferred", "prevented" or "eliminated".

        `where` is the room that decides the safe-room deferral, `kind` the type of the room
        the kill is published with.
        """
        p = self.p(target)
        if self.void(p, cause, by):
            return "void"
        room = p.fields["room"] if where is None else where
        if room_type(self.state, room) == SAFE:
            pending = p.fields.setdefault("pending_kills", [])
            pending.append({"cause": cause, "by": by, "room_type": kind})
            return "deferred"
        if target in self.protected:
            return "prevented"
        self.eliminate(target, cause, by=by, kind=kind)
        return "eliminated"

    def void(self, p: PlayerState, cause: str, by: str | None) -> bool:
        """Permanent protections: immunity, Осмотрительность, Надежность, the manager rule."""
        if not alive(p) or immune(p, self.number):
            return True
        if cause == MAFKILL and "prudence" in role_of(p).skills:
            return True
        if reliable(p):
            return True
        # «Не может быть убит мирными, кроме УС Спасителя»: a room kill whose guilt would go
        # to a town player is void for the holder of «Невозмутимость» (D40).
        return (
            cause in (PISTOL_SHOT, STICKY_ROOM)
            and "composure" in role_of(p).skills
            and by is not None
            and is_town(self.p(by))
        )

    def eliminate(
        self,
        name: str,
        cause: str,
        *,
        by: str | None = None,
        kind: str | None = None,
        deferred: bool = False,
    ) -> None:
        p = self.p(name)
        p.fields["alive"] = False
        p.fields["pending_kills"] = []
        self.died.append(name)
        fields: dict[str, Any] = {"player": name, "cause": cause, "deferred": deferred}
        if cause in ROOM_CAUSES:
            fields["room_type"] = kind
        if self.state.options["reveal_role_on_death"]:
            fields["role"] = p.role
        event = Event.public("death", **fields)
        if cause == INACTIVITY:
            self.late_deaths.append(event)
        else:
            self.emit(event)
        if by is not None and cause not in (LYNCH, INACTIVITY) and alive(self.p(by)):
            self.p(by).fields["guilt"] = True
        if cause == INJECTION and by is not None and is_town(p):
            role_state(self.p(by))["support_lost"] = True
        self.inherit_from(p)

    def inherit_from(self, dead: PlayerState) -> None:
        """«Наследование»: each living deputy of the dead player's faction takes an АС (§6.1)."""
        skills = list(role_of(dead).actives)
        for q in self.state.players:
            if q is dead or not alive(q) or q.faction != dead.faction:
                continue
            if "inheritance" not in role_of(q).skills:
                continue
            held = role_state(q)
            new = [s for s in skills if s not in skills_of(q)]
            if not new:
                continue
            held["reliability_lost"] = True
            # The skills keep their «two turns in a row» history from the dead role.
            for skill in new:
                last = role_state(dead).get("last_targets", {}).get(skill)
                if last is not None:
                    held.setdefault("last_targets", {})[skill] = last
            if len(new) == 1:
                held.setdefault("inherited", []).append(new[0])
                self.tell(q.name, "skill_inherited", **{"from": dead.name, "skill": new[0]})
            else:
                held.setdefault("offers", []).append({"from": dead.name, "skills": new})
                self.tell(q.name, "inherit_offer", **{"from": dead.name, "skills": new})

    def fire_pending(self, name: str) -> bool:
        """He leaves the safe room: deferred kills and lynches fire (§4 safe). True if he dies."""
        p = self.p(name)
        pending = list(p.fields.get("pending_kills", []))
        p.fields["pending_kills"] = []
        for item in pending:
            cause = str(item["cause"])
            by = item.get("by")
            if cause == LYNCH:
                if immune(p, self.number):
                    continue
            elif self.void(p, cause, by) or name in self.protected:
                continue
            self.eliminate(name, cause, by=by, kind=item.get("room_type"), deferred=True)
            return True
        return False
