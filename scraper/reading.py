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

from engine.core import warnings as codes
from engine.core.grammar import Grammar
from engine.core.orders import Channel, Order, OrderKind, Source
from engine.core.warnings import ParseWarning
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
    """Substitute → the player whose slot they took; either name means the slot."""
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    _resolvers: dict[bool, NameResolver] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    @property
    def roster(self) -> tuple[str, ...]:
        """Every name a post may mention: the living, the dead and replaced players."""
        names = [*self.players, *self.dead]
        names += [old for old in self.replacements.values() if old not in names]
        names += [new for new in self.replacements if new not in names]
        return tuple(dict.fromkeys(names))

    def slot(self, name: str) -> str:
        """The name a slot goes by: the one listed in play (substitute or original)."""
        if name in self.players or name in self.dead:
            return name
        for new, old in self.replacements.items():
            if name == old and (new in self.players or new in self.dead):
                return new
            if name == new and (old in self.players or old in self.dead):
                return old
        return name

    def in_play(self, name: str) -> bool:
        return self.slot(name) in self.players

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
) -> ParseResult:
    """Parse a post, then drop what the cast and the clock make invalid, with a warning each.

    - `late`: sent after `deadline` — nothing in it counts.
    - `edited_after_deadline`: sent before but edited after it; the board does not keep
      the text as it was, so the current text is read and the host is told (accepted).
    - `sender_not_in_play` / `target_not_in_play`: a dead sender, a dead target.
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
        message = "edited after the deadline; the board keeps only the new text, read as it is"
        out.warnings.append(
            ParseWarning(codes.EDITED_AFTER_DEADLINE, message, slot_sender, src, accepted=True)
        )
    for order in parsed.orders:
        order = _slotted(order, cast)
        if late:
            out.warnings.append(_warning(codes.LATE, "sent after the deadline", slot_sender, src))
            continue
        if not cast.in_play(slot_sender) and order.kind is not OrderKind.REQUEST:
            out.warnings.append(
                _warning(codes.SENDER_NOT_IN_PLAY, "the sender is out of play", slot_sender, src)
            )
            continue
        dead = [t for t in order.targets if t != NO_LYNCH and not cast.in_play(t)]
        if dead and order.kind is not OrderKind.REQUEST:
            message = f"{', '.join(dead)}: not in play"
            out.warnings.append(
                _warning(codes.TARGET_NOT_IN_PLAY, message, slot_sender, order.source)
            )
            continue
        if not no_lynch and order.kind is OrderKind.NO_LYNCH:
            message = "no lynch is not a vote in this game"
            out.warnings.append(_warning(codes.INVALID_TARGET, message, slot_sender, order.source))
            continue
        out.orders.append(order)
    return out


def _slotted(order: Order, cast: Cast) -> Order:
    targets = tuple(t if t == NO_LYNCH else cast.slot(t) for t in order.targets)
    return replace(order, targets=targets)


def _warning(code: str, message: str, player: str, source: Source | None) -> ParseWarning:
    return ParseWarning(code, message, player, source, action="vote")
