"""Real pages of phpBB styles nobody here wrote, and the project's own pages with every class
renamed (issue 26): each post's id, author, time and the start of its text, against a truth
written by hand from the pages.

- EagleCraft (French, phpBB 3.0, a style "based on Absolution": `div.vtouter#pNNN`,
  `span.vtusername`, «Ven 08 Août 2014, 20:43», no profile links, no zone in the footer — the
  times are the board's own, read here in UTC);
- Emerald Immersion (English, phpBB 3.2, "Milk v2": the time in a link of `p.author`, no
  `<time>`, `data-posttime` in Unix seconds, profile links rewritten by the static copy).
"""

from __future__ import annotations

import glob
from datetime import UTC, datetime
from pathlib import Path

import pytest

from forums.phpbb.dates import detect_timezone
from forums.phpbb.pms import parse_pm_folder, parse_pm_view
from forums.phpbb.topic import parse_topic_page
from tests.forums.phpbb.conftest import load_saved_page
from tests.forums.restyle import rename_classes

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "phpbb"
NOW = datetime(2026, 1, 1, tzinfo=UTC)

TRUTH: dict[str, list[tuple[str, str, str | None, tuple[int, ...], str]]] = {
    "eaglecraft/viewtopic_t60.html": [
        ("100", "Auldeor", None, (2014, 9, 7, 11, 59), "Bonjour à tous et à tout"),
        ("102", "thewomencraft", None, (2014, 9, 10, 15, 27), "Bonjour a tous et à tout"),
        ("103", "drakonic59", None, (2014, 9, 12, 18, 34), "Je m'inscris aux jeux su"),
        ("106", "regorf", None, (2014, 9, 19, 17, 32), "je m'inscris à tout.\n\n\nr"),
        ("107", "Auldeor", None, (2014, 9, 24, 13, 58), "Bonjour à tous ! Afin qu"),
        ("108", "MissRegorf", None, (2014, 9, 24, 14, 28), "je souhaite m'inscrire à"),
        ("114", "stormeshaser", None, (2014, 9, 28, 16, 42), "Je souhaite m'inscrire à"),
        ("116", "thewomencraft", None, (2014, 9, 28, 18, 41), "Bonjour/Rebonjour ,\n\nFin"),
        ("119", "Neptune_7", None, (2014, 9, 30, 18, 5), "Bonjours a tous après qu"),
        ("123", "phYtYus42", None, (2014, 10, 2, 21, 1), "Bonjour à tous !\n\nJe sou"),
    ],
    "eaglecraft/viewtopic_t477.html": [
        ("1115", "Sailoriae", None, (2017, 9, 2, 15, 40), "Salut à tous !\nVous avez"),
        ("1198", "Sailoriae", None, (2018, 1, 20, 14, 47), "Version 6.0.1 :\nAméliora"),
        ("1205", "Sailoriae", None, (2018, 2, 25, 19, 22), "Je pense qu'il est impor"),
        ("1207", "Sailoriae", None, (2018, 3, 4, 11, 51), "J'ai oublié de le publie"),
        ("1245", "Sailoriae", None, (2018, 9, 2, 11, 3), "Ça faisait longtemps, ma"),
        ("1246", "Sailoriae", None, (2018, 9, 9, 17, 33), "Je pose ici une autre ve"),
        ("1266", "Sailoriae", None, (2018, 11, 11, 14, 52), "Chunky est un logiciel q"),
        ("1270", "Sailoriae", None, (2018, 11, 25, 16, 54), "Version 6.1.1\nDivers amé"),
        ("1287", "Sailoriae", None, (2019, 1, 5, 12, 40), "Version 6.1.2\nPassage de"),
        ("1378", "Sailoriae", None, (2020, 1, 26, 9, 54), "Version 6.1.3 (Version f"),
    ],
    "emeraldimmersion/viewtopic_t14.html": [
        ("31", "Yume", "56", (2018, 4, 7, 16, 29, 41), "Bonjour tout le monde !\n"),
        ("32", "lightpsycho", "48", (2018, 4, 7, 18, 9, 51), "Jfc.... now I feel like "),
        ("34", "Yume", "56", (2018, 4, 7, 19, 0, 53), "♥\n\nI'm used to write on "),
        ("35", "lightpsycho", "48", (2018, 4, 7, 21, 18, 30), "Well....\nje pense que je"),
        # The post opens with a quote: its own text starts after it.
        ("36", "Yume", "56", (2018, 4, 7, 22, 7, 48), "Haha it's not that bad, "),
        ("37", "lightpsycho", "48", (2018, 4, 7, 22, 45, 16), "This is when I thought a"),
        ("39", "Yume", "56", (2018, 4, 8, 9, 30, 30), "Imparfait and passé comp"),
    ],
    "emeraldimmersion/viewtopic_t21.html": [
        ("51", "Yume", "56", (2018, 4, 9, 20, 2, 5), "Starting a huge post\nWhe"),
        ("52", "Yume", "56", (2018, 4, 9, 20, 2, 32), "Starting with my questio"),
        ("54", "Pronix", "53", (2018, 4, 9, 20, 50, 59), "Nice idea with this ques"),
        ("59", "lightpsycho", "48", (2018, 4, 10, 16, 45, 14), "ASP no imo, since it is "),
        ("60", "Pronix", "53", (2018, 4, 10, 16, 50, 5), "Soooo ASP no and yes, go"),
        ("62", "lightpsycho", "48", (2018, 4, 10, 16, 57, 32), "What about a question, P"),
        ("64", "Pronix", "53", (2018, 4, 10, 17, 26, 50), "There's still one unansw"),
        ("65", "Yume", "56", (2018, 4, 10, 19, 50, 41), "Depends on the goal : ba"),
        ("67", "Davelantor", "54", (2018, 4, 11, 6, 27, 47), "During university. I liv"),
    ],
}


