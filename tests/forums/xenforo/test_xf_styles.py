"""The project's own XenForo pages with every class renamed (issue 26) read exactly as served:
XenForo's own marks (`data-content="post-N"`/`id="post-N"`, `data-author`, `<time
data-time>`, `/members/name.N/`, a conversation message's `convMessage-N`) carry the
structural reading when no style selector matches."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from forums.xenforo import parse_thread_page
from forums.xenforo.conversations import parse_conversation_list, parse_conversation_view
from tests.forums.restyle import rename_classes

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "xenforo"
THREADS = [
    (
        "xenforo.com/thread_view.html",
        "https://xenforo.com/community/threads/a-dark-theme-option.8276/",
        datetime(2019, 7, 3, tzinfo=UTC),
    ),
    (
        "sufficientvelocity/thread_page54.html",
        "https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.8081/page-54",
        datetime(2017, 7, 3, tzinfo=UTC),
    ),
]
NOW = datetime(2026, 12, 5, tzinfo=UTC)


def load(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8-sig")


@pytest.mark.parametrize(("name", "url", "now"), THREADS)
def test_every_class_renamed_thread_pages_read_the_same(name: str, url: str, now: datetime) -> None:
    served = parse_thread_page(load(name), url, tz=None, now=now)
    restyled = parse_thread_page(rename_classes(load(name)), url, tz=None, now=now)

    def key(view):  # type: ignore[no-untyped-def]
        return [
            (p.id, p.author, p.author_id, p.posted_at, p.body.text(), p.edit) for p in view.posts
        ]

    assert key(restyled) == key(served)
    assert (restyled.page, restyled.pages, restyled.thread_id) == (
        served.page,
        served.pages,
        served.thread_id,
    )


@pytest.mark.parametrize(
    "name",
    [
        "synthetic/synthetic-conversation-view.html",
        "synthetic/synthetic-xf1-conversation-view.html",
    ],
)
def test_every_class_renamed_conversation_views_read_the_same(name: str) -> None:
    url = "https://board.example/conversations/a-chat.12/"
    served = parse_conversation_view(load(name), url, tz=UTC, now=NOW)
    restyled = parse_conversation_view(rename_classes(load(name)), url, tz=UTC, now=NOW)
    fields = ("id", "sender", "sender_id", "recipients", "sent_at", "subject")
    assert [[getattr(m, f) for f in fields] + [m.body.text()] for m in restyled.messages] == [
        [getattr(m, f) for f in fields] + [m.body.text()] for m in served.messages
    ]


@pytest.mark.parametrize(
    "name",
    [
        "synthetic/synthetic-conversation-list.html",
        "synthetic/synthetic-conversation-list-empty.html",
        "synthetic/synthetic-xf1-conversation-list.html",
        "f95zone/conversation_list_row.html",
    ],
)
def test_every_class_renamed_conversation_lists_read_the_same(name: str) -> None:
    url = "https://board.example/conversations/"
    served = parse_conversation_list(load(name), url, tz=UTC, now=NOW)
    restyled = parse_conversation_list(rename_classes(load(name)), url, tz=UTC, now=NOW)
    fields = ("id", "title", "url", "starter", "starter_id", "recipients", "latest_at")
    assert [[getattr(r, f) for f in fields] for r in restyled.rows] == [
        [getattr(r, f) for f in fields] for r in served.rows
    ]
