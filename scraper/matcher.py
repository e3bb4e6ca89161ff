"""Running a ruleset's grammar over a post or PM: its lines become orders and parse warnings.

Each line is tokenised once (`scraper.lines`); commands, names and conditions are then read
by word index, so the time a post takes grows with its length and nothing else. A post is
read up to `max_chars` characters (its beginning and its end) and up to `MAX_COMMANDS`
commands; past either, the host is told (`truncated`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime

from engine.core import warnings as codes
from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import Channel, Order, OrderKind, Source
from engine.core.warnings import N_, ParseWarning
from forums.records import PostBody
from scraper.clause import read_clause
from scraper.lines import Line, Text, read_text
from scraper.nicknames import MatchStatus, NameResolver
from scraper.normalize import lower, strip_invisible
from scraper.phrases import CompiledGrammar, Phrase, compiled
from scraper.prefixes import opens_with_tag, phase_tag, proxy
from scraper.wordforms import is_english_word, is_plain_word

DEFAULT_MAX_CHARS = 20_000
"""Characters of one post or PM read by default (`[game] max_post_chars`); phpBB allows 60 000."""
MAX_COMMANDS = 50
"""Commands read from one post or PM; no real order message has more."""
MAX_LINES = 200
"""Lines holding a command word read from one post or PM (talk ones included)."""
_SOURCE_TEXT = 1_000
"""Characters of a command's line kept as its source (what the host sees in review)."""

_VOTES = frozenset({OrderKind.VOTE, OrderKind.NO_LYNCH})
_CONDITIONS = frozenset({"если", "if", "unless"})
"""Words that make what comes before them in a sentence a condition («голос за Васю, если…»)."""
_POSSESSIVES = frozenset({"my", "your", "his", "her", "our", "their",
                          "мой", "твой", "его", "её", "ее", "наш", "ваш", "их", "свой"})  # fmt: skip
"""Right before a vote word, these make it a noun in talk: «мой голос на X в силе»."""
_NEGATIONS = frozenset({"не", "нельзя", "никогда", "not", "don't", "dont", "never", "won't"})
"""Right before a vote word, these make it talk: «не голосую за Васю», "I will not vote Bob"."""
_DETERMINERS = frozenset(
    {"a", "an", "the", "this", "that", "one", "any", "every", "another", "to", "этот", "тот"}
)
"""Articles make «vote» a noun ("a vote on raud would…", "one vote on a townie") and "to" an
intention ("used to vote for SK"): talk (17378 #87, #153), unless a colon follows
("I'm going to Vote: SleepyKrew", #252)."""
_NOUN_MODIFIERS = frozenset({
    "rvs", "random", "serious", "pressure", "joke", "policy", "first", "second", "last",
    "previous", "current", "old", "new", "real",
})  # fmt: skip
"""An adjective right before «vote» makes it a noun: "unoriginal rvs vote on internetstranger"
lists someone's posts (17378 #67, #71: the moderator's count kept both voters where they
were), "a serious vote"; with a colon after it, it is a vote again ("new vote: Bob")."""
_CLAUSE_MARKS = (",", "—", "–", "-", ":", "(", "→")
_CLAUSE_WORDS = frozenset({"но", "а", "и", "однако", "but", "so", "however"})
_STRONG_VOTE_WORDS = frozenset(
    {"vote", "unvote", "гз", "анвот", "nolynch", "виноват", "виновен", "виновна", "виновата"}
)
"""Single-word vote phrases that are never plain talk, so they open a clause unmarked."""
_CHANGE_OF_MIND = frozenset({
    "передумал", "передумала", "передумываю", "нет", "хотя", "вернее", "точнее", "меняю",
    "переголосовываю", "переголосую", "ой", "ошибся", "ошиблась", "опечатка", "actually",
    "instead", "switching", "changed", "changing", "wait", "nope", "no", "nah", "scratch",
    "oops", "sorry", "correction", "typo",
})  # fmt: skip
"""Words just before a later vote of one post that say the player changed his mind."""
_CHANGE_PAIRS = frozenset({("то", "есть"), ("i", "mean"), ("i", "meant")})
"""Two words that say the same («голос за Колю, ой, то есть голос за Олю», "I mean")."""
_CLAUSE_AFTER = frozenset({"передумал", "передумала", "вернее", "точнее", "actually", "instead"})
"""A change of mind opens a clause without a comma («то есть голос за Олю», "I mean vote
Bob")."""
_CONTRASTS = frozenset({"но", "однако", "but", "however"})
"""A hedge before these says nothing about what follows them («я бы голосовал за Васю, но
голос за Олю», «если Лёха промолчит — голос за него, но пока голос за Alu»); a hedge after
them still does («…, но если…»). Not «а»: «если Оля промолчит, а она промолчит, голос за
Олю» is one condition."""
_CHANGE_WINDOW = 5
"""How many words before the later vote such a word may stand («Нет, голосую за X»)."""
_FUNCTION_WORDS = frozenset({
    "is", "was", "are", "be", "count", "counts", "tally", "please", "now", "yet", "again",
    "stays", "stay", "here", "there", "it", "this", "that", "the", "a", "an", "and", "or",
    "but", "to", "in", "of", "with", "from", "as", "so",
    # Thread talk in English («vote someone», «vote switch», «a vote elsewhere»): pronouns,
    # conjunctions, adverbs and prepositions no nickname is made of. A roster name spelt
    # like one still resolves first (only an unknown target gets here).
    "someone", "somebody", "anyone", "anybody", "everyone", "everybody", "something",
    "anything", "him", "her", "them", "us", "you", "your", "his", "their", "our", "its",
    "it's", "he", "she", "they", "we", "who", "whom", "which", "what", "when", "while",
    "whenever", "where", "elsewhere", "instead", "than", "then", "because", "since",
    "until", "though", "although", "also", "just", "only", "merely", "even", "still",
    "already", "maybe", "probably", "too", "very", "more", "less", "later", "today",
    "soon", "towards", "toward", "about", "after", "before", "at", "by", "into", "over",
    "due", "switch", "change", "need", "needs", "remains", "should", "could", "can", "will",
})  # fmt: skip
"""English words that cannot start a nick after «vote»: «that vote is terrible», «vote count»."""
_LITERAL_QUOTE_RE = re.compile(r"\[(/?)quote(?:=[^\]\[\n]*)?\]", re.IGNORECASE)
TRUNCATED = codes.TRUNCATED
_ITEM_START_RE = re.compile(r"^[ \t]*\d{1,2}[.)](?=[ \t])", re.MULTILINE)
_ITEM_RE = re.compile(r"(?<=[ \t])\d{1,2}\)(?=[ \t])")
"""«1) вниз  2) голос Петя»: item numbers (grammars with `items`); linear, no backtracking."""
_TEXT_LEAD = ":—–-"


