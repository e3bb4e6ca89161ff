"""A phase's parse results (orders and warnings) and the host's overrides of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from engine.core import Order, ParseWarning, PhaseId, Source
from engine.store.codec import order_from_json, order_ref, order_to_json, warning_ref
from engine.store.models import (
    HostOverride,
    OrderStatus,
    OverrideTarget,
    ParseCacheRow,
    ParsedOrderRow,
    ParseWarningRow,
)
from engine.store.repo.base import NotFound, RepoBase


@dataclass(frozen=True)
class StoredOrder:
    """A parsed order with its status; `id` is set once stored."""

    order: Order
    status: OrderStatus = OrderStatus.ACCEPTED
    id: int | None = None


@dataclass(frozen=True)
class StoredWarning:
    warning: ParseWarning
    id: int
    resolved_by_host: bool = False
    fix: Any = None


def _order_row(row: ParsedOrderRow) -> StoredOrder:
    src = None
    if row.source_id is not None or row.line is not None or row.text:
        src = Source(row.channel, row.source_id, row.source_url, row.line, row.text)
    order = Order(
        player=row.player,
        kind=row.kind,
        action=row.action,
        targets=tuple(row.targets),
        args=dict(row.args),
        channel=row.channel,
        at=row.at,
        source=src,
        candidates=tuple(row.candidates),
        form=row.form,
    )
    return StoredOrder(order, row.status, row.id)


def _warning_row(row: ParseWarningRow) -> StoredWarning:
    src = None
    if row.channel is not None:
        src = Source(row.channel, row.source_id, row.source_url, row.line, row.text)
    warning = ParseWarning(
        code=row.code,
        message=row.message,
        player=row.player,
        source=src,
        choices=tuple(row.choices),
        action=row.action,
        accepted=row.accepted,
    )
    return StoredWarning(warning, row.id, row.resolved_by_host, row.fix)


def _reapply_overrides(s: Session, phase_id: int) -> None:
    """Carry the host's decisions over to freshly parsed rows read from the same place."""
    overrides = s.scalars(
        select(HostOverride).where(HostOverride.phase_id == phase_id).order_by(HostOverride.id)
    )
    for ov in overrides:
        if ov.target is OverrideTarget.ORDER:
            for order in s.scalars(
                select(ParsedOrderRow).where(
                    ParsedOrderRow.phase_id == phase_id, ParsedOrderRow.ref == ov.ref
                )
            ):
                order.status = OrderStatus.OVERRIDDEN
        else:
            for warning in s.scalars(
                select(ParseWarningRow).where(
                    ParseWarningRow.phase_id == phase_id, ParseWarningRow.ref == ov.ref
                )
            ):
                warning.resolved_by_host, warning.fix = True, ov.fix


def _order_values(game_id: int, phase_id: int, seq: int, item: Order | StoredOrder) -> dict:
    stored = item if isinstance(item, StoredOrder) else StoredOrder(item)
    o, src = stored.order, stored.order.source
    return {
        "game_id": game_id,
        "phase_id": phase_id,
        "seq": seq,
        "player": o.player,
        "kind": o.kind,
        "action": o.action,
        "targets": list(o.targets),
        "args": dict(o.args),
        "candidates": list(o.candidates),
        "form": o.form,
        "channel": o.channel,
        "source_id": src.post_id if src else None,
        "source_url": src.url if src else None,
        "line": src.line if src else None,
        "text": src.text if src else "",
        "at": o.at,
        "status": stored.status,
        "ref": order_ref(o),
    }


def _warning_values(game_id: int, phase_id: int, seq: int, w: ParseWarning) -> dict:
    src = w.source
    return {
        "game_id": game_id,
        "phase_id": phase_id,
        "seq": seq,
        "code": w.code,
        "message": w.message,
        "player": w.player,
        "action": w.action,
        "accepted": w.accepted,
        "channel": src.channel if src else None,
        "source_id": src.post_id if src else None,
        "source_url": src.url if src else None,
        "line": src.line if src else None,
        "text": src.text if src else "",
        "choices": list(w.choices),
        "resolved_by_host": False,
        "fix": None,
        "ref": warning_ref(w),
    }


Ids = dict[str, list[int]]
"""A row's `ref` → the ids of the rows stored under it, in arrival order."""


