"""Save real pages of a live SMF 2.1.4 for the saved-page tests (`fixtures/smf/2.1.4/`).

    python -m tests.live.smf_capture fixtures/smf/2.1.4 [RUSSIAN_PACK_LANGUAGES_FOLDER]

Installs SMF as the live tests do (`tests/live/smf.py`), plays a short thread and a few PMs
at fixed moments of the board's clock, and saves what the board serves (the board's address
written as `http://127.0.0.1:8080`), with `truth.json`: the board's own rows for the topic
and the PMs. With a folder of SMF 2.1's Russian language files, the same board is read again
in Russian (the GM's language and the board's default, the GM's time format `%d %B %Y,
%H:%M:%S`); the pack is copied into that throw-away board only.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx

from tests.live import smf
from tests.live.boards import GM_PASSWORD
from tests.live.members import Member

MSK = ZoneInfo("Europe/Moscow")
SHOWN = "http://127.0.0.1:8080"

THREAD = (
    ("2026-11-20 12:05", "Вася", "Голосую за [b]Петю[/b]."),
    ("2026-11-20 12:40", "Петя", "А я за [s]Васю[/s] Машу. Нет, [u]воздерживаюсь[/u]."),
    (
        "2026-11-20 13:10",
        "Маша",
        "[quote author=Вася link=msg=2 date=1795683900]Голосую за Петю.[/quote]Согласна: голосую за Петю",
    ),
    ("2026-11-20 18:00", "Коля", "Голосую за Олю\n[code]голосую за Машу[/code]"),
    ("2026-11-21 10:00", "Оля", "[color=#ffffff]голосую за Колю[/color] Я пока думаю :)"),
    (
        "2026-11-21 11:30",
        "Dmitry",
        "I vote [i]Kolya[/i]. [url=https://example.org/rules]Rules[/url]",
    ),
    ("2026-11-21 19:45", "Вася", "[list][li]Петя молчит[/li][li]Маша спешит[/li][/list]"),
    ("2026-11-22 09:00", "Петя", "[nobbc][b]не жирно[/b][/nobbc] и всё"),
    (
        "2026-11-22 15:20",
        "Маша",
        "[quote author=Петя]А я за Машу[/quote][quote]без автора[/quote]Снимаю голос.",
    ),
    ("2026-11-23 08:15", "Коля", "Голосую за Dmitry"),
    ("2026-11-23 20:00", "Оля", "[size=1]мелко[/size] [size=7]крупно[/size]"),
    ("2026-11-24 07:30", "Dmitry", "Unvote. Vote: Masha"),
    ("2026-11-24 12:00", "Вася", "Голосую за Машу"),
    ("2026-11-24 22:59", "Петя", "Голосую за Машу"),
    ("2026-11-25 09:00", "Маша", "Голосую за Dmitry"),
    ("2026-11-25 13:50", "Коля", "Последнее слово: голосую за Машу"),
)
"""(board time in Moscow, author, BBCode): 16 replies to the GM's opening, two pages."""


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


def _save(folder: Path, name: str, text: str, url: str) -> None:
    port = re.match(r"http://127\.0\.0\.1:\d+", url)
    if port:
        text = text.replace(port.group(0), SHOWN)
    text = re.sub(r"http://127\.0\.0\.1:\d+", SHOWN, text)
    (folder / name).write_text(text, encoding="utf-8")


def capture(out: Path, russian: Path | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="smf-capture-"))
    try:
        board = smf.copy_of(smf.template(work / "cache"), work / "board")
        smf.serve(board)
        try:
            _play_and_save(board, out, russian)
        finally:
            smf.drop(board)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _get(member: Member, path: str) -> httpx.Response:
    async def go() -> httpx.Response:
        await member.adapter.ensure_login()
        # SMF's own `;` separators, as its links write them (the client's `url` would encode them)
        response: httpx.Response = await member.adapter.http.get(member.adapter.base_url + path)
        return response

    return member.run(go())


