"""Which automatic answers of a phase go out: a ceiling per hour for each kind, and a message
repeated word for word answered once.

A player can make forumgm write to the board for him: a rating post per «рейтинг», a
refusal PM per count asked too soon, a receipt per order PM. The rulesets limit some of
these per player; the game's own ceilings (`[answers]` in the game file) bound them all,
whoever asks:

- each kind of public answer (a vote rating, a count asked for: one kind per event type) at
  most `posts_per_hour` in any hour; a public answer that relays a player's text (an
  anonymous message in the thread) is never held back: its ruleset allows one per player
  per turn, and holding it would lose what the player sent;
- messages answered by a PM that says something was taken (receipts, maps) at most
  `receipts_per_hour`, and those answered by a PM that only refuses (not accepted, a count
  asked too soon) at most `refusals_per_hour`;
- a message whose text is the same as its author's previous one on the same channel in the
  phase (an order PM sent again at every poll), and whose PM answer would say the same, is
  taken as usual but that answer is not sent again; its public answers (a rating asked
  again an hour later) go out as for any message.

The hour is counted by the messages' own times over the whole phase, so every poll (and a
restarted process) decides the same for the same messages: nothing is stored. What a
ceiling holds back is not sent; the commands in it still count, and the host is told in the
log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.config import AnswerLimits
from engine.core.events import Audience, Event
from engine.core.warnings import ParseWarning
from engine.service.replay import Incoming

HOUR = timedelta(hours=1)


@dataclass
class Allowed:
    """What of one message's answers goes out."""

    public: set[str] = field(default_factory=set)
    """Event types of its public answers that are posted (one of each at most)."""
    private: bool = True
    """Whether its private answers (receipts, refusals) are sent."""
    repeated: bool = False
    """The same text as its author's previous message on the channel, with the same private
    answer: that answer is not sent again."""
    held_public: list[str] = field(default_factory=list)
    """Public answers a ceiling held back."""
    held_private: bool = False
    """Its PM answer was held back by the ceiling."""


def allowed_answers(
    taken: Sequence[Incoming],
    answers: Mapping[str, tuple[list[Event], list[ParseWarning]]],
    limits: AnswerLimits,
    *,
    sent_privately: Callable[[Event], bool] = lambda event: True,
    refusal: Callable[[Event], bool] = lambda event: False,
) -> dict[str, Allowed]:
    """For every message of the phase (`taken`, in order), what of its answers goes out.
    `sent_privately`: which of its private events are sent at all (receipts may be off); a
    message counts against a PM ceiling only when one of them is: the refusals' when each
    is a `refusal`, else the receipts'."""
    out: dict[str, Allowed] = {}
    last: dict[tuple[str, str], tuple[str | None, list[Event]]] = {}
    posted: dict[str, deque[datetime]] = {}
    receipts: deque[datetime] = deque()
    refusals: deque[datetime] = deque()
    for item in taken:
        events = answers.get(item.ref, ([], []))[0]
        allowed = out[item.ref] = Allowed()
        said = (item.author, item.channel.value)
        private = [e for e in events if e.audience is Audience.PRIVATE and sent_privately(e)]
        if private and item.digest is not None and last.get(said) == (item.digest, private):
            allowed.repeated, allowed.private = True, False
        last[said] = (item.digest, private)
        for event in events:
            if event.audience is not Audience.PUBLIC or event.type in allowed.public:
                continue
            window = posted.setdefault(event.type, deque())
            if "text" in event.fields or _room(window, item, limits.posts_per_hour):
                allowed.public.add(event.type)
            elif event.type not in allowed.held_public:
                allowed.held_public.append(event.type)
        if private and allowed.private:
            if all(refusal(e) for e in private):
                room = _room(refusals, item, limits.refusals_per_hour)
            else:
                room = _room(receipts, item, limits.receipts_per_hour)
            if not room:
                allowed.private, allowed.held_private = False, True
    return out


def _room(window: deque[datetime], item: Incoming, ceiling: int) -> bool:
    """Whether one more answer fits in the hour before `item` (and count it if so)."""
    while window and window[0] <= item.at - HOUR:
        window.popleft()
    if len(window) >= ceiling:
        return False
    window.append(item.at)
    return True
