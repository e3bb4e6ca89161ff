"""FluxBB's times → aware datetimes.

FluxBB prints a time as `<date> <time>` in the reader's zone (`format_time`): the date is
«Сегодня» / "Today" or «Вчера» / "Yesterday" when it is, else the reader's date format —
the board's default or one of `Y-m-d`, `Y-d-m`, `d-m-Y`, `m-d-Y`, `M j Y`, `jS M Y` — and
the time `H:i:s`, `H:i`, `g:i:s a` or `g:i a`. The month names are PHP's English ones in
every language pack. The three dashed orders cannot be told apart from one date: the
account's own setting says which (`DATE_ORDERS`, read from its profile by the board).

A zone is an offset in hours with a "daylight saving" tick (`zone_of`), not a named zone.
PunBB 1.4 prints its times the same way: the readers live in the layer (`forums.dates`).
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from forums.dates import DASHED_DATE_ORDERS as DATE_ORDERS
from forums.dates import hour_offset_zone as zone_of
from forums.dates import order_of_example, parse_ordered_time

__all__ = ["DATE_ORDERS", "order_of_example", "parse_fluxbb_time", "zone_of"]


def parse_fluxbb_time(text: str, *, tz: tzinfo, now: datetime, order: str = "ymd") -> datetime:
    """A FluxBB time as the page prints it, in the reader's zone `tz`; `order`: the dashed
    date's order (`DATE_ORDERS`). ValueError when it is not one."""
    return parse_ordered_time(text, tz=tz, now=now, order=order)
