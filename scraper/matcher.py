"""Running a ruleset's grammar over a post or PM: its lines become orders and parse warnings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime

from engine.core import warnings as codes
from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import Channel, Order, OrderKind, Source
from engine.core.warnings import ParseWarning
from forums.records import PostBody
from scraper.nicknames import MatchStatus, NameResolver
from scraper.normalize import clean_line, lower, tokens
from scraper.phrases import CompiledGrammar, Phrase, compiled
from scraper.wordforms import is_plain_word

# A question mark at the end (before closing punctuation or smileys) makes a line a question.
_QUESTION_RE = re.compile(r"\?[\W_]*$")
_VOTES = frozenset({OrderKind.VOTE, OrderKind.NO_LYNCH})
_CONDITIONS = frozenset({"если", "if", "unless"})
"""Words that make what comes before them in a sentence a condition («голос за Васю, если…»)."""
_SIGNATURE_RE = re.compile(r"^-- ?$")
_POSSESSIVES = frozenset({"my", "your", "his", "her", "our", "their",
                          "мой", "твой", "его", "её", "ее", "наш", "ваш", "их", "свой"})  # fmt: skip
"""Right before a vote word, these make it a noun in talk: «мой голос на X в силе»."""
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
_SENTENCE_END_RE = re.compile(r"[.!?…;]+\s+")
_ABBREVIATION_RE = re.compile(r"(?:^|[\s(«\"'])[A-ZА-ЯЁ][a-zа-яё]?$")
_LITERAL_QUOTE_RE = re.compile(r"\[(/?)quote(?:=[^\]\n]*)?\]", re.IGNORECASE)


def _sentences(line: str) -> list[str]:
    """The sentences of a line, each with its closing punctuation.

    A single full stop after a short capitalised word is an abbreviation inside a nick
    («Mr. Fiks», «Dr. Who»), not the end of a sentence.
    """
    pieces, start = [], 0
    for m in _SENTENCE_END_RE.finditer(line):
        if m.group().strip() == "." and _ABBREVIATION_RE.search(line[start : m.start()]):
            continue
        pieces.append(line[start : m.end()])
        start = m.end()
    pieces.append(line[start:])
    return [p for p in pieces if p.strip()]


def _explicit(raw: str, phrase: tuple[str, ...]) -> bool:
    """The phrase is followed by a colon in the raw line («голос: X», «[b]vote:[/b] X»)."""
    words = r"\W+".join(re.escape(w) for w in phrase)
    pattern = rf"(?<!\w){words}\s*(?:\[[^\]]*\]\s*)*:"
    return re.search(pattern, lower(raw)) is not None


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
                kept = ["\n" * "".join(kept).count("\n")]
            depth = max(depth - 1, 0)
        else:
            depth += 1
    rest = text[last:]
    kept.append(rest if depth == 0 else "\n" * rest.count("\n"))
    return "".join(kept)


@dataclass
class ParseResult:
    orders: list[Order] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)


@dataclass(frozen=True)
class _Target:
    """What followed a command phrase where a player was expected."""

    status: str  # "ok", "self", "no_lynch", "missing", or a MatchStatus value
    end: int = 0
    """Characters of the argument text the target took."""
    name: str | None = None
    choices: tuple[str, ...] = ()
    written: str = ""


def _label(form: CommandForm) -> str:
    """The action a warning is about: action id, request id, or the command kind."""
    if form.kind in (OrderKind.ORDER, OrderKind.REQUEST) and form.actions:
        return form.actions[0]
    return "vote" if form.kind is OrderKind.NO_LYNCH else form.kind.value


@dataclass
class _Parser:
    grammar: Grammar
    compiled: CompiledGrammar
    resolver: NameResolver
    sender: str
    channel: Channel
    source: Source
    at: datetime | None
    result: ParseResult = field(default_factory=ParseResult)
    commands: int = 0

    def run(self, lines: list[str]) -> None:
        # A signature opens once, at the end; a «--» line that comes back is a divider
        # between sections of the post (mafiascum 17378 #328 votes after its third).
        dividers = sum(1 for raw in lines if _SIGNATURE_RE.match(raw)) > 1
        for number, raw in enumerate(lines, start=1):
            if _SIGNATURE_RE.match(raw) and not dividers:
                break  # «-- » opens a signature typed into the post: nothing after it counts
            if self.line(raw, number, lines[number:]):
                break  # the rest of the message belonged to an anonymous message

    def line(self, raw: str, number: int, later: list[str]) -> bool:
        if self.grammar.line_start:
            return self.segment(raw, raw, number, later)
        # Votes anywhere in a line: each sentence is read on its own, so a hedge or a
        # question mark in one sentence says nothing about the next.
        return any(self.segment(piece, raw, number, later) for piece in _sentences(raw))

    def segment(self, text: str, raw: str, number: int, later: list[str]) -> bool:
        """Read the commands of one line (or, votes-anywhere, one sentence of a line)."""
        clean = clean_line(text)
        key = lower(clean)
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", key)]
        words = [key[s:e] for s, e in spans]
        anywhere = not self.grammar.line_start
        if not words or (not anywhere and self.compiled.hedge_at(words, 0)):
            return False
        asks = self.grammar.question_is_hedge and _QUESTION_RE.search(text) is not None
        question = asks and not anywhere
        pos = 0
        while pos < len(words):
            phrase = self.compiled.phrase_at(words, pos)
            # «выстрел в Васю?» asks rather than orders; «рейтинг?» is still a request.
            if phrase is not None and question and phrase.form.kind is not OrderKind.REQUEST:
                phrase = None
            # «если что, голос за Васю», «I'd vote X if...»: a condition is not a vote.
            if (
                phrase is not None
                and anywhere
                and pos > 0
                and words[pos - 1] in _POSSESSIVES
                and not _explicit(text, phrase.words)  # «мой голос: Клифф Бут» votes
            ):
                phrase = None
            if phrase is not None and anywhere and self.hedged(words, pos, len(phrase.words)):
                pos += len(phrase.words)
                continue
            if phrase is not None and not anywhere and self.conditional(phrase.form, text, pos):
                phrase = None
            if phrase is None:
                if self.grammar.line_start:
                    return False
                pos += 1
                continue
            self.commands += 1
            after = pos + len(phrase.words)
            start = spans[after][0] if after < len(spans) else len(clean)
            src = replace(self.source, line=number, text=raw.strip())
            mark = (len(self.result.orders), len(self.result.warnings))
            end, takes_rest = self.command(phrase, clean[start:], src, raw, later)
            if takes_rest:
                return True
            # «голос за Васю?» at the end of a sentence asks; «голос за Alu — вдруг он прав?»
            # votes and then asks something else.
            if (
                asks
                and phrase.form.kind is not OrderKind.REQUEST
                and not tokens(clean[start + end :])
            ):
                del self.result.orders[mark[0] :], self.result.warnings[mark[1] :]
            if self.grammar.line_start and not self.grammar.chain:
                return False
            pos = next((i for i, (s, _) in enumerate(spans) if s >= start + end), len(spans))
            pos = max(pos, after)
            while self.grammar.chain and pos < len(words) and words[pos] in self.grammar.joiners:
                pos += 1
        return False

    def hedged(self, words: list[str], pos: int, size: int) -> bool:
        """A hedge before the phrase, or a condition word after it, in the same sentence."""
        if any(self.compiled.hedge_at(words, i) for i in range(pos)):
            return True
        return any(w in _CONDITIONS for w in words[pos + size :])

    def conditional(self, form: CommandForm, text: str, pos: int) -> bool:
        """«выстрел в Васю, если он жив»: a condition after a vote or an order (same sentence)."""
        if form.kind not in (OrderKind.VOTE, OrderKind.ORDER, OrderKind.NO_LYNCH):
            return False
        first = _sentences(text)[0] if text.strip() else text
        words = lower(clean_line(first)).split()
        return any(w in _CONDITIONS for w in words[pos + 1 :])

    def command(
        self, phrase: Phrase, rest: str, src: Source, raw: str, later: list[str]
    ) -> tuple[int, bool]:
        """Turn one recognised phrase into an order or a warning; returns (chars used, ate rest)."""
        form, phrase_words = phrase.form, phrase.words
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
        if form.kind is OrderKind.NO_LYNCH:
            base = base.with_(targets=("no_lynch",))
        if form.arg is ArgKind.NONE:
            self.result.orders.append(base)
            return 0, False
        if form.arg is ArgKind.ACTION:
            used, actions = self.compiled.noun_at(rest)
            if actions:
                base = base.with_(action=actions[0], candidates=actions)
            self.result.orders.append(base)
            return used, False
        if form.arg is ArgKind.WORDS:
            rest_words = tuple(t.text for t in tokens(rest))
            self.result.orders.append(base.with_(args={"words": rest_words}))
            return len(rest), False
        target = self.target(rest, allow_no_lynch=form.kind is OrderKind.VOTE)
        if target.status == "missing":
            target = self.next_line_target(later, allow_no_lynch=form.kind is OrderKind.VOTE)
            if target.status != "missing":
                target = replace(target, end=len(rest))
        if form.arg is ArgKind.PLAYER_TEXT:
            base = base.with_(args={"text": self.message_text(raw, rest, target, later)})
        if target.status == "no_lynch":
            base = base.with_(kind=OrderKind.NO_LYNCH, targets=("no_lynch",))
        elif target.status in ("ok", "self"):
            base = base.with_(targets=(target.name or self.sender,))
            if target.status == "self":
                base = base.with_(args={**base.args, "self": True})
        else:
            if not self.chatter(target, phrase_words, rest, raw):
                self.warn(form, target, src)
            return target.end, form.arg is ArgKind.PLAYER_TEXT
        if form.arg is ArgKind.PLAYERS and target.status != "no_lynch":
            names, words, end = self.more_players(rest, target.end)
            base = base.with_(
                targets=base.targets + tuple(names), args={**base.args, "words": tuple(words)}
            )
            self.result.orders.append(base)
            return end, False
        self.result.orders.append(base)
        return target.end, form.arg is ArgKind.PLAYER_TEXT

    def more_players(self, rest: str, pos: int) -> tuple[list[str], list[str], int]:
        """After the first name of a PLAYERS command: further names, then the other words.

        Fillers and prepositions are skipped; a word that starts another command ends this
        one when the grammar chains commands.
        """
        names: list[str] = []
        words: list[str] = []
        skip = self.grammar.fillers | self.grammar.prepositions
        while True:
            text = rest[pos:]
            toks = tokens(text)
            if not toks:
                return names, words, len(rest)
            first = toks[0].text
            if first in skip:
                pos += toks[0].end
                continue
            if self.grammar.chain and self.compiled.phrase_at([t.text for t in toks], 0):
                return names, words, pos
            found = self.resolver.match_start(text)
            if found.ok:
                names.append(found.name or "")
                pos += found.consumed
            elif first in self.grammar.self_words:
                names.append(self.sender)
                pos += toks[0].end
            else:
                words.append(first)
                pos += toks[0].end

    def target(self, rest: str, *, allow_no_lynch: bool) -> _Target:
        toks = tokens(rest)
        if not toks:
            return _Target("missing")
        attempts = [0]
        if toks[0].text in self.grammar.prepositions and len(toks) > 1:
            attempts.insert(0, toks[1].start)  # skip «в», «за», «для»…; a nick may be one too
        failures: list[_Target] = []
        for offset in attempts:
            text = rest[offset:]
            first = tokens(text)[0]
            if allow_no_lynch and self.compiled.no_lynch_at(text):
                return _Target("no_lynch", end=len(rest))
            found = self.resolver.match_start(text)
            if first.text in self.grammar.self_words and not (found.ok and found.exact):
                return _Target("self", end=offset + first.end, name=self.sender)
            if found.ok:
                return _Target("ok", offset + found.consumed, found.name, written=found.matched)
            written = text[first.start : first.end]
            if found.status is MatchStatus.AMBIGUOUS:
                failures.insert(0, _Target("ambiguous", 0, None, found.candidates, found.matched))
            else:
                failures.append(_Target("unknown", 0, None, found.suggestions, written))
        return failures[0]

    def next_line_target(self, later: list[str], *, allow_no_lynch: bool) -> _Target:
        """«голосую за» at the end of a line, the name on the next one: one vote."""
        following = next((line for line in later if line.strip()), "")
        if not following.strip():
            return _Target("missing")
        found = self.target(clean_line(following), allow_no_lynch=allow_no_lynch)
        return found if found.status in ("ok", "no_lynch") else _Target("missing")

    def chatter(self, target: _Target, phrase: tuple[str, ...], rest: str, raw: str) -> bool:
        """In the thread, a vote word followed by no name or by an ordinary word is talk.

        «Голос остаётся на Лёхе», «твой голос — эмоции», «пока без голоса»: the phrase
        matched, but nothing like a nick follows and no roster name is close, so telling
        the host would be noise. A PM is always addressed to the GM and is always answered.
        """
        if self.channel is not Channel.THREAD:
            return False
        if target.status == "missing":
            return True
        word = lower(target.written)
        if target.status == "unknown" and word in _FUNCTION_WORDS:
            return True
        if target.status != "unknown" or not is_plain_word(word):
            return False
        if _explicit(raw, phrase):
            return False  # «голос: Док»: a colon says a name was meant
        # «голос за Зюзю», «vote for peace»: a preposition says a target was meant.
        head = tokens(rest)[:1]
        if phrase[-1:] and phrase[-1] in self.grammar.prepositions:
            return False
        if head and head[0].text in self.grammar.prepositions:
            return False
        # Suggestions for the word alone, not for the words after it («на Nekr0 в силе»).
        return not self.resolver.resolve(target.written).suggestions

    def message_text(self, raw: str, rest: str, target: _Target, later: list[str]) -> str:
        """The anonymous text: after the first colon past the name, later lines included."""
        before = len(tokens(clean_line(raw))) - len(tokens(rest))
        needed = before + len(tokens(rest[: target.end]))
        first_line = rest[target.end :]
        for i, ch in enumerate(raw):
            if ch == ":" and len(tokens(clean_line(raw[:i]))) >= needed:
                first_line = raw[i + 1 :]
                break
        return "\n".join([first_line, *later]).strip()

    def warn(self, form: CommandForm, target: _Target, src: Source) -> None:
        action = _label(form)
        if target.status == "missing":
            code, message = codes.BAD_PARAMETER, f"{action}: no player named"
        elif target.status == MatchStatus.AMBIGUOUS.value:
            code = codes.AMBIGUOUS_TARGET
            message = f"{action}: «{target.written}» may mean {', '.join(target.choices)}"
        else:
            code, message = codes.UNKNOWN_TARGET, f"{action}: «{target.written}» is not a player"
        self.result.warnings.append(
            ParseWarning(code, message, self.sender, src, target.choices, action)
        )

    def finish(self, text: str) -> ParseResult:
        votes = [o for o in self.result.orders if o.kind in _VOTES]
        if len(votes) > 1:
            last = votes[-1]
            self.result.warnings.append(
                ParseWarning(
                    codes.MULTIPLE_VOTES,
                    f"{len(votes)} votes in one message; the last ({last.target}) counts",
                    self.sender,
                    last.source,
                    action="vote",
                    accepted=True,
                )
            )
        if self.commands == 0 and self.channel is Channel.PM:
            src = replace(self.source, text=text.strip()[:500])
            self.result.warnings.append(
                ParseWarning(codes.UNKNOWN_COMMAND, "no command in this message", self.sender, src)
            )
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
) -> ParseResult:
    """Read every command in one post or PM (quotes, strikes, code and signatures dropped).

    Every form is read in every channel; what a channel may carry is the ruleset's decision.
    """
    text = body.text(include_spoilers=grammar.count_spoilers)
    text = resolver.protect(drop_literal_quotes(text))
    parser = _Parser(
        grammar, compiled(grammar), resolver, sender, channel, source or Source(channel), at
    )
    parser.run(text.splitlines())
    return parser.finish(text)
