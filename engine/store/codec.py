"""Conversions between the records of `forums`/`engine.core` and the JSON the store keeps."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from engine.core import Channel, Order, OrderKind, ParseWarning, Source
from forums.records import RUN_FLAGS, Link, PostBody, TextRun

_DEFAULTS = tuple((name, getattr(TextRun(""), name)) for name in RUN_FLAGS)


def body_to_json(body: PostBody) -> dict[str, Any]:
    runs = []
    for run in body.runs:
        item: dict[str, Any] = {"text": run.text}
        # Only set flags are written: most runs are plain text and the history table grows.
        for name, default in _DEFAULTS:
            value = getattr(run, name)
            if value != default:
                item[name] = value
        runs.append(item)
    links = [{"url": link.url, "text": link.text} for link in body.links]
    return {"runs": runs, "links": links}


def body_from_json(data: dict[str, Any]) -> PostBody:
    runs = tuple(TextRun(**run) for run in data.get("runs", ()))
    links = tuple(Link(**link) for link in data.get("links", ()))
    return PostBody(runs, links)


def content_hash(raw: str | None, body: PostBody) -> str:
    """sha256 of the raw body as served; of the parsed body where the adapter kept no raw."""
    text = raw if raw is not None else json.dumps(body_to_json(body), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ref_of(*parts: object) -> str:
    """A stable key for "the same thing, read from the same place" across re-parses."""
    text = json.dumps([p if p is None or isinstance(p, int) else str(p) for p in parts])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def order_ref(order: Order) -> str:
    src = order.source or Source(order.channel)
    return ref_of("order", order.player, src.channel, src.post_id, src.line, src.text)


def warning_ref(warning: ParseWarning) -> str:
    src = warning.source
    where = (src.channel, src.post_id, src.line, src.text) if src else (None, None, None, None)
    return ref_of("warning", warning.code, warning.player, warning.action, *where)


def order_to_json(order: Order) -> dict[str, Any]:
    """An order as host overrides keep it (the parsed_orders columns hold the same fields)."""
    src = order.source
    return {
        "player": order.player,
        "kind": order.kind.value,
        "action": order.action,
        "targets": list(order.targets),
        "args": dict(order.args),
        "channel": order.channel.value,
        "at": order.at.isoformat() if order.at else None,
        "candidates": list(order.candidates),
        "form": order.form,
        "source": None
        if src is None
        else {
            "channel": src.channel.value,
            "post_id": src.post_id,
            "url": src.url,
            "line": src.line,
            "text": src.text,
        },
    }


def order_from_json(data: dict[str, Any]) -> Order:
    src = data.get("source")
    return Order(
        player=data["player"],
        kind=OrderKind(data["kind"]),
        action=data.get("action"),
        targets=tuple(data.get("targets", ())),
        args=dict(data.get("args", {})),
        channel=Channel(data.get("channel", Channel.PM)),
        at=datetime.fromisoformat(data["at"]) if data.get("at") else None,
        source=None if src is None else Source(**{**src, "channel": Channel(src["channel"])}),
        candidates=tuple(data.get("candidates", ())),
        form=data.get("form"),
    )
