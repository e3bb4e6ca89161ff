"""A real FluxBB 1.5.11 board (SQLite) on 127.0.0.1 for the live tests.

FluxBB 1.5.11 was written for PHP 5, and Debian has PHP 8.2. Three things keep it from
running there, and the installer deals with each without changing what the board does:

- its SQLite layer calls PHP's SQLite 2 functions (`sqlite_open`, …), gone since PHP 5.4,
  and it calls `get_magic_quotes_gpc()` and `create_function()`, gone in PHP 8:
  `fluxbb_compat.php` defines them again (the SQLite ones over PHP's SQLite3 class) and
  PHP loads it before every script (`-d auto_prepend_file`);
- five files read string offsets with braces (`$s{0}`), a parse error in PHP 8: they are
  rewritten to brackets (`$s[0]`), the same reading (`port_to_php8`); `admin_groups.php`
  (a nested ternary PHP 8 refuses) is not needed by the tests and left as it is.

The board is installed by its own web installer (`install.php`, one form) driven over
HTTP; the GM and the players are added by a short PHP script through the board's own
database layer and password hash (`pun_hash`), in the Members group (60 s between posts,
FluxBB's default), reading the board in Moscow time (FluxBB keeps a user's zone as an
offset in hours). The board's default language is English: the archive carries no other.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import httpx

from tests.live import boards
from tests.live.boards import GM_PASSWORD, LiveBoard, password_of

ARCHIVE = "fluxbb-1.5.11.tar.xz"
EXTENSIONS = ("sqlite3", "mbstring")
COMPAT = Path(__file__).with_name("fluxbb_compat.php")
GM = "Ведущий"
USERS = ("Вася", "Петя", "Маша", "Коля", "Оля", "Lena")
DATABASE = "fluxbb.sqlite3"
BRACED = (
    "include/cache.php",
    "include/functions.php",
    "include/utf8/ord.php",
    "include/utf8/utils/bad.php",
    "include/utf8/utils/validation.php",
)
_BRACED_OFFSET = re.compile(r"(?<![{\w])\$(\w+)\{(\$?\w+|'\w+')\}")

_ADD_USERS = r"""<?php
// Adds members through FluxBB's own database layer: php add_users.php NAME PASSWORD ...
$args = array_slice($_SERVER['argv'], 1);  // common.php clears the globals
$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
define('PUN_ROOT', dirname(__FILE__).'/');
require PUN_ROOT.'include/common.php';
for ($i = 0; $i + 1 < count($args); $i += 2) {
    $name = $args[$i];
    $now = time();
    $db->query('INSERT INTO '.$db->prefix.'users (username, group_id, password, email, '
        .'email_setting, timezone, dst, language, style, registered, registration_ip, '
        .'last_visit) VALUES(\''.$db->escape($name).'\', 4, \''.pun_hash($args[$i + 1])
        .'\', \'u'.($i / 2).'@example.org\', 1, 3, 0, \'English\', \'Air\', '.$now
        .', \'127.0.0.1\', '.$now.')') or exit('cannot add '.$name."\n");
    echo $db->insert_id(), ' ', $name, "\n";
}
$db->end_transaction();  // common.php opened one, as every page of the board does
$db->close();
"""


def port_to_php8(root: Path) -> None:
    """`$s{0}` → `$s[0]` in the files PHP 8 cannot parse: the same string offset."""
    for name in BRACED:
        path = root / name
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        path.write_text(
            _BRACED_OFFSET.sub(r"$\1[\2]", text), encoding="utf-8", errors="surrogateescape"
        )


def board_at(root: Path, database: Path) -> LiveBoard:
    board = LiveBoard("fluxbb", root, database, GM, USERS, forum="1")
    board.php_options = ("-d", f"auto_prepend_file={COMPAT}")
    return board


def install(into: Path) -> LiveBoard:
    root = boards.unpack("fluxbb", into)
    port_to_php8(root)
    board = board_at(root, into / DATABASE)
    port = boards.free_port()
    board.start(port)
    try:
        fields = {
            "form_sent": "1",
            "install_lang": "English",
            "req_db_type": "sqlite",
            "req_db_host": "localhost",
            "req_db_name": f"../{DATABASE}",  # FluxBB opens it relative to the board's root
            "db_username": "",
            "db_password": "",
            "db_prefix": "",
            "req_username": "admin",
            "req_password1": GM_PASSWORD,
            "req_password2": GM_PASSWORD,
            "req_email": "admin@example.org",
            "req_title": "Живой форум",
            "desc": "forumgm live test board",
            "req_base_url": board.url.rstrip("/"),
            "req_default_lang": "English",
            "req_default_style": "Air",
            "start": "Start install",
        }
        answer = httpx.post(board.url + "install.php", data=fields, timeout=120)
        if "has been fully installed" not in answer.text:
            raise RuntimeError(f"FluxBB's installer: {answer.status_code} {answer.text[-2000:]}")
    finally:
        board.stop()
    (root / "install.php").unlink()
    script = root / "add_users.php"
    script.write_text(_ADD_USERS, encoding="utf-8")
    args = [GM, GM_PASSWORD, *(a for name in USERS for a in (name, password_of(name)))]
    board.php("add_users.php", *args)
    script.unlink()
    with sqlite3.connect(board.database) as db:
        # The administrator reads the board in Moscow time too; the game forum is named.
        db.execute("UPDATE users SET timezone = 3 WHERE id > 1")
        db.execute("UPDATE forums SET forum_name = 'Мафия' WHERE id = 1")
    return board


def move(board: LiveBoard, into: Path) -> None:
    """Nothing to point: config.php names the database relative to the board's folder."""
    board.php_options = ("-d", f"auto_prepend_file={COMPAT}")


def serve_at(board: LiveBoard) -> None:
    """FluxBB builds its redirects from `o_base_url`: the served URL's (and its cache goes)."""
    with sqlite3.connect(board.database) as db:
        db.execute(
            "UPDATE config SET conf_value = ? WHERE conf_name = 'o_base_url'",
            (board.url.rstrip("/"),),
        )
    for cached in (board.root / "cache").glob("cache_*.php"):
        cached.unlink()
