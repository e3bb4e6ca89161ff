"""Orders: votes, role actions, cancellations and requests, as the engine receives them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any


class Channel(StrEnum):
    """Where a command reached the GM."""

    PM = "pm"
    THREAD = "thread"


class OrderKind(StrEnum):
    """What a command asks for. Votes are orders of kind vote/unvote/no_lynch."""

    VOTE = "vote"
    UNVOTE = "unvote"
    NO_LYNCH = "no_lynch"
    ORDER = "order"
    CANCEL = "cancel"
    REQUEST = "request"


VOTE_KINDS = frozenset({OrderKind.VOTE, OrderKind.UNVOTE, OrderKind.NO_LYNCH})


@dataclass(frozen=True)
class Source:
    """Where an order came from: the post or PM and the line of it that was read."""

    channel: Channel
    post_id: str | None = None
    url: str | None = None
    line: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Order:
    """A structured instruction from a player.

    `action` is an action id for role orders (or several candidate ids from a grammar
    keyword, resolved against the sender's role at intake), the request id for requests,
    and for cancels the action to cancel (None: all role orders).
    `targets` are roster names (already resolved) or the literal ``"no_lynch"``.
    """

    player: str
    kind: OrderKind
    action: str | None = None
    targets: tuple[str, ...] = ()
    args: Mapping[str, Any] = field(default_factory=dict)
    channel: Channel = Channel.PM
    at: datetime | None = None
    source: Source | None = None
    candidates: tuple[str, ...] = ()
    """Candidate action ids when the grammar keyword maps to several (e.g. shot/team_shot)."""
    form: str | None = None
    """The wording class the parser saw, e.g. ``"canonical"`` or ``"nonstandard"`` votes."""

    @property
    def is_vote(self) -> bool:
        return self.kind in VOTE_KINDS

    @property
    def target(self) -> str | None:
        return self.targets[0] if self.targets else None

    def with_(self, **changes: Any) -> Order:
        return replace(self, **changes)
