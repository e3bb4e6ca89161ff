"""The labelled parsing corpus (fixtures/parsing/) and how the parser scores on it.

Sources: the YAML files of `fixtures/parsing/` (written by this project, see its README),
and the truth files of the phpBB 3.3.10 fixture game, read directly: each thread post's
intended effect (`thread_truth.json`) and each PM's intended orders (`pms_truth.json`).

An item is read the way a host reads it (`scraper.reading.read_post`: the parse, the dead,
substitutes, the deadline) and scored:

- correct: the orders and the warning codes are those of the label;
- warned: something differs, and the reading raised a warning (the host looks at it);
- wrong: something differs and nothing warned — the failure that must not happen.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from engine.core.orders import Channel, Order, OrderKind
from forums.bbcode import parse_bbcode
from forums.records import PostBody, TextRun
from rulesets import find
from scraper.reading import Cast, read_post

ROOT = Path(__file__).resolve().parents[1]
CORPUS_DIR = ROOT / "fixtures" / "parsing"
PHPBB_TRUTH = ROOT / "fixtures" / "phpbb" / "3.3.10"


@dataclass
class Item:
    """One labelled post or PM."""

    id: str
    ruleset: str
    cls: str
    sender: str
    text: str
    cast: Cast
    channel: Channel
    orders: list[dict[str, Any]]
    warnings: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    signature: str | None = None
    at: datetime | None = None
    deadline: datetime | None = None
    edited_at: datetime | None = None
    note: str = ""
    choices: list[str] = field(default_factory=list)
    """Players the host must be offered among a warning's choices (fixed in one step)."""

    @property
    def unambiguous(self) -> bool:
        """A label that expects no warning: one clear reading a careful host agrees on."""
        return not self.warnings

    def body(self) -> PostBody:
        body = parse_bbcode(self.text)
        if self.signature is None:
            return body
        sig = tuple(TextRun(r.text, signature=True) for r in parse_bbcode(self.signature).runs)
        return PostBody((*body.runs, TextRun("\n"), *sig), body.links)


@dataclass
class Outcome:
    item: Item
    verdict: str  # correct | warned | wrong
    orders: list[dict[str, Any]]
    warnings: list[str]
    choices: list[str] = field(default_factory=list)
    """Every choice the warnings offer the host."""


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _cast(doc: Mapping[str, Any], dead: list[str] | None = None) -> Cast:
    dead = list(dead if dead is not None else doc.get("dead", ()))
    return Cast(
        tuple(p for p in doc["players"] if p not in dead),
        tuple(dead),
        dict(doc.get("replacements") or {}),
        {k: tuple(v) for k, v in (doc.get("aliases") or {}).items()},
    )


def yaml_items(directory: Path = CORPUS_DIR) -> Iterator[Item]:
    for path in sorted(directory.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        default_channel = doc.get("channel") or (
            "thread" if doc["ruleset"] == "votecount" else "pm"
        )
        casts: dict[tuple[str, ...] | None, Cast] = {None: _cast(doc)}
        for raw in doc["items"]:
            dead = raw.get("dead")
            key = tuple(dead) if dead is not None else None
            if key not in casts:
                casts[key] = _cast(doc, dead)
            yield Item(
                id=raw["id"],
                ruleset=doc["ruleset"],
                cls=raw["class"],
                sender=raw["sender"],
                text=raw["text"],
                cast=casts[key],
                channel=Channel(raw.get("channel", default_channel)),
                orders=list(raw["orders"]),
                warnings=list(raw.get("warnings", [])),
                options={**doc.get("options", {}), **raw.get("options", {})},
                signature=raw.get("signature"),
                at=_time(raw.get("at")),
                deadline=_time(raw.get("deadline")),
                edited_at=_time(raw.get("edited_at")),
                choices=list(raw.get("choices", [])),
            )


# -- the phpBB fixture game's truth files ------------------------------------------------------

# Where classic §10 reads a PM differently from what its writer meant, the rule wins and the
# label says so: a conditional order is no order (§10 "hedged or conditional text").
_PM_OVERRIDES: dict[str, tuple[list[dict[str, Any]], list[str], str]] = {
    "N2a": ([], ["unknown_command"], "conditional order: not an order under classic §10"),
}


_THREAD_OVERRIDES: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
    # «если бы могли — голосую за Nekr0» from a dead player: conditional, so no vote at all
    # and nothing for the host to reject (the truth file: not counted).
    "P44": ([], []),
}


