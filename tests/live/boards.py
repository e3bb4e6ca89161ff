"""Real phpBB 3.3.10 and MyBB 1.8.37 boards on 127.0.0.1 for the live tests.

Each board is unpacked from `../shared/boards/` (or `FORUMGM_BOARDS_DIR`), installed with
SQLite without a browser — phpBB by its own `install/phpbbcli.php install`, MyBB by driving
its web installer step by step over HTTP — and given the GM and the players through the
board's own CLI (phpBB's `user:add`) or its own user data handler run by PHP (MyBB). The
installed board is a template: each test module gets a copy in its own folder, served by
PHP's built-in server on a free port (HTTP_HOST then carries the port, which phpBB and
MyBB build their redirects from).

The board's clock is the test's: PHP runs under libfaketime (Debian's `libfaketime`), whose
offset is read from a file on every call, so a test dates posts, PMs and edits at the
moments its game needs and the board's flood limits pass as the test says.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import secrets
import shutil
import socket
import sqlite3
import subprocess
import tarfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

REQUIRE_ENV = "FORUMGM_REQUIRE_LIVE_BOARDS"
"""Set (to 1) in CI: a live test that cannot run fails instead of skipping."""
BOARDS_ENV = "FORUMGM_BOARDS_DIR"

ARCHIVES = {
    "phpbb": "phpbb-3.3.10-ru.tar.xz",
    "mybb": "mybb-1.8.37.tar.xz",
    "fluxbb": "fluxbb-1.5.11.tar.xz",
}
FAKETIME_PATHS = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
)
PHP_EXTENSIONS = {
    "phpbb": ("sqlite3", "mbstring", "xml", "gd", "intl", "zip"),
    "mybb": ("pdo_sqlite", "mbstring", "gd", "xml"),
    "fluxbb": ("sqlite3", "mbstring"),
}

GM = "Ведущий"
GM_PASSWORD = "gm-live-pass-1"
"""The GM's password on the test boards (a made-up one for a board on 127.0.0.1)."""
MYBB_GM = "ведущий"
"""MyBB's GM is a member like any other (the installer's administrator is `admin`), so the
board's flood limits hold for him as they do on a host's board. MyBB on SQLite cannot log in a name with a capital Cyrillic letter (its LOWER() folds
ASCII only): the MyBB GM is spelled in lower case, and `Ведущая` is an account that
shows what `board check` says then."""

PHPBB_USERS = ("Вася", "Петя", "Маша", "Коля", "Оля", "Лёша", "Dmitry")
MYBB_USERS = ("вася", "петя", "маша", "коля", "оля", "Lena", "Ведущая")


def password_of(name: str) -> str:
    """Each player's password on the test boards (made-up, the same for every run)."""
    return "pw-" + hashlib.sha256(name.encode()).hexdigest()[:10]


def boards_dir() -> Path:
    """`FORUMGM_BOARDS_DIR`, else the nearest `shared/boards` beside the checkout or above it
    (a worktree lies a level deeper than the checkout)."""
    if os.environ.get(BOARDS_ENV):
        return Path(os.environ[BOARDS_ENV])
    repo = Path(__file__).resolve().parents[2]
    for folder in repo.parents:
        if (folder / "shared" / "boards").is_dir():
            return folder / "shared" / "boards"
    return repo.parent / "shared" / "boards"


def faketime_library() -> str | None:
    return next((p for p in FAKETIME_PATHS if Path(p).exists()), None)


def missing(engine: str) -> str | None:
    """Why the live `engine` board cannot run here (None: it can)."""
    php = shutil.which("php")
    if php is None:
        return "PHP is not installed (Debian: php-cli php-sqlite3 php-mbstring php-xml …)"
    archive = boards_dir() / ARCHIVES[engine]
    if not archive.exists():
        return f"{archive} is absent (set {BOARDS_ENV} to the folder of the board archives)"
    loaded = subprocess.run([php, "-m"], capture_output=True, text=True, check=False).stdout.lower()
    lacking = [ext for ext in PHP_EXTENSIONS[engine] if ext not in loaded.split()]
    if lacking:
        return f"PHP lacks the extension(s) {', '.join(lacking)}"
    if faketime_library() is None:
        return "libfaketime is not installed (Debian: libfaketime): the board's clock"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# -- the board's clock --------------------------------------------------------------------