def _take_ids(
    s: Session, model: type[ParsedOrderRow] | type[ParseWarningRow], phase_id: int, after: int
) -> Ids:
    """Delete the phase's rows past `after` (all: 0), returning their ids by `ref`."""
    taken: Ids = {}
    query = select(model.id, model.ref).where(model.phase_id == phase_id, model.seq > after)
    for row_id, ref in s.execute(query.order_by(model.seq)):
        taken.setdefault(ref, []).append(row_id)
    s.execute(delete(model).where(model.phase_id == phase_id, model.seq > after))
    return taken


def _insert(
    s: Session,
    model: type[ParsedOrderRow] | type[ParseWarningRow],
    rows: list[dict[str, Any]],
    ids: Ids,
) -> None:
    """Insert rows; one read again from the same place (`ref`) keeps the id it had, so the
    numbers a host has just seen (`review --fix 3=…`, `--drop 7`) still name the same
    things after a phase is read again."""
    kept: list[dict[str, Any]] = []
    fresh: list[dict[str, Any]] = []
    for row in rows:
        free = ids.get(row["ref"])
        (kept if free else fresh).append({**row, "id": free.pop(0)} if free else row)
    # One multi-row statement for each shape, however many rows.
    for batch in (kept, fresh):
        if batch:
            s.execute(insert(model), batch)


def _insert_parse(
    s: Session,
    game_id: int,
    phase_id: int,
    orders: Iterable[Order | StoredOrder],
    warnings: Iterable[ParseWarning],
    first: tuple[int, int],
) -> None:
    """Replace the phase's rows from `first` (orders, warnings) on with these."""
    order_ids = _take_ids(s, ParsedOrderRow, phase_id, first[0] - 1)
    warning_ids = _take_ids(s, ParseWarningRow, phase_id, first[1] - 1)
    order_rows = [_order_values(game_id, phase_id, n, o) for n, o in enumerate(orders, first[0])]
    warning_rows = [
        _warning_values(game_id, phase_id, n, w) for n, w in enumerate(warnings, first[1])
    ]
    _insert(s, ParsedOrderRow, order_rows, order_ids)
    _insert(s, ParseWarningRow, warning_rows, warning_ids)
    if order_rows or warning_rows:
        _reapply_overrides(s, phase_id)


