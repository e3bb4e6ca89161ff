"""A live game's seats and who holds them: the game file's substitutions, then `game replace`.

The game knows each seat by the name in the game file's `players` (its key). Whoever holds
a seat at a moment speaks for it; the name of anyone who ever held it means the seat in a
vote; what is sent to a seat goes to whoever holds it when it is sent. Everything else
(a former holder still sending orders, a substitute before their time) is refused with
`sender_not_in_play`. Someone who never held a seat is an outsider: their messages are
not read at all, only recorded for the host (`forumgm status`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.core.slots import Handover, Moment, Slots
from engine.core.warnings import N_
from engine.publish import Markers, marker_line, pm_draft
from engine.render import Renderer
from engine.service.posts import renderer_for
from engine.store import OutboxDraft, Store
from engine.store.models import OutboxKind, OutboxStatus


@dataclass(frozen=True)
class Speaker:
    """Who a message speaks for: the seat's key, or the author with why they cannot."""

    name: str
    refused: str | None = None
    outsider: bool = False
    """The author never held a seat of this game (a board member writing in or to the GM)."""


def game_slots(
    store: Store, game_id: int, keys: Sequence[str], handovers: Iterable[Handover]
) -> Slots:
    """The game file's chains, extended by the substitutes `game replace` recorded."""
    planned = list(handovers)
    from_file = Slots(keys, planned)
    rows = store.players(game_id, include_replaced=True)
    by_name = {r.name: r for r in rows}
    by_id = {r.id: r for r in rows}
    for key in keys:
        row, last = by_name.get(key), from_file.current(key)
        while row is not None and row.replaced_by in by_id:
            row = by_id[row.replaced_by]
            if row.name not in from_file.holders(key):
                planned.append(Handover(row.name, last, at=row.since))
                last = row.name
    return Slots(keys, planned)


def speakers(
    slots: Slots, said: Iterable[tuple[str, datetime]]
) -> tuple[Slots, dict[tuple[str, datetime], Speaker]]:
    """Each (author, moment) as the seat it speaks for; untimed handovers settled on the
    substitute's first message."""
    said = sorted(set(said), key=lambda pair: pair[1])
    first: dict[str, Moment] = {}
    for author, at in said:
        first.setdefault(author, Moment(at=at))
    settled = slots.settled(first)
    out: dict[tuple[str, datetime], Speaker] = {}
    for author, at in said:
        key = settled.slot(author)
        if key is None:
            out[author, at] = Speaker(author, outsider=True)
        elif settled.holds(author, Moment(at=at)):
            out[author, at] = Speaker(key)
        else:
            holders = settled.holders(key)
            holder = settled.holder_at(key, Moment(at=at))
            why = (
                N_("{sender} no longer plays this seat: it is {holder}'s ({seat})")
                if holders.index(author) < holders.index(holder)
                else N_("{sender} does not yet play this seat: it is {holder}'s ({seat})")
            )
            refused = why.format(sender=author, holder=holder, seat=settled.label(key))
            out[author, at] = Speaker(author, refused)
    return settled, out


def holder_aliases(slots: Slots, aliases: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The host's aliases plus every holder's name for their seat."""
    out = {k: list(v) for k, v in aliases.items()}
    for key in slots.keys:
        for name in slots.holders(key):
            if name != key:
                out.setdefault(key, []).append(name)
    return out


HISTORY = ("results", "none")
"""What `game replace --history` passes on besides the role: the seat's result PMs, or nothing."""


def handover_draft(
    store: Store,
    game_id: int,
    markers: Markers,
    renderer: Renderer,
    *,
    seat: str,
    previous: str,
    substitute: str,
    history: str = "results",
    subject: str,
) -> OutboxDraft:
    """The PM that brings a substitute in: their role PM and, if the host passes it on, every
    result PM the seat has had so far (as sent, without their markers)."""

    def text(marker: str) -> tuple[str, str] | None:
        item = store.find_by_marker(marker)
        if item is None or item.kind is not OutboxKind.PM:
            return None
        return item.subject or "", item.bbcode.removesuffix(marker_line(marker))

    role = text(markers.make("role", seat))
    passed = []
    if history == "results":
        for ph in store.phases(game_id):
            marker = markers.make(ph.phase, "results-pm", seat)
            item = store.find_by_marker(marker)
            if item is not None and item.status is OutboxStatus.POSTED and (found := text(marker)):
                passed.append({"subject": found[0], "body": found[1]})
    body = renderer_for(renderer, "handover", seats=True).render_post(
        "handover",
        seat=seat,
        previous=previous,
        role=role[1] if role else "—",
        history=passed,
    )
    marker = markers.make("handover", seat, substitute)
    # Addressed to the account itself: if the seat changes hands again before it goes out,
    # this one is still the substitute's.
    return pm_draft(substitute, subject, body, marker)
