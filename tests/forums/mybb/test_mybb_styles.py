"""The project's own MyBB pages with every class renamed (issue 26) read exactly as served:
MyBB's own marks (`div#post_N`, `#pid_N` on the body, `member.php?action=profile&uid=N`,
the date's `title`) carry the structural reading when no theme selector matches."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_mybb import MSK, load_saved_page

from forums.mybb.pms import parse_pm_folder, parse_pm_view
from forums.mybb.thread import parse_thread_page
from tests.forums.restyle import rename_classes

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "mybb" / "1.8.37"
THREADS = sorted(p.stem for p in FIXTURES.glob("showthread_*.html") if "threaded" not in p.stem)
VIEWS = sorted(p.stem for p in FIXTURES.glob("private_read_*.html"))
FOLDERS = [
    "private_inbox",
    "private_inbox_after_reading",
    "private_inbox_player_Alu",
    "private_sent",
]


@pytest.mark.parametrize("name", THREADS)
def test_every_class_renamed_thread_pages_read_the_same(name: str) -> None:
    page = load_saved_page(name)
    served = parse_thread_page(page.html, page.url, tz=MSK, now=page.captured_at)
    restyled = parse_thread_page(rename_classes(page.html), page.url, tz=MSK, now=page.captured_at)

    def key(p):  # type: ignore[no-untyped-def]
        return (
            p.id,
            p.author,
            p.author_id,
            p.posted_at,
            p.body.text(),
            p.deleted and not p.body.runs,
        )

    assert [key(p) for p in restyled.posts] == [key(p) for p in served.posts]
    assert (restyled.page, restyled.pages, restyled.thread_id) == (
        served.page,
        served.pages,
        served.thread_id,
    )


@pytest.mark.parametrize("name", VIEWS)
def test_every_class_renamed_pm_views_read_the_same(name: str) -> None:
    page = load_saved_page(name)
    served = parse_pm_view(page.html, page.url, tz=MSK, now=page.captured_at)
    restyled = parse_pm_view(rename_classes(page.html), page.url, tz=MSK, now=page.captured_at)
    fields = ("id", "sender", "sender_id", "recipients", "sent_at")
    assert [getattr(restyled, f) for f in fields] == [getattr(served, f) for f in fields]
    assert restyled.body.text() == served.body.text()


@pytest.mark.parametrize("name", FOLDERS)
def test_every_class_renamed_pm_folders_read_the_same(name: str) -> None:
    page = load_saved_page(name)
    served = parse_pm_folder(page.html, page.url, tz=MSK, now=page.captured_at)
    restyled = parse_pm_folder(rename_classes(page.html), page.url, tz=MSK, now=page.captured_at)
    key = ("id", "subject", "sender", "sender_id", "recipients", "sent_at", "url")
    assert [[getattr(i, k) for k in key] for i in restyled.items] == [
        [getattr(i, k) for k in key] for i in served.items
    ]
