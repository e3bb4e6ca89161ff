"""What `board check` and `export` share: the board options and opening the board they name."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated

import typer

from forums import Board, board_factory

DEFAULT_PASSWORD_ENV = "FORUMGM_GM_PASSWORD"

Url = Annotated[str, typer.Option("--url", help="The board's base URL.")]
User = Annotated[str, typer.Option("--user", help="The GM account's user name.")]
Engine = Annotated[str, typer.Option("--engine", help="Board engine.")]
PasswordEnv = Annotated[
    str, typer.Option("--password-env", help="Environment variable holding the GM's password.")
]

Insecure = Annotated[
    bool,
    typer.Option(
        "--allow-insecure-http",
        help="Allow a board at http:// (the GM's password then travels unencrypted).",
    ),
]

Browser = Annotated[
    bool,
    typer.Option(
        "--browser",
        help="Log in through the system Chromium (boards with a JavaScript challenge).",
    ),
]

BoardMaker = Callable[..., Board]


def open_board(
    engine: str,
    url: str,
    user: str,
    password_env: str,
    maker: BoardMaker | None,
    fail: Callable[[str], typer.Exit],
    *,
    allow_insecure_http: bool = False,
    browser: bool = False,
) -> Board:
    """The named board with the password from the environment (never a flag or a file).

    `maker` is what tests inject to build the board over a mocked client; None uses the
    engine registry. `fail` turns a problem into the command's exit. An `http://` URL
    needs `allow_insecure_http` (forums.guard).
    """
    from forums.guard import insecure_url

    refused = insecure_url(url, allow_insecure_http)
    if refused:
        raise fail(refused)
    password = os.environ.get(password_env)
    if not password:
        raise fail(f"set the GM's password in the environment variable {password_env}")
    options = {"browser": True} if browser else {}
    if maker is not None:
        return maker(engine, url, user, password, **options)
    from engine.service.build import load_adapters  # the service's imports, only when used

    load_adapters()
    try:
        extra = {"allow_insecure_http": True} if allow_insecure_http else {}
        return board_factory(engine)(url, user, password, **extra, **options)
    except KeyError as exc:
        raise fail(str(exc.args[0])) from None