def truth_items(directory: Path = PHPBB_TRUTH) -> Iterator[Item]:
    thread = json.loads((directory / "thread_truth.json").read_text(encoding="utf-8"))
    players = [p["username"] for p in thread["players"]]
    deadlines = [_time(d) for d in thread["deadlines"].values()]
    gm = thread["gm"]["username"]
    # The day-1 lynch and the night-1 kill happen between the day-1 deadline and day 2.
    dead_after_day1 = ["Лёха", "Doc_Holiday"]
    for post in thread["posts"]:
        if post["author"] == gm or post.get("deleted"):
            continue
        at = _time(post["posted_at"]["msk"])
        assert at is not None
        day = next(i for i, d in enumerate(deadlines) if d is None or at <= d + _NIGHT)
        deadline = deadlines[day]
        dead = dead_after_day1 if day >= 1 else []
        effect = post["intended_effect_after_edits"]
        orders, warnings = _effect(effect)
        if post["label"] in _THREAD_OVERRIDES:
            orders, warnings = _THREAD_OVERRIDES[post["label"]]
        yield Item(
            id=f"phpbb-{post['label']}",
            ruleset="votecount",
            cls="phpbb_truth",
            sender=post["author"],
            text=post["final_bbcode"],
            cast=Cast(tuple(p for p in players if p not in dead), tuple(dead)),
            channel=Channel.THREAD,
            orders=orders,
            warnings=warnings,
            at=at,
            deadline=deadline,
            note=post.get("notes") or "",
        )
    pms = json.loads((directory / "pms_truth.json").read_text(encoding="utf-8"))
    for message in pms["messages"]:
        if message["sender"] == pms["gm"] or message["kind"] not in ("order", "chat", "question"):
            continue
        orders = [
            {"kind": "order", "action": o["action"], "target": o["target"]}
            for o in message["intended_orders"]
        ]
        warnings = [] if orders else ["unknown_command"]
        note = message.get("notes") or ""
        if message["label"] in _PM_OVERRIDES:
            orders, warnings, note = _PM_OVERRIDES[message["label"]]
        yield Item(
            id=f"phpbb-{message['label']}",
            ruleset="classic",
            cls="phpbb_truth",
            sender=message["sender"],
            text=message["bbcode"],
            cast=Cast(tuple(players)),
            channel=Channel.PM,
            orders=orders,
            warnings=warnings,
            note=note,
        )


_NIGHT = datetime.fromisoformat("2026-01-02T00:00:00") - datetime.fromisoformat(
    "2026-01-01T12:00:00"
)
"""Posts up to half a day after a deadline still belong to that day (they are late)."""


def _effect(effect: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    kind = effect["kind"]
    if kind == "vote":
        return [{"kind": "vote", "target": effect["target"]}], []
    if kind == "unvote":
        return [{"kind": "unvote"}], []
    if kind == "not_counted":
        reason = effect["reason"]
        if "deadline" in reason:
            return [], ["late"]
        if "dead" in reason:
            return [], ["sender_not_in_play"]
        return [], []
    return [], []


def all_items() -> list[Item]:
    return [*yaml_items(), *truth_items()]


# -- scoring -------------------------------------------------------------------------------------


def _as_label(order: Order) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": order.kind.value}
    if order.kind in (OrderKind.ORDER, OrderKind.REQUEST, OrderKind.CANCEL) and order.action:
        out["action"] = order.action
    if order.targets and order.kind is not OrderKind.NO_LYNCH:
        out["target"] = order.targets[0] if len(order.targets) == 1 else list(order.targets)
    return out


def _same(order: Order, label: Mapping[str, Any]) -> bool:
    if order.kind.value != label["kind"]:
        return False
    action = label.get("action")
    if action is not None and action != order.action and action not in order.candidates:
        return False
    if action is None and order.kind is OrderKind.CANCEL and order.action is not None:
        return False
    if order.kind is OrderKind.NO_LYNCH:
        return True
    target = label.get("target")
    targets = [target] if isinstance(target, str) else list(target or [])
    return list(order.targets) == targets


def score(item: Item) -> Outcome:
    ruleset = find(item.ruleset)
    options = ruleset.options(item.options)
    grammar = ruleset.grammar_for(options)
    result = read_post(
        item.body(),
        grammar,
        item.cast,
        sender=item.sender,
        channel=item.channel,
        lenient=bool(options.get("lenient_names", False)),
        no_lynch=bool(options.get("no_lynch", True)),
        at=item.at,
        deadline=item.deadline,
        edited_at=item.edited_at,
    )
    kept = ruleset.keep_parse_warnings(item.channel, result.warnings)
    warnings = [w.code for w in kept]
    choices = [c for w in kept for c in w.choices]
    same_orders = len(result.orders) == len(item.orders) and all(
        _same(o, label) for o, label in zip(result.orders, item.orders, strict=True)
    )
    if same_orders and Counter(warnings) == Counter(item.warnings):
        verdict = "correct"
    elif warnings:
        verdict = "warned"
    else:
        verdict = "wrong"
    if verdict == "correct" and not set(item.choices) <= set(choices):
        verdict = "warned"  # the host is told, but must look for the player himself
    return Outcome(item, verdict, [_as_label(o) for o in result.orders], warnings, choices)


@dataclass
class Tally:
    posts: int = 0
    correct: int = 0
    warned: int = 0
    wrong: int = 0
    unambiguous: int = 0
    warned_unambiguous: int = 0

    def add(self, outcome: Outcome) -> None:
        self.posts += 1
        setattr(self, outcome.verdict, getattr(self, outcome.verdict) + 1)
        if outcome.item.unambiguous:
            self.unambiguous += 1
            self.warned_unambiguous += outcome.verdict == "warned"

    @property
    def warned_share(self) -> float:
        return self.warned_unambiguous / self.unambiguous if self.unambiguous else 0.0


def run(items: list[Item] | None = None) -> tuple[dict[str, Tally], list[Outcome]]:
    """Score every item: tallies per ruleset and overall ("all"), and every outcome."""
    outcomes = [score(item) for item in (items if items is not None else all_items())]
    tallies: dict[str, Tally] = {}
    for outcome in outcomes:
        for key in (outcome.item.ruleset, "all"):
            tallies.setdefault(key, Tally()).add(outcome)
    return tallies, outcomes
