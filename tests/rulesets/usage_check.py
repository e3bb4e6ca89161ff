"""Shared checks of the orders each role PM lists (issue 23): every printed example is read
by the game's own parser as the order it names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.core.events import Event
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.records import PostBody
from rulesets import find

LANGS = ("ru", "en")
START = datetime(2026, 3, 1, 12, tzinfo=UTC)


def opened(ruleset: str, seats: Sequence[Seat], seed: int) -> GameSession:
    """A game of `seats` dealt with `seed`, its first phase open from START for a day."""
    session = GameSession.new(find(ruleset), seats, None, seed)
    session.open_phase(START, START + timedelta(days=1))
    return session


def entries(events: Iterable[Event], player: str, field: str = "orders") -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for e in events:
        if player in e.to and field in e.fields:
            value = e.fields[field]
            found.extend(value if isinstance(value, list) else [value])
    return found


def _names(entry: Mapping[str, Any], lang: str) -> list[str]:
    return [p["name"] for p in entry[lang]["example"] if not isinstance(p, str)]


def matches(order: Order, entry: Mapping[str, Any], lang: str) -> bool:
    """The parsed order is the one the entry names (kind, action, the named players)."""
    if order.kind.value != entry["kind"]:
        return False
    action = entry["action"]
    named = order.kind in (OrderKind.ORDER, OrderKind.REQUEST)
    if named and action != order.action and action not in order.candidates:
        return False
    names = _names(entry, lang)
    parts = [p["player"] for p in order.args.get("parts", ()) if "player" in p]
    if names and parts:  # an order read part by part («играю Удар тёмной на Машу»)
        return parts[: len(names)] == names
    if names and order.kind is not OrderKind.REQUEST:
        return list(order.targets[: len(names)]) == names
    if names and order.kind is OrderKind.REQUEST:
        return names[0] in (*order.targets, order.args.get("to"), order.target)
    return True


def check_pm(
    session: GameSession,
    renderer: Renderer,
    events: list[Event],
    player: str,
    *,
    field: str = "orders",
    context: Mapping[str, Any] | None = None,
) -> list[str]:
    """Render `player`'s PM, and parse every example it prints; returns the examples."""
    body = renderer.render_private(events, player, context=context)
    assert body is not None
    shown = entries(events, player, field)
    assert shown, f"{player}: the PM lists no orders"
    examples = []
    for entry in shown:
        example = renderer.usage_example(entry)
        assert renderer.usage_line(entry) in body or renderer.usage_form(entry) in body, (
            player,
            entry,
            body,
        )
        parsed = session.read(player, PostBody.plain(example), Channel.PM)
        assert len(parsed.orders) == 1, (player, example, parsed.orders, parsed.warnings)
        assert matches(parsed.orders[0], entry, renderer.lang), (example, parsed.orders[0], entry)
        assert not [w for w in parsed.warnings if not w.accepted], (example, parsed.warnings)
        examples.append(example)
    return examples