class BoardClock:
    """The board's time: the real time plus an offset that PHP (under libfaketime) reads
    from `path` on every call. `set` and `advance` move it; it runs on in between."""

    def __init__(self, path: Path, *, attach: bool = False) -> None:
        """A clock at the real time in `path`; `attach`: the clock another process keeps
        there, as it stands."""
        self.path = path
        self.offset = float(path.read_text(encoding="ascii")) if attach else 0.0
        if not attach:
            self._write()

    def _write(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(f"{self.offset:+.0f}\n", encoding="ascii")
        tmp.replace(self.path)

    def __call__(self) -> datetime:
        return datetime.fromtimestamp(time.time() + self.offset, UTC)

    def set(self, moment: datetime) -> None:
        self.offset = moment.timestamp() - time.time()
        self._write()

    def advance(self, seconds: float) -> None:
        self.offset += seconds
        self._write()


# -- a served board -----------------------------------------------------------------------


@dataclass
class LiveBoard:
    """One installed board in its own folder, served on 127.0.0.1 while `running`."""

    engine: str
    root: Path
    database: Path
    gm: str
    users: Sequence[str]
    forum: str
    """The forum the game threads are opened in."""
    url: str = ""
    clock: BoardClock | None = None
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    php_options: tuple[str, ...] = ()
    """PHP's `-d` options for this board (FluxBB's PHP 8 prelude, `tests.live.fluxbb`)."""

    def rows(self, query: str, *args: Any) -> list[sqlite3.Row]:
        """Rows of the board's own database (read-only, while the board runs)."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10) as db:
            db.row_factory = sqlite3.Row
            return list(db.execute(query, args))

    def execute(self, query: str, *args: Any) -> None:
        """Change the board's database as its admin would (a password reset)."""
        with sqlite3.connect(self.database, timeout=10) as db:
            db.execute(query, args)

    def now(self) -> datetime:
        assert self.clock is not None
        return self.clock()

    def php(self, *args: str, tty: bool = False) -> str:
        """Run a PHP command in the board's folder, under the board's clock."""
        command = ["php", *self.php_options, *args]
        if tty:  # phpBB's user:add asks its questions only with a terminal
            command = ["script", "-qec", " ".join(_quote(a) for a in command), "/dev/null"]
        done = subprocess.run(
            command,
            cwd=self.root,
            env=self._env(),
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: {done.returncode}\n{done.stdout}{done.stderr}")
        return done.stdout

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FAKETIME", "LD_"))}
        library = faketime_library()
        if self.clock is not None and library is not None:
            env.update(
                LD_PRELOAD=library,
                FAKETIME_TIMESTAMP_FILE=str(self.clock.path),
                FAKETIME_NO_CACHE="1",
                DONT_FAKE_MONOTONIC="1",
            )
        return env

    def start(self, port: int | None = None) -> None:
        """Serve the board on `port` (a free one) of 127.0.0.1 until `stop`."""
        port = port or free_port()
        self.url = f"http://127.0.0.1:{port}/"
        self.log = self.root.parent / f"{self.engine}-server.log"
        env = self._env()
        env["PHP_CLI_SERVER_WORKERS"] = "4"  # forumgm sends up to 2 requests at once
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                ["php", *self.php_options, "-S", f"127.0.0.1:{port}", "-t", str(self.root)],
                cwd=self.root,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url, timeout=5)
                return
            except httpx.TransportError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"PHP's server for {self.engine} did not start: {self.log}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait(timeout=10)
        self.process = None


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def unpack(engine: str, into: Path) -> Path:
    """The board's archive unpacked into `into`; its one top folder."""
    return unpack_archive(ARCHIVES[engine], into)


def unpack_archive(name: str, into: Path) -> Path:
    """The archive `name` of the boards folder unpacked into `into`; its one top folder."""
    archive = boards_dir() / name
    if shutil.which("tar"):
        subprocess.run(["tar", "xJf", str(archive), "-C", str(into)], check=True)
    else:
        with tarfile.open(archive) as opened:
            opened.extractall(into, filter="tar")
    [top] = [p for p in into.iterdir() if p.is_dir()]
    return top


# -- phpBB ---------------------------------------------------------------------------------

_PHPBB_CONFIG = """\
installer:
    admin:
        name: {gm}
        password: {password}
        email: gm@example.org
    board:
        lang: ru
        name: Живой форум
        description: forumgm live test board
    database:
        dbms: sqlite3
        dbhost: {database}
        dbport: ~
        dbuser: ~
        dbpasswd: ~
        dbname: ~
        table_prefix: phpbb_
    email:
        enabled: false
        smtp_delivery: ~
        smtp_host: ~
        smtp_port: ~
        smtp_auth: ~
        smtp_user: ~
        smtp_pass: ~
    server:
        cookie_secure: false
        server_protocol: http://
        force_server_vars: false
        server_name: 127.0.0.1
        server_port: 80
        script_path: /
    extensions: []
"""


def install_phpbb(into: Path) -> LiveBoard:
    root = unpack("phpbb", into)
    database = into / "phpbb.sqlite3"
    config = into / "install-config.yml"
    config.write_text(
        _PHPBB_CONFIG.format(gm=GM, password=GM_PASSWORD, database=database), encoding="utf-8"
    )
    board = LiveBoard("phpbb", root, database, GM, PHPBB_USERS, forum="2")
    out = board.php("install/phpbbcli.php", "install", str(config))
    if "successfully" not in out and "успешно" not in out:
        raise RuntimeError(f"phpBB's installer: {out[-2000:]}")
    shutil.rmtree(root / "install")
    config.unlink()
    for name, value in (("email_check_mx", "0"), ("board_timezone", "Europe/Moscow")):
        board.php("bin/phpbbcli.php", "config:set", name, value)
    # The installer made the GM's account before the board's zone was set: he reads the
    # board in Moscow time, as the players (added after) do.
    with sqlite3.connect(database) as db:
        db.execute("UPDATE phpbb_users SET user_timezone = 'Europe/Moscow' WHERE user_type = 3")
    for name in PHPBB_USERS:
        said = board.php(
            "bin/phpbbcli.php",
            "user:add",
            "-U",
            name,
            "-P",
            password_of(name),
            "-E",
            f"{secrets.token_hex(4)}@example.org",
            tty=True,
        )
        if "[OK]" not in said:
            raise RuntimeError(f"phpBB's user:add {name}: {said}")
    return board


def move_phpbb(board: LiveBoard, into: Path) -> None:
    """Point a copied phpBB at its own database (config.php names the file)."""
    config = board.root / "config.php"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        re.sub(r"\$dbhost = '[^']*';", f"$dbhost = '{board.database}';", text), encoding="utf-8"
    )
    shutil.rmtree(board.root / "cache" / "production", ignore_errors=True)