class ParseRepo(RepoBase):
    def save_parse(
        self,
        game_id: int,
        phase: PhaseId | str,
        orders: Iterable[Order | StoredOrder],
        warnings: Iterable[ParseWarning],
    ) -> None:
        """Replace the phase's parse results in one transaction; host overrides carry over."""
        with self._sessions.begin() as s:
            phase_id = self._phase_id(s, game_id, phase)
            _insert_parse(s, game_id, phase_id, orders, warnings, (1, 1))

    def append_parse(
        self,
        game_id: int,
        phase: PhaseId | str,
        orders: Sequence[Order | StoredOrder],
        warnings: Sequence[ParseWarning],
        *,
        after: tuple[int, int],
    ) -> None:
        """Add parse results after the first `after` (orders, warnings) stored ones — what a
        poll's newly read posts gave; the stored ones stay as they are."""
        if not orders and not warnings:
            return
        with self._sessions.begin() as s:
            phase_id = self._phase_id(s, game_id, phase)
            # Rows past `after` are from an interrupted poll: they are parsed again.
            _insert_parse(s, game_id, phase_id, orders, warnings, (after[0] + 1, after[1] + 1))

    def overrides_version(self, game_id: int, phase: PhaseId | str) -> int:
        """Grows with every host decision on the phase (0: none yet)."""
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            found = s.scalar(
                select(func.max(HostOverride.id)).where(HostOverride.phase_id == phase_id)
            )
        return int(found or 0)

    # -- the parse cache --------------------------------------------------------------

    def parse_cache(self, game_id: int, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The cached parse results (key → result) stored under these keys."""
        found: dict[str, dict[str, Any]] = {}
        with self._sessions() as s:
            for start in range(0, len(keys), 500):
                query = select(ParseCacheRow.key, ParseCacheRow.result).where(
                    ParseCacheRow.game_id == game_id,
                    ParseCacheRow.key.in_(keys[start : start + 500]),
                )
                found.update((key, result) for key, result in s.execute(query))
        return found

    def save_parse_cache(
        self, game_id: int, entries: Sequence[tuple[str, datetime, dict[str, Any]]]
    ) -> None:
        """Keep parse results (key, time of the post, result); a key stored already stays."""
        if not entries:
            return
        with self._sessions.begin() as s:
            if self.engine.dialect.name == "postgresql":
                statement: Any = pg_insert(ParseCacheRow).on_conflict_do_nothing()
            else:
                statement = sqlite_insert(ParseCacheRow).on_conflict_do_nothing()
            for start in range(0, len(entries), 1000):
                rows = [
                    {"game_id": game_id, "key": k, "at": at, "result": r}
                    for k, at, r in entries[start : start + 1000]
                ]
                s.execute(statement, rows)

    def parsed_orders(
        self, game_id: int, phase: PhaseId | str, *, status: OrderStatus | None = None
    ) -> list[StoredOrder]:
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            query = select(ParsedOrderRow).where(ParsedOrderRow.phase_id == phase_id)
            if status is not None:
                query = query.where(ParsedOrderRow.status == status)
            return [_order_row(r) for r in s.scalars(query.order_by(ParsedOrderRow.seq))]

    def parse_warnings(
        self, game_id: int, phase: PhaseId | str, *, unresolved_only: bool = False
    ) -> list[StoredWarning]:
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            query = select(ParseWarningRow).where(ParseWarningRow.phase_id == phase_id)
            if unresolved_only:
                query = query.where(ParseWarningRow.resolved_by_host.is_(False))
            return [_warning_row(r) for r in s.scalars(query.order_by(ParseWarningRow.seq))]

    def count_waiting_warnings(self, game_id: int, phase: PhaseId | str) -> int:
        """The phase's warnings the host still has to settle: not settled, and not an
        accepted note (`early`: counted and told)."""
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            query = select(func.count(ParseWarningRow.id)).where(
                ParseWarningRow.phase_id == phase_id,
                ParseWarningRow.resolved_by_host.is_(False),
                ParseWarningRow.accepted.is_(False),
            )
            return int(s.scalar(query) or 0)

    def override_order(self, order_id: int, replacement: Order | None, *, by: str) -> HostOverride:
        """The host replaces a parsed order (None: drops it); a re-parse keeps the decision."""
        with self._sessions.begin() as s:
            row = s.get(ParsedOrderRow, order_id)
            if row is None:
                raise NotFound(f"no parsed order with id {order_id}")
            row.status = OrderStatus.OVERRIDDEN
            override = HostOverride(
                game_id=row.game_id,
                phase_id=row.phase_id,
                target=OverrideTarget.ORDER,
                ref=row.ref,
                order=order_to_json(replacement) if replacement else None,
                by=by,
            )
            s.add(override)
        return override

    def fix_warning(self, warning_id: int, fix: Any, *, by: str) -> HostOverride:
        """The host settles a warning with `fix` (one of its choices, or any JSON value)."""
        with self._sessions.begin() as s:
            row = s.get(ParseWarningRow, warning_id)
            if row is None:
                raise NotFound(f"no parse warning with id {warning_id}")
            row.resolved_by_host, row.fix = True, fix
            override = HostOverride(
                game_id=row.game_id,
                phase_id=row.phase_id,
                target=OverrideTarget.WARNING,
                ref=row.ref,
                fix=fix,
                by=by,
            )
            s.add(override)
        return override

    def overrides(self, game_id: int, phase: PhaseId | str) -> list[HostOverride]:
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            query = select(HostOverride).where(HostOverride.phase_id == phase_id)
            return list(s.scalars(query.order_by(HostOverride.id)))

    def effective_orders(self, game_id: int, phase: PhaseId | str) -> list[Order]:
        """The orders resolution takes, in arrival order: the accepted ones, and in place
        of each overridden one the host's latest replacement unless it was dropped."""
        with self._sessions() as s:
            phase_id = self._phase_id(s, game_id, phase)
            latest: dict[str, dict[str, Any] | None] = {}
            for ov in s.scalars(
                select(HostOverride)
                .where(
                    HostOverride.phase_id == phase_id, HostOverride.target == OverrideTarget.ORDER
                )
                .order_by(HostOverride.id)
            ):
                latest[ov.ref] = ov.order
            rows = s.scalars(
                select(ParsedOrderRow)
                .where(ParsedOrderRow.phase_id == phase_id)
                .order_by(ParsedOrderRow.seq)
            )
            out: list[Order] = []
            for row in rows:
                if row.status is OrderStatus.ACCEPTED:
                    out.append(_order_row(row).order)
                elif row.status is OrderStatus.OVERRIDDEN:
                    replacement = latest.get(row.ref)
                    if replacement is not None:
                        out.append(order_from_json(replacement))
            return out
