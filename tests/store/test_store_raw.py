"""Raw posts and PMs: upsert by board id, edit history, and content as of a moment."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from engine.store import Recorded, Store
from engine.store.models import Game
from forums.records import EditInfo, Link, Post, PostBody, PrivateMessage, TextRun

from .conftest import T0

DEADLINE = T0 + timedelta(hours=24)


def _post(text: str, *, post_id: str = "p1", number: int = 1, **kw: object) -> Post:
    body = PostBody((TextRun(text, bold=True), TextRun("цитата", quoted=True, quote_author="Петя")))
    fields: dict[str, object] = {
        "id": post_id,
        "thread_id": "1234",
        "number": number,
        "author": "Вася",
        "author_id": "11",
        "posted_at": T0 + timedelta(hours=1),
        "body": body,
        "url": f"https://forum.example/p{post_id}",
        "raw": f"<b>{text}</b><blockquote>цитата</blockquote>",
    }
    fields.update(kw)
    return Post(**fields)  # type: ignore[arg-type]


def test_new_post_round_trips(store: Store, game: Game) -> None:
    post = _post("голос за Петю")
    post = Post(**{**post.__dict__, "body": PostBody(post.body.runs, (Link("https://x", "x"),))})
    assert store.record_post(game.id, post, seen_at=T0 + timedelta(hours=2)) is Recorded.NEW
    [loaded] = store.posts_as_of(game.id, "1234", DEADLINE)
    assert loaded == post
    [rev] = store.post_history(game.id, "p1")
    assert rev.content_hash == hashlib.sha256(post.raw.encode()).hexdigest()  # type: ignore[union-attr]
    assert rev.seen_at == T0 + timedelta(hours=2) and rev.valid_from == post.posted_at


def test_same_content_adds_no_revision(store: Store, game: Game) -> None:
    store.record_post(game.id, _post("голос за Петю"))
    assert store.record_post(game.id, _post("голос за Петю")) is Recorded.UNCHANGED
    assert len(store.post_history(game.id, "p1")) == 1


def test_edit_adds_a_revision_and_as_of_reads_either_side(store: Store, game: Game) -> None:
    store.record_post(game.id, _post("голос за Петю"), seen_at=T0 + timedelta(hours=2))
    edit = EditInfo("Вася", DEADLINE + timedelta(minutes=5), 1)
    edited = _post("голос за Машу", edit=edit)
    seen = DEADLINE + timedelta(minutes=20)
    assert store.record_post(game.id, edited, seen_at=seen) is Recorded.CHANGED
    history = store.post_history(game.id, "p1")
    assert [r.rev for r in history] == [1, 2]
    # The board's edit time, not the later poll, is when the new content appeared.
    assert history[1].valid_from == edit.at and history[1].seen_at == seen

    [at_deadline] = store.posts_as_of(game.id, "1234", DEADLINE)
    assert at_deadline.body.text() == "голос за Петю" and at_deadline.edit is None
    [after] = store.posts_as_of(game.id, "1234", seen)
    assert after.body.text() == "голос за Машу" and after.edit == edit


def test_edit_without_a_new_edit_notice_dates_from_when_it_was_seen(
    store: Store, game: Game
) -> None:
    first_edit = EditInfo("Вася", T0 + timedelta(hours=3), 1)
    store.record_post(game.id, _post("один", edit=first_edit), seen_at=T0 + timedelta(hours=4))
    seen = T0 + timedelta(hours=30)
    store.record_post(game.id, _post("два", edit=first_edit), seen_at=seen)
    assert store.post_history(game.id, "p1")[1].valid_from == seen


def test_reverting_to_earlier_content_is_a_new_revision(store: Store, game: Game) -> None:
    for i, text in enumerate(("A", "B", "A")):
        store.record_post(game.id, _post(text), seen_at=T0 + timedelta(hours=2 + i))
    assert [r.body["runs"][0]["text"] for r in store.post_history(game.id, "p1")] == ["A", "B", "A"]


def test_post_first_seen_after_an_edit_shows_the_edit_time(store: Store, game: Game) -> None:
    edit = EditInfo("Вася", DEADLINE + timedelta(hours=1), 2)
    store.record_post(game.id, _post("голос за Машу", edit=edit))
    [post] = store.posts_as_of(game.id, "1234", DEADLINE)
    # Content at the deadline is unknown: the edit after it tells the caller so.
    assert post.edit is not None and post.edit.at is not None and post.edit.at > DEADLINE


def test_posts_after_the_moment_or_in_other_threads_are_left_out(store: Store, game: Game) -> None:
    store.record_post(game.id, _post("рано", post_id="p1", number=1))
    late = _post("поздно", post_id="p2", number=2, posted_at=DEADLINE + timedelta(minutes=1))
    store.record_post(game.id, late)
    store.record_post(game.id, _post("чужая тема", post_id="p3", number=3, thread_id="777"))
    assert [p.id for p in store.posts_as_of(game.id, "1234", DEADLINE)] == ["p1"]
    assert [p.id for p in store.posts_as_of(game.id, "1234", DEADLINE + timedelta(hours=1))] == [
        "p1",
        "p2",
    ]


def test_deletion_keeps_the_content_and_dates_the_deletion(store: Store, game: Game) -> None:
    store.record_post(game.id, _post("голос за Петю"), seen_at=T0 + timedelta(hours=2))
    gone = _post("", deleted=True, body=PostBody(), raw=None)
    seen = DEADLINE + timedelta(hours=1)
    assert store.record_post(game.id, gone, seen_at=seen) is Recorded.CHANGED
    assert len(store.post_history(game.id, "p1")) == 1
    [before] = store.posts_as_of(game.id, "1234", DEADLINE)
    assert not before.deleted and before.body.text() == "голос за Петю"
    [after] = store.posts_as_of(game.id, "1234", seen)
    assert after.deleted


def test_pm_round_trip_and_edit(store: Store, game: Game) -> None:
    pm = PrivateMessage(
        id="m1",
        sender="Вася",
        sender_id="11",
        recipients=("GM",),
        sent_at=T0 + timedelta(hours=5),
        subject="Ход 1",
        body=PostBody.plain("лечу Машу"),
        url="https://forum.example/pm/m1",
        raw="лечу Машу",
    )
    assert store.record_pm(game.id, pm, seen_at=T0 + timedelta(hours=6)) is Recorded.NEW
    assert store.record_pm(game.id, pm) is Recorded.UNCHANGED
    assert store.pms_as_of(game.id, DEADLINE) == [pm]
    edited = PrivateMessage(**{**pm.__dict__, "body": PostBody.plain("лечу Петю"), "raw": "x"})
    seen = DEADLINE + timedelta(minutes=3)
    assert store.record_pm(game.id, edited, seen_at=seen) is Recorded.CHANGED
    assert store.pms_as_of(game.id, DEADLINE) == [pm]
    assert store.pms_as_of(game.id, seen) == [edited]
    assert store.pms_as_of(game.id, T0) == []
