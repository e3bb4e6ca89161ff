"""Putting a configured game together: the store, the board adapter with its password, the driver."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from pathlib import Path

from engine.clock import Clock, game_clock
from engine.config import BoardAccess, GameConfig
from engine.credentials import resolve_password
from engine.service.driver import GameDriver
from engine.service.logins import LoginGuard
from engine.service.pool import BoardPool
from engine.store import Store, open_store
from forums.board import Board, board_factory

ADAPTERS = (
    "forums.local",
    "forums.phpbb",
    "forums.mybb",
    "forums.xenforo",
    "forums.fluxbb",
    "forums.punbb",
    "forums.smf",
    "forums.vbulletin",
    "forums.discourse",
)
"""Board adapter packages; importing one registers its engine."""
DEFAULT_DATABASE = "sqlite:///forumgm.db"
REQUEST_SPACING = 0.15
"""Seconds between two requests to one board, from all the games on it (and at most two in
flight, `forums.client.MAX_IN_FLIGHT`): under seven a second, whatever the number of games."""


def database_url(given: str | None = None) -> str:
    """The store's URL: `--db` (a URL, or a path to a SQLite file), else
    `FORUMGM_DATABASE_URL`, else `forumgm.db` in the current folder."""
    url = given or os.environ.get("FORUMGM_DATABASE_URL") or DEFAULT_DATABASE
    if "://" not in url:  # a file: "games/store.sqlite", "~/forumgm.db"
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None: another database, or one in memory)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def load_adapters() -> None:
    for name in ADAPTERS:
        try:
            importlib.import_module(name)
        except ImportError:  # an adapter whose optional dependencies are missing
            continue


def make_board(
    config: GameConfig | BoardAccess,
    environ: Mapping[str, str] | None = None,
    *,
    clock: Clock | None = None,
    shared: object | None = None,
) -> Board:
    """The configured board, logged in lazily with the password from where the config says.

    The local board keeps the times of its posts by `clock` (the service's, so a rehearsal
    under `FORUMGM_NOW` is consistent); a web board's times are the board's own. `shared`:
    what another game's adapter on the same board and account shares (`engine.service.pool`:
    a web board's session, the local board's database engine).
    """
    load_adapters()
    factory = board_factory(config.engine)
    # A board used through its REST API may have no password: the key is all it takes.
    password = _password(config, environ) or ""
    if config.engine == "local":
        where = shared if shared is not None else config.url
        return factory(where, config.gm_user, password, clock=clock)
    # Adapters pin their requests to this URL (forums.guard); http:// only if the host said so.
    options: dict[str, object] = {"min_delay": REQUEST_SPACING}
    if config.allow_insecure_http:
        options["allow_insecure_http"] = True
    if config.browser:
        options["browser"] = True
    if getattr(config, "set_date_format", False):  # the host's consent ([board])
        options["set_date_format"] = True
    if (key := _api_key(config, environ)) is not None:
        options["api_key"] = key
        if getattr(config, "api_user", None):
            options["api_user"] = config.api_user
        if getattr(config, "api_key_kind", "admin") != "admin":
            options["api_key_kind"] = config.api_key_kind
    if shared is not None:
        options["session"] = shared
    return factory(config.url, config.gm_user, password, **options)


def _password(config: GameConfig | BoardAccess, environ: Mapping[str, str] | None) -> str | None:
    if config.password is None:
        return None
    return resolve_password(config.password, config.gm_user, environ).reveal()


def _api_key(config: GameConfig | BoardAccess, environ: Mapping[str, str] | None) -> str | None:
    if config.api_key is None:
        return None
    return resolve_password(config.api_key, f"{config.gm_user} (API key)", environ).reveal()


def login_secret(config: GameConfig | BoardAccess, environ: Mapping[str, str] | None = None) -> str:
    """What the service logs in with: the API key where the file names one (the adapter then
    uses it alone, even beside a password), else the GM's password (a refused one is
    remembered by its hash, so a changed one lets the service try again)."""
    secret = _api_key(config, environ)
    if secret is None:
        secret = _password(config, environ)
    assert secret is not None  # the game file asks for one of the two
    return secret


def make_driver(
    config: GameConfig,
    store: Store | None = None,
    *,
    clock: Clock | None = None,
    board: Board | None = None,
    db: str | None = None,
    pool: BoardPool | None = None,
) -> GameDriver:
    """A driver for `config`; the clock is `FORUMGM_NOW`'s when set, else the real time.
    `pool`: the boards of the other games this process drives (`engine.service.pool`)."""
    clock = clock or game_clock()
    store = store or open_store(database_url(db))
    if board is not None:
        return GameDriver(store, board, config, clock=clock)
    secret = login_secret(config)
    if pool is None:
        made = make_board(config, clock=clock)
    else:
        made = pool.board(config, clock=clock, secret=secret)
    driver = GameDriver(store, made, config, clock=clock)
    if pool is not None:
        driver.inbox_share = pool.inbox(config, clock, secret)
    # Every login the service makes by itself goes through the board's guard (engine.service.logins).
    driver.login_guard = LoginGuard(store, driver.board_id, secret, clock)
    driver.login_guard.install(driver.board)
    return driver
