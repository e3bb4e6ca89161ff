"""Discourse's `cooked` HTML → `PostBody`, on real posts (fixtures/discourse/) and, for what
no saved post shows (strikethrough), on markup as Discourse's Markdown renders it."""

from __future__ import annotations

from typing import Any

from forums.discourse.body import cooked_body
from tests.discourse_board import fixture

BASE = "https://discuss.criticalfallibilism.com/"


def latest(post_id: int) -> dict[str, Any]:
    posts = fixture("criticalfallibilism_posts.json")["latest_posts"]
    found: dict[str, Any] = next(p for p in posts if p["id"] == post_id)
    return found


def body_of(post: dict[str, Any]) -> Any:
    return cooked_body(post["cooked"], base_url=BASE)


def test_a_quote_is_quoted_text_of_its_author_and_its_title_is_no_text() -> None:
    post = next(
        p
        for p in fixture("criticalfallibilism_t_2108_post_452.json")["post_stream"]["posts"]
        if p["id"] == 19902
    )
    body = body_of(post)
    quoted = [r for r in body.runs if r.quoted and r.text.strip()]
    assert quoted and {r.quote_author for r in quoted} == {"Eternity"}
    assert "its odd though" in quoted[0].text
    assert "Eternity:" not in body.full_text()  # the quote's title
    assert body.text() == (
        "I just recently got told by a friend that lobbies would either want to marry her "
        "or be nasty towards her."
    )


def test_a_quote_of_another_topic_drops_the_topics_title() -> None:
    body = body_of(latest(20178))
    assert "Defense for Plagiarism" not in body.full_text()
    assert body.text().strip() == (
        "I no longer think there’s a problem. Here’s my latest post on the matter:"
    )
    assert any(r.quoted and "My main concerns" in r.text for r in body.runs)


def test_inline_and_block_spoilers_and_details_are_spoilers() -> None:
    inline = next(
        p
        for p in fixture("criticalfallibilism_t_2144_posts.json")["post_stream"]["posts"]
        if p["id"] == 20128
    )
    body = body_of(inline)
    assert any(r.spoiler and "audiences are OK with Jinu dying" in r.text for r in body.runs)
    assert "Jinu dying" not in body.text()

    block = body_of(latest(20209))
    assert any(r.spoiler and "futility of achieving physical values" in r.text for r in block.runs)
    assert "futility" not in block.text() and "Spoilers for" in block.text()

    details = body_of(latest(20183))
    assert any(r.spoiler and "Frank can mow his own yard" in r.text for r in details.runs)
    assert "Frank can mow" not in details.text()


def test_an_images_caption_and_a_link_preview_are_not_the_authors_words() -> None:
    pictures = body_of(latest(20203))
    assert "719×216" not in pictures.full_text() and "13.7 KB" not in pictures.full_text()
    preview = body_of(latest(20218))
    assert "1556.12 KB" not in preview.full_text()
    assert "faculty.econ.ucdavis.edu" not in preview.full_text()
    assert preview.links[-1].url.endswith("Extensional%20Versus%20Intuitive.pdf")


def test_strikethrough_as_discourse_renders_it() -> None:
    # `~~Alu~~` and `[s]Alu[/s]` are <s>; <del> from a HTML-minded player.
    body = cooked_body("<p>Голосую за <s>Alu</s> <del>Бобра</del> Бармалея</p>")
    assert body.text().split() == ["Голосую", "за", "Бармалея"]
    assert [r.text for r in body.runs if r.struck] == ["Alu", "Бобра"]
