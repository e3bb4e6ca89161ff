"""The vocabulary of order grammars: rulesets declare their grammar as this plain data.

The matcher that runs a grammar over a post lives in `scraper`; rulesets only say which
phrases mean what. A phrase is matched at the start of a line (or anywhere, where the
grammar allows it), after normalisation (case, ё→е, BBCode and punctuation stripped).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from engine.core.orders import OrderKind


class ArgKind(StrEnum):
    """What follows a command phrase."""

    NONE = "none"
    """Nothing (e.g. «снимаю голос», «рейтинг»)."""
    PLAYER = "player"
    """One roster name, in any word form; self-words mean the sender."""
    PLAYER_TEXT = "player_text"
    """A roster name, a colon, then free text to the end of the message (anonymous message)."""
    ACTION = "action"
    """Optionally an action noun (cancel: «отмена проверки»); nothing means all."""
    PLAYERS = "players"
    """One or more roster names (separated by commas, «и», filler words; «x3» repeats the
    last one), then any further words of the command as ``args["words"]`` (amounts, role
    names). Votes with this kind still read no-lynch words."""
    WORDS = "words"
    """The rest of the line as ``args["words"]`` (e.g. an ability name), no player."""
    CLAUSE = "clause"
    """The rest of the line read part by part, for orders whose parts come in any order
    («играю Удар тёмной на Ворона, оплата: сброс 4»). A text in «…» or "…" quotes, or after
    one of the grammar's `text_words` and a colon, is cut out first, verbatim, as
    ``args["text"]``. The rest becomes ``args["parts"]``: each roster name (any word form;
    self-words mean the sender) as ``{"player": name, "text": written}``, every other word
    as ``{"word": word}``, in order; ``args["raw"]`` keeps it as written, so symbols the
    words drop (◯ ⚫ → +) stay readable."""
    TEXT = "text"
    """Free text to the end of the message as ``args["text"]``, after an optional colon or
    dash («анонимка: …»); nothing after it is read as a command."""


@dataclass(frozen=True)
class CommandForm:
    """One way of writing one command: its phrases and what they mean."""

    kind: OrderKind
    phrases: tuple[str, ...]
    arg: ArgKind = ArgKind.PLAYER
    actions: tuple[str, ...] = ()
    """Candidate action ids (orders), or the request id (requests)."""
    form: str = "canonical"
    """A label the ruleset can act on, e.g. ``"nonstandard"`` vote wording.

    The matcher reads every form in every channel; the ruleset's intake decides what a
    channel may carry (a classic vote in the thread is flagged, not counted)."""
    lang: str = "ru"


@dataclass(frozen=True)
class Grammar:
    """A ruleset's whole command language."""

    forms: tuple[CommandForm, ...]
    prepositions: frozenset[str] = frozenset()
    """Skipped after a phrase: «голос за», «стреляю в», «анонимка для»."""
    self_words: frozenset[str] = frozenset()
    """Words meaning the sender: «себя», «me»."""
    no_lynch_words: tuple[str, ...] = ()
    """Vote targets meaning nobody («за мир», «no lynch»), where the ruleset has them."""
    action_nouns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Nouns naming actions after a cancel phrase: «проверки» → ("check",)."""
    line_start: bool = True
    """Commands must start a line; otherwise a phrase anywhere in a line counts."""
    phase_tags: frozenset[str] = frozenset()
    """Words of a phase tag opening order lines («ночь 3:», «night 3:»; «N3:» always with
    any of them): the orders get ``args["phase"] = "night N"`` (yakuza.md §13, D7)."""
    proxies: bool = False
    """«за Петю: катана Вася» / «Петя — катана Вася» orders for another player: the orders
    get ``args["proxy_for"]`` (yakuza.md D6)."""
    clause_votes: bool = True
    """With `line_start`, a vote may also open a clause inside a line (after a comma, a
    dash, a colon, «но», «а», «и», "but", "so")."""
    count_spoilers: bool = False
    hedges: tuple[str, ...] = ()
    """Words that make a line a hedge, not a command, when they come first («наверное»)."""
    question_is_hedge: bool = True
    """A line ending with "?" is not a command."""
    fillers: frozenset[str] = frozenset()
    """Words skipped between the arguments of a PLAYERS command («жертва», «роль», «урон»)."""
    chain: bool = False
    """Several commands may share a line («месть + катана Вася», «катана Вася и ловушка Пете»):
    after a command, a phrase that follows (after any joiner word) starts the next one."""
    joiners: frozenset[str] = frozenset()
    """Words that may join chained commands («и», «and»)."""
    text_words: frozenset[str] = frozenset()
    """Words that, followed by a colon, open a verbatim text in a CLAUSE («текст: …»)."""
    symbols: Mapping[str, str] = field(default_factory=dict)
    """Signs that stand for a word where they open a line or follow a colon
    («↑» → «вверх», «Перемещение: ↑»); elsewhere they stay punctuation («Вася → Петя»)."""
    items: bool = False
    """Numbered items split a line into commands: «1) вниз 2) голос Петя»; an item number
    opening a line («1.», «2)») is skipped."""
    bare_name: OrderKind | None = None
    """In a PM, a line (or item) that is only a roster name is this command (the vote)."""

    def forms_of(self, kind: OrderKind) -> tuple[CommandForm, ...]:
        return tuple(f for f in self.forms if f.kind is kind)
