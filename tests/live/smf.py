"""A real SMF 2.1.4 board on 127.0.0.1 for the live tests, on PostgreSQL.

SMF runs on MySQL or PostgreSQL only (no SQLite). The board is unpacked from
`../shared/boards/` like phpBB and MyBB, its installer (`other/install.php` in the
repository's layout) copied to the board's folder and driven step by step over HTTP while
PHP's built-in server serves it, into a PostgreSQL database of its own
(`FORUMGM_LIVE_PG`, default `host=127.0.0.1 port=5432 user=postgres dbname=postgres`, trust
authentication). Members are registered through SMF's own `registerMember()` by a short
PHP script. The installed board is a template (database `smf_tpl_<hash of the cache
folder>`); each test module serves a copy in its own folder on a database cloned from it
(`smf_live_<pid>_<n>`), dropped after the module. Databases left behind by runs whose
folders or processes are gone are dropped when a new template is made.

The board is set up as the host guide asks of a host's board: the board's zone is
Europe/Moscow, PMs need no visual verification and have no hourly cap (SMF's defaults: 5
posts before a member may send one without a CAPTCHA, 20 an hour); SMF's own 5 s between
posts or PMs from one IP (all our members share 127.0.0.1) stays on, as do its 2 s between
logins.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.live import boards
from tests.live.boards import GM, GM_PASSWORD, BoardClock, LiveBoard, password_of

ARCHIVE = "smf-2.1.4.tar.xz"
PHP_EXTENSIONS = ("pgsql", "mbstring", "gd", "xml", "intl")
PG_ENV = "FORUMGM_LIVE_PG"
PG_DEFAULT = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=5"
USERS = ("Вася", "Петя", "Маша", "Коля", "Оля", "Dmitry")
FORUM = "1"
"""The board the installer makes ("General Discussion")."""
SETTINGS = {
    "default_timezone": "Europe/Moscow",
    "pm_spam_settings": "10,0,0",
    "reg_verification": "0",
}
"""What the host guide asks of an SMF board, set before the members are made."""
WRITTEN = ("cache", "attachments", "custom_avatar", "Settings.php", "Settings_bak.php")


def conninfo(database: str | None = None) -> str:
    base = os.environ.get(PG_ENV, PG_DEFAULT)
    if database is None:
        return base
    return re.sub(r"dbname=\S+", "", base).strip() + f" dbname={database}"


def _server() -> tuple[str, int, str]:
    """(host, port, user) of `FORUMGM_LIVE_PG`, for SMF's installer."""
    fields = dict(re.findall(r"(\w+)=(\S+)", conninfo()))
    return (
        fields.get("host", "127.0.0.1"),
        int(fields.get("port", "5432")),
        fields.get("user", "postgres"),
    )


@contextmanager
def _admin() -> Iterator[Any]:
    import psycopg

    with psycopg.connect(conninfo(), autocommit=True) as db:
        yield db


def missing() -> str | None:
    """Why the live SMF board cannot run here (None: it can)."""
    php = shutil.which("php")
    if php is None:
        return "PHP is not installed (Debian: php-cli php-pgsql php-mbstring php-xml …)"
    archive = boards.boards_dir() / ARCHIVE
    if not archive.exists():
        return f"{archive} is absent (set {boards.BOARDS_ENV} to the folder of the board archives)"
    loaded = subprocess.run([php, "-m"], capture_output=True, text=True, check=False).stdout
    lacking = [ext for ext in PHP_EXTENSIONS if ext not in loaded.lower().split()]
    if lacking:
        return f"PHP lacks the extension(s) {', '.join(lacking)}"
    if boards.faketime_library() is None:
        return "libfaketime is not installed (Debian: libfaketime): the board's clock"
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[dev]')"
    try:
        with psycopg.connect(conninfo()) as db:
            db.execute("SELECT 1")
    except psycopg.Error as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return f"PostgreSQL is not reachable at {conninfo()!r} (set {PG_ENV}): {first}"
    return None


@dataclass
class SmfBoard(LiveBoard):
    """An SMF board: its database is PostgreSQL's `dbname`."""

    dbname: str = ""

    def rows(self, query: str, *args: Any) -> list[Any]:
        import psycopg

        with psycopg.connect(conninfo(self.dbname)) as db:
            cursor = db.execute(query.replace("?", "%s"), args)
            names = tuple(c.name for c in cursor.description or ())
            return [_row(names, r) for r in cursor.fetchall()]

    def execute(self, query: str, *args: Any) -> None:
        import psycopg

        with psycopg.connect(conninfo(self.dbname)) as db:
            db.execute(query.replace("?", "%s"), args)

    def setting(self, name: str, value: str) -> None:
        """One of SMF's settings (`smf_settings`; SMF caches none with caching off)."""
        self.execute(
            "INSERT INTO smf_settings (variable, value) VALUES (?, ?) "
            "ON CONFLICT (variable) DO UPDATE SET value = EXCLUDED.value",
            name,
            value,
        )


