"""Slots and who holds them over time: substitutes, and substitutes of substitutes.

A slot is one seat of the game: its role, its votes, its results. Accounts take it over one
after another (C, then B replacing C, then A replacing B). The game knows a slot by one
name (its *key*: the name the host lists in play, or the seat's original name in a live
game); every holder's name means the slot when a player votes for it, but only the holder
of the moment may act for it. A handover happens at a moment (a live game's clock) or from
a post number (a thread read afterwards); one with neither happens at the new holder's first
post or PM (`Slots.settled`), and until then the previous holder still holds the slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from engine.core.warnings import N_


class SlotError(ValueError):
    """The substitutions cannot describe a game (a cycle, one name in two chains…).

    Its message is made from an `N_` template, in English (the core speaks no language of
    the host's): `engine.i18n.warning_text` shows it in the host's. A cycle also keeps its
    handovers (`cycle`: (new, old) pairs), each worded in the host's language where shown;
    one naming a seat's holders keeps them (`chain`, first holder first) for the same."""

    def __init__(
        self,
        message: str,
        cycle: tuple[tuple[str, str], ...] = (),
        chain: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.cycle = cycle
        self.chain = chain


@dataclass(frozen=True)
class Handover:
    """`new` took over the slot `old` held: at `at`, or from post number `post` on."""

    new: str
    old: str
    at: datetime | None = None
    post: int | None = None

    @property
    def timed(self) -> bool:
        return self.at is not None or self.post is not None


@dataclass(frozen=True)
class Moment:
    """When something was said: a time, a post number, or both (either may be unknown)."""

    at: datetime | None = None
    post: int | None = None


def _chains(handovers: Sequence[Handover]) -> list[list[str]]:
    """Each chain of holders, first holder first; a clear error for what cannot be one."""
    successor: dict[str, str] = {}
    predecessor: dict[str, str] = {}
    for h in handovers:
        if h.new == h.old:
            raise SlotError(N_("replacements: {new} cannot replace themselves").format(new=h.new))
        if h.old in successor:
            said = N_("replacements: {old} is replaced twice, by {first} and by {second}")
            raise SlotError(said.format(old=h.old, first=successor[h.old], second=h.new))
        if h.new in predecessor:
            said = N_("replacements: {new} replaces two players, {first} and {second}")
            raise SlotError(said.format(new=h.new, first=predecessor[h.new], second=h.old))
        successor[h.old], predecessor[h.new] = h.new, h.old
    chains = []
    for first in successor:
        if first in predecessor:
            continue
        chain = [first]
        while chain[-1] in successor:
            chain.append(successor[chain[-1]])
        chains.append(chain)
    placed = {name for chain in chains for name in chain}
    for start in successor:
        if start not in placed:  # only cycles are left: name every member
            loop, name = [start], successor[start]
            while name != start:
                loop.append(name)
                name = successor[name]
            pairs = tuple((new, old) for old, new in zip(loop, loop[1:] + loop[:1], strict=True))
            cycle = " → ".join(f"{new} replaces {old}" for new, old in pairs)
            said = N_("replacements form a cycle: {cycle}")
            raise SlotError(said.format(cycle=cycle), cycle=pairs)
    return chains


class Slots:
    """Who holds each slot, and since when."""

    def __init__(self, keys: Iterable[str], handovers: Iterable[Handover] = ()) -> None:
        self.keys = tuple(dict.fromkeys(keys))
        self.handovers = tuple(handovers)
        self._holders: dict[str, list[str]] = {k: [k] for k in self.keys}
        self._slot: dict[str, str] = {k: k for k in self.keys}
        self._since: dict[str, Handover] = {h.new: h for h in self.handovers}
        listed = set(self.keys)
        for chain in _chains(self.handovers):
            keys = [n for n in chain if n in listed]
            if not keys:
                said = N_(
                    "replacements: none of {names} is in the game (list the slot under one of "
                    "these names)"
                )
                raise SlotError(said.format(names=", ".join(chain)))
            if len(keys) > 1:
                said = N_(
                    "replacements: {first} and {second} are one slot ({label}): list only one "
                    "of them"
                )
                raise SlotError(
                    said.format(
                        first=", ".join(keys[:-1]), second=keys[-1], label=self._label(chain)
                    ),
                    chain=tuple(chain),
                )
            self._holders[keys[0]] = chain
            for name in chain:
                self._slot[name] = keys[0]

    @classmethod
    def from_replacements(cls, keys: Iterable[str], replacements: Mapping[str, str]) -> Slots:
        """From a `new: old` mapping without times (each handover at the first post)."""
        return cls(keys, [Handover(new, old) for new, old in replacements.items()])

    # -- names ---------------------------------------------------------------------------

    def slot(self, name: str) -> str | None:
        """The key of the slot `name` holds or held (None: not a holder of any slot)."""
        return self._slot.get(name)

    def holders(self, key: str) -> list[str]:
        """Every holder of a slot, first to last."""
        return list(self._holders.get(key, [key]))

    def current(self, key: str) -> str:
        return self.holders(key)[-1]

    def names(self) -> list[str]:
        """Every name of every holder (a vote may name any of them)."""
        return [n for key in self.keys for n in self._holders[key]]

    def label(self, key: str, when: Moment | None = None) -> str:
        """ "A (replaced B, replaced C)": the holder (now, or at `when`) and those before."""
        return self._label(self.chain(key, when))

    def chain(self, key: str, when: Moment | None = None) -> list[str]:
        """The slot's holders up to the one of the moment (now, or at `when`), first holder
        first: what `label` words in English and `engine.config.slot_label` in the host's
        language."""
        holders = self.holders(key)
        if when is not None:
            holder = self.holder_at(key, when)
            holders = holders[: holders.index(holder) + 1]
        return holders

    @staticmethod
    def _label(chain: Sequence[str]) -> str:
        if len(chain) == 1:
            return chain[0]
        before = ", ".join(f"replaced {n}" for n in reversed(chain[:-1]))
        return f"{chain[-1]} ({before})"

    # -- time ----------------------------------------------------------------------------

    def holder_at(self, key: str, when: Moment) -> str:
        """Who held the slot at `when`: the last holder whose handover came by then."""
        holders = self.holders(key)
        holder = holders[0]
        for name in holders[1:]:
            if not _reached(self._since[name], when):
                break
            holder = name
        return holder

    def holds(self, name: str, when: Moment) -> bool:
        """Whether `name` held its slot at `when` (False for names of no slot)."""
        key = self.slot(name)
        return key is not None and self.holder_at(key, when) == name

    def settled(self, first: Mapping[str, Moment]) -> Slots:
        """Handovers without a time placed at the new holder's first post or PM, if any."""
        placed = []
        for h in self.handovers:
            seen = first.get(h.new)
            if not h.timed and seen is not None:
                h = replace(h, at=seen.at, post=seen.post)
            placed.append(h)
        return Slots(self.keys, placed)


def _reached(handover: Handover, when: Moment) -> bool:
    """Whether the handover had happened by `when` (an untimed one has not, yet)."""
    if handover.post is not None and when.post is not None:
        return when.post >= handover.post
    if handover.at is not None and when.at is not None:
        return when.at >= handover.at
    return False