def drop_literal_quotes(text: str) -> str:
    """Text the board printed as literal quote tags is quoted text: it never counts.

    A board that cannot pair quote tags prints them as text. What sits between a literal
    opening and its close, after an unclosed opening, or before a stray close (the player
    deleted the opening tag) may be someone else's words, so it is dropped. Line breaks
    stay, so line numbers still point at the post.
    """
    kept: list[str] = []
    depth = 0
    last = 0
    for m in _LITERAL_QUOTE_RE.finditer(text):
        chunk = text[last : m.start()]
        kept.append(chunk if depth == 0 else "\n" * chunk.count("\n"))
        last = m.end()
        if m.group(1):
            if depth == 0:  # a stray close: everything before it was a quote
                breaks = sum(piece.count("\n") for piece in kept)
                kept = ["\n" * breaks]
            depth = max(depth - 1, 0)
        else:
            depth += 1
    rest = text[last:]
    kept.append(rest if depth == 0 else "\n" * rest.count("\n"))
    return "".join(kept)


def cap_text(text: str, limit: int) -> str:
    """The first and the last `limit // 2` characters of `text`, each cut at a line break
    where one is near (a vote usually opens or closes a long post)."""
    half = max(limit // 2, 1)
    head, tail = text[:half], text[-half:]
    cut = head.rfind("\n")
    if cut > half // 2:
        head = head[:cut]
    cut = tail.find("\n")
    if 0 <= cut < half // 2:
        tail = tail[cut + 1 :]
    return f"{head}\n{tail}"


@dataclass
class ParseResult:
    orders: list[Order] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)


@dataclass(frozen=True)
class _Target:
    """What followed a command phrase where a player was expected."""

    status: str  # "ok", "self", "no_lynch", "missing", or a MatchStatus value
    end: int = 0
    """The index of the first word after the target."""
    name: str | None = None
    choices: tuple[str, ...] = ()
    written: str = ""


def _label(form: CommandForm) -> str:
    """The action a warning is about: action id, request id, or the command kind."""
    if form.kind in (OrderKind.ORDER, OrderKind.REQUEST) and form.actions:
        return form.actions[0]
    return "vote" if form.kind is OrderKind.NO_LYNCH else form.kind.value


@dataclass
class _Sentences:
    """Per word of a line: whether a hedge of its sentence stands before it; per sentence:
    the last condition word (word indexes)."""

    hedged: list[bool]
    """A hedge earlier in the word's sentence, not cut off by «но» / "but" since."""
    last_condition: list[int]


