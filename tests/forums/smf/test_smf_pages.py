"""SMF 2.1.4's real pages (fixtures/smf/2.1.4, README there) read by the pure readers: every
post against the board's own rows (truth.json), in English and in Russian, the PM folders,
and what each page is."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from forums.errors import LayoutChanged
from forums.pages import PageKind
from forums.smf import pages

HERE = Path(__file__).resolve().parents[3] / "fixtures" / "smf" / "2.1.4"
TRUTH = json.loads((HERE / "truth.json").read_text(encoding="utf-8"))
MSK = ZoneInfo("Europe/Moscow")
BASE = "http://127.0.0.1:8080/"
NOW = {
    "en": datetime(2026, 11, 25, 14, 25, tzinfo=MSK),
    "ru": datetime(2026, 11, 25, 14, 27, 30, tzinfo=MSK),
}


def page(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def topic(lang: str, number: int) -> pages.TopicPage:
    start = (number - 1) * 15
    url = f"{BASE}index.php?topic={TRUTH['topic']}.{start}"
    return pages.parse_topic_page(
        page(f"topic_p{number}_{lang}.html"), url, tz=MSK, now=NOW[lang].astimezone(UTC)
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_post_is_the_boards_own(lang: str) -> None:
    first, second = topic(lang, 1), topic(lang, 2)
    assert (first.page, first.pages, first.per_page) == (1, 2, 15)
    assert (second.page, second.pages, second.start) == (2, 2, 15)
    assert first.title == "Мафия: день 1" and first.logged_in_as == "Ведущий"
    read = [*first.posts, *second.posts]
    truth = {str(row["id"]): row for row in TRUTH["posts"]}
    shown = [p for p in read]
    # the GM's reply (captured after these pages) is the one row they do not show
    assert [p.id for p in shown] == [k for k in truth][: len(shown)]
    assert [p.number for p in shown] == list(range(1, len(shown) + 1))
    for post in shown:
        row = truth[post.id]
        assert post.author == row["poster"], post.id
        stamp = datetime.fromtimestamp(row["posted"], UTC)
        # English shows minutes (%I:%M %p), the Russian format seconds too
        precision = 60 if lang == "en" else 1
        assert abs((post.posted_at - stamp).total_seconds()) < precision, (post.id, post.posted_at)
        if row["edited"]:
            assert post.edit is not None and post.edit.by == row["edited_by"], post.id
            assert post.edit.at is not None
            edited = datetime.fromtimestamp(row["edited"], UTC)
            assert abs((post.edit.at - edited).total_seconds()) < precision
        else:
            assert post.edit is None, post.id
        assert post.url == f"{BASE}index.php?msg={post.id}"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_what_counts_and_what_does_not(lang: str) -> None:
    posts = {
        p.author + ":" + p.body.text(include_quoted=True)[:12]: p for p in topic(lang, 1).posts
    }
    by_id = {p.id: p for p in topic(lang, 1).posts}

    def runs(post_id: str, flag: str) -> list[str]:
        return [r.text for r in by_id[post_id].body.runs if getattr(r, flag)]

    assert posts
    assert runs("4", "struck") == ["Васю"]  # [s]
    assert by_id["4"].body.text() == "А я за  Машу. Нет, воздерживаюсь."
    assert runs("6", "code") == ["голосую за Машу"]  # [code], its «Code» header dropped
    assert runs("7", "hidden") == ["голосую за Колю"]  # white on SMF's white rows
    assert by_id["7"].body.text(include_hidden=False).strip() == "Я пока думаю :)"  # smiley's code
    assert by_id["10"].body.text() == "[b]не жирно[/b] и всё"  # [nobbc] shows its BBCode
    quoted = [r for r in by_id["11"].body.runs if r.quoted]
    assert [(r.text, r.quote_author) for r in quoted] == [
        ("А я за Машу", "Петя"),
        ("без автора", None),  # a bare [quote]: «Quote», no author
    ]
    assert by_id["11"].body.text().strip() == "Снимаю голос."
    assert runs("5", "bold") == ["Петю"]
    assert by_id["8"].body.links[0].url == "https://example.org/rules"


def test_a_quote_names_its_author_in_english_and_in_russian() -> None:
    for lang in ("en", "ru"):
        after = {p.id: p for p in topic(lang, 1).posts}
        assert next(r.quote_author for r in after["11"].body.runs if r.quoted) == "Петя"


def test_the_pm_folders_newest_first_with_their_messages() -> None:
    inbox = pages.parse_pm_folder(
        page("pm_inbox_en.html"),
        f"{BASE}index.php?action=pm;f=inbox;sort=date;desc",
        tz=MSK,
        now=NOW["en"],
    )
    truth = {str(r["id"]): r for r in TRUTH["pms"]}
    assert [i.id for i in inbox.items] == ["2", "1"]
    assert [(i.sender, i.subject) for i in inbox.items] == [
        ("Вася", "Вопрос"),
        ("Маша", "Ход ночью"),
    ]
    for pm in inbox.messages.values():
        row = truth[pm.id]
        assert (pm.sender, pm.subject, pm.recipients) == (
            row["sender"],
            row["subject"],
            ("Ведущий",),
        )
        assert abs((pm.sent_at - datetime.fromtimestamp(row["sent"], UTC)).total_seconds()) < 60
    assert inbox.messages["1"].body.full_text() == "Проверяю Колю."
    assert [r.text for r in inbox.messages["1"].body.runs if r.bold] == ["Колю"]
    sent = pages.parse_pm_folder(
        page("pm_sent_en.html"),
        f"{BASE}index.php?action=pm;f=sent;sort=date;desc",
        tz=MSK,
        now=NOW["en"],
    )
    [item] = sent.items
    assert (item.id, item.recipients, item.subject) == ("3", ("Вася",), "Ответ")
    assert sent.messages["3"].sender == "Ведущий"


def test_the_russian_inbox_reads_its_dates() -> None:
    inbox = pages.parse_pm_folder(
        page("pm_inbox_ru.html"),
        f"{BASE}index.php?action=pm;f=inbox;sort=date;desc",
        tz=MSK,
        now=NOW["ru"],
    )
    truth = {str(r["id"]): r for r in TRUTH["pms"]}
    for pm in inbox.messages.values():
        assert pm.sent_at == datetime.fromtimestamp(truth[pm.id]["sent"], UTC)


@pytest.mark.parametrize(
    ("name", "url", "kind"),
    [
        ("topic_p1_en.html", "index.php?topic=2.0", PageKind.TOPIC),
        ("topic_guest_en.html", "index.php?topic=2.0", PageKind.TOPIC),
        ("login_form_en.html", "index.php?action=login", PageKind.LOGIN_FORM),
        ("login_failed_en.html", "index.php?action=login2", PageKind.LOGIN_FAILED),
        ("login_failed_ru.html", "index.php?action=login2", PageKind.LOGIN_FAILED),
        ("pm_guest_en.html", "index.php?action=pm", PageKind.NOT_LOGGED_IN),
        ("post_form_en.html", "index.php?action=post;topic=2.0", PageKind.POSTING_FORM),
        ("pm_form_en.html", "index.php?action=pm;sa=send", PageKind.POSTING_FORM),
        ("post_stale_en.html", "index.php?action=post2", PageKind.FORM_INVALID),
        ("pm_per_hour_en.html", "index.php?action=pm;sa=send", PageKind.FLOOD),
        ("topic_missing_en.html", "index.php?topic=999.0", PageKind.MESSAGE),
        ("pm_inbox_en.html", "index.php?action=pm", PageKind.PM_FOLDER),
        ("memberlist_search_en.html", "index.php?action=mlist;sa=search", PageKind.MEMBERLIST),
        ("profile_theme_en.html", "index.php?action=profile;area=theme", PageKind.PREFERENCES),
    ],
)
def test_each_page_is_what_it_is(name: str, url: str, kind: PageKind) -> None:
    assert pages.classify(page(name), BASE + url) is kind


def test_the_boards_words() -> None:
    assert pages.message(page("login_failed_en.html")) == "Password incorrect"
    assert pages.message(page("login_failed_ru.html")) == "Неверный пароль"
    said = pages.message(page("pm_per_hour_en.html"))
    assert pages.per_hour_limit(said) == 2 and pages.flood_wait(said) is None
    assert "missing or off limits" in pages.message(page("topic_missing_en.html"))
    assert "session timed out" in pages.message(page("post_stale_en.html"))
    # SMF 2.1's words for its seconds between posts and logins (Errors.english.php)
    assert pages.flood_wait("The last posting from your IP was less than 5 seconds ago.") == 5
    assert pages.flood_wait("You will have to wait about 2 seconds to login again, sorry.") == 2


def test_who_reads_and_in_which_zone() -> None:
    assert pages.logged_in_user(page("topic_p1_en.html")).name == "Ведущий"  # type: ignore[union-attr]
    assert pages.logged_in_user(page("topic_guest_en.html")) is None
    assert pages.is_guest(page("topic_guest_en.html")) and not pages.is_guest(
        page("topic_p1_en.html")
    )
    assert pages.profile_zone(page("profile_theme_en.html")) == "Europe/Moscow"
    assert pages.profile_zone(page("profile_theme_ru.html")) == "Europe/Moscow"
    assert pages.needs_verification(page("pm_form_verification_en.html"))
    assert not pages.needs_verification(page("pm_form_en.html"))
    users, number, count = pages.parse_memberlist(page("memberlist_search_en.html"), BASE)
    assert [u.name for u in users] == ["Маша"] and (number, count) == (1, 1)


def test_a_page_that_is_no_thread_is_a_layout_change_not_an_empty_thread() -> None:
    with pytest.raises(LayoutChanged, match="not a thread page"):
        pages.parse_topic_page(
            page("topic_missing_en.html"), BASE + "index.php?topic=9.0", tz=MSK, now=NOW["en"]
        )
    broken = page("topic_p2_en.html").replace('id="msg', 'id="gone')
    with pytest.raises(LayoutChanged, match="no posts"):
        pages.parse_topic_page(broken, BASE + "index.php?topic=2.15", tz=MSK, now=NOW["en"])
    with pytest.raises(LayoutChanged, match="not a PM folder"):
        pages.parse_pm_folder(
            page("topic_p1_en.html"), BASE + "index.php?action=pm", tz=MSK, now=NOW["en"]
        )


def test_the_form_goes_back_as_served() -> None:
    form = pages.read_form(
        page("post_form_en.html"), BASE + "index.php?action=post;topic=2.0", "form#postmodify"
    )
    assert form.action.startswith(BASE + "index.php?action=post2")
    assert form.fields["topic"] == TRUTH["topic"] and form.fields["last_msg"].isdigit()
    assert "seqnum" in form.fields and form.texts["subject"].startswith("Re:")


def test_an_exported_posts_html_reads_as_the_page_does() -> None:
    """`forumgm tally --engine smf` reads a post's exported HTML (`Post.raw`) the same way."""
    from engine.app.tally_cmd import READERS

    for post in topic("en", 1).posts:
        assert post.raw is not None
        assert READERS["smf"](post.raw).runs == post.body.runs, post.id
