"""The nickname resolver: finds which roster player a piece of text names (scenario-format.md)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rapidfuzz import fuzz, process

from scraper.normalize import fold, is_cyrillic, lower, name_key, tokens
from scraper.translit import is_latin, sound_key, to_cyrillic
from scraper.wordforms import GROUPS, WordForms, declensions, is_ordinary_word

_MAX_SUGGESTIONS = 5
_SUGGESTION_CUTOFF = 70.0
_MIN_PREFIX = 2
_MIN_INNER = 4
"""Letters an inner word of a nick needs to be a short form of it on its own."""
_MIN_PART = 3
"""Letters a piece from inside a nick needs for the host to be offered the nick."""
_INNER_RE = re.compile(r"[A-ZА-ЯЁ]?[a-zа-яё]+|[A-ZА-ЯЁ]+(?![a-zа-яё])|\d+")
_MAX_WORD = 64
"""Longer words are never a nickname's (a 60 KB «word» is not looked up at all)."""
_PLACEHOLDER_BASE = 0xAC00
"""Punctuation-only nicks («???», «-_-») stand in the text as a run of one Hangul syllable
each: a letter no Russian or English player types, of the nick's own length (offsets hold)."""


class MatchStatus(StrEnum):
    OK = "ok"
    AMBIGUOUS = "ambiguous"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class NameMatch:
    """What the resolver made of the text: a player, several, or none."""

    status: MatchStatus
    name: str | None = None
    """The resolved roster name (status ok)."""
    candidates: tuple[str, ...] = ()
    """Every roster name that fits (one when ok, several when ambiguous), in roster order."""
    consumed: int = 0
    """How many characters of the text the name took (0 when unknown)."""
    rest: str = ""
    """The text after the name (the whole text when unknown)."""
    suggestions: tuple[str, ...] = ()
    """Similar roster names for the host, never chosen automatically (unknown only)."""
    matched: str = ""
    """The text the name was read from, as written («Уставшего Скитальца»)."""
    exact: bool = False
    """The text spelt a roster name itself, not a word form or an alias."""

    @property
    def ok(self) -> bool:
        return self.status is MatchStatus.OK


_SEEN_MAX = 1024
"""How many word runs a resolver keeps the answer of (`NameResolver.match_words`)."""


@dataclass(frozen=True)
class WordMatch:
    """`NameResolver.match_words`: a name found at the start of a run of words."""

    status: MatchStatus
    name: str | None = None
    candidates: tuple[str, ...] = ()
    words: int = 0
    """How many words the name took."""
    head: int = 0
    """When only the head of the first word named someone («Васю-мафа»): its length."""
    suggestions: tuple[str, ...] = ()
    exact: bool = False
    loose: bool = False
    """Only a short form named the player (a prefix, initials, an inner word: `lenient`)."""

    @property
    def ok(self) -> bool:
        return self.status is MatchStatus.OK


@dataclass(frozen=True)
class _Entry:
    """A roster name or a host alias of one, with the case forms of each of its words."""

    player: int
    words: tuple[str, ...]
    forms: tuple[WordForms, ...]
    folded_forms: tuple[WordForms, ...]
    """Empty when the name must not be folded (a look-alike twin is on the roster)."""
    sound_forms: tuple[WordForms, ...] = ()
    """The sound keys of every form of every word (transliteration, `scraper.translit`)."""
    alias: bool = False

    def fits(self, keys: Sequence[str], group: str, folded: bool) -> bool:
        table = self.folded_forms if folded else self.forms
        if len(keys) < len(self.words) or len(table) < len(self.words):
            return False
        return all(key in forms[group] for key, forms in zip(keys, table, strict=False))


_Hit = tuple[int, frozenset[int]]  # (words taken, roster indices)


def _folded(forms: WordForms) -> WordForms:
    return {group: frozenset(fold(s) for s in spellings) for group, spellings in forms.items()}


def _sounds(word: str, forms: WordForms) -> WordForms:
    """Sound keys of a word's forms; a Latin word also gets its Cyrillic spelling's forms."""
    extra = declensions(to_cyrillic(word)) if is_latin(word) else None
    return {
        group: frozenset(sound_key(s) for s in spellings | (extra[group] if extra else set()))
        for group, spellings in forms.items()
    }