# -- MyBB ----------------------------------------------------------------------------------

_MYBB_ADD_USERS = r"""<?php
// Adds users through MyBB's own user data handler: php add_users.php NAME PASSWORD ...
define('IN_MYBB', 1);
define('THIS_SCRIPT', 'add_users.php');
$_SERVER['REQUEST_METHOD'] = 'GET';
require_once './global.php';
require_once MYBB_ROOT.'inc/datahandlers/user.php';
$args = array_slice($argv, 1);
for ($i = 0; $i + 1 < count($args); $i += 2) {
    $handler = new UserDataHandler('insert');
    $handler->set_data(array(
        'username' => $args[$i],
        'password' => $args[$i + 1],
        'password2' => $args[$i + 1],
        'email' => 'u'.($i / 2).'@example.org',
        'email2' => 'u'.($i / 2).'@example.org',
        'usergroup' => 2,
        'regip' => '127.0.0.1',
        'timezone' => 0,
    ));
    if (!$handler->validate_user()) {
        fwrite(STDERR, $args[$i].': '.implode('; ', $handler->get_friendly_errors())."\n");
        exit(1);
    }
    $user = $handler->insert_user();
    echo $user['uid'], ' ', $user['username'], "\n";
}
"""


def install_mybb(into: Path) -> LiveBoard:
    root = unpack("mybb", into)
    database = into / "mybb.sqlite3"
    board = LiveBoard("mybb", root, database, MYBB_GM, MYBB_USERS, forum="2")
    port = free_port()
    board.url = f"http://127.0.0.1:{port}/"
    board.start(port)
    try:
        with httpx.Client(base_url=board.url + "install/", timeout=120) as http:

            def step(action: str, **data: str) -> str:
                response = http.post("index.php", data={"action": action, **data})
                response.raise_for_status()
                said = response.text
                if 'class="error"' in said and 'class="success"' not in said:
                    raise RuntimeError(f"MyBB's installer, {action}: {response.text[-3000:]}")
                return response.text

            for action in ("license", "requirements_check", "database_info"):
                step(action)
            step(
                "create_tables",
                dbengine="sqlite",
                **{
                    "config[sqlite][dbname]": str(database),
                    "config[sqlite][tableprefix]": "mybb_",
                },
            )
            for action in ("populate_tables", "templates", "configuration"):
                step(action)
            step(
                "adminuser",
                bbname="Живой форум",
                bburl=board.url.rstrip("/"),
                websitename="forumgm",
                websiteurl=board.url,
                cookiedomain="",
                cookiepath="/",
                contactemail="gm@example.org",
                pin="",
            )
            step(
                "final",
                adminuser="admin",
                adminpass=GM_PASSWORD,
                adminpass2=GM_PASSWORD,
                adminemail="gm@example.org",
            )
    finally:
        board.stop()
    (root / "install" / "lock").write_text("installed\n", encoding="ascii")
    shutil.rmtree(root / "install")
    script = root / "add_users.php"
    script.write_text(_MYBB_ADD_USERS, encoding="utf-8")
    args = [board.gm, GM_PASSWORD]
    args += [a for name in MYBB_USERS for a in (name, password_of(name))]
    board.php("add_users.php", *args)
    script.unlink()
    return board


