"""Reading one post as a host would, outside a running game: the parse plus the game's cast.

`parse_post` knows the roster only. A host reading a post also knows who is dead, who
replaced whom and when the deadline was; `read_post` adds exactly that, with the shared
warning codes, so `forumgm parse`, `forumgm tally` and the accuracy benchmark all read a
post the same way. In a running game the ruleset's intake makes these checks instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

from engine.core import warnings as codes
from engine.core.grammar import Grammar
from engine.core.orders import Channel, Order, OrderKind, Source
from engine.core.slots import Handover, Moment, Slots
from engine.core.warnings import N_, ParseWarning
from forums.records import PostBody
from scraper.matcher import ParseResult, parse_post
from scraper.nicknames import NameResolver

NO_LYNCH = "no_lynch"


@dataclass(frozen=True)
class Cast:
    """Who is in a game: the per-game players file of a host (engine.players_file)."""

    players: tuple[str, ...]
    """In play, in seating order."""
    dead: tuple[str, ...] = ()
    """Out of play: votes by them or for them do not count."""
    replacements: Mapping[str, str] = field(default_factory=dict)
    """Substitute → the player whose slot they took; any holder's name means the slot.
    Chains are allowed (A: B, B: C); without `handovers` each takes effect at the
    substitute's first post (`settled`)."""
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    handovers: tuple[Handover, ...] = ()
    """The same substitutions with when they happened (post numbers or times), where known."""
    _resolvers: dict[bool, NameResolver] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    @cached_property
    def slots(self) -> Slots:
        timed = {h.new: h for h in self.handovers}
        untimed = [Handover(new, old) for new, old in self.replacements.items() if new not in timed]
        return Slots([*self.players, *self.dead], [*timed.values(), *untimed])

    @property
    def roster(self) -> tuple[str, ...]:
        """Every name a post may mention: the living, the dead and every holder of a slot."""
        return tuple(dict.fromkeys([*self.players, *self.dead, *self.slots.names()]))

    def slot(self, name: str) -> str:
        """The name a slot goes by: the one listed in players or dead (any holder's name)."""
        return self.slots.slot(name) or name

    def in_play(self, name: str) -> bool:
        return self.slot(name) in self.players

    def acts_for_slot(self, name: str, when: Moment) -> bool:
        """False for a former holder of a slot who speaks after someone took it over
        (a message of unknown moment is not judged)."""
        if self.slots.slot(name) is None or (when.at is None and when.post is None):
            return True
        return self.slots.holds(name, when)

    def label(self, name: str) -> str:
        """A slot as the host reads it: "A (replaced B, replaced C)"."""
        return self.slots.label(self.slot(name))

    def settled(self, first: Mapping[str, Moment]) -> Cast:
        """Substitutions without a moment placed at the substitute's first post or PM."""
        settled = self.slots.settled(first)
        return replace(self, handovers=settled.handovers, _resolvers={})

    def resolver(self, *, lenient: bool) -> NameResolver:
        """The resolver over the whole roster (built once per cast and leniency)."""
        if lenient not in self._resolvers:
            aliases: dict[str, list[str]] = {}
            for name, forms in self.aliases.items():
                aliases.setdefault(name if name in self.roster else self.slot(name), []).extend(
                    forms
                )
            self._resolvers[lenient] = NameResolver(self.roster, aliases, lenient=lenient)
        return self._resolvers[lenient]


def read_post(
    body: PostBody,
    grammar: Grammar,
    cast: Cast,
    *,
    sender: str,
    channel: Channel,
    lenient: bool = False,
    no_lynch: bool = True,
    source: Source | None = None,
    at: datetime | None = None,
    deadline: datetime | None = None,
    edited_at: datetime | None = None,
    post_number: int | None = None,
) -> ParseResult:
    """Parse a post, then drop what the cast and the clock make invalid, with a warning each.

    - `late`: sent after `deadline` — nothing in it counts.
    - `edited_after_deadline`: sent before but edited after it; the board does not keep
      the text as it was, so the current text is read and the host is told (accepted).
    - `sender_not_in_play` / `target_not_in_play`: a dead sender, a dead target, or a
      sender whose slot someone else held at that moment (`at` / `post_number`).
    - `invalid_target`: a no-lynch vote where the game has none.
    Names are reported by slot: a substitute and the player he replaced are one slot.
    """
    src = source or Source(channel)
    slot_sender = cast.slot(sender)
    parsed = parse_post(
        body,
        grammar,
        cast.resolver(lenient=lenient),
        sender=slot_sender,
        channel=channel,
        source=src,
        at=at,
    )
    out = ParseResult(warnings=list(parsed.warnings))
    late = deadline is not None and at is not None and at > deadline
    if deadline is not None and not late and edited_at is not None and edited_at > deadline:
        message = N_("edited after the deadline; the board keeps only the new text, read as it is")
        out.warnings.append(
            ParseWarning(codes.EDITED_AFTER_DEADLINE, message, slot_sender, src, accepted=True)
        )
    for order in parsed.orders:
        order = _slotted(order, cast)
        if late:
            out.warnings.append(
                _warning(codes.LATE, N_("sent after the deadline"), slot_sender, src)
            )
            continue
        if not cast.in_play(slot_sender) and order.kind is not OrderKind.REQUEST:
            out.warnings.append(
                _warning(
                    codes.SENDER_NOT_IN_PLAY, N_("the sender is out of play"), slot_sender, src
                )
            )
            continue
        if not cast.acts_for_slot(sender, Moment(at, post_number)):
            message = N_("{sender} no longer plays this slot: {seat}").format(
                sender=sender, seat=cast.label(slot_sender)
            )
            out.warnings.append(_warning(codes.SENDER_NOT_IN_PLAY, message, slot_sender, src))
            continue
        dead = [t for t in order.targets if t != NO_LYNCH and not cast.in_play(t)]
        if dead and order.kind is not OrderKind.REQUEST:
            message = N_("{names}: not in play").format(names=", ".join(dead))
            out.warnings.append(
                _warning(codes.TARGET_NOT_IN_PLAY, message, slot_sender, order.source)
            )
            continue
        if not no_lynch and order.kind is OrderKind.NO_LYNCH:
            message = N_("no lynch is not a vote in this game")
            out.warnings.append(_warning(codes.INVALID_TARGET, message, slot_sender, order.source))
            continue
        out.orders.append(order)
    return out


def _slotted(order: Order, cast: Cast) -> Order:
    targets = tuple(t if t == NO_LYNCH else cast.slot(t) for t in order.targets)
    return replace(order, targets=targets)


def _warning(code: str, message: str, player: str, source: Source | None) -> ParseWarning:
    return ParseWarning(code, message, player, source, action="vote")
