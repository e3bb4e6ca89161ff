"""Save the pages a real PunBB board serves: `python -m tests.live.punbb_capture VERSION
SOURCE FOLDER [RUSSIAN]`, VERSION "1.2" or "1.4", SOURCE the board's files (PunBB 1.2.50's
`upload/` of github.com/punres/punbb-1.2, or PunBB 1.4's tree of github.com/punbb/punbb),
FOLDER where the pages go (fixtures/punbb/<version>/), RUSSIAN (1.4 only) a Russian language
pack's folder (`Russian/` of github.com/punbb/langs), installed as `lang/Russian`.

The board is installed by its own web installer on SQLite and served by `php -S` on
127.0.0.1; members are added through its own database layer and password hash; then the
members log in with the board's form and post a topic, replies (a quote, bold, a smilie),
one of them edited, as players do. The topic is shown four posts a page, so it has two.
Saved: the topic's pages as a guest and as a member, the login form, its answer (the
redirect) and a login refused, the member's profile (Essentials: the time zone), the
redirect after a post, the reply form and the index (as a guest and as the member), and `truth.json`, the board's posts
table (ids, authors, times as Unix seconds, edits).

PunBB 1.4 also gives: the member's settings (`profile_settings.html`: zone, DST, date
format), the member list searched for "ma*" (`userlist.html`), the board's message
for a topic that does not exist (`message.html`), flood control refusing a reply (`flood.html`: the group's `g_post_flood` set to 60
after the topic is written; the reply goes to the installer's topic, so the saved topic
stays as it was), and with RUSSIAN the member's topic pages, settings and flood answer in
Russian (`*_ru.html`: the members' `language` set to Russian).

PunBB 1.2.50 was written for PHP 4 and 5; what PHP 8 lacks it is given without changing
what the board does: the FluxBB prelude (`fluxbb_compat.php`: SQLite 2's functions over
SQLite3, `get_magic_quotes_gpc`, `create_function`) and `each()`, and its database class's
PHP 4 constructor (`function DBLayer(`) and one `$s{0}` are rewritten to PHP 5's forms.
PunBB 1.4.4 (github.com/punbb/punbb's master, ported to PHP 7 and 8 by its maintainers)
runs unchanged on its own SQLite3 layer with the same prelude (it still asks for
`MB_OVERLOAD_STRING`).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
FLUXBB_COMPAT = HERE / "fluxbb_compat.php"
EACH = """<?php
require %r;
// preg_replace's /e modifier (PHP 5: the replacement, its $n filled in with the matches
// addslashes'd, evaluated as PHP), gone in PHP 7: include/parser.php calls this instead.
function pun_compat_preg_replace_e($pattern, $code, $subject) {
    if (is_array($pattern)) {
        foreach ($pattern as $i => $one) {
            $subject = pun_compat_preg_replace_e($one, is_array($code) ? $code[$i] : $code, $subject);
        }
        return $subject;
    }
    if (!preg_match('/^(.)(.*)\\1([a-zA-Z]*)$/s', $pattern, $m) || strpos($m[3], 'e') === false) {
        return preg_replace($pattern, $code, $subject);
    }
    $plain = $m[1].$m[2].$m[1].str_replace('e', '', $m[3]);
    return preg_replace_callback($plain, function ($found) use ($code) {
        global $lang_common, $pun_config, $pun_user;  // what the parser's code reads
        $php = preg_replace_callback('/\\$(\\d+)|\\$\\{(\\d+)\\}/', function ($ref) use ($found) {
            $n = $ref[1] !== '' ? $ref[1] : $ref[2];
            return addslashes(isset($found[$n]) ? $found[$n] : '');
        }, $code);
        return eval('return '.$php.';');
    }, $subject);
}
if (!function_exists('each')) {
    function each(&$array) {
        $key = key($array);
        if ($key === null) return false;
        $value = current($array);
        next($array);
        return array(1 => $value, 'value' => $value, 0 => $key, 'key' => $key);
    }
}
"""
ADMIN, ADMIN_PASSWORD = "Admin", "admin-pass-12"
MEMBERS = {"Vasya": "vasya-pass-1", "Petya": "petya-pass-2", "Masha": "masha-pass-3"}

ADD_12 = r"""<?php
$args = array_slice($_SERVER['argv'], 1);
$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
define('PUN_ROOT', dirname(__FILE__).'/');
require PUN_ROOT.'include/common.php';
for ($i = 0; $i + 1 < count($args); $i += 2) {
    $now = time();
    $db->query('INSERT INTO '.$db->prefix.'users (username, group_id, password, email, '
        .'registered, registration_ip, last_visit) VALUES(\''.$db->escape($args[$i]).'\', 4, \''
        .pun_hash($args[$i + 1]).'\', \'u'.($i / 2).'@example.org\', '.$now.', \'127.0.0.1\', '
        .$now.')') or exit('cannot add '.$args[$i]."\n");
}
$db->query('UPDATE '.$db->prefix.'config SET conf_value=\'4\' WHERE conf_name=\'o_disp_posts_default\'');
$db->query('UPDATE '.$db->prefix.'groups SET g_post_flood=0 WHERE g_id=4');
$db->close();
@unlink(PUN_ROOT.'cache/cache_config.php');
"""

ADD_14 = r"""<?php
$args = array_slice($_SERVER['argv'], 1);
$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
$_SERVER['REQUEST_METHOD'] = 'GET';
define('FORUM_ROOT', dirname(__FILE__).'/');
require FORUM_ROOT.'include/common.php';
for ($i = 0; $i + 1 < count($args); $i += 2) {
    $salt = random_key(12);
    add_user(array('username' => $args[$i], 'group_id' => 3, 'salt' => $salt,
        'password' => $args[$i + 1], 'password_hash' => forum_hash($args[$i + 1], $salt),
        'email' => 'u'.($i / 2).'@example.org', 'email_setting' => 1, 'timezone' => 0,
        'dst' => 0, 'language' => 'English', 'style' => 'Oxygen', 'registered' => time(),
        'registration_ip' => '127.0.0.1', 'activate_key' => 'NULL', 'require_verification'
        => false, 'notify_admins' => false), $new_uid);
}
$forum_db->query('UPDATE '.$forum_db->prefix.'config SET conf_value=\'4\' WHERE conf_name=\'o_disp_posts_default\'');
$forum_db->query('UPDATE '.$forum_db->prefix.'groups SET g_post_flood=0 WHERE g_id=3');
@unlink(FORUM_CACHE_DIR.'cache_config.php');
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(version: str, source: Path, root: Path) -> list[str]:
    """The board's files in `root`, ported where PHP 8 cannot run them; PHP's options."""
    shutil.copytree(source, root)
    prelude = root.parent / "compat.php"
    prelude.write_text(EACH % str(FLUXBB_COMPAT), encoding="utf-8")
    if version == "1.4":
        return ["-d", f"auto_prepend_file={prelude}"]  # MB_OVERLOAD_STRING, asked for
    for layer in (root / "include" / "dblayer").glob("*.php"):
        text = layer.read_text(encoding="latin-1")
        layer.write_text(text.replace("function DBLayer(", "function __construct("), "latin-1")
    parser = root / "include" / "parser.php"
    parser.write_text(
        parser.read_text("latin-1").replace("preg_replace(", "pun_compat_preg_replace_e("),
        "latin-1",
    )
    admin = root / "include" / "common_admin.php"
    admin.write_text(admin.read_text("latin-1").replace("$entry{0}", "$entry[0]"), "latin-1")
    return ["-d", f"auto_prepend_file={prelude}"]