@dataclass
class _Parser:
    grammar: Grammar
    compiled: CompiledGrammar
    resolver: NameResolver
    sender: str
    channel: Channel
    source: Source
    at: datetime | None
    text: Text | None = None
    lines: list[str] = field(default_factory=list)
    result: ParseResult = field(default_factory=ParseResult)
    commands: int = 0
    full: bool = False
    """`MAX_COMMANDS` were read: the rest of the message is not."""
    phase: str | None = None
    """The phase tag in force («ночь 3:» on this line or an earlier one)."""
    proxy_for: str | None = None
    """The faction-mate this line orders for («за Петю:»)."""
    where: dict[int, int] = field(default_factory=dict)
    """Order (by id) → the index in the post of the first word of its command."""
    resume: int = 0
    """After a command whose text runs on over later lines (an anonymous message): the line
    where that text ended, because it opens with a command of its own (read as one)."""
    _read: dict[int, Line] = field(default_factory=dict)
    _phrase_lines: list[int] | None = None
    _marks: dict[int, _Sentences] = field(default_factory=dict)

    def read(self, index: int) -> Line:
        """Line `index` (0-based), tokenised on first use only."""
        line = self._read.get(index)
        if line is None:
            assert self.text is not None
            line = self._read[index] = self.text.line(index)
        return line

    def sentences(self, index: int) -> _Sentences:
        marks = self._marks.get(index)
        if marks is None:
            line = self.read(index)
            conditions = [-1] * len(line.sentence_end)
            hedged = [False] * len(line.words)
            state, sentence = False, 0
            for i, word in enumerate(line.words):
                s = line.sentence_of[i]
                if s != sentence:
                    state, sentence = False, s
                if word in _CONTRASTS:
                    state = False  # «я бы голосовал за Васю, но голос за Олю»: a fresh clause
                hedged[i] = state
                if not state and self.compiled.hedge_at(line.words, i, line.sentence_end[s]):
                    state = True
                if word in _CONDITIONS:
                    conditions[s] = i
            marks = self._marks[index] = _Sentences(hedged, conditions)
        return marks

    def run(self) -> None:
        # A signature opens once, at the end; a «--» line that comes back is a divider
        # between sections of the post (mafiascum 17378 #328 votes after its third).
        signatures = [i for i, raw in enumerate(self.lines) if raw in ("--", "-- ")]
        stop = signatures[0] if len(signatures) == 1 else len(self.lines)
        # «-- » opens a signature typed into the post: nothing after it counts.
        for count, index in enumerate(self.command_lines()):
            if count >= MAX_LINES:
                self.full = True  # thousands of lines of «мой голос»: no order message
                break
            if index < self.resume:
                continue  # a line of an anonymous message's text
            if index >= stop or self.full:
                break  # past the signature, or enough read
            if self.line(index) and self.resume <= index:
                break  # the rest of the post was an anonymous message's text

    def command_lines(self) -> list[int]:
        """Lines with a phrase, and in a PM (grammars with `bare_name`) short lines that may
        be only a nickname («Петя»: the vote)."""
        found = self.phrase_lines()
        if self.grammar.phase_tags:  # a tag alone on its line files the lines after it
            assert self.text is not None
            words, first = self.text.words, self.text.first_word
            tags = self.grammar.phase_tags
            found = sorted(
                set(found)
                | {
                    i
                    for i in range(len(self.lines))
                    if first[i + 1] > first[i]
                    and opens_with_tag(words[first[i] : first[i] + 3], tags)
                }
            )
        if self.grammar.bare_name is None or self.channel is not Channel.PM:
            return found
        assert self.text is not None
        first, size = self.text.first_word, self.resolver.max_words
        taken = set(found)
        short = [
            i
            for i in range(len(self.lines))
            if 0 < first[i + 1] - first[i] <= size and i not in taken
        ]
        # Each candidate is tokenised and looked up: at most MAX_COMMANDS of them, so a post of
        # thousands of one-word lines costs what a real order message does.
        return sorted(taken | set(short[:MAX_COMMANDS]))

    def phrase_lines(self) -> list[int]:
        """The lines where some phrase of the grammar starts, in order (most lines of a long
        post hold none: they are looked at word by word and never read further)."""
        if self._phrase_lines is None:
            self._phrase_lines = self._find_phrase_lines()
        return self._phrase_lines

    def _find_phrase_lines(self) -> list[int]:
        assert self.text is not None
        words, first = self.text.words, self.text.first_word
        opening = self.compiled.first_words
        found: list[int] = []
        for i in [i for i, word in enumerate(words) if word in opening]:
            index = bisect_right(first, i) - 1
            if found and found[-1] == index:
                continue
            if self.compiled.phrase_at(words, i, first[index + 1]) is not None:
                found.append(index)
        return found

    def line(self, index: int) -> bool:
        line = self.read(index)
        if self.grammar.line_start:
            lo = 0
            if self.grammar.phase_tags:
                tag, lo = phase_tag(
                    line,
                    0,
                    self.grammar.phase_tags,
                    lambda at: self.compiled.phrase_at(line.words, at, len(line)) is not None,
                )
                self.phase = tag or self.phase
            self.proxy_for = None
            if self.grammar.proxies:
                member, after = proxy(line, lo, self.resolver)
                ordering = member is not None and after < len(line)
                if ordering and self.compiled.phrase_at(line.words, after, len(line)):
                    self.proxy_for, lo = member, after
            mark = len(self.result.orders)
            # A question in a later sentence is its own: «лечу Лену. Как дела?» orders.
            first_asks = line.asks and (lo >= len(line) or line.sentence_asks[line.sentence_of[lo]])
            done = self.segment(index, lo, len(line), first_asks)
            self.mark_orders(mark)
            return done
        # Votes anywhere in a line: each sentence is read on its own, so a hedge or a
        # question mark in one sentence says nothing about the next.
        lo = 0
        for s, hi in enumerate(line.sentence_end):
            if hi > lo and self.segment(index, lo, hi, line.sentence_asks[s]):
                return True
            if self.full:
                return False
            lo = hi
        return False

    def segment(self, index: int, lo: int, hi: int, ends_with_question: bool) -> bool:
        """Read the commands of words lo..hi of a line (the line, or one of its sentences).

        Where commands open a line (`line_start`), a vote may also open a clause later in
        it («Гена прав, но голос за Лёшу», "ok fine, unvote, vote Bob", "switching: VOTE: Bob"),
        and is then read as a vote in the middle of a sentence is: not after a hedge, a
        negation or a possessive, not before a condition, not as the end of a question.
        """
        line = self.read(index)
        words = line.words
        line_mode = self.grammar.line_start
        if lo >= hi:
            return False
        hedged_line = line_mode and self.compiled.hedge_at(words, lo, hi)
        asks = self.grammar.question_is_hedge and ends_with_question
        if line_mode and self.bare_name(index, lo, hi):
            return False
        pos = lo
        opening = line_mode  # the next phrase opens the line (or follows a chained command)
        first_words = self.compiled.first_words
        starts = [i for i in range(lo, hi) if words[i] in first_words]
        # A later sentence opens like a line: «проверка Гены. Голосую за Гену» is two
        # commands, and whether that sentence asks or hedges is its own.
        sentences = set(line.sentence_end) if line_mode else set()
        while pos < hi:
            if pos > lo and pos in sentences:
                opening = True
                hedged_line = self.compiled.hedge_at(words, pos, hi)
                asks = self.grammar.question_is_hedge and line.sentence_asks[line.sentence_of[pos]]
            phrase = self.compiled.phrase_at(words, pos, hi)
            mid = not opening
            if (
                phrase is not None
                and line_mode
                and mid
                and not (self.grammar.clause_votes and self.clause_vote(line, pos, phrase))
            ):
                phrase = None
            # «выстрел в Васю?» asks rather than orders; «рейтинг?» is still a request.
            if (
                phrase is not None
                and opening
                and (
                    hedged_line
                    or (
                        # A question mark or «если» after a free-text command is its text's.
                        phrase.form.arg is not ArgKind.TEXT
                        and (
                            (
                                asks
                                and phrase.form.kind is not OrderKind.REQUEST
                                and not self.question_after(line, pos, phrase, hi)
                            )
                            or self.conditional(phrase.form, index, pos)
                        )
                    )
                )
            ):
                phrase = None
            if phrase is not None and mid and pos > lo and self.talk_before(line, pos, phrase):
                phrase = None
            if phrase is not None and mid and self.hedged(index, pos, len(phrase.words)):
                pos += len(phrase.words)
                continue
            if phrase is None:
                opening = False
                # Skip to the next word that opens some phrase (a long line of talk is
                # looked at once, here, not word by word through the checks above).
                at = bisect_right(starts, pos)
                pos = starts[at] if at < len(starts) else hi
                continue
            self.commands += 1
            if self.commands > MAX_COMMANDS:
                self.full = True
                return False
            after = pos + len(phrase.words)
            text = line.raw.strip()
            src = replace(self.source, line=index + 1, text=text[:_SOURCE_TEXT])
            mark = (len(self.result.orders), len(self.result.warnings))
            end, takes_rest = self.command(phrase, index, pos, after, hi, src)
            for order in self.result.orders[mark[0] :]:
                self.where[id(order)] = self.text_index(index, pos)
            if takes_rest:
                return True
            # «голос за Васю?» at the end of a sentence asks; «голос за Alu — вдруг он прав?»
            # votes and then asks something else.
            s = line.sentence_of[pos]
            question = line.sentence_asks[s] if line_mode else asks
            asked = self.grammar.question_is_hedge and question and mid
            if asked and phrase.form.kind is not OrderKind.REQUEST:
                # …and a question with no player in it ("Can we vote scum now?") is talk.
                ends = end >= (line.sentence_end[s] if line_mode else hi)
                if ends or len(self.result.orders) == mark[0]:
                    del self.result.orders[mark[0] :], self.result.warnings[mark[1] :]
                    self.commands -= 1  # a PM that only asks is answered as saying nothing
            pos = max(end, after)
            opening = line_mode and self.grammar.chain
            while self.grammar.chain and pos < hi and words[pos] in self.grammar.joiners:
                pos += 1
        return False

    def question_after(self, line: Line, pos: int, phrase: Phrase, hi: int) -> bool:
        """«проверка Коли, а что?», «голосую за Колю — кто со мной?»: the question mark ends a
        clause of talk after the order (a comma or a dash first, no player named in it), so
        the order stands; «выстрел в Васю?» and «голос за Колю, или за Олю?» still ask."""
        end = line.sentence_end[line.sentence_of[pos]]
        words = line.words
        for i in range(pos + len(phrase.words), min(end, hi)):
            gap = line.blank[line.ends[i - 1] : line.starts[i]]
            if not any(mark in gap for mark in (",", "—", "–", " - ", ":")):
                continue
            # The talk after the mark names nobody («кто против?» is talk, «или за Олю?» asks).
            for j in range(i, min(end, hi)):
                if self.resolver.match_words(words[j:end], suggest=False).ok:
                    return False
            return i > pos + len(phrase.words)
        return False

    def bare_name(self, index: int, lo: int, hi: int) -> bool:
        """«3) Петя» in a PM: words that are only a roster name are the grammar's bare command."""
        kind = self.grammar.bare_name
        line = self.read(index)
        if kind is None or self.channel is not Channel.PM or hi - lo > self.resolver.max_words:
            return False
        if self.compiled.phrase_at(line.words, lo, hi) is not None:
            return False
        found = self.resolver.match_words(line.words[lo:hi])
        if not found.ok or found.words != hi - lo:
            return False
        self.commands += 1
        text = line.raw.strip()
        src = replace(self.source, line=index + 1, text=text[:_SOURCE_TEXT])
        self.result.orders.append(
            Order(
                player=self.sender,
                kind=kind,
                targets=(found.name or self.sender,),
                channel=self.channel,
                at=self.at,
                source=src,
                form="bare_name",
            )
        )
        return True

    def mark_orders(self, start: int) -> None:
        """The phase tag and the proxy of the line go with each order read from it."""
        extra = {"phase": self.phase, "proxy_for": self.proxy_for}
        extra = {k: v for k, v in extra.items() if v is not None}
        if not extra:
            return
        for i in range(start, len(self.result.orders)):
            order = self.result.orders[i]
            where = self.where.pop(id(order), None)
            order = order.with_(args={**order.args, **extra})
            self.result.orders[i] = order
            if where is not None:
                self.where[id(order)] = where

    def text_index(self, index: int, pos: int) -> int:
        """The index in the whole post of word `pos` of line `index`."""
        assert self.text is not None
        return self.text.first_word[index] + pos

    def clause_vote(self, line: Line, pos: int, phrase: Phrase) -> bool:
        """A vote phrase opening a clause inside a line: after a comma, a dash, a colon,
        «но», «а», «и», "but", "so", a change of mind («то есть», "I mean") or a full stop.
        Words that are also plain talk («голос», «виноват»,
        «против», «мир») count there only with a colon after them («…, голос: Вася»)."""
        if phrase.form.kind not in (OrderKind.VOTE, OrderKind.UNVOTE, OrderKind.NO_LYNCH):
            return False
        if pos == 0:
            return True
        gap = line.blank[line.ends[pos - 1] : line.starts[pos]]
        before = line.words[pos - 1]
        opens = (
            any(mark in gap for mark in _CLAUSE_MARKS)
            or before in _CLAUSE_WORDS
            or before in _CLAUSE_AFTER
            or (pos > 1 and (line.words[pos - 2], before) in _CHANGE_PAIRS)
            # «голос за Колю. Голос за Олю»: a new sentence of the line.
            or line.sentence_of[pos] != line.sentence_of[pos - 1]
        )
        if not opens:
            return False
        strong = len(phrase.words) > 1 or phrase.words[0] in _STRONG_VOTE_WORDS
        return strong or line.colon_after(pos + len(phrase.words) - 1)

    def talk_before(self, line: Line, pos: int, phrase: Phrase) -> bool:
        """«мой голос на X в силе», «не голосую за Васю», "I will not vote Bob": the word
        before the phrase makes it talk (a colon after it still makes it a vote)."""
        before = line.words[pos - 1]
        if before in _NEGATIONS:
            return True
        # "a 2 vote bandwagon": a number right before «vote» makes it a noun.
        counted = before.isdigit() and line.blank[line.ends[pos - 1] : line.starts[pos]].isspace()
        talk = before in _POSSESSIVES or before in _DETERMINERS or before in _NOUN_MODIFIERS
        talk = talk or counted
        return talk and not line.colon_after(pos + len(phrase.words) - 1)

    def hedged(self, index: int, pos: int, size: int) -> bool:
        """A hedge before the phrase, or a condition word after it, in the same sentence."""
        line = self.read(index)
        s = line.sentence_of[pos]
        marks = self.sentences(index)
        return marks.hedged[pos] or marks.last_condition[s] >= pos + size

    def conditional(self, form: CommandForm, index: int, pos: int) -> bool:
        """«выстрел в Васю, если он жив»: a condition after a vote or an order (same sentence)."""
        if form.kind not in (OrderKind.VOTE, OrderKind.ORDER, OrderKind.NO_LYNCH):
            return False
        s = self.read(index).sentence_of[pos]
        return self.sentences(index).last_condition[s] > pos

    def command(
        self, phrase: Phrase, index: int, pos: int, after: int, hi: int, src: Source
    ) -> tuple[int, bool]:
        """Turn one recognised phrase into an order or a warning; returns (end word, ate rest)."""
        line = self.read(index)
        form = phrase.form
        base = Order(
            player=self.sender,
            kind=form.kind,
            channel=self.channel,
            at=self.at,
            source=src,
            form=form.form,
        )
        if form.kind in (OrderKind.ORDER, OrderKind.REQUEST) and form.actions:
            base = base.with_(action=form.actions[0])
            if form.kind is OrderKind.ORDER:
                base = base.with_(candidates=form.actions)
        if form.kind is OrderKind.CANCEL and form.actions:
            base = base.with_(action=form.actions[0], candidates=form.actions)
        if form.kind is OrderKind.NO_LYNCH:
            base = base.with_(targets=("no_lynch",))
        if form.arg is ArgKind.CLAUSE:
            args = read_clause(
                line,
                after,
                hi,
                self.resolver,
                sender=self.sender,
                self_words=self.grammar.self_words,
                text_words=self.grammar.text_words,
            )
            self.result.orders.append(base.with_(args=args))
            return hi, False
        if form.arg is ArgKind.NONE:
            self.result.orders.append(base)
            return after, False
        if form.arg is ArgKind.ACTION:
            used, actions = self.compiled.noun_at(line.words, after, hi)
            if actions:
                base = base.with_(action=actions[0], candidates=actions)
            self.result.orders.append(base)
            return after + used, False
        if form.arg is ArgKind.WORDS:
            self.result.orders.append(base.with_(args={"words": tuple(line.words[after:hi])}))
            return hi, False
        if form.arg is ArgKind.TEXT:
            self.result.orders.append(base.with_(args={"text": self.free_text(index, after)}))
            return hi, True
        votes = form.kind is OrderKind.VOTE
        target = self.target(line, after, hi, allow_no_lynch=votes)
        next_line = False
        if target.status == "missing" and self.ends_line(line, after, hi):
            target = self.next_line_target(index, allow_no_lynch=votes)
            if target.status != "missing":
                target, next_line = replace(target, end=hi), True
        if form.arg is ArgKind.PLAYER_TEXT:
            text = self.message_text(index, target.end if not next_line else None)
            base = base.with_(args={"text": text})
        if target.status == "no_lynch":
            base = base.with_(kind=OrderKind.NO_LYNCH, targets=("no_lynch",))
        elif target.status == "self" and form.kind is OrderKind.VOTE:
            # «голос за меня», "vote me": talk, not a self-vote (issue 11, decided). A PM
            # that says nothing else is answered as one with no command.
            self.commands -= 1
            return target.end, False
        elif target.status in ("ok", "self"):
            base = base.with_(targets=(target.name or self.sender,))
            if target.status == "self":
                base = base.with_(args={**base.args, "self": True})
        else:
            if not self.chatter(target, phrase, line, after, hi):
                self.warn(form, target, src)
            return max(target.end, after), form.arg is ArgKind.PLAYER_TEXT
        if form.arg is ArgKind.PLAYERS and target.status != "no_lynch":
            names, words, end = self.more_players(line, target.end, hi)
            base = base.with_(
                targets=base.targets + tuple(names), args={**base.args, "words": tuple(words)}
            )
            self.result.orders.append(base)
            return end, False
        self.result.orders.append(base)
        return target.end, form.arg is ArgKind.PLAYER_TEXT

    def more_players(self, line: Line, pos: int, hi: int) -> tuple[list[str], list[str], int]:
        """After the first name of a PLAYERS command: further names, then the other words.

        Fillers and prepositions are skipped; a word that starts another command ends this
        one when the grammar chains commands.
        """
        names: list[str] = []
        words: list[str] = []
        skip = self.grammar.fillers | self.grammar.prepositions
        size = self.resolver.max_words
        while pos < hi:
            first = line.words[pos]
            phrase = self.compiled.phrase_at(line.words, pos, hi) if self.grammar.chain else None
            # A filler that opens a command ends this one when a player follows it: «голос
            # за Васю. Голос за Петю» is two votes (the last counts), «… (3 доп. голоса)» not.
            if phrase is not None and (first not in skip or self.names_at(line, pos, phrase, hi)):
                return names, words, pos
            if first in skip:
                pos += 1
                continue
            # Suggestions are never used here: a word that names nobody is one of `words`.
            found = self.resolver.match_words(line.words[pos : min(hi, pos + size)], suggest=False)
            if found.ok:
                names.append(found.name or "")
                pos += found.words
            elif first in self.grammar.self_words:
                names.append(self.sender)
                pos += 1
            else:
                words.append(first)
                pos += 1
        return names, words, hi

    def names_at(self, line: Line, pos: int, phrase: Phrase, hi: int) -> bool:
        """A player follows the phrase at `pos` (past one preposition)."""
        at = pos + len(phrase.words)
        if at < hi and line.words[at] in self.grammar.prepositions:
            at += 1
        size = self.resolver.max_words
        return at < hi and self.resolver.match_words(line.words[at : at + size], suggest=False).ok

    def target(self, line: Line, at: int, hi: int, *, allow_no_lynch: bool) -> _Target:
        if at >= hi:
            return _Target("missing")
        attempts = [at]
        if line.words[at] in self.grammar.prepositions and at + 1 < hi:
            attempts.insert(0, at + 1)  # skip «в», «за», «для»…; a nick may be one too
        failures: list[_Target] = []
        size = self.resolver.max_words
        for start in attempts:
            if allow_no_lynch and self.compiled.no_lynch_at(line.words, start, hi):
                return _Target("no_lynch", end=hi)
            found = self.resolver.match_words(line.words[start : min(hi, start + size)])
            first = line.words[start]
            if first in self.grammar.self_words and not (found.ok and found.exact):
                return _Target("self", end=start + 1, name=self.sender)
            written = line.raw[line.starts[start] : line.ends[start]]
            if found.status is not MatchStatus.UNKNOWN:
                last = start + found.words - 1
                end = line.starts[start] + found.head if found.head else line.ends[last]
                written = line.raw[line.starts[start] : end]
            talk = found.loose and written in _FUNCTION_WORDS  # all lower case: "is", not "IS"
            if found.ok and talk and not (at > 0 and line.colon_after(at - 1)):
                # "your vote is better…" is no vote for Internet Stranger ("IS"): a word of
                # talk in lower case names nobody by a short form (with a colon, "vote: is",
                # a name was meant).
                failures.append(_Target("unknown", at, None, found.candidates, written))
                continue
            if found.ok:
                return _Target("ok", start + found.words, found.name, written=written)
            if found.status is MatchStatus.AMBIGUOUS:
                failures.insert(0, _Target("ambiguous", at, None, found.candidates, written))
            else:
                failures.append(_Target("unknown", at, None, found.suggestions, written))
        return failures[0]

    @staticmethod
    def ends_line(line: Line, after: int, hi: int) -> bool:
        """The phrase is the end of its line, open for a name on the next («голосую за»,
        «vote:»); "…than an rvs vote. But…" closes its sentence and waits for nothing."""
        if hi < len(line) or after == 0:
            return False
        return not line.raw[line.ends[after - 1] :].strip(" \t:—–-→>")

    def next_line_target(self, index: int, *, allow_no_lynch: bool) -> _Target:
        """«голосую за» at the end of a line, the name on the next one: one vote."""
        following = next(
            (i for i in range(index + 1, len(self.lines)) if self.lines[i].strip()), None
        )
        if following is None:
            return _Target("missing")
        line = self.read(following)
        found = self.target(line, 0, len(line), allow_no_lynch=allow_no_lynch)
        return found if found.status in ("ok", "no_lynch") else _Target("missing")

    def chatter(self, target: _Target, phrase: Phrase, line: Line, after: int, hi: int) -> bool:
        """In the thread, a vote word followed by no name or by an ordinary word is talk.

        «Голос остаётся на Лёхе», «твой голос — эмоции», «пока без голоса»: the phrase
        matched, but nothing like a nick follows and no roster name is close, so telling
        the host would be noise. A PM is always addressed to the GM and is always answered.
        """
        if self.channel is not Channel.THREAD:
            return False
        if target.status == "missing":
            return True
        if target.status == "unknown" and self.compiled.phrase_at(line.words, after, hi):
            return True  # «меняю голос: голос за Олю»: the next phrase is the vote
        word = lower(target.written)
        if target.status == "unknown" and word in _FUNCTION_WORDS:
            return True
        # An ordinary word: Russian from the dictionary, English when written in lower case
        # ("vote worthy", "the vote reasons"; "vote Bob" names someone who is not playing).
        english = target.written[:1].islower() and is_english_word(target.written)
        if target.status != "unknown" or not (english or is_plain_word(word)):
            return False
        if line.colon_after(after - 1):
            return False  # «голос: Док»: a colon says a name was meant
        # «голос за Зюзю», «vote for peace»: a preposition says a target was meant.
        if phrase.words[-1] in self.grammar.prepositions:
            return False
        if after < hi and line.words[after] in self.grammar.prepositions:
            return False
        # Suggestions for the word alone, not for the words after it («на Nekr0 в силе»).
        return not self.resolver.resolve(target.written).suggestions

    def free_text(self, index: int, after: int) -> str:
        """The text after the phrase as the player wrote it, later lines included up to one
        that opens with a command (`text_end`)."""
        line = self.read(index)
        first = (line.raw[line.ends[after - 1] :] if after > 0 else line.raw).lstrip()
        if first[:1] in _TEXT_LEAD:
            first = first[1:]  # one separator: «анонимка: :)» keeps its smiley
        return "\n".join([first, *self.lines[index + 1 : self.text_end(index)]]).strip()

    def text_end(self, index: int) -> int:
        """Where a text that starts on line `index` and runs on over later lines ends: at the
        first later line that opens with a command («анонимка для Лены: я знаю, кто мафия» then
        «голосую за Олю» on its own line: the vote is a vote of its own, never part of what is
        relayed to Лена). Parsing goes on from there (`resume`)."""
        assert self.text is not None
        words, first = self.text.words, self.text.first_word
        end = len(self.lines)
        for j in self.phrase_lines():
            if j > index and self.compiled.phrase_at(words, first[j], first[j + 1]) is not None:
                end = j
                break
        self.resume = end
        return end

    def message_text(self, index: int, end: int | None) -> str:
        """The anonymous text: after the first colon past the name, later lines included."""
        line = self.read(index)
        first = ""
        if end is not None:
            colon = line.colon_from(end)
            if colon is not None:
                first = line.raw[colon:]
            elif end > 0:
                first = line.raw[line.ends[end - 1] :]
            else:
                first = line.raw
        return "\n".join([first, *self.lines[index + 1 : self.text_end(index)]]).strip()

    def warn(self, form: CommandForm, target: _Target, src: Source) -> None:
        action = _label(form)
        if target.status == "missing":
            code, message = (
                codes.BAD_PARAMETER,
                N_("{action}: no player named").format(action=action),
            )
        elif target.status == MatchStatus.AMBIGUOUS.value:
            code = codes.AMBIGUOUS_TARGET
            message = N_("{action}: «{written}» may mean {choices}").format(
                action=action, written=target.written, choices=", ".join(target.choices)
            )
        else:
            code = codes.UNKNOWN_TARGET
            message = N_("{action}: «{written}» is not a player").format(
                action=action, written=target.written
            )
        self.result.warnings.append(
            ParseWarning(code, message, self.sender, src, target.choices, action)
        )

    def conflicting(self, orders: list[Order]) -> bool:
        """Two votes for different targets with no clear change of mind between them.

        An unvote between them, or a word such as «передумал», «нет», "actually" between
        them, says the player changed his mind: the last vote counts and nobody is warned.
        """
        assert self.text is not None
        previous: Order | None = None
        for order in orders:
            if order.kind is OrderKind.UNVOTE:
                previous = None
            if order.kind not in _VOTES:
                continue
            if previous is not None and previous.targets != order.targets:
                start, stop = self.where.get(id(previous), 0), self.where.get(id(order), 0)
                start = max(start, stop - _CHANGE_WINDOW)
                if not _changed_mind(self.text.words, start, stop):
                    return True
            previous = order
        return False

    def finish(self, text: str, truncated: int | None) -> ParseResult:
        votes = [o for o in self.result.orders if o.kind in _VOTES]
        if len(votes) > 1 and self.conflicting(self.result.orders):
            last = votes[-1]
            self.result.warnings.append(
                ParseWarning(
                    codes.MULTIPLE_VOTES,
                    N_("{n} votes in one message; the last ({target}) counts").format(
                        n=len(votes), target=last.target
                    ),
                    self.sender,
                    last.source,
                    action="vote",
                    accepted=True,
                )
            )
        src = replace(self.source, text=text.strip()[:500])
        if self.commands == 0 and self.channel is Channel.PM:
            self.result.warnings.append(
                ParseWarning(
                    codes.UNKNOWN_COMMAND, N_("no command in this message"), self.sender, src
                )
            )
        if truncated is not None:
            message = N_("{n} characters: only the first and the last {half} were read").format(
                n=truncated, half=len(text) // 2
            )
            self.result.warnings.append(ParseWarning(TRUNCATED, message, self.sender, src))
        if self.full:
            message = N_(
                "more than {commands} commands or {lines} lines with command words: "
                "the rest of the message was not read"
            ).format(commands=MAX_COMMANDS, lines=MAX_LINES)
            self.result.warnings.append(ParseWarning(TRUNCATED, message, self.sender, src))
        return self.result