class _Row(tuple[Any, ...]):
    """A row read by position and unpacked as a tuple, by column name too (as `sqlite3.Row`)."""

    names: tuple[str, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names.index(key))
        return tuple.__getitem__(self, key)


def _row(names: tuple[str, ...], values: tuple[Any, ...]) -> _Row:
    row = _Row(values)
    row.names = names
    return row


# -- installing ----------------------------------------------------------------------------

_ADD_USERS = r"""<?php
// php add_users.php NAME PASSWORD ...: members registered through SMF's own registerMember(),
// as the administrator registers them from the admin centre.
require_once __DIR__ . '/SSI.php';
require_once $sourcedir . '/Subs-Members.php';
$user_info['is_guest'] = false;
$user_info['is_admin'] = true;
$user_info['id'] = 1;
$args = array_slice($argv, 1);
for ($i = 0; $i + 1 < count($args); $i += 2) {
    $options = array(
        'interface' => 'admin',
        'username' => $args[$i],
        'email' => 'm' . substr(md5($args[$i]), 0, 10) . '@example.org',
        'password' => $args[$i + 1],
        'password_check' => $args[$i + 1],
        'require' => 'nothing',
        'check_reserved_name' => false,
        'check_password_strength' => false,
        'check_email_ban' => false,
        'send_welcome_email' => false,
        'memberGroup' => 0,
    );
    $id = registerMember($options, true);
    if (!is_numeric($id)) {
        fwrite(STDERR, $args[$i] . ': ' . print_r($id, true) . "\n");
        exit(1);
    }
    echo $id, ' ', $args[$i], "\n";
}
"""

_STEPS: tuple[tuple[int, dict[str, str], str], ...] = (
    (0, {"contbutt": "Continue"}, "step=2"),
    (2, {}, "step=3"),  # the database settings, filled in below
    (3, {}, "step=4"),  # the forum's name and URL, below
    (4, {"pop_done": "1", "contbutt": "Continue"}, "step=5"),
    (5, {}, ""),  # the administrator, below
)


def _template_db(cache: Path) -> str:
    return "smf_tpl_" + hashlib.sha256(str(cache.resolve()).encode()).hexdigest()[:10]


def _drop_stale() -> None:
    """Drop SMF databases of earlier runs: templates whose cache folder is gone, copies
    whose process is gone."""
    with _admin() as db:
        rows = db.execute(
            "SELECT d.datname, shobj_description(d.oid, 'pg_database') FROM pg_database d "
            "WHERE d.datname LIKE 'smf\\_tpl\\_%' OR d.datname LIKE 'smf\\_live\\_%'"
        ).fetchall()
        for name, comment in rows:
            stale = False
            if name.startswith("smf_tpl_"):
                stale = not comment or not Path(comment).exists()
            else:
                pid = int(name.split("_")[2])
                stale = not Path(f"/proc/{pid}").exists()
            if stale:
                db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def install(into: Path, cache: Path) -> SmfBoard:
    """SMF installed in `into` by its own web installer, on a fresh template database."""
    root = boards.unpack_archive(ARCHIVE, into)
    for name in ("install.php", "install_2-1_postgresql.sql", "Settings.php", "Settings_bak.php"):
        shutil.copy2(root / "other" / name, root / name)
    dbname = _template_db(cache)
    _drop_stale()
    with _admin() as db:
        db.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        db.execute(f"CREATE DATABASE \"{dbname}\" ENCODING 'UTF8' TEMPLATE template0")
        db.execute(f"COMMENT ON DATABASE \"{dbname}\" IS '{cache.resolve()}'")
    board = SmfBoard("smf", root, into / "none", GM, USERS, forum=FORUM, dbname=dbname)
    port = boards.free_port()
    board.start(port)
    host, pg_port, user = _server()
    fill = {
        2: {
            "db_type": "postgresql",
            "db_server": host,
            "db_port": str(pg_port),
            "db_user": user,
            "db_passwd": "",
            "db_name": dbname,
            "db_prefix": "smf_",
            "contbutt": "Continue",
        },
        3: {"mbname": "Живой форум", "boardurl": board.url.rstrip("/"), "contbutt": "Continue"},
        5: {
            "username": "admin",
            "password1": GM_PASSWORD,
            "password2": GM_PASSWORD,
            "email": "admin@example.org",
            "server_email": "board@example.org",
            "contbutt": "Continue",
        },
    }
    try:
        with httpx.Client(base_url=board.url, timeout=300) as http:
            for step, data, then in _STEPS:
                response = http.post(
                    f"install.php?step={step}", data={**data, **fill.get(step, {})}
                )
                said = response.text
                errors = re.findall(r'<div class="errorbox">(.*?)</div>', said, re.S)
                if response.status_code != 200 or errors or (then and then not in said):
                    raise RuntimeError(f"SMF's installer, step {step}: {errors or said[-3000:]}")
    finally:
        board.stop()
    for name in ("install.php", "install_2-1_postgresql.sql"):
        (root / name).unlink()
    for name, value in SETTINGS.items():
        board.setting(name, value)
    script = root / "add_users.php"
    script.write_text(_ADD_USERS, encoding="utf-8")
    args = [GM, GM_PASSWORD, *(a for name in USERS for a in (name, password_of(name)))]
    board.php("add_users.php", *args)
    script.unlink()
    return board


