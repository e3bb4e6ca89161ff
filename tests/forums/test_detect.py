"""Engine detection over every saved full page: phpBB 3.0 and 3.3, MyBB, XenForo 1 and 2,
vBulletin 3, 4 and 5, SMF 2.1, FluxBB 1.5, PunBB 1.2 and 1.4 — and the engines forumgm does
not support, which it names instead of guessing."""

from __future__ import annotations

from pathlib import Path

import pytest

from forums.detect import SUPPORTED, detect_engine

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SETS = {
    "phpbb/3.3.10/ru": "phpbb",
    "phpbb/3.3.10/en": "phpbb",
    "phpbb/real": "phpbb",  # phpBB 3.0: prosilver and a custom theme
    "mybb/1.8.37": "mybb",
    "xenforo/xenforo.com": "xenforo",  # XenForo 2
    "xenforo/sufficientvelocity": "xenforo",  # XenForo 1
    "vbulletin/real": "vbulletin",  # vBulletin 3.8 and 4.2
    "vbulletin/real-vb5": "vbulletin5",  # vBulletin 5.5.2
    "smf/2.1.4": "smf",
    "fluxbb/1.5.11": "fluxbb",
    "punbb/1.2.50": "fluxbb",  # PunBB 1.2 is FluxBB's layout, read by forums/fluxbb
    "punbb/1.4.4": "punbb",
}