def install(version: str, http: httpx.Client, base: str) -> None:
    if version == "1.2":
        form = {
            "form_sent": "1",
            "req_db_type": "sqlite",
            "req_db_host": "localhost",
            "req_db_name": "punbb.sqlite",
            "db_username": "",
            "db_password": "",
            "db_prefix": "",
            "req_username": ADMIN,
            "req_password1": ADMIN_PASSWORD,
            "req_password2": ADMIN_PASSWORD,
            "req_email": "admin@example.org",
            "req_base_url": base.rstrip("/"),
        }
        said = http.post(base + "install.php", data=form)
    else:
        form = {
            "form_sent": "1",
            "req_db_type": "sqlite3",
            "req_db_host": "localhost",
            "req_db_name": "punbb.sqlite3",
            "db_username": "",
            "db_password": "",
            "db_prefix": "",
            "req_username": ADMIN,
            "req_password1": ADMIN_PASSWORD,
            "req_email": "admin@example.org",
            "req_base_url": base.rstrip("/"),
            "req_language": "English",
            "start": "Start install",
        }
        said = http.post(base + "admin/install.php", data=form)
    if "installed" not in said.text and "Installed" not in said.text:
        sys.exit(f"install failed: {said.status_code}\n{said.text[-2000:]}")


def login(version: str, http: httpx.Client, base: str, name: str, password: str) -> httpx.Response:
    """The board's login form sent; its answer (a redirect page, or the form with the
    error)."""
    if version == "1.2":
        return http.post(
            base + "login.php?action=in",
            data={
                "form_sent": "1",
                "redirect_url": "index.php",
                "req_username": name,
                "req_password": password,
            },
        )
    form = http.get(base + "login.php").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    return http.post(
        base + "login.php",
        data={
            "form_sent": "1",
            "redirect_url": base + "index.php",
            "csrf_token": token.group(1) if token else "",
            "req_username": name,
            "req_password": password,
            "save_pass": "1",
        },
    )


