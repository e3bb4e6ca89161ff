"""Plays one seeded demo game (classic or yakuza) on the local board, with a fresh SQLite store."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from engine.app.demo.bots import Table
from engine.app.demo.play import DemoResult, demo_config, demo_table, play_game
from engine.app.demo.show import MinimafikShow, Show, YakuzaShow

NAMES = [
    "Вася",
    "Петя",
    "Маша",
    "Коля",
    "Оля",
    "Гена",
    "Лена",
    "Орёл",
    "Катя",
    "Серёга",
    "Nekr0",
    "Ира",
]
MAX_TURNS = 40


def demo_roles(players: int) -> dict[str, int]:
    """The spec's setup suggestions (classic.md §6.5) for 9–12 players."""
    if players <= 9:
        roles = {"mafioso": 2, "commissar": 1, "doctor": 1}
    else:
        roles = {"mafioso": 2, "thief": 1, "commissar": 1, "doctor": 1, "bodyguard": 1}
        if players >= 12:
            roles["maniac"] = 1
    roles["citizen"] = players - sum(roles.values())
    return roles


async def play(
    seed: int,
    players: int,
    lang: str,
    database: Path,
    show: Show,
    *,
    gm_password: str | None = None,
) -> DemoResult:
    if not 9 <= players <= 12:
        raise ValueError("the demo seats 9 to 12 players")
    names = NAMES[:players]
    table = demo_table(database, names, "Мафия: демонстрационная партия", gm_password)
    config = demo_config(table, "classic", seed, lang, names)
    config.deal = demo_roles(players)
    return await play_game(
        table,
        config,
        lambda state: Table(state, random.Random(seed * 7919 + 1)),
        show,
        max_phases=MAX_TURNS,
    )


def run_demo(
    seed: int,
    players: int,
    lang: str,
    database: Path,
    *,
    quiet: bool = False,
    width: int | None = None,
    gm_password: str | None = None,
    ruleset: str = "classic",
    show_lang: str | None = None,
) -> DemoResult:
    """One demo game; what it shows the host is in `show_lang`, else the posts' `lang`."""
    shows = show_lang or lang
    if ruleset == "twelve-rooms":
        from engine.app.demo.twelve_bots import TwelveShow, play_twelve

        twelve = TwelveShow(quiet=quiet, width=width, lang=shows)
        return asyncio.run(play_twelve(seed, lang, database, twelve, gm_password=gm_password))
    if ruleset == "minimafik":
        from engine.app.demo.minimafik_bots import play_minimafik

        shown: Show = MinimafikShow(quiet=quiet, width=width, lang=shows)
        return asyncio.run(play_minimafik(seed, lang, database, shown, gm_password=gm_password))
    if ruleset == "yakuza":
        from engine.app.demo.yakuza_bots import play_yakuza

        show: Show = YakuzaShow(quiet=quiet, width=width, lang=shows)
        return asyncio.run(play_yakuza(seed, lang, database, show, gm_password=gm_password))
    show = Show(quiet=quiet, width=width, lang=shows)
    return asyncio.run(play(seed, players, lang, database, show, gm_password=gm_password))
