"""Fixtures for the scraper tests: a classic roster, its resolver, and a post-parsing helper."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.core.orders import Channel
from forums.records import PostBody, TextRun
from rulesets.classic.grammar import GRAMMAR
from scraper.matcher import ParseResult, parse_post
from scraper.nicknames import NameResolver

ROSTER = (
    "Вася",
    "Петя",
    "Коля",
    "Маша",
    "Оля",
    "Кот",
    "Кота",
    "Уставший Скиталец",
    "Орёл",
    "Law",
    "Андрей",
    "Игорь",
    "Любовь",
    "Ника",
    "Ник",
)

Parse = Callable[..., ParseResult]


def body(*runs: str | TextRun) -> PostBody:
    """A PostBody from plain strings and ready-made runs, in order."""
    return PostBody(tuple(TextRun(r) if isinstance(r, str) else r for r in runs))


@pytest.fixture(scope="session")
def resolver() -> NameResolver:
    return NameResolver(ROSTER)


@pytest.fixture
def parse(resolver: NameResolver) -> Parse:
    """Parse text (or a PostBody) as a classic PM from Петя, unless told otherwise."""

    def run(
        text: str | PostBody, *, sender: str = "Петя", channel: Channel = Channel.PM
    ) -> ParseResult:
        post = text if isinstance(text, PostBody) else PostBody.plain(text)
        return parse_post(post, GRAMMAR, resolver, sender=sender, channel=channel)

    return run