def post(
    version: str, http: httpx.Client, base: str, where: str, text: str, subject: str = ""
) -> httpx.Response:
    """A new topic (`where` = "fid=1") or a reply (`where` = "tid=N") through the form."""
    form_page = base + f"post.php?{where}"
    served = http.get(form_page).text
    data = {"form_sent": "1", "req_message": text}
    if subject:
        data["req_subject"] = subject
    for hidden in ("csrf_token", "form_user"):
        found = re.search(rf'name="{hidden}" value="([^"]*)"', served)
        if found:
            data[hidden] = found.group(1)
    action = re.search(r'<form id="(?:post|afocus)"[^>]*\baction="([^"]+)"', served)
    target = action.group(1).replace("&amp;", "&") if action else f"post.php?action=post&{where}"
    data["submit"] = data["submit_button"] = "Submit"
    return http.post(base + target.removeprefix(base), data=data, headers={"Referer": form_page})


def edit(version: str, http: httpx.Client, base: str, pid: str, text: str) -> None:
    page = base + f"edit.php?id={pid}"
    served = http.get(page).text
    data = {"form_sent": "1", "req_message": text, "submit": "Submit", "submit_button": "Submit"}
    found = re.search(r'name="csrf_token" value="([^"]*)"', served)
    if found:
        data["csrf_token"] = found.group(1)
    action = re.search(r'<form id="(?:edit|afocus)"[^>]*\baction="([^"]+)"', served)
    target = action.group(1).replace("&amp;", "&") if action else f"edit.php?id={pid}&action=edit"
    http.post(base + target.removeprefix(base), data=data, headers={"Referer": page})


