"""One phpBB page, one parse: the adapter's readers of a page (what kind of page it is, who is
logged in, its time zone, its posts) share the tree `forums.html.page_tree` keeps for it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

import forums.html as html_module
from forums.html import page_tree
from forums.phpbb import forms
from forums.phpbb.dates import detect_timezone
from forums.phpbb.topic import parse_topic_page

SAVED = Path(__file__).resolve().parents[3] / "fixtures" / "phpbb" / "3.3.10" / "ru"
URL = "https://forum.example/viewtopic.php?t=2"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages the parser was given, in order (this thread's kept trees forgotten first)."""
    made: list[str] = []
    real = html_module.LexborHTMLParser

    def counted(text: str) -> Any:
        made.append(text)
        return real(text)

    monkeypatch.setattr(html_module, "LexborHTMLParser", counted)
    monkeypatch.setattr(html_module._TREES, "kept", {}, raising=False)
    return made


def test_a_topic_page_is_parsed_once_for_all_its_readers(parses: list[str]) -> None:
    page = (SAVED / "viewtopic_p1.html").read_text("utf-8")
    assert forms.classify(page, URL) is forms.PageKind.TOPIC
    assert forms.logged_in_as(page)
    found = detect_timezone(page)
    assert found is not None and found.utcoffset(datetime.now(UTC)) == timedelta(hours=3)
    parsed = parse_topic_page(page, URL, tz=ZoneInfo("Europe/Moscow"), now=datetime.now(UTC))
    assert parsed.posts
    assert len(parses) == 1


def test_the_last_two_pages_are_kept_and_each_thread_has_its_own(parses: list[str]) -> None:
    first, second, third = (
        (SAVED / name).read_text("utf-8")
        for name in ("viewtopic_p1.html", "viewtopic_p2.html", "pm_inbox.html")
    )
    tree = page_tree(first)
    assert page_tree(first) is tree and page_tree(second) is page_tree(second)
    assert len(parses) == 2
    page_tree(third)  # the oldest, the first page, is let go
    assert page_tree(second) is not None and len(parses) == 3
    assert page_tree(first) is not tree and len(parses) == 4

    elsewhere: list[Any] = []
    worker = threading.Thread(target=lambda: elsewhere.append(page_tree(first)))
    worker.start()
    worker.join()
    assert elsewhere[0] is not page_tree(first)  # another thread never shares a tree