def _play_and_save(board: smf.SmfBoard, out: Path, russian: Path | None) -> None:
    assert board.clock is not None
    board.clock.set(at("2026-11-20 12:00"))
    gm = Member(board, board.gm, GM_PASSWORD)
    topic = gm.open_topic("Мафия: день 1", "Игра началась. Голосуйте в этой теме.")
    posts = {}
    for moment, name, text in THREAD:
        board.clock.set(at(moment))
        member = Member(board, name)
        posts[(moment, name)] = member.post(topic, text)
        member.close()
    board.clock.set(at("2026-11-21 09:30"))
    masha = Member(board, "Маша")
    masha.edit(posts[("2026-11-20 13:10", "Маша")], "Согласна: голосую за [b]Петю[/b] (исправлено)")
    board.clock.set(at("2026-11-24 20:00"))
    masha.pm([board.gm], "Ход ночью", "Проверяю [b]Колю[/b].")
    masha.close()
    board.clock.set(at("2026-11-25 10:00"))
    vasya = Member(board, "Вася")
    vasya.pm([board.gm], "Вопрос", "Можно голосовать в ЛС?")
    vasya.close()
    board.clock.set(at("2026-11-25 11:00"))
    gm.pm(["Вася"], "Ответ", "Нет, только в теме.")
    board.clock.set(at("2026-11-25 14:25"))

    def save(name: str, member: Member, path: str) -> None:
        response = _get(member, path)
        _save(out, name, response.text, str(response.url))

    save("topic_p1_en.html", gm, f"index.php?topic={topic}.0")
    save("topic_p2_en.html", gm, f"index.php?topic={topic}.15")
    save("pm_inbox_en.html", gm, "index.php?action=pm;f=inbox;sort=date;desc")
    save("pm_sent_en.html", gm, "index.php?action=pm;f=sent;sort=date;desc")
    save("post_form_en.html", gm, f"index.php?action=post;topic={topic}.0")
    save("pm_form_en.html", gm, "index.php?action=pm;sa=send")
    save(
        "memberlist_search_en.html", gm, "index.php?action=mlist;sa=search;search=маша;fields=name"
    )
    save("profile_theme_en.html", gm, "index.php?action=profile;area=theme")
    save("topic_missing_en.html", gm, "index.php?topic=999.0")
    with httpx.Client(base_url=board.url, timeout=60) as guest:
        for name, path in (
            ("topic_guest_en.html", f"index.php?topic={topic}.0"),
            ("pm_guest_en.html", "index.php?action=pm"),
            ("login_form_en.html", "index.php?action=login"),
        ):
            response = guest.get(path)
            _save(out, name, response.text, str(response.url))
        page = guest.get("index.php?action=login")
        form = smf_form(page.text, str(page.url), "form#frmLogin")
        failed = guest.post(form[0], data={**form[1], "user": "Вася", "passwrd": "wrong-password"})
        _save(out, "login_failed_en.html", failed.text, str(failed.url))
    # A reply sent with a stale session token: the form comes back with SMF's error.
    response = _get(gm, f"index.php?action=post;topic={topic}.0")
    action, fields = smf_form(response.text, str(response.url), "form#postmodify")
    token = next(k for k, v in fields.items() if re.fullmatch(r"[0-9a-f]{32}", v))
    stale = gm.run(gm.adapter.http.post(action, {**fields, token: "0" * 32, "message": "x"}))
    _save(out, "post_stale_en.html", stale.text, str(stale.url))
    # The GM's reply: SMF answers with a redirect to the thread's first unread post.
    board.clock.set(at("2026-11-25 14:26"))
    response = _get(gm, f"index.php?action=post;topic={topic}.0")
    action, fields = smf_form(response.text, str(response.url), "form#postmodify")
    answer = gm.run(
        gm.adapter.http.post(action, {**fields, "message": "Итоги: [b]Маша[/b]", "goback": "1"})
    )
    (out / "reply_location_en.txt").write_text(
        re.sub(r"http://127\.0\.0\.1:\d+", SHOWN, answer.headers["Location"]) + "\n",
        encoding="utf-8",
    )
    followed = _get(gm, "index.php" + answer.headers["Location"].split("/index.php", 1)[1])
    _save(out, "topic_after_reply_en.html", followed.text, str(followed.url))
    # SMF's cap of PMs an hour (here 2): the third PM of the hour is refused.
    board.setting("pm_spam_settings", "10,0,2")
    dmitry = Member(board, "Dmitry")
    for text in ("one", "two"):
        board.clock.advance(10)
        dmitry.pm([board.gm], "Limit", text)
    board.clock.advance(10)
    # SMF refuses the form itself once the cap is met.
    save("pm_per_hour_en.html", dmitry, "index.php?action=pm;sa=send")
    # SMF's visual verification before a PM for members with fewer than 5 posts (its default).
    board.setting("pm_spam_settings", "10,5,0")
    lena = Member(board, "Оля")
    save("pm_form_verification_en.html", lena, "index.php?action=pm;sa=send")
    lena.close()
    dmitry.close()
    board.setting("pm_spam_settings", smf.SETTINGS["pm_spam_settings"])
    truth = {
        "topic": topic,
        "posts": [
            dict(zip(("id", "poster", "posted", "edited", "edited_by", "body"), r, strict=True))
            for r in board.rows(
                "SELECT m.id_msg, COALESCE(u.real_name, m.poster_name), m.poster_time, "
                "m.modified_time, m.modified_name, m.body FROM smf_messages m LEFT JOIN "
                "smf_members u ON u.id_member = m.id_member WHERE m.id_topic = ? "
                "ORDER BY m.id_msg",
                int(topic),
            )
        ],
        "pms": [
            dict(zip(("id", "sender", "sent", "subject", "body"), r, strict=True))
            for r in board.rows(
                "SELECT id_pm, from_name, msgtime, subject, body FROM smf_personal_messages "
                "ORDER BY id_pm"
            )
        ],
    }
    (out / "truth.json").write_text(
        json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    if russian is not None:
        _russian(board, out, russian, gm, topic)
    gm.close()


def _russian(board: smf.SmfBoard, out: Path, pack: Path, gm: Member, topic: str) -> None:
    """The same board read in Russian: the pack copied into this board only."""
    languages = board.root / "Themes" / "default" / "languages"
    for file in pack.glob("*.russian.php"):
        target = languages / file.name
        shutil.copy2(file, target)
    board.execute(
        "UPDATE smf_members SET lngfile = ?, time_format = ?", "russian", "%d %B %Y, %H:%M:%S"
    )
    board.setting("language", "russian")
    settings = board.root / "Settings.php"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(
        re.sub(r"^\$language = '[^']*';", "$language = 'russian';", text, flags=re.M),
        encoding="utf-8",
    )
    board.clock.set(at("2026-11-25 14:27:30"))

    def save(name: str, path: str) -> None:
        response = _get(gm, path)
        _save(out, name, response.text, str(response.url))

    save("topic_p1_ru.html", f"index.php?topic={topic}.0")
    save("topic_p2_ru.html", f"index.php?topic={topic}.15")
    save("pm_inbox_ru.html", "index.php?action=pm;f=inbox;sort=date;desc")
    save("profile_theme_ru.html", "index.php?action=profile;area=theme")
    with httpx.Client(base_url=board.url, timeout=60) as guest:
        page = guest.get("index.php?action=login")
        form = smf_form(page.text, str(page.url), "form#frmLogin")
        failed = guest.post(form[0], data={**form[1], "user": "Вася", "passwrd": "wrong-password"})
        _save(out, "login_failed_ru.html", failed.text, str(failed.url))


def smf_form(html: str, url: str, selector: str) -> tuple[str, dict[str, str]]:
    from forums.smf.pages import read_form

    form = read_form(html, url, selector)
    return form.action, dict(form.fields)


if __name__ == "__main__":
    why = smf.missing()
    if why is not None:
        sys.exit(f"cannot install SMF here: {why}")
    capture(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(f"saved in {sys.argv[1]}")