def inner_words(name: str) -> tuple[str, ...]:
    """A nick cut into its words: spaces, underscores, CamelCase humps and digit runs
    ("TheFroggyOne" → the, froggy, one; "Tangofox42" → tangofox, 42)."""
    return tuple(fold(lower(w)) for w in _INNER_RE.findall(name.replace("ё", "е")))


def _is_punctuation(name: str) -> bool:
    return bool(name.strip()) and not name_key(name)


class NameResolver:
    """Resolves nicknames against one game's roster; build once per game, reuse for every post.

    Order of preference: the longest run of words that names someone; at equal length a
    roster name spelt exactly beats a host alias, which beats a declined form, and plain
    spelling beats look-alike folding. `lenient` adds unique prefixes and acronyms
    (votecount), tried only when nothing else fits.
    """

    def __init__(
        self,
        roster: Sequence[str],
        aliases: Mapping[str, Sequence[str]] | None = None,
        *,
        lenient: bool = False,
    ) -> None:
        self.roster: tuple[str, ...] = tuple(roster)
        self.lenient = lenient
        index = {name: i for i, name in enumerate(self.roster)}
        self._marks: dict[str, str] = {}
        """Punctuation-only nick → its stand-in word (see `protect`)."""
        for name in self.roster:
            if _is_punctuation(name):
                mark = chr(_PLACEHOLDER_BASE + len(self._marks)) * len(name.strip())
                self._marks[name.strip()] = mark
        aliases = {
            **{n: list(a) for n, a in (aliases or {}).items()},
            **{
                n: [*(aliases or {}).get(n, ()), self._marks[n.strip()]]
                for n in self.roster
                if _is_punctuation(n)
            },
        }
        keys = [name_key(n) for n in self.roster]
        self._folded_keys = [fold(k) for k in keys]
        self._inner = [inner_words(n) for n in self.roster]
        """Each name cut at its word, CamelCase and digit boundaries (folded, lowercase)."""
        self._joined = ["".join(words) for words in self._inner]
        """Each name's words run together, for a piece from inside it («mania»)."""
        folded_owners: dict[str, set[str]] = defaultdict(set)
        for key in keys:
            folded_owners[fold(key)].add(key)
        # Two names that differ only by look-alike letters must be told apart by them.
        unfoldable = {k for owners in folded_owners.values() if len(owners) > 1 for k in owners}
        self._entries: list[_Entry] = []
        self._exact: list[tuple[dict[str, set[int]], dict[str, set[int]]]] = []
        sources: list[list[tuple[int, str]]] = [list(enumerate(self.roster)), []]
        for name, alias_list in aliases.items():
            if name not in index:
                raise ValueError(f"alias for {name!r}, who is not on the roster")
            sources[1].extend((index[name], alias) for alias in alias_list)
        for tier in sources:
            plain: dict[str, set[int]] = defaultdict(set)
            folded: dict[str, set[int]] = defaultdict(set)
            for player, text in tier:
                words = tuple(name_key(text).split())
                if not words:
                    continue
                foldable = keys[player] not in unfoldable
                plain[" ".join(words)].add(player)
                if foldable:
                    folded[fold(" ".join(words))].add(player)
                forms = tuple(declensions(w) for w in words)
                folded_forms = tuple(_folded(f) for f in forms) if foldable else ()
                sounds = tuple(_sounds(w, f) for w, f in zip(words, forms, strict=True))
                alias = tier is sources[1]
                self._entries.append(_Entry(player, words, forms, folded_forms, sounds, alias))
            self._exact.append((plain, folded))
        self._max_words = max((len(e.words) for e in self._entries), default=1)
        self._first: tuple[dict[str, set[tuple[int, str]]], dict[str, set[tuple[int, str]]]] = (
            defaultdict(set),
            defaultdict(set),
        )
        self._sound_first: dict[str, set[tuple[int, str]]] = defaultdict(set)
        fuzzy: dict[str, set[int]] = defaultdict(set)
        for n, entry in enumerate(self._entries):
            for group in GROUPS:
                for key in entry.sound_forms[0][group]:
                    self._sound_first[key].add((n, group))
            for group in GROUPS:
                for spelling in entry.forms[0][group]:
                    self._first[0][spelling].add((n, group))
            if entry.folded_forms:
                for group in GROUPS:
                    for spelling in entry.folded_forms[0][group]:
                        self._first[1][spelling].add((n, group))
            for word_forms in entry.forms:
                for group in GROUPS:
                    for spelling in word_forms[group]:
                        fuzzy[fold(spelling)].add(entry.player)
            fuzzy[fold(" ".join(entry.words))].add(entry.player)
        self._fuzzy_keys = list(fuzzy)
        self._fuzzy_players = [fuzzy[k] for k in self._fuzzy_keys]
        self._starts: tuple[frozenset[str], frozenset[str]] = tuple(  # type: ignore[assignment]
            frozenset(
                {k.split()[0] for table in self._exact for k in table[fold_tier]}
                | set(self._first[fold_tier])
            )
            for fold_tier in (0, 1)
        )
        """The words a name can open with, as written and folded (exact keys, word forms):
        a word in neither, with no joiner and no name's sound, opens no strict match."""
        self._seen: dict[tuple[tuple[str, ...], bool], WordMatch] = {}
        """`match_words`'s answers for the word runs met lately (a long post repeats its
        words: «x3 x3 x3 …», «Петя Петя …»), at most `_SEEN_MAX` of them."""

    def protect(self, text: str) -> str:
        """`text` with each punctuation-only nick standing alone replaced by its stand-in word.

        The matcher drops punctuation, so «голосую за ???» would lose the nick «???»; the
        stand-in keeps the length, so offsets into the text stay valid.
        """
        for name, mark in self._marks.items():
            pattern = rf"(?<![^\s:«»\"'(\[\]]){re.escape(name)}(?![^\s«»\"')\[\].,!;])"
            text = re.sub(pattern, mark, text)
        return text

    def match_start(self, text: str) -> NameMatch:
        """Find the name at the start of `text` (after any leading punctuation)."""
        text = self.protect(text) if self._marks else text
        toks = tokens(text)
        if not toks:
            return NameMatch(MatchStatus.UNKNOWN, rest=text)
        hit = self.match_words([t.text for t in toks[: self._max_words]])
        if hit.status is MatchStatus.UNKNOWN:
            return NameMatch(MatchStatus.UNKNOWN, rest=text, suggestions=hit.suggestions)
        end = toks[0].start + hit.head if hit.head else toks[hit.words - 1].end
        return NameMatch(
            hit.status,
            name=hit.name,
            candidates=hit.candidates,
            consumed=end,
            rest=text[end:],
            matched=text[toks[0].start : end],
            exact=hit.exact,
        )

    def match_words(self, words: Sequence[str], *, suggest: bool = True) -> WordMatch:
        """The name opening a run of normalised words (at most `max_words` are looked at).

        The matcher tokenises each line once and calls this at a word index, so finding a
        name costs the same wherever it sits in a long line. `suggest=False` skips the
        similar-name search on a miss (for callers that try every word of a clause).
        """
        keys = [w for w in words[: self._max_words]]
        if not keys:
            return WordMatch(MatchStatus.UNKNOWN)
        if len(keys[0]) > _MAX_WORD:
            return WordMatch(MatchStatus.UNKNOWN)  # no nickname word is that long
        run = (tuple(keys), suggest)
        known = self._seen.get(run)
        if known is None:
            known = self._match_words(keys, suggest)
            if len(self._seen) >= _SEEN_MAX:
                self._seen.clear()
            self._seen[run] = known
        return known

    def _may_open(self, word: str) -> bool:
        """Whether a strict or a sound match can start at `word` (cheap; see `_starts`)."""
        if word in self._starts[0] or fold(word) in self._starts[1]:
            return True
        return "-" in word or "'" in word or sound_key(word) in self._sound_first

    def _match_words(self, keys: list[str], suggest: bool) -> WordMatch:
        if not self.lenient and not self._may_open(keys[0]):
            return WordMatch(
                MatchStatus.UNKNOWN, suggestions=self._suggest(keys) if suggest else ()
            )
        head, loose = 0, False
        hit, exact = self._strict(keys)
        if hit is None and ("-" in keys[0] or "'" in keys[0]):
            # «Васю-мафа»: try the word before the joiner on its own.
            head = min(i for i in (keys[0].find("-"), keys[0].find("'")) if i > 0)
            hit, exact = self._strict([keys[0][:head]])
        if hit is None:
            head = 0
            hit, exact = self._sound(keys), False
        if hit is None and self.lenient:
            hit, exact = self._loose(keys), False
            loose = True
            if hit is None and ("-" in keys[0] or "'" in keys[0]):
                # «pappums-scum»: a short form of a nick before the joiner.
                head = min(i for i in (keys[0].find("-"), keys[0].find("'")) if i > 0)
                hit = self._loose([keys[0][:head]])
                head = head if hit is not None else 0
        if hit is None:
            return WordMatch(
                MatchStatus.UNKNOWN, suggestions=self._suggest(keys) if suggest else ()
            )
        span, players = hit
        found = tuple(self.roster[i] for i in sorted(players))
        single = len(found) == 1
        return WordMatch(
            MatchStatus.OK if single else MatchStatus.AMBIGUOUS,
            name=found[0] if single else None,
            candidates=found,
            words=span,
            head=head,
            exact=exact and single,
            loose=loose,
        )

    @property
    def max_words(self) -> int:
        """The most words a roster name (or alias) has."""
        return self._max_words

    def resolve(self, text: str) -> NameMatch:
        """Resolve a whole string as one name; trailing words make it unknown."""
        found = self.match_start(text)
        if found.status is not MatchStatus.UNKNOWN and tokens(found.rest):
            words = [t.text for t in tokens(text)]
            return NameMatch(MatchStatus.UNKNOWN, rest=text, suggestions=self._suggest(words))
        return found

    def _strict(self, keys: list[str]) -> tuple[_Hit | None, bool]:
        folded_keys = [fold(k) for k in keys]
        hits: list[tuple[int, int, frozenset[int]]] = []  # (span, -tier, players)
        for tier, (plain, folded) in enumerate(self._exact):
            for fold_tier, (table, ks) in enumerate(((plain, keys), (folded, folded_keys))):
                for span in range(len(ks), 0, -1):
                    owners = table.get(" ".join(ks[:span]))
                    if owners:
                        hits.append((span, -(2 * tier + fold_tier), frozenset(owners)))
                        break
        declined: dict[int, set[int]] = defaultdict(set)
        """Roster names (not aliases) whose word forms spell the keys, by span."""
        for fold_tier, ks in enumerate((keys, folded_keys)):
            best: dict[int, set[int]] = defaultdict(set)
            for n, group in self._first[fold_tier].get(ks[0], ()):
                entry = self._entries[n]
                if entry.fits(ks, group, bool(fold_tier)):
                    best[len(entry.words)].add(entry.player)
                    if not fold_tier and not entry.alias and group != "nomn":
                        declined[len(entry.words)].add(entry.player)
            if best:
                span = max(best)
                hits.append((span, -(4 + fold_tier), frozenset(best[span])))
        if not hits:
            return None, False
        best_span, neg_tier, players = max(hits, key=lambda h: (h[0], h[1]))
        others = declined.get(best_span, set()) - players if neg_tier == 0 else set()
        spelt = fold(" ".join(keys[:best_span]))
        others = {p for p in others if self._folded_keys[p] != spelt}  # look-alike twins
        if others:
            # «Васю» spells the player Васю and a form of Вася: a player who signed up as
            # a declined form of another's name must not capture that player's votes.
            return (best_span, players | others), False
        return (best_span, players), neg_tier > -2

    def _sound(self, keys: list[str]) -> _Hit | None:
        """Names that sound like the text when both are transliterated (Petya → Петя)."""
        sounds = [sound_key(k) for k in keys]
        best: dict[int, set[int]] = defaultdict(set)
        latin = [is_latin(k) for k in keys]
        for n, group in self._sound_first.get(sounds[0], ()):
            entry = self._entries[n]
            size = len(entry.words)
            # Only across alphabets: within one, the spelling rules above already decided
            # («Кол» is not «Коль», a form of Коля).
            if len(sounds) >= size and all(
                s in forms[group] and lat != is_latin(word)
                for s, forms, lat, word in zip(
                    sounds, entry.sound_forms, latin, entry.words, strict=False
                )
            ):
                best[size].add(entry.player)
        if not best:
            return None
        span = max(best)
        return span, frozenset(best[span])

    def _loose(self, keys: list[str]) -> _Hit | None:
        written = keys[0] if keys else ""
        keys = [fold(k) for k in keys]
        for span in range(len(keys), 0, -1):
            query = " ".join(keys[:span])
            if len(query) < _MIN_PREFIX:
                continue
            players: set[int] = set()
            for entry in self._entries:
                full = fold(" ".join(entry.words))
                words = [fold(w) for w in entry.words]
                acronym = len(words) > 1 and query == "".join(w[0] for w in words)
                word_prefix = any(w.startswith(query) for w in words)
                # «за Клиффа» for Клифф Бут: one word of a longer name, in any case.
                if span == 1 and len(words) > 1 and entry.folded_forms:
                    word_prefix = word_prefix or any(
                        query in forms[g] for forms in entry.folded_forms for g in GROUPS
                    )
                prefix = full.startswith(query)
                if (
                    prefix
                    or (span == 1 and (word_prefix or acronym))
                    or (span == 1 and self._short_form(entry, query, written))
                ):
                    players.add(entry.player)
            if players:
                return span, frozenset(players)
        return None

    def _short_form(self, entry: _Entry, query: str, written: str) -> bool:
        """The short forms English boards use for long nicks (issue 11): the name's words
        written together ("internetstranger"), the initials of a CamelCase name ("SK" for
        SleepyKrew, "TFO" for TheFroggyOne), or one of its inner words of at least four
        letters that is no ordinary English or Russian word ("Krew", "Froggy"; not "Stranger")."""
        inner = self._inner[entry.player] if not entry.alias else ()
        if len(entry.words) > 1 and query == fold("".join(entry.words)):
            return True
        letters = [w for w in inner if not w.isdigit()]
        if len(letters) > 1 and query == "".join(w[0] for w in letters):
            return True
        if len(query) < _MIN_INNER:
            return False
        for word in inner[1:]:
            if inner.count(word) > 1 or is_ordinary_word(word):
                continue
            # «голос за Макара» for ДедМакар: Russian inner words decline too.
            if query == word or (
                is_cyrillic(word)
                and any(query in forms for forms in _folded(declensions(word)).values())
            ):
                return not is_ordinary_word(written)
        return False

    def _suggest(self, keys: Sequence[str]) -> tuple[str, ...]:
        if not keys:
            return ()
        scores: dict[int, float] = defaultdict(float)
        queries = {fold(keys[0]), fold(" ".join(keys[: self._max_words]))}
        for query in queries:
            found = process.extract(
                query,
                self._fuzzy_keys,
                scorer=fuzz.ratio,
                score_cutoff=_SUGGESTION_CUTOFF,
                limit=None,
            )
            for _, score, i in found:
                for player in self._fuzzy_players[i]:
                    scores[player] = max(scores[player], score)
        first = fold(keys[0])
        if len(first) >= _MIN_PREFIX:
            for entry in self._entries:
                if len(entry.words) > 1 and first == "".join(fold(w[0]) for w in entry.words):
                    scores[entry.player] = max(scores[entry.player], _SUGGESTION_CUTOFF)
                inner = () if entry.alias else self._inner[entry.player]
                for w in (*(fold(word) for word in entry.words), *inner[1:]):
                    if len(w) >= _MIN_PREFIX and (w.startswith(first) or first.startswith(w)):
                        scores[entry.player] = max(scores[entry.player], _SUGGESTION_CUTOFF)
                # «vote mania» for lobstermania, «vote fox» for Tangofox42: a piece from
                # inside a word is too uncertain to count, but the host sees who it may be.
                if (
                    len(first) >= _MIN_PART
                    and not entry.alias
                    and first in self._joined[entry.player]
                ):
                    scores[entry.player] = max(scores[entry.player], _SUGGESTION_CUTOFF)
        ranked = sorted(scores, key=lambda p: (-scores[p], p))
        return tuple(self.roster[p] for p in ranked[:_MAX_SUGGESTIONS])
