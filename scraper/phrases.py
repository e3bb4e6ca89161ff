"""A grammar's phrases compiled into word tables, once per grammar, for the matcher."""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field

from engine.core.grammar import CommandForm, Grammar
from scraper.normalize import clean_line, lower

_Words = tuple[str, ...]


def words_of(text: str) -> _Words:
    """The matcher's words of a phrase or a line: case, ё, markup and separators normalised."""
    return tuple(lower(clean_line(text)).split())


def _starts(words: _Words | list[str], pos: int, phrase: _Words, end: int | None = None) -> bool:
    """`phrase` opens `words` at `pos` and ends by `end` (a sentence's end, if given)."""
    stop = pos + len(phrase)
    if end is not None and stop > end:
        return False
    return tuple(words[pos:stop]) == phrase


@dataclass(frozen=True)
class Phrase:
    words: _Words
    form: CommandForm


@dataclass
class _Node:
    """One word of the phrase tree: the phrase ending here (the grammar's first), if any."""

    phrase: Phrase | None = None
    next: dict[str, _Node] = field(default_factory=dict)


class CompiledGrammar:
    """Phrase, noun, hedge and no-lynch tables of one grammar, longest entries first."""

    def __init__(self, grammar: Grammar) -> None:
        # A tree of the phrases word by word: finding the phrase at a word walks as deep as
        # the text follows some phrase, however many phrases share the first word (357 open
        # with «ас» in twelve-rooms), so a post of «АС1 АС1 …» costs what any text does.
        self._tree = _Node()
        for form in grammar.forms:
            for text in form.phrases:
                node, words = self._tree, words_of(text)
                for word in words:
                    node = node.next.setdefault(word, _Node())
                if node is not self._tree and node.phrase is None:
                    node.phrase = Phrase(words, form)
        self.first_words = frozenset(self._tree.next)
        """Words that open some phrase: a line without one holds no command."""
        self._nouns = sorted(
            ((words_of(noun), actions) for noun, actions in grammar.action_nouns.items()),
            key=lambda item: -len(item[0]),
        )
        self._hedges: dict[str, list[_Words]] = defaultdict(list)
        for hedge in (words_of(h) for h in grammar.hedges):
            if hedge:
                self._hedges[hedge[0]].append(hedge)
        no_lynch = {words_of(w) for w in grammar.no_lynch_words} - {()}
        # «голосую за мир»: the phrase already took «за», so «мир» alone must match too.
        no_lynch |= {w[1:] for w in no_lynch if len(w) > 1 and w[0] in grammar.prepositions}
        self._no_lynch = sorted(no_lynch, key=len, reverse=True)
        signs = sorted(grammar.symbols, key=len, reverse=True)
        self._symbols = dict(grammar.symbols)
        self._symbols_re = (
            re.compile(r"(^|:)([ \t]*)(" + "|".join(map(re.escape, signs)) + ")", re.MULTILINE)
            if signs
            else None
        )

    def replace_symbols(self, text: str) -> str:
        """Signs that open a line or follow a colon become their words («↑» → « вверх »)."""
        if self._symbols_re is None:
            return text
        table = self._symbols
        return self._symbols_re.sub(lambda m: f"{m[1]}{m[2]} {table[m[3]]} ", text)

    def phrase_at(self, words: list[str], pos: int, end: int | None = None) -> Phrase | None:
        """The longest phrase opening `words` at `pos` and ending by `end`: «голосую за» over
        «голосую», «отмена голоса» over «отмена»."""
        stop = len(words) if end is None else min(end, len(words))
        node, found = self._tree, None
        for i in range(pos, stop):
            step = node.next.get(words[i])
            if step is None:
                break
            node = step
            found = node.phrase or found
        return found

    def hedge_at(self, words: list[str], pos: int, end: int | None = None) -> bool:
        return any(_starts(words, pos, h, end) for h in self._hedges.get(words[pos], ()))

    def noun_at(self, words: list[str], pos: int, end: int) -> tuple[int, tuple[str, ...]]:
        """The action noun at `pos`, if any: (words it takes, action ids)."""
        for noun, actions in self._nouns:
            if _starts(words, pos, noun, end):
                return len(noun), actions
        return 0, ()

    def no_lynch_at(self, words: list[str], pos: int, end: int) -> bool:
        return any(_starts(words, pos, w, end) for w in self._no_lynch)


_lock = threading.Lock()
_cache: dict[int, tuple[Grammar, CompiledGrammar]] = {}
_CACHE_SIZE = 32


def compiled(grammar: Grammar) -> CompiledGrammar:
    """The compiled tables of `grammar`, built on first use (grammars are module constants)."""
    with _lock:
        hit = _cache.get(id(grammar))
        if hit is not None and hit[0] is grammar:
            return hit[1]
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        table = CompiledGrammar(grammar)
        _cache[id(grammar)] = (grammar, table)
        return table