def parse_post(
    body: PostBody,
    grammar: Grammar,
    resolver: NameResolver,
    *,
    sender: str,
    channel: Channel,
    source: Source | None = None,
    at: datetime | None = None,
    max_chars: int | None = DEFAULT_MAX_CHARS,
) -> ParseResult:
    """Read every command in one post or PM (quotes, strikes, code and signatures dropped).

    Every form is read in every channel; what a channel may carry is the ruleset's decision.
    At most `max_chars` characters of the text that counts are read (None: all of it).
    What readers see counts; a command that only hidden text gives (`TextRun.hidden`) is
    not taken but held for the host as a `hidden_text` warning naming its targets.
    """
    src = source or Source(channel)

    table = compiled(grammar)

    def read(text: str) -> ParseResult:
        text = strip_invisible(text)
        text = resolver.protect(table.replace_symbols(drop_literal_quotes(text)))
        truncated = None
        if max_chars is not None and len(text) > max_chars:
            truncated, text = len(text), cap_text(text, max_chars)
        if grammar.items:
            # «1) вниз  2) голос Петя»: each numbered item is read as a line of its own.
            text = _ITEM_RE.sub("\n", _ITEM_START_RE.sub(" ", text))
        parser = _Parser(grammar, table, resolver, sender, channel, src, at)
        parser.text = read_text(text)
        parser.lines = parser.text.lines
        parser.run()
        return parser.finish(text, truncated)

    spoilers = grammar.count_spoilers
    visible = read(body.text(include_spoilers=spoilers, include_hidden=False))
    if not any(r.hidden and r.text.strip() for r in body.runs):
        return visible
    seen = Counter(_key(o) for o in visible.orders)
    for order in read(body.text(include_spoilers=spoilers)).orders:
        if seen[_key(order)] > 0:
            seen[_key(order)] -= 1
            continue
        what = order.action or ("vote" if order.is_vote else order.kind.value)
        names = ", ".join(order.targets) or what
        message = N_("{action}: «{names}» is written in text readers cannot see; not taken").format(
            action=what, names=names
        )
        visible.warnings.append(
            ParseWarning(codes.HIDDEN_TEXT, message, sender, order.source, order.targets, what)
        )
    return visible


def _changed_mind(words: list[str], start: int, stop: int) -> bool:
    """A word or two among words start..stop that say the player changed his mind."""
    return any(
        w in _CHANGE_OF_MIND or (i > 0 and (words[i - 1], w) in _CHANGE_PAIRS)
        for i, w in enumerate(words[start:stop], start)
    )


def _key(order: Order) -> tuple[object, ...]:
    return (order.kind, order.action, order.targets)