def read(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:  # vBulletin 3 serves ISO-8859-1
        return raw.decode("latin-1")


def full_pages() -> list[tuple[str, str]]:
    """(path, engine) of each saved whole HTML document (fragments, feeds, JSON and the empty
    body of a 302 are not pages)."""
    pages = []
    for folder, engine in SETS.items():
        for path in sorted((FIXTURES / folder).glob("*.html")):
            if "</html>" in read(path).lower():
                pages.append((str(path.relative_to(FIXTURES)), engine))
    return pages


PAGES = full_pages()


def test_every_set_has_its_pages() -> None:
    counts = {folder: sum(p.startswith(folder + "/") for p, _ in PAGES) for folder in SETS}
    assert counts["mybb/1.8.37"] >= 49 and counts["phpbb/3.3.10/ru"] >= 45
    assert counts["phpbb/real"] == 2 and counts["xenforo/xenforo.com"] == 1
    assert counts["xenforo/sufficientvelocity"] == 1
    assert counts["vbulletin/real"] == 2 and counts["vbulletin/real-vb5"] == 1
    assert counts["smf/2.1.4"] >= 22 and counts["fluxbb/1.5.11"] >= 26
    assert counts["punbb/1.2.50"] >= 12 and counts["punbb/1.4.4"] >= 19


@pytest.mark.parametrize(("name", "engine"), PAGES)
def test_detection_names_the_engine_of_every_saved_full_page(name: str, engine: str) -> None:
    found = detect_engine(read(FIXTURES / name))
    assert found.engine == engine, found.describe()
    assert found.seen


def test_xenforo_versions_and_what_was_seen() -> None:
    xf2 = detect_engine(read(FIXTURES / "xenforo/xenforo.com/thread_view.html"))
    xf1 = detect_engine(read(FIXTURES / "xenforo/sufficientvelocity/thread_page54.html"))
    assert (xf2.product, xf1.product) == ("XenForo 2", "XenForo 1")
    mybb = detect_engine(read(FIXTURES / "mybb/1.8.37/showthread_p1.html"))
    assert mybb.describe().startswith("MyBB (") and "my_post_key" in mybb.describe()
    phpbb = detect_engine(read(FIXTURES / "phpbb/real/phpBB.html"))
    assert 'body id="phpbb"' in phpbb.seen


@pytest.mark.parametrize(
    ("name", "product"),
    [
        # Issue 26: real pages of engines that share phpBB 3's script names, and others.
        ("phpbb2/ftowa_viewtopic_p1000.html", "phpBB 2"),
        ("torrentpier/rutracker_viewtopic_3.html", "TorrentPier"),
        ("torrentpier/rutracker_viewtopic_5.html", "TorrentPier"),
        ("smf/metin2hungary_board.html", "SMF 2.0.15"),  # forums/smf reads SMF 2.1
        ("nodebb/NodeBB.html", "NodeBB"),
    ],
)
def test_unsupported_engines_are_named_not_guessed(name: str, product: str) -> None:
    kind = "application/json" if name.endswith(".json") else "text/html"
    found = detect_engine(read(FIXTURES / "unsupported" / name), kind)
    assert (found.engine, found.product) == (None, product)
    said = found.describe()
    assert f"{product} — not a supported engine (saw " in said
    assert f"forumgm supports {', '.join(SUPPORTED)}" in said


@pytest.mark.parametrize(
    ("name", "seen"),
    [
        ("discourse/discourse_api_topic.json", "a Discourse API answer (post_stream)"),
        (
            "discourse/criticalfallibilism_t_2144_posts.json",
            "a Discourse API answer (post_stream)",
        ),
        ("discourse/discourse_api_post.json", "a Discourse post object"),
    ],
)
def test_discourse_is_known_by_its_json_answers(name: str, seen: str) -> None:
    # Discourse's pages are a script's shell: its JSON answers are what a client reads.
    found = detect_engine(read(FIXTURES / "unsupported" / name), "application/json")
    assert (found.engine, found.product) == ("discourse", "Discourse")
    assert found.describe().startswith(f"Discourse ({seen}")


def test_discourse_is_known_by_its_pages_generator() -> None:
    # The <meta name="generator"> every Discourse page's head carries.
    page = '<html><head><meta name="generator" content="Discourse 3.4.0 - https://github.com/discourse/discourse version 3.4.0"></head><body></body></html>'
    found = detect_engine(page, "text/html")
    assert found.engine == "discourse" and found.product.startswith("Discourse 3.4.0")


def test_a_page_of_no_forum_says_what_it_saw() -> None:
    page = "<html><head><title>My cooking blog</title></head><body>Soup.</body></html>"
    said = detect_engine(page, "text/html; charset=utf-8").describe()
    assert said.startswith("not a supported engine: a text/html page of 74 bytes")
    assert "titled “My cooking blog” with no forum engine's marks" in said
    assert detect_engine("").describe().startswith("not a supported engine: an empty answer")
    assert "not a forum page" in detect_engine('{"status": "ok"}').describe()
    # A stray mark is not enough: one phpBB-looking link in a blog post.
    found = detect_engine(page.replace("Soup.", '<a href="/viewtopic.php?t=5">a thread</a>'))
    assert found.engine is None and "with only viewtopic.php links" in found.describe()


@pytest.mark.parametrize(
    ("page", "product"),
    [
        (
            "<body class='ipsApp ipsApp_front ipsJS_none'><div id='ipsLayout_header'>",
            "Invision Community",
        ),
        ('<script src="//s201.ucoz.net/src/u.js"></script><a href="/forum/2-15-1">', "uCoz"),
    ],
)
def test_engines_known_by_their_documented_marks(page: str, product: str) -> None:
    # No real page of these engines was found in a public repository (issue 26's report
    # says so): their marks are the ones the engines print in every page.
    found = detect_engine(f"<html><head></head>{page}</html>", "text/html")
    assert (found.engine, found.product) == (None, product)


def test_a_phpbb3_page_is_never_taken_for_its_forks() -> None:
    for folder in ("phpbb/3.3.10/en", "phpbb/real", "phpbb/eaglecraft", "phpbb/emeraldimmersion"):
        for path in sorted((FIXTURES / folder).glob("*.html")):
            text = read(path)
            if "</html>" in text.lower():
                assert detect_engine(text).engine == "phpbb", path.name


def test_a_fork_served_page_says_what_served_it_not_a_login_form() -> None:
    from datetime import UTC, datetime

    from forums.errors import LayoutChanged
    from forums.phpbb.topic import parse_topic_page

    # A TorrentPier guest page has a login box in its header: it is no login form.
    for name in ("torrentpier/rutracker_viewtopic_3.html", "phpbb2/ftowa_viewtopic_p1000.html"):
        with pytest.raises(LayoutChanged) as caught:
            parse_topic_page(
                read(FIXTURES / "unsupported" / name),
                "https://board.example/viewtopic.php?t=1",
                tz=UTC,
                now=datetime(2026, 1, 1, tzinfo=UTC),
            )
        assert caught.value.what.startswith("not a phpBB 3 page: ")
        assert "not a supported engine" in caught.value.what
        assert "login form" not in caught.value.what
