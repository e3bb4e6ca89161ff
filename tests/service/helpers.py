"""What the service tests share: a local board with the players on it, and a game file."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from engine.store import Store
from forums.local import LocalBoard

GM = "Ведущий"
GM_PASSWORD = "gm-secret"


def local_board(
    url: str,
    players: Sequence[str],
    *,
    clock: Callable[[], datetime] | None = None,
    gm: str = GM,
    gm_password: str = GM_PASSWORD,
    title: str = "Мафия",
) -> tuple[LocalBoard, str]:
    """A fresh local board with the GM and the players, and the game thread's id."""
    board = LocalBoard(url, gm, gm_password, clock=clock)
    board.create_schema()
    board.add_user(gm, gm_password)
    for name in players:
        board.add_user(name, "pw")
    return board, board.create_thread(title, gm)


def game_toml(
    *,
    url: str,
    thread: str,
    players: Sequence[str],
    ruleset: str = "classic",
    seed: int = 3,
    review: str = "auto",
    gm: str = GM,
    password: str = "env:UNUSED",
    deadlines: str = "every day 19:00",
    start: str = "2026-12-01 19:00",
    roles: Mapping[str, str] | None = None,
    deal: Mapping[str, int] | None = None,
    game_extra: str = "",
) -> str:
    """A game file for a local-board game; `roles` or `deal` give the roles, if any."""
    names = ", ".join(f'"{n}"' for n in players)
    text = f"""[game]
ruleset = "{ruleset}"
seed = {seed}
review = "{review}"
{game_extra}
[board]
engine = "local"
url = "{url}"
thread = "{thread}"
gm_user = "{gm}"
password = "{password}"
[schedule]
timezone = "Europe/Moscow"
deadlines = "{deadlines}"
start = "{start}"
[players]
players = [{names}]
"""
    if roles:
        text += "[roles]\n" + "".join(f'"{n}" = "{r}"\n' for n, r in roles.items())
    if deal:
        text += "[deal]\n" + "".join(f"{r} = {c}\n" for r, c in deal.items())
    return text


def start_went_out(store: Store, game_id: int, at: datetime) -> None:
    """Record the game's start (opening post, role PMs) as sent at `at`, as an earlier `run`
    would have; for tests over a saved board that takes no posts. The service resolves no
    phase whose opening post is not on the board."""
    store.approve(game_id, None)
    for item in store.outbox(game_id):
        if item.phase_id is None:
            store.mark_sending(item.marker, at)
            store.mark_posted(item.marker, f"sent-before-{item.id}")
