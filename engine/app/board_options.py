"""What `board check` and `export` share: the board options and opening the board they name."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated, Any

import typer

from engine.i18n import _
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

ApiKeyEnv = Annotated[
    str | None,
    typer.Option(
        "--api-key-env",
        help="Environment variable holding a XenForo or Discourse API key: check the API, not "
        "the pages (Discourse: a key acting as --user).",
    ),
]
ApiKeyKind = Annotated[
    str | None,
    typer.Option(
        "--api-key-kind",
        help='Discourse: "admin" (an administrator\'s API key, the default) or "user" (a user '
        "API key the GM account made), as [board] api_key_kind.",
    ),
]

Timeout = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        help="Seconds one request may take, whole (default 60): a board that sends slower "
        "than that is given up on.",
        min=1,
    ),
]

BoardMaker = Callable[..., Board]


def url_refused(engine: str | None, url: str, allow_insecure_http: bool) -> str | None:
    """Why the command line's board URL is refused: not a board address of the engine (an
    ftp:// or a typo), or an `http://` one without `allow_insecure_http` (forums.guard)."""
    from engine.config import url_problem
    from engine.i18n import board_text
    from forums.guard import insecure_url

    refused = insecure_url(url, allow_insecure_http)
    return url_problem(engine, url) or (board_text(refused) if refused else None)


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
    api_key_env: str | None = None,
    api_key_kind: str | None = None,
    deadline: float | None = None,
    set_date_format: bool = False,
) -> Board:
    """The named board with the password from the environment (never a flag or a file).

    `maker` is what tests inject to build the board over a mocked client; None uses the
    engine registry. `fail` turns a problem into the command's exit. An `http://` URL
    needs `allow_insecure_http` (`url_refused`).
    """
    from engine.config import API_KEY_ENGINES

    refused = url_refused(engine, url, allow_insecure_http)
    if refused:
        raise fail(refused)
    options: dict[str, Any] = {"browser": True} if browser else {}
    if browser:
        # The game file's refusal, in the same words (`[board] browser`).
        from engine.config import browser_refusal

        if (why := browser_refusal(engine)) is not None:
            raise fail(_("--browser: {why}").format(why=why))
    if deadline is not None and engine != "local":  # the local board makes no requests
        options["deadline"] = deadline
    if set_date_format:
        from engine.config import DATE_FORMAT_ENGINES, date_format_refusal

        if (why := date_format_refusal(engine)) is not None:
            raise fail(
                _(
                    "--set-date-format: forumgm sets no date format of an account's own on a "
                    "{engine} board: {why} (only {engines})"
                ).format(engine=engine, why=why, engines=", ".join(DATE_FORMAT_ENGINES))
            )
        options["set_date_format"] = True
    if api_key_env is not None and engine not in API_KEY_ENGINES:
        raise fail(
            _("--api-key-env: the {engine} board has no API forumgm uses (only {engines})").format(
                engine=engine, engines=", ".join(API_KEY_ENGINES)
            )
        )
    if api_key_kind is not None:
        from engine.config import API_KEY_KINDS, API_USER_ENGINES

        if engine not in API_USER_ENGINES:
            raise fail(
                _(
                    "--api-key-kind: the {engine} board has one kind of key (only {engines} "
                    "has two)"
                ).format(engine=engine, engines=", ".join(API_USER_ENGINES))
            )
        if api_key_kind not in API_KEY_KINDS:
            raise fail(
                _("--api-key-kind: admin or user, got {kind}").format(kind=repr(api_key_kind))
            )
        if api_key_env is None:
            raise fail(_("--api-key-kind says what kind the key is: give --api-key-env too"))
        options["api_key_kind"] = api_key_kind
    if api_key_env is not None:
        # The key replaces the login: no password is needed (nor sent).
        key = os.environ.get(api_key_env)
        if not key:
            raise fail(
                _("set the API key in the environment variable {variable}").format(
                    variable=api_key_env
                )
            )
        options["api_key"] = key
    password = os.environ.get(password_env) or ""
    if not password and api_key_env is None:
        raise fail(
            _("set the GM's password in the environment variable {variable}").format(
                variable=password_env
            )
        )
    if maker is not None:
        return maker(engine, url, user, password, **options)
    from engine.service.build import load_adapters  # the service's imports, only when used

    load_adapters()
    try:
        extra = {"allow_insecure_http": True} if allow_insecure_http else {}
        return board_factory(engine)(url, user, password, **extra, **options)
    except KeyError as exc:
        raise fail(str(exc.args[0])) from None