def capture(version: str, source: Path, folder: Path, russian: Path | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="punbb-"))
    root = work / "board"
    options = prepare(version, source, root)
    if russian is not None:
        shutil.copytree(russian, root / "lang" / "Russian")
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen(
        ["php", *options, "-d", "error_reporting=0", "-S", f"127.0.0.1:{port}"],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(1)
        saved: dict[str, str] = {}
        with httpx.Client(timeout=30) as http:
            install(version, http, base)
            script = root / "add_members.php"
            script.write_text(ADD_12 if version == "1.2" else ADD_14, encoding="utf-8")
            args = [a for pair in MEMBERS.items() for a in pair]
            subprocess.run(["php", *options, str(script), *args], cwd=root, check=True)
            script.unlink()
        database = root / ("punbb.sqlite" if version == "1.2" else "punbb.sqlite3")
        players = {name: httpx.Client(timeout=30) for name in MEMBERS}
        try:
            for name, client in players.items():
                answer = login(version, client, base, name, MEMBERS[name])
                if name == "Petya":
                    saved["login_redirect.html"] = answer.text
                    saved["index_member.html"] = client.get(base + "index.php").text
                    uid = re.search(r"profile\.php\?id=(\d+)", saved["index_member.html"])
                    assert uid is not None, "the index names no profile: the login failed"
                    essentials = f"profile.php?section=essentials&id={uid.group(1)}"
                    saved["profile_essentials.html"] = client.get(base + essentials).text
            vasya, petya, masha = players["Vasya"], players["Petya"], players["Masha"]
            post(version, vasya, base, "fid=1", "Day 1 begins. Vote for a player.", "Mafia day 1")
            with sqlite3.connect(database) as db:  # the installer's welcome topic is the first
                tid = str(db.execute("SELECT max(id) FROM topics").fetchone()[0])
            lines = [
                (petya, "vote Vasya"),
                (masha, "[b]vote Petya[/b] :)"),
                (vasya, "[quote=Masha]vote Petya[/quote]\nI agree: vote Petya"),
                (petya, "unvote\nvote Masha"),
                (masha, "Counting: Petya 2, Masha 1."),
            ]
            answers = [post(version, c, base, f"tid={tid}", text) for c, text in lines]
            saved["posted_redirect.html"] = answers[0].text
            with sqlite3.connect(database) as db:
                pid = db.execute(
                    "SELECT id FROM posts WHERE message LIKE 'unvote%' ORDER BY id LIMIT 1"
                ).fetchone()[0]
            time.sleep(2)  # the edit comes later than the post
            edit(version, petya, base, str(pid), "unvote\nvote Masha (edited: she is quiet)")
            for number in (1, 2):
                url = base + f"viewtopic.php?id={tid}&p={number}"
                saved[f"topic_p{number}_member.html"] = petya.get(url).text
            saved["post_form.html"] = petya.get(base + f"post.php?tid={tid}").text
            if version == "1.4":
                extra_14(petya, masha, base, tid, database, saved, russian is not None)
        finally:
            for client in players.values():
                client.close()
        with httpx.Client(timeout=30) as guest:
            for number in (1, 2):
                url = base + f"viewtopic.php?id={tid}&p={number}"
                saved[f"topic_p{number}_guest.html"] = guest.get(url).text
            saved["index.html"] = guest.get(base + "index.php").text
            saved["login_form.html"] = guest.get(base + "login.php").text
        with httpx.Client(timeout=30) as wrong:
            saved["login_failed.html"] = login(version, wrong, base, "Petya", "wrong-pass").text
        for name, text in saved.items():
            (folder / name).write_text(text.replace(base, "http://127.0.0.1:8090/"), "utf-8")
        with sqlite3.connect(database) as db:
            db.row_factory = sqlite3.Row
            rows = db.execute(
                "SELECT id, poster, poster_id, posted, edited, edited_by, message, topic_id "
                "FROM posts WHERE topic_id = ? ORDER BY id",
                (int(tid),),
            ).fetchall()
        truth = [dict(r) for r in rows]
        (folder / "truth.json").write_text(
            json.dumps(truth, ensure_ascii=False, indent=1) + "\n", "utf-8"
        )
        print(f"saved {len(saved)} pages and {len(truth)} posts to {folder}")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def extra_14(
    petya: httpx.Client,
    masha: httpx.Client,
    base: str,
    tid: str,
    database: Path,
    saved: dict[str, str],
    russian: bool,
) -> None:
    """PunBB 1.4's settings page, a flood refusal and (with a Russian pack) the same in
    Russian; the flood replies go to the installer's topic 1, not the saved topic."""
    uid = re.search(r"profile\.php\?id=(\d+)", saved["topic_p1_member.html"])
    assert uid is not None, "the topic names no profile of the reader"
    settings = base + f"profile.php?section=settings&id={uid.group(1)}"
    saved["profile_settings.html"] = petya.get(settings).text
    saved["userlist.html"] = petya.get(base + "userlist.php?username=ma%2A&show_group=-1").text
    saved["message.html"] = petya.get(base + "viewtopic.php?id=999").text
    with sqlite3.connect(database) as db:
        db.execute("UPDATE groups SET g_post_flood = 60 WHERE g_id = 3")
    saved["flood.html"] = post("1.4", masha, base, "tid=1", "vote Petya again").text
    if not russian:
        return
    with sqlite3.connect(database) as db:
        db.execute("UPDATE users SET language = 'Russian' WHERE username IN ('Petya', 'Masha')")
    for number in (1, 2):
        url = base + f"viewtopic.php?id={tid}&p={number}"
        saved[f"topic_p{number}_member_ru.html"] = petya.get(url).text
    saved["profile_settings_ru.html"] = petya.get(settings).text
    saved["flood_ru.html"] = post("1.4", masha, base, "tid=1", "голосую за Петю").text


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("1.2", "1.4"):
        sys.exit(__doc__)
    capture(
        sys.argv[1],
        Path(sys.argv[2]),
        Path(sys.argv[3]),
        Path(sys.argv[4]) if len(sys.argv) == 5 else None,
    )
