"""`forumgm report [GAME.toml] --out game.html`: one self-contained page about a game.

During a game the page holds public facts only (what players have seen in the thread);
after it, everything (roles, every vote and order, the ruleset's hidden numbers). `--public`
and `--full` choose; `--full` during a game is for the host's eyes and says so on the page.
The page needs nothing from the network: its CSS and pictures are inside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine import i18n
from engine.app.console import out
from engine.app.service_cmd import Db, command_clock, config_or_exit, store_or_exit, write_or_exit
from engine.i18n import _, ngettext


def report(
    game: Annotated[
        Path | None,
        typer.Argument(
            help="The game file (optional when the store holds one game, e.g. a demo's)."
        ),
    ] = None,
    db: Db = None,
    out_file: Annotated[Path, typer.Option("--out", help="The HTML file to write.")] = Path(
        "game-report.html"
    ),
    public: Annotated[
        bool | None,
        typer.Option(
            "--public/--full",
            help="Public facts only, or everything (default: public while the game runs, "
            "full once it is over).",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help="The page's language, ru or en (default: forumgm --lang, else the game's)."
        ),
    ] = None,
    png: Annotated[
        Path | None,
        typer.Option(
            help="Also save the page as a PNG picture (needs Chromium), to post as an image."
        ),
    ] = None,
    width: Annotated[int, typer.Option(min=320, max=2000, help="The PNG's width in pixels.")] = 800,
) -> None:
    """Write a game's report: timeline, vote flow per day, deaths, activity, ruleset extras."""
    import rulesets
    from engine.report import report_html
    from engine.store.models import GameStatus

    if lang is not None and lang not in ("ru", "en"):
        raise typer.BadParameter("ru or en", param_hint="--lang")
    rulesets.load_all()
    # The game file first: its language is the one a missing store is refused in.
    config = config_or_exit(game, allow_past=True) if game is not None else None
    store = store_or_exit(db, existing=True)
    if config is not None:
        board = store.find_board(config.url, config.gm_user)
        found = store.find_game(board.id, config.thread) if board is not None else None
        if found is None:
            out.print(
                _(
                    "{game}: the game has not started in this store (forumgm game start {game})"
                ).format(game=game)
            )
            raise typer.Exit(1)
    else:
        games = store.games()
        if len(games) != 1:
            listed = "; ".join(f"{g.title or g.thread_id} ({g.ruleset})" for g in games)
            out.print(
                ngettext(
                    "the store holds {n} games ({listed}): name the game file, forumgm report "
                    "GAME.toml --db …",
                    "the store holds {n} games ({listed}): name the game file, forumgm report "
                    "GAME.toml --db …",
                    len(games),
                ).format(n=len(games), listed=listed or _("none"))
            )
            raise typer.Exit(2)
        found = games[0]
        i18n.for_game(found.language)  # no game file: the store's game says its language
    state = store.load_state(found.id)
    finished = found.status is GameStatus.FINISHED or bool(state and state.finished)
    public_mode = (not finished) if public is None else public
    page_lang = lang or i18n.given()  # else the game's (report_html)
    html = report_html(store, found.id, public=public_mode, now=command_clock()(), lang=page_lang)
    write_or_exit(out_file, html)
    if public_mode:
        out.print(_("public facts only: safe to post as a file or a link"))
    elif not finished:
        out.print(
            _("FULL report of a running game: roles, votes and orders. Host only, do not post.")
        )
    else:
        out.print(_("full report: every role, vote and order (the game is over)"))
    if png is not None:
        _png(out_file, png, width)


def _png(page: Path, picture: Path, width: int) -> None:
    """The page as one tall PNG, taken by Chromium from the file (nothing is fetched)."""
    from forums.browser import FLAGS, find_chromium

    chromium = find_chromium()
    if chromium is None:
        out.print(_("--png needs Chromium (apt-get install chromium, or FORUMGM_CHROMIUM=…)"))
        raise typer.Exit(2)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=list(FLAGS))
        try:
            tab = browser.new_page(viewport={"width": width, "height": 800})
            tab.route(
                "**/*",
                lambda route: (
                    route.abort()
                    if not route.request.url.startswith("file:")
                    else route.continue_()
                ),
            )
            tab.goto(page.resolve().as_uri())
            tab.screenshot(path=str(picture), full_page=True)
        finally:
            browser.close()
    out.print(_("wrote {path}").format(path=picture))
