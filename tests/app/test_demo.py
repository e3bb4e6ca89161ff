"""`forumgm demo`: a full game to a winner, reproducible from its seed, with no secret leaked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.app.demo.run import run_demo
from engine.store import open_store


@pytest.fixture(scope="module")
def seed1(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    db = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    result = run_demo(1, 10, "ru", db, quiet=True, gm_password="demo-gm-secret-42")
    return db, result


def test_plays_to_a_winner(seed1: tuple[Path, object]) -> None:
    _, result = seed1
    assert result.winner in {"town", "mafia", "loner", "draw"}  # type: ignore[attr-defined]
    assert 1 <= result.turns < 40  # type: ignore[attr-defined]


def test_same_seed_same_game(seed1: tuple[Path, object], tmp_path: Path) -> None:
    _, first = seed1
    again = run_demo(1, 10, "ru", tmp_path / "again.sqlite", quiet=True)
    assert again.transcript == first.transcript  # type: ignore[attr-defined]
    other = run_demo(2, 10, "ru", tmp_path / "other.sqlite", quiet=True)
    assert other.transcript != first.transcript  # type: ignore[attr-defined]


def test_everything_was_published_once(seed1: tuple[Path, object]) -> None:
    db, result = seed1
    store = open_store(f"sqlite:///{db}")
    games = store.find_game(1, "1")
    assert games is not None
    items = store.outbox(games.id)
    assert items and all(item.status == "posted" for item in items)
    with sqlite3.connect(db) as conn:
        posted = conn.execute("select count(*) from local_posts where author_id = 1").fetchone()[0]
    public = [i for i in items if i.kind == "post"]
    assert posted == len(public)
    assert len(result.transcript) == result.turns  # type: ignore[attr-defined]


def test_gm_password_never_stored_in_plain_text(seed1: tuple[Path, object]) -> None:
    db, _ = seed1
    assert b"demo-gm-secret-42" not in db.read_bytes()


def test_results_posts_reveal_only_published_roles(seed1: tuple[Path, object]) -> None:
    """Before the final post, a role name appears only next to a jailed or dead player."""
    _, result = seed1
    for post in result.transcript[:-1]:  # type: ignore[attr-defined]
        lines_with_roles = [line for line in post.splitlines() if "Роль:" in line]
        assert all(("решётку" in line) or ("Погиба" in line) for line in lines_with_roles), post


def test_the_players_speak_as_their_gender(seed1: tuple[Path, object]) -> None:
    """Issue 23 §4: a bot's words agree with its own gender and with the player it speaks
    of («Оля: Согласна, логично.», «Не убедила» about Маша), from the first name's gender."""
    from engine.app.demo.bots import agree
    from engine.wording import name_gender
    from forums.local import LocalBoard

    assert agree("[Согласен|Согласна], логично.", "Оля") == "Согласна, логично."
    assert agree("[Согласен|Согласна], логично.", "Коля") == "Согласен, логично."
    assert agree("Не <убедил|убедила>.", "Коля", "Маша") == "Не убедила."
    db, _ = seed1
    board = LocalBoard(f"sqlite:///{db}", "GM", "unused")
    masculine = ("Согласен,", "присмотрелся", "Я мирный,", "я сам в шоке")
    feminine = ("Согласна,", "присмотрелась", "Я мирная,", "я сама в шоке")
    said = {"m": 0, "f": 0}
    for post in board.posts_after("1", 0):
        text, gender = post.body.full_text(), name_gender(post.author)
        if gender is None:
            continue
        wrong = masculine if gender == "f" else feminine
        assert not any(w in text for w in wrong), (post.author, text)
        said[gender] += any(w in text for w in (feminine if gender == "f" else masculine))
    assert said["m"] and said["f"], said  # both genders had a gendered line to get right