def template(cache: Path) -> SmfBoard:
    """The installed SMF under `cache`, installed once (under a lock shared by the workers)."""
    home = cache / "smf"
    done = home / "installed"
    with boards.file_lock(cache / "smf.lock"):
        if not done.exists() or not _exists(_template_db(cache)):
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir(parents=True)
            board = install(home, cache)
            done.write_text(board.root.name, encoding="utf-8")
    root = home / done.read_text(encoding="utf-8")
    return SmfBoard("smf", root, home / "none", GM, USERS, forum=FORUM, dbname=_template_db(cache))


def _exists(dbname: str) -> bool:
    with _admin() as db:
        return bool(
            db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchall()
        )


_copies = 0


def copy_of(board: SmfBoard, into: Path) -> SmfBoard:
    """A copy of the installed board in `into` (code hard-linked, what SMF writes copied) on
    a database cloned from the template's."""
    global _copies
    _copies += 1
    root = boards.linked_copy(board.root, into, WRITTEN)
    dbname = f"smf_live_{os.getpid()}_{_copies}_{secrets.token_hex(2)}"
    with _admin() as db:
        db.execute(f'CREATE DATABASE "{dbname}" TEMPLATE "{board.dbname}"')
    copy = SmfBoard("smf", root, into / "none", board.gm, board.users, board.forum, dbname=dbname)
    copy.extra["template_root"] = str(board.root)
    copy.clock = BoardClock(into / "smf-clock")
    return copy


def serve(board: SmfBoard) -> None:
    """Point the copy's Settings.php at its folder, database and URL; serve it."""
    port = boards.free_port()
    board.url = f"http://127.0.0.1:{port}/"
    settings = board.root / "Settings.php"
    text = settings.read_text(encoding="utf-8")
    values = {
        "boardurl": board.url.rstrip("/"),
        "db_name": board.dbname,
        "boarddir": str(board.root),
        "sourcedir": str(board.root / "Sources"),
        "cachedir": str(board.root / "cache"),
        "packagesdir": str(board.root / "Packages"),
        "tasksdir": str(board.root / "Sources" / "tasks"),
    }
    for name, value in values.items():
        text = re.sub(
            rf"^\${name} = '[^']*';", lambda _m, n=name, v=value: f"${n} = '{v}';", text, flags=re.M
        )
    settings.write_text(text, encoding="utf-8")
    # The installer kept the template's folder and address in the settings and the theme's
    # rows (theme_dir, smileys_url, …): this copy's own, so it reads its own files.
    for table in ("smf_settings", "smf_themes"):
        board.execute(
            f"UPDATE {table} SET value = regexp_replace(replace(value, ?, ?), "
            "'^http://127\\.0\\.0\\.1:[0-9]+', ?)",
            board.extra["template_root"],
            str(board.root),
            board.url.rstrip("/"),
        )
    board.start(port)


def drop(board: SmfBoard) -> None:
    """The copy's database, dropped (its server stopped first)."""
    board.stop()
    with _admin() as db:
        db.execute(f'DROP DATABASE IF EXISTS "{board.dbname}" WITH (FORCE)')