def move_mybb(board: LiveBoard, into: Path) -> None:
    """Point a copied MyBB at its own database; its URL is set when it is served."""
    config = board.root / "inc" / "config.php"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        re.sub(
            r"(\$config\['database'\]\['database'\] = ')[^']*(';)",
            lambda m: m.group(1) + str(board.database) + m.group(2),
            text,
        ),
        encoding="utf-8",
    )


def serve_mybb_at(board: LiveBoard) -> None:
    """MyBB builds its links and redirects from the `bburl` setting: the served URL's."""
    url = board.url.rstrip("/")
    with sqlite3.connect(board.database) as db:
        db.execute("UPDATE mybb_settings SET value = ? WHERE name = 'bburl'", (url,))
    settings = board.root / "inc" / "settings.php"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(
        re.sub(
            r"(\$settings\['bburl'\] = \")[^\"]*(\";)",
            lambda m: m.group(1) + url + m.group(2),
            text,
        ),
        encoding="utf-8",
    )


def _fluxbb() -> Any:
    from tests.live import fluxbb

    return fluxbb


INSTALLERS = {
    "phpbb": install_phpbb,
    "mybb": install_mybb,
    "fluxbb": lambda into: _fluxbb().install(into),
}
MOVERS = {
    "phpbb": move_phpbb,
    "mybb": move_mybb,
    "fluxbb": lambda board, into: _fluxbb().move(board, into),
}


def template(engine: str, cache: Path) -> LiveBoard:
    """The installed board of `engine` under `cache`, installed once (under a lock shared by
    the test workers)."""
    home = cache / engine
    done = home / "installed"
    with file_lock(cache / f"{engine}.lock"):
        if not done.exists():
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir(parents=True)
            board = INSTALLERS[engine](home)
            done.write_text(str(board.root.name), encoding="utf-8")
    root = home / done.read_text(encoding="utf-8")
    database = home / f"{engine}.sqlite3"
    if engine == "phpbb":
        return LiveBoard("phpbb", root, database, GM, PHPBB_USERS, forum="2")
    if engine == "fluxbb":
        board: LiveBoard = _fluxbb().board_at(root, database)
        return board
    return LiveBoard("mybb", root, database, MYBB_GM, MYBB_USERS, forum="2")


WRITTEN = {
    "phpbb": ("cache", "store", "files", "images/avatars/upload", "config.php"),
    "mybb": ("cache", "uploads", "inc/settings.php", "inc/config.php"),
    "fluxbb": ("cache", "img/avatars", "config.php"),
}
"""What a board writes to while it runs (or a move rewrites): copied; the rest is linked."""


def copy_of(board: LiveBoard, into: Path) -> LiveBoard:
    """A copy of an installed board in `into`, pointed at its own database. The board's
    code is hard-linked (nothing writes to it); what it writes to is copied."""
    root = linked_copy(board.root, into, WRITTEN[board.engine])
    database = into / board.database.name
    shutil.copy2(board.database, database)
    copy = LiveBoard(board.engine, root, database, board.gm, board.users, board.forum)
    MOVERS[board.engine](copy, into)
    copy.clock = BoardClock(into / f"{board.engine}-clock")
    return copy


def linked_copy(source: Path, into: Path, written: Sequence[str]) -> Path:
    """A copy of the board's folder `source` in `into`: hard links, but for what the board
    writes to (`written`, copied)."""
    into.mkdir(parents=True, exist_ok=True)
    root = into / source.name
    shutil.copytree(source, root, symlinks=True, copy_function=os.link)
    for name in written:
        origin, target = source / name, root / name
        if origin.is_dir():
            shutil.rmtree(target)
            shutil.copytree(origin, target, symlinks=True)
        elif origin.exists():
            target.unlink()
            shutil.copy2(origin, target)
    return root


def serve(board: LiveBoard) -> None:
    """Start the board's server; MyBB is told its URL first."""
    port = free_port()
    if board.engine == "mybb":
        board.url = f"http://127.0.0.1:{port}/"
        serve_mybb_at(board)
    if board.engine == "fluxbb":
        board.url = f"http://127.0.0.1:{port}/"
        _fluxbb().serve_at(board)
    board.start(port)


def names(users: Sequence[str]) -> str:
    return ", ".join(users)
