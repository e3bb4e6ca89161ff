"""Parse warnings: what the host should look at before results are published."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.orders import Source

# Codes shared by every ruleset (scenario-format.md "Common warning codes").
UNKNOWN_COMMAND = "unknown_command"
UNKNOWN_TARGET = "unknown_target"
AMBIGUOUS_TARGET = "ambiguous_target"
MULTIPLE_VOTES = "multiple_votes"
LATE = "late"
EARLY = "early"
"""Sent before the game's first phase opened: counted once the start went out to the
players (accepted), held for the host when sent before that."""
EDITED_AFTER_DEADLINE = "edited_after_deadline"
DELETED_AFTER_DEADLINE = "deleted_after_deadline"
"""First seen deleted only after the deadline: it may have been deleted before it."""
VANISHED = "vanished"
"""Gone from the board (a hard delete) only after the deadline: it may have gone before."""
DEADLINE_MINUTE = "deadline_minute"
"""A PM, a post or an edit the board dates to the minute of the deadline: it may have come
just after it. Held; `--ignore` drops what the message says."""
OPENING_MINUTE = "opening_minute"
"""A message the board dates to the minute the phase opened in, which nothing places after
the opening (a PM; a post when the GM's opening post is not read): read for the phase and
held; `--ignore` drops what it says."""
SENDER_NOT_IN_PLAY = "sender_not_in_play"
TARGET_NOT_IN_PLAY = "target_not_in_play"
TARGET_SELF = "target_self"
ACTION_NOT_AVAILABLE = "action_not_available"
NO_USES_LEFT = "no_uses_left"
INVALID_TARGET = "invalid_target"
BAD_PARAMETER = "bad_parameter"
NOT_ALLOWED = "not_allowed"
THREAD_ORDER_IGNORED = "thread_order_ignored"
PM_VOTE_IGNORED = "pm_vote_ignored"
THREAD_VOTE_IGNORED = "thread_vote_ignored"
HIDDEN_TEXT = "hidden_text"
"""A command only text readers cannot see gives (white, tiny, reversed): held for the host."""
PM_GAME_UNCLEAR = "pm_game_unclear"
"""A PM whose sender plays in several games of the GM account and that names none of them:
not read into any game until the host settles it (the sender is asked which game)."""
UNREADABLE_MESSAGE = "unreadable_message"
"""Reading, parsing or taking in a post or PM raised: nothing in it counts, the rest of the
phase is read as usual, and the host settles it (`--typed` what it says, or `--ignore`)."""
TRUNCATED = "truncated"
"""A post longer than the game reads (`[game] max_post_chars`) or with too many commands."""


@dataclass(frozen=True)
class ParseWarning:
    """Something the parser or the rules were unsure of, or rejected.

    `choices` are candidate fixes the host can pick (e.g. the roster names a misspelt
    target may mean); `accepted` tells whether the command still took effect.
    """

    code: str
    message: str
    player: str | None = None
    source: Source | None = None
    choices: tuple[str, ...] = ()
    action: str | None = None
    accepted: bool = False


def N_(template: str) -> str:
    """Marks a warning's message template for the catalogues (`pybabel extract -k N_`, the
    `warnings` domain): the message is made and stored in English, as scenario files and
    logs read it, and `engine.i18n.warning_text` shows it in the host's language."""
    return template


def Nn_(singular: str, plural: str, n: int) -> str:
    """`N_` for a text with a count (`pybabel extract -k Nn_:1,2`): English's form for `n`,
    filled in English by the caller. The count's field is `{n}`, by which
    `engine.i18n.warning_text` picks the host's language's own plural form."""
    return singular if n == 1 else plural