def _read(name: str) -> list[tuple[str, str, str | None, tuple[int, ...], str]]:
    html = (FIXTURES / name).read_text(encoding="utf-8")
    topic = name.rsplit("_t", 1)[1].removesuffix(".html")
    page = parse_topic_page(html, f"https://board.example/viewtopic.php?t={topic}", tz=UTC, now=NOW)
    assert page.thread_id == topic
    rows = []
    for post in page.posts:
        when = post.posted_at.astimezone(UTC)
        stamp = (when.year, when.month, when.day, when.hour, when.minute)
        stamp += (when.second,) if when.second else ()
        rows.append((post.id, post.author, post.author_id, stamp, post.body.text()[:24]))
    return rows


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_third_party_styles_are_read_right(name: str) -> None:
    assert _read(name) == TRUTH[name]


def test_signatures_and_edits_of_a_third_party_style() -> None:
    html = (FIXTURES / "emeraldimmersion/viewtopic_t21.html").read_text(encoding="utf-8")
    page = parse_topic_page(html, "https://board.example/viewtopic.php?t=21", tz=UTC, now=NOW)
    signed = [p.id for p in page.posts if any(r.signature for r in p.body.runs)]
    assert signed == ["52", "59", "62", "65", "67"]
    assert page.posts[0].edit is not None and page.posts[0].edit.by == "Yume"
    # A signature never reads as the post: the text stops before it.
    assert "All Hail Vanu" not in page.posts[1].body.text()


def _saved(lang: str, kind: str) -> list[str]:
    names = sorted(glob.glob(str(FIXTURES / "3.3.10" / lang / f"{kind}*.html")))
    return [f"{lang}/{Path(n).stem}" for n in names]


TOPICS = [n for lang in ("en", "ru") for n in _saved(lang, "viewtopic_p") if "print" not in n]
TOPICS += [n for lang in ("en", "ru") for n in _saved(lang, "viewtopic_by")]


@pytest.mark.parametrize("name", TOPICS)
def test_every_class_renamed_topic_pages_still_read_right(name: str) -> None:
    page = load_saved_page(name)
    tz = detect_timezone(page.html)
    assert tz is not None
    served = parse_topic_page(page.html, page.url, tz=tz, now=page.captured_at)
    restyled = parse_topic_page(rename_classes(page.html), page.url, tz=tz, now=page.captured_at)
    assert [
        (p.id, p.author, p.author_id, p.posted_at, p.body.text(), p.edit) for p in restyled.posts
    ] == [(p.id, p.author, p.author_id, p.posted_at, p.body.text(), p.edit) for p in served.posts]
    assert (restyled.page, restyled.pages, restyled.thread_id) == (
        served.page,
        served.pages,
        served.thread_id,
    )


@pytest.mark.parametrize("name", ["real/phpBB.html", "real/viewtopic.php_t=28017.html"])
def test_every_class_renamed_phpbb30_pages_still_read_right(name: str) -> None:
    html = (FIXTURES / name).read_text(encoding="utf-8")
    tz = detect_timezone(html) or UTC
    url = "https://board.example/viewtopic.php?t=1"
    served = parse_topic_page(html, url, tz=tz, now=NOW)
    restyled = parse_topic_page(rename_classes(html), url, tz=tz, now=NOW)
    assert [(p.id, p.author, p.posted_at, p.body.text()[:60]) for p in restyled.posts] == [
        (p.id, p.author, p.posted_at, p.body.text()[:60]) for p in served.posts
    ]


PM_PAGES = [
    n
    for lang in ("en", "ru")
    for n in _saved(lang, "pm_")
    if any(k in n for k in ("inbox", "outbox", "sentbox", "pm_index", "pm_view"))
    and "not_logged_in" not in n
    and "session_expired" not in n
]


@pytest.mark.parametrize("name", PM_PAGES)
def test_every_class_renamed_pm_pages_still_read_right(name: str) -> None:
    page = load_saved_page(name)
    tz = detect_timezone(page.html)
    assert tz is not None
    renamed = rename_classes(page.html)
    if "pm_view" in name:
        a = parse_pm_view(page.html, page.url, tz=tz, now=page.captured_at)
        b = parse_pm_view(renamed, page.url, tz=tz, now=page.captured_at)
        fields = ("id", "sender", "sender_id", "recipients", "sent_at", "subject")
        assert [getattr(b, f) for f in fields] == [getattr(a, f) for f in fields]
        assert b.body.text() == a.body.text()
    else:
        a_folder = parse_pm_folder(page.html, page.url, tz=tz, now=page.captured_at)
        b_folder = parse_pm_folder(renamed, page.url, tz=tz, now=page.captured_at)
        key = ("id", "subject", "sender", "sender_id", "recipients", "sent_at", "url")
        assert [[getattr(i, k) for k in key] for i in b_folder.items] == [
            [getattr(i, k) for k in key] for i in a_folder.items
        ]
        assert b_folder.folder == a_folder.folder
