"""Words of the votecount ruleset (lynch and no-lynch reasons, rejections) in Russian and English."""

from __future__ import annotations

from collections.abc import Mapping

TEMPLATES = "rulesets.votecount.templates"
"""The package holding this ruleset's Jinja2 templates (``<lang>/<name>.j2``)."""

LANGS = ("ru", "en")

LYNCH_REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "plurality": "больше всех голосов",
        "majority": "набрано большинство",
        "tie_break": "ничья решена правилом игры",
    },
    "en": {
        "plurality": "most votes",
        "majority": "majority reached",
        "tie_break": "tie broken by the game's rule",
    },
}

NO_LYNCH_REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "no_votes": "Голосов не было: сегодня никого не казнят.",
        "no_majority": "Большинство не набрано: сегодня никого не казнят.",
        "tie": "Голоса разделились поровну: сегодня никого не казнят.",
        "no_lynch_vote": "Большинство проголосовало против казни: сегодня никого не казнят.",
    },
    "en": {
        "no_votes": "Nobody voted: there is no lynch today.",
        "no_majority": "Nobody reached a majority: there is no lynch today.",
        "tie": "The vote is tied: there is no lynch today.",
        "no_lynch_vote": "The most votes went to no lynch: there is no lynch today.",
    },
}

REJECT_REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "late": "день уже закончился (дедлайн или набранное большинство)",
        "sender_not_in_play": "это могут только игроки, которые ещё в игре",
        "target_not_in_play": "этот игрок уже не в игре",
        "unknown_target": "такого игрока нет в списке",
        "invalid_target": "так голосовать в этой игре нельзя",
        "not_allowed": "вам сейчас голосовать нельзя",
        "pm_vote_ignored": "голоса принимаются только в игровой теме",
        "thread_vote_ignored": "голоса принимаются только в ЛС ведущему",
        "unknown_command": "здесь принимаются только голоса",
    },
    "en": {
        "late": "the day is over (deadline or majority reached)",
        "sender_not_in_play": "only players still in the game can do that",
        "target_not_in_play": "that player is no longer in the game",
        "unknown_target": "there is no such player",
        "invalid_target": "that vote is not allowed in this game",
        "not_allowed": "you may not vote now",
        "pm_vote_ignored": "votes count only in the game thread",
        "thread_vote_ignored": "votes count only by PM to the GM",
        "unknown_command": "only votes are taken here",
    },
}

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    lang: {
        "lynch_reasons": LYNCH_REASONS[lang],
        "no_lynch_reasons": NO_LYNCH_REASONS[lang],
        "reject_reasons": REJECT_REASONS[lang],
    }
    for lang in LANGS
}
"""Every table by language; the renderer's `term` reads it."""

# The results post: the count first, then what it decided.
RESULTS_ORDER: tuple[tuple[str, ...], ...] = (
    ("vote_tally",),
    ("hammer",),
    ("lynch", "no_lynch"),
)
SEATED: Mapping[str, str] = {"lynch": "player"}
"""Event type → the field naming the player whose seat orders it."""

SEPARATE_POSTS = frozenset({"game_started"})
"""Public events that are posts of their own, so a results post leaves them out."""
