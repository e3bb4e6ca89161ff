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
from scraper.phrases import CompiledGrammar, compiled

# A question mark at the end (before closing punctuation or smileys) makes a line a question.
_QUESTION_RE = re.compile(r"\?[\W_]*$")
_VOTES = frozenset({OrderKind.VOTE, OrderKind.NO_LYNCH})


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
        for number, raw in enumerate(lines, start=1):
            if self.line(raw, number, lines[number:]):
                break  # the rest of the message belonged to an anonymous message

    def line(self, raw: str, number: int, later: list[str]) -> bool:
        clean = clean_line(raw)
        key = lower(clean)
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", key)]
        words = [key[s:e] for s, e in spans]
        if not words or self.compiled.hedge_at(words, 0):
            return False
        question = self.grammar.question_is_hedge and _QUESTION_RE.search(raw) is not None
        pos = 0
        while pos < len(words):
            phrase = self.compiled.phrase_at(words, pos)
            # «выстрел в Васю?» asks rather than orders; «рейтинг?» is still a request.
            if phrase is not None and question and phrase.form.kind is not OrderKind.REQUEST:
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
            end, takes_rest = self.command(phrase.form, clean[start:], src, raw, later)
            if takes_rest:
                return True
            if self.grammar.line_start:
                return False
            pos = next((i for i, (s, _) in enumerate(spans) if s >= start + end), len(spans))
            pos = max(pos, after)
        return False

    def command(
        self, form: CommandForm, rest: str, src: Source, raw: str, later: list[str]
    ) -> tuple[int, bool]:
        """Turn one recognised phrase into an order or a warning; returns (chars used, ate rest)."""
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
        target = self.target(rest, allow_no_lynch=form.kind is OrderKind.VOTE)
        if form.arg is ArgKind.PLAYER_TEXT:
            base = base.with_(args={"text": self.message_text(raw, rest, target, later)})
        if target.status == "no_lynch":
            base = base.with_(kind=OrderKind.NO_LYNCH, targets=("no_lynch",))
        elif target.status in ("ok", "self"):
            base = base.with_(targets=(target.name or self.sender,))
            if target.status == "self":
                base = base.with_(args={**base.args, "self": True})
        else:
            self.warn(form, target, src)
            return target.end, form.arg is ArgKind.PLAYER_TEXT
        self.result.orders.append(base)
        return target.end, form.arg is ArgKind.PLAYER_TEXT

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
    parser = _Parser(
        grammar, compiled(grammar), resolver, sender, channel, source or Source(channel), at
    )
    parser.run(text.splitlines())
    return parser.finish(text)
