"""Players on the real FluxBB 1.5.11's member list when it has two pages (50 users a page):
with 60 more members, and the GM's group not allowed to search users (`g_search_users`),
the board shows the whole list for any name; a player whose name sorts on page 2 is found
there, and a name nobody has is not found after the last page. With the search allowed, the
name is found on the search's one page. Each answer is checked against the board's users
table. A Cyrillic name in another case is found too (SQLite's LIKE compares such letters
by case: the name is asked for again as such names are written)."""

from __future__ import annotations

import httpx

from forums.records import User
from tests.live.boards import LiveBoard
from tests.live.games import gm_reader

EXTRA = tuple(f"player{n:02}" for n in range(1, 61))
"""Latin names: SQLite sorts them before the Cyrillic players', who move to page 2."""


def add_members(board: LiveBoard, names: tuple[str, ...]) -> None:
    """Members who never log in (no usable password), as the board's own rows."""
    for name in names:
        board.execute(
            "INSERT INTO users (username, group_id, password, email, registered, "
            "registration_ip, last_visit) VALUES (?, 4, 'x', ?, 1764500000, '127.0.0.1', "
            "1764500000)",
            name,
            f"{name}@example.org",
        )


def stored(board: LiveBoard, name: str) -> User:
    (row,) = board.rows("SELECT id, username FROM users WHERE username = ?", name)
    return User(id=str(row["id"]), name=row["username"])


def test_a_player_on_the_member_lists_second_page_is_found(fluxbb: LiveBoard) -> None:
    add_members(fluxbb, EXTRA)
    fluxbb.execute("UPDATE groups SET g_search_users = 0 WHERE g_id = 4")  # the GM's group
    gm = gm_reader(fluxbb)
    asked: list[str] = []

    async def note(request: httpx.Request) -> None:
        if request.url.path.endswith("userlist.php"):
            asked.append(request.url.params.get("p", "1"))

    gm.adapter.http.http.event_hooks["request"].append(note)
    try:
        assert gm.run(gm.adapter.find_user("маша")) == stored(fluxbb, "Маша")
        assert asked == ["1", "2"]
        assert gm.run(gm.adapter.find_user("Петя")) == stored(fluxbb, "Петя")  # page 2, kept
        assert asked == ["1", "2"]
        assert gm.run(gm.adapter.find_user("Никто")) is None
        assert asked == ["1", "2", "1", "2"]  # both pages, then no further
    finally:
        gm.close()


def test_with_the_search_allowed_one_page_finds_the_player(fluxbb: LiveBoard) -> None:
    if not fluxbb.rows("SELECT id FROM users WHERE username = ?", EXTRA[0]):
        add_members(fluxbb, EXTRA)
    fluxbb.execute("UPDATE groups SET g_search_users = 1 WHERE g_id = 4")
    gm = gm_reader(fluxbb)
    try:
        assert gm.run(gm.adapter.find_user("Оля")) == stored(fluxbb, "Оля")
        # SQLite's LIKE folds A-Z only: «маша» finds no «Маша» until asked as she is written.
        assert gm.run(gm.adapter.find_user("маша")) == stored(fluxbb, "Маша")
        gm.adapter._members.clear()
        assert gm.run(gm.adapter.find_user("МАША")) == stored(fluxbb, "Маша")
        assert gm.run(gm.adapter.find_user("PLAYER59")) == stored(fluxbb, "player59")
        assert gm.run(gm.adapter.find_user("player99")) is None
    finally:
        gm.close()
