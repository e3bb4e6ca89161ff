"""How to write an order, taken from the grammar that reads it: for role PMs, help replies
and refusals.

A ruleset says which orders a player can give (`UsageSpec`: the order's kind and action id,
and optionally which of the grammar's phrases to show and what goes after it); `usage`
looks the phrase up in the grammar, for each language, and returns plain data an event can
carry. The renderer prints it («лечу <игрок> — например: лечу Машу», with the name put in
the case the phrase asks for). Nothing here invents a word the grammar does not have: an
order the grammar cannot write is an error, and each ruleset's tests parse every printed
example back and check it is read as the order it names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import OrderKind

LANGS = ("ru", "en")

PLACEHOLDERS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        ArgKind.PLAYER: "<игрок>",
        ArgKind.PLAYERS: "<игрок>",
        ArgKind.PLAYER_TEXT: "<игрок>: <текст>",
        ArgKind.ACTION: "[<приказ>]",
        ArgKind.WORDS: "<слово>",
        ArgKind.CLAUSE: "<что>",
        ArgKind.TEXT: "<текст>",
        ArgKind.NONE: "",
    },
    "en": {
        ArgKind.PLAYER: "<player>",
        ArgKind.PLAYERS: "<player>",
        ArgKind.PLAYER_TEXT: "<player>: <text>",
        ArgKind.ACTION: "[<order>]",
        ArgKind.WORDS: "<word>",
        ArgKind.CLAUSE: "<what>",
        ArgKind.TEXT: "<text>",
        ArgKind.NONE: "",
    },
}
"""What stands for an argument in an order's form, by language and argument kind."""


class UsageError(ValueError):
    """A ruleset asked to show an order its grammar cannot write."""


Part = str | Mapping[str, str]
"""A piece of an example: words as written, or ``{"name": X}`` (a player, put in the case
the phrase asks for) or ``{"name": X, "case": "gen"}``."""


@dataclass(frozen=True)
class UsageSpec:
    """One order a player can give, as a ruleset declares it for the help texts.

    `phrase` and `hint` and `example` are per language (``{"ru": …, "en": …}``); a missing
    language takes the grammar's first phrase and the argument kind's placeholder. For an
    order on a player, `example` may be left out: the example names `target`.
    """

    kind: OrderKind
    action: str | None = None
    phrase: Mapping[str, str] = field(default_factory=dict)
    hint: Mapping[str, str] = field(default_factory=dict)
    example: Mapping[str, Sequence[Part]] = field(default_factory=dict)
    form: str | None = None
    """Only the grammar's forms with this label (e.g. ``"canonical"`` votes)."""
    what: Mapping[str, str] = field(default_factory=dict)
    """What the order does, per language, for orders whose phrase does not say it
    («рейтинг — опубликовать рейтинг голосования»)."""
    case: str | None = None
    """The Russian case of the example's player where the phrase's own word does not tell it
    («катана Вася»: nom); None: the renderer reads it off the phrase."""


def _forms(grammar: Grammar, spec: UsageSpec, lang: str) -> list[CommandForm]:
    found = []
    for form in grammar.forms:
        if form.kind is not spec.kind or form.lang != lang:
            continue
        if spec.form is not None and form.form != spec.form:
            continue
        named = spec.action is not None and spec.kind in (OrderKind.ORDER, OrderKind.REQUEST)
        if named and spec.action not in form.actions:
            continue
        found.append(form)
    return found


_PICKED: dict[tuple[Any, ...], tuple[Grammar, tuple[CommandForm, str]]] = {}
"""`_pick`'s answers by grammar (its identity, as the matcher caches: one object per
variant, kept alive here with the answer) and what of the spec it reads: every role PM of a
game asks the same few, and a simulation starts thousands of games."""


def _pick(grammar: Grammar, spec: UsageSpec, lang: str) -> tuple[CommandForm, str]:
    key = (id(grammar), spec.kind, spec.action, spec.form, spec.phrase.get(lang), lang)
    known = _PICKED.get(key)
    if known is not None and known[0] is grammar:
        return known[1]
    picked = _pick_form(grammar, spec, lang)
    if len(_PICKED) >= 4096:
        _PICKED.clear()
    _PICKED[key] = (grammar, picked)
    return picked


def _pick_form(grammar: Grammar, spec: UsageSpec, lang: str) -> tuple[CommandForm, str]:
    # The matcher reads every form whatever its label: an English word listed among the
    # Russian forms («plagiarize») is still one the parser takes.
    forms = _forms(grammar, spec, lang) or [
        f for other in LANGS if other != lang for f in _forms(grammar, spec, other)
    ]
    if not forms:
        raise UsageError(f"the grammar has no {lang} form for {spec.kind.value} {spec.action}")
    wanted = spec.phrase.get(lang)
    if wanted is None:
        # The first phrase of a form naming only this action, where there is one.
        only = [f for f in forms if len(f.actions) <= 1] or forms
        return only[0], only[0].phrases[0]
    # A colon after the phrase («колода: …») is how a player writes it; the reader skips it.
    words = wanted.lower().replace("ё", "е").replace(":", " ").split()
    for form in forms:
        for phrase in form.phrases:
            # A phrase may be shown with a preposition the grammar skips after it, and with
            # the ё the reader folds to е («подсчёт голосов»).
            known = phrase.lower().replace("ё", "е").split()
            if words[: len(known)] == known:
                rest = words[len(known) :]
                if all(w in grammar.prepositions for w in rest):
                    return form, wanted
    raise UsageError(f"{wanted!r} is not a {lang} phrase of {spec.kind.value} {spec.action}")


def usage(
    grammar: Grammar, spec: UsageSpec, *, target: str | None = None, langs: Sequence[str] = LANGS
) -> dict[str, Any]:
    """One order's form and example in each language, as event data::

    {"kind": "order", "action": "heal",
     "ru": {"phrase": "лечу", "hint": "<игрок>", "example": [{"name": "Маша"}]}, …}
    """
    entry: dict[str, Any] = {"kind": spec.kind.value, "action": spec.action}
    for lang in langs:
        form, phrase = _pick(grammar, spec, lang)
        hint = spec.hint.get(lang, PLACEHOLDERS[lang][form.arg])
        example: list[Part]
        if lang in spec.example:
            example = [p if isinstance(p, str) else dict(p) for p in spec.example[lang]]
        elif form.arg in (ArgKind.PLAYER, ArgKind.PLAYERS) or (
            form.arg is ArgKind.CLAUSE and target is not None
        ):
            if target is None:
                raise UsageError(f"{spec.action}: an example needs a player's name")
            name = {"name": target}
            if spec.case is not None and lang == "ru":
                name["case"] = spec.case
            example = [name]
        elif form.arg in (ArgKind.NONE, ArgKind.ACTION):
            example = []
        else:
            raise UsageError(f"{spec.action}: {form.arg.value} orders need an example")
        entry[lang] = {"phrase": phrase, "hint": hint, "example": example}
        if lang in spec.what:
            entry[lang]["what"] = spec.what[lang]
    return entry


def usages(
    grammar: Grammar, specs: Sequence[UsageSpec], names: Sequence[str]
) -> list[dict[str, Any]]:
    """Several orders' usage; the examples name the given players in turn (real names of the
    game, so a player sees his order as he would write it)."""
    out = []
    for i, spec in enumerate(specs):
        target = names[i % len(names)] if names else None
        out.append(usage(grammar, spec, target=target))
    return out
