"""`VbulletinBoard`: the `Board` protocol over a vBulletin 3 or 4 board, as the GM's account.

- Login: the board's form (`login.php?do=login`): the user name and the password's MD5
  digests as vBulletin's own script makes them (`vb_login_md5password` of the password with
  characters above U+00FF as `&#N;`, `vb_login_md5password_utf` of each character's low
  byte), never the password itself; then the index must greet the GM.
- Reading: `showthread.php?t=N&page=M`, the footer's zone (or the configured `tz`), the page
  cursor of `forums.cursor` (a poll costs the pages that hold something new).
- Writing: every form carries the page's `securitytoken`; a reply goes through the thread's
  quick-reply form (`newreply.php?do=postreply`), else the full reply page, and is confirmed
  on the thread; a PM through `private.php?do=newpm` → `do=insertpm` with "save a copy" on,
  confirmed in Sent Items. Flood control ("This forum requires that you wait 30 seconds
  between posts") is waited out, a stale token fetched fresh once, a lost session logged in
  again once (`forums.webboard`).
- A board in a legacy charset (ISO-8859-1, windows-1251: vB3's defaults) gets every
  character outside ASCII as `&#N;`, which vBulletin stores and shows as that character.
- vBulletin 5 (`node` pages, AJAX forms) is its own engine, `vbulletin5`
  (`forums.vbulletin.vb5board`): this one names it and stops.
"""

from __future__ import annotations

import hashlib
import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping, Sequence
from datetime import tzinfo
from enum import Enum
from typing import Any
from urllib.parse import urlsplit

import httpx

from forums.errors import N_, BoardError, LayoutChanged, LoginFailed, NotFound
from forums.formboard import Fetched, PagedBoard, Served, answer_to
from forums.guard import redact
from forums.pages import PageKind, TopicPage
from forums.records import PrivateMessage, User
from forums.userprefs import FilledForm as Form
from forums.vbulletin import pages
from forums.vbulletin.pms import INBOX, SENT, PMFolder, PMListItem, parse_pm_folder, parse_pm_view
from forums.vbulletin.thread import parse_thread_page
from forums.webboard import Answer, Said

log = logging.getLogger("forums.vbulletin")

__all__ = ["VB5_REFUSED", "VbulletinBoard", "md5_fields"]

VB5_REFUSED = N_(
    '{url} runs vBulletin 5, which the "vbulletin" engine (vBulletin 3 and 4) does not speak: '
    'set engine = "vbulletin5" in the [board] table.'
)
LOGIN_KINDS = frozenset({PageKind.LOGIN_FORM, PageKind.NOT_LOGGED_IN, PageKind.LOGIN_FAILED})
_BUTTONS = ("preview", "sbutton_preview", "advanced")


def _low_bytes(text: str) -> bytes:
    """What vBulletin's md5 script hashes: each UTF-16 code unit's low byte."""
    units = text.encode("utf-16-le")
    return bytes(units[i] for i in range(0, len(units), 2))


def md5_fields(password: str) -> dict[str, str]:
    """The login form's digests, as `vbulletin_md5.js` fills them (the password trimmed)."""
    trimmed = password.strip(" ")
    entities = "".join(c if ord(c) <= 255 else f"&#{ord(c)};" for c in trimmed)
    return {
        "vb_login_password": "",
        "vb_login_md5password": hashlib.md5(_low_bytes(entities)).hexdigest(),
        "vb_login_md5password_utf": hashlib.md5(_low_bytes(trimmed)).hexdigest(),
    }


class VbulletinBoard(PagedBoard):
    """A vBulletin 3 or 4 board (stock styles and styles that keep its ids), as the GM."""

    engine = "vbulletin"
    login_path = "login.php?do=login"
    flood_margin = 1.0
    default_per_page = 15
    default_flood_wait = 30.0
    default_date_order = "mdy"
    inbox_folders = (INBOX,)
    sent_folders = (SENT,)
    """The GM's copies ("save a copy", which the PM form is sent with)."""

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        super().__init__(base_url, username, password, **options)
        self.version: int | None = None
        self.charset = "utf-8"
        self._times: dict[str, Any] = {}
        self._last_token: str | None = None

    # -- text sent to the board ----------------------------------------------------------

    def encode(self, text: str) -> str:
        """`text` as the board reads a form: as is on a UTF-8 board, else with every
        character outside ASCII as `&#N;` (the form is sent as UTF-8 bytes)."""
        if self.charset.replace("_", "-") in ("utf-8", "utf8"):
            return text
        return "".join(c if ord(c) < 128 else f"&#{ord(c)};" for c in text)

    def _note_page(self, html: str) -> None:
        version = pages.version_of(html)
        if version is not None:
            self.version = version
        self.charset = pages.charset_of(html, self.charset)

    # -- logging in ----------------------------------------------------------------------

    async def _form_login(self) -> User:
        self._last_token = None
        response = await self.http.get(self.http.url("index.php"))
        html, url = response.text, str(response.url)
        self._note_page(html)
        if self.version == 5:
            raise LoginFailed(VB5_REFUSED.format(url=self.base_url))
        if self.version is None:
            raise LayoutChanged(
                redact(url), N_("not a vBulletin page (no generator, no SECURITYTOKEN)")
            )
        shown = pages.logged_in_user(html)
        if shown is not None and self.is_gm(shown.name):
            return self._logged_in(shown)  # the cookies of an earlier login still work
        token = pages.security_token(html) or "guest"
        name = self.encode(self.username)

        def fill(password: str) -> dict[str, str]:
            return {
                "do": "login",
                "vb_login_username": name,
                "cookieuser": "1",
                "s": "",
                "securitytoken": token,
                **md5_fields(password),
            }

        response = await self.post_login(self.login_url(), fill)
        if not response.is_redirect:
            kind = pages.classify(response.text, str(response.url))
            self.refuse(kind)
            if kind in LOGIN_KINDS or kind is PageKind.MESSAGE:
                said = pages.message(response.text) or "the login form came back"
                raise LoginFailed(
                    N_("{url}: login as {user!r} failed: {said}").format(
                        url=self.base_url, user=self.username, said=said
                    )
                )
        return await self._session_user(N_("logging in as {user!r}").format(user=self.username))

    async def _after_browser_login(self) -> User:
        return await self._session_user(N_("the browser login"))

    async def _session_user(self, after: str) -> User:
        response = await self.http.get(self.http.url("index.php"))
        self._note_page(response.text)
        self.refuse(pages.classify(response.text, str(response.url)))
        user = pages.logged_in_user(response.text)
        token = pages.security_token(response.text)
        self._last_token = token if token and token != "guest" else None
        return self.greeted(user, after)

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        self._note_page(html)
        kind = pages.classify(html, url)
        self.refuse(kind)
        token = pages.security_token(html)
        gone = kind in LOGIN_KINDS or (token == "guest" and pages.logged_in_user(html) is None)
        if token and token != "guest" and not gone:
            self._last_token = token
        said = pages.message(html).casefold()
        missing = kind is PageKind.MESSAGE and any(p in said for p in pages.NOT_FOUND_PHRASES)
        return Served(kind, gone=gone, missing=missing)

    def _said(self, html: str) -> str:
        return pages.message(html)

    # -- times ---------------------------------------------------------------------------

    def times_read(self) -> str:
        """How this adapter reads the pages' times, for `board check`."""
        if self._tz is not None:
            zone = N_("zone {tz} (configured)").format(tz=self._tz)
        else:
            zone = N_("zone from each page's footer")
        return N_("vBulletin {version}, dates {order}, {zone}").format(
            version=self.version or "?", order=self.date_order, zone=zone
        )

    # -- the thread ----------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "128882", "t=128882", a showthread URL or a friendly URL (`/9687-title`) → the id."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        found = pages.query_param(thread, "t") or pages.query_param(thread, "threadid")
        if found is None and thread.startswith("t="):
            found = thread[2:]
        if found and found.isdigit():
            return found
        match = re.search(r"(?:showthread\.php/|/)(\d+)-[^/]*", urlsplit(thread).path)
        if match:
            return match.group(1)
        raise NotFound(
            N_("not a {engine} thread: {thread!r}").format(engine="vBulletin", thread=thread)
        )

    def _read_thread(self, fetched: Fetched, **known: Any) -> TopicPage:
        """A thread page as served, read in the footer's zone (or the configured one)."""
        return parse_thread_page(
            fetched.html,
            fetched.url,
            now=self.served_at(fetched.response),
            tz=self._tz,
            order=self.date_order,
            **known,
        )

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        params: dict[str, str | int] = {"t": thread}
        if number > 1:
            params["page"] = number
        fetched = await self.page("showthread.php", {PageKind.TOPIC}, params)
        view = self._read_thread(fetched, per_page=self._per_page, known_times=self._times)
        for post in view.posts:
            if not post.deleted:
                self._times[post.id] = post.posted_at
        if self._tz is None and view.posts:
            self.tz = view.posts[0].posted_at.tzinfo  # the footer's zone, for board check
        return self.noted(view)

    # -- private messages ----------------------------------------------------------------

    async def pm_folder(self, folder: str = INBOX, number: int = 1) -> PMFolder:
        params: dict[str, str | int] = {"folderid": folder}
        if number > 1:
            params["page"] = number
        fetched = await self.page("private.php", {PageKind.PM_FOLDER}, params)
        return parse_pm_folder(
            fetched.html,
            fetched.url,
            tz=self._zone(fetched.html),
            now=self.served_at(fetched.response),
            order=self.date_order,
        )

    async def pm_listing(self, folder: str, number: int, offset: int) -> PMFolder:
        return await self.pm_folder(folder, number)

    async def read_pm(self, item: PMListItem) -> PrivateMessage:
        params = {"do": "showpm", "pmid": item.id}
        fetched = await self.page("private.php", {PageKind.PM_VIEW}, params)
        pm = parse_pm_view(
            fetched.html,
            fetched.url,
            tz=self._zone(fetched.html),
            now=self.served_at(fetched.response),
            order=self.date_order,
        )
        recipients = item.recipients if item.sender != pm.sender else ()
        return PrivateMessage(
            id=pm.id,
            sender=pm.sender,
            sender_id=pm.sender_id,
            recipients=recipients or ((self._me.name,) if self._me is not None else ()),
            sent_at=pm.sent_at,
            subject=pm.subject or item.subject,
            body=pm.body,
            url=pm.url,
            raw=pm.raw,
        )

    def _zone(self, html: str) -> tzinfo:
        from forums.html import parse_html
        from forums.vbulletin.thread import zone_of

        zone = self._tz or zone_of(parse_html(html))
        if zone is None:
            raise LayoutChanged(
                self.base_url, N_("the page names no time zone and none is configured")
            )
        return zone

    # -- users ---------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (any case), through vBulletin's own name search (`ajax.php`,
        `do=usersearch`: up to 15 names beginning with the text, as XML)."""
        self.begin()
        await self.ensure_login()
        wanted = name.strip()
        if len(wanted) < 3:
            raise BoardError(
                N_(
                    "{url}: vBulletin looks up names of 3 letters or more; {wanted!r} is shorter"
                ).format(url=self.base_url, wanted=wanted)
            )
        token = await self._token()
        response = await self.http.post(
            self.http.url("ajax.php"),
            {"do": "usersearch", "fragment": self.encode(wanted), "securitytoken": token},
        )
        try:
            root = ET.fromstring(response.content)
        except ET.ParseError:
            raise LayoutChanged(
                redact(str(response.url)), N_("the name search did not answer XML")
            ) from None
        for user in root.iter("user"):
            shown = (user.text or "").strip()
            if shown.casefold() == wanted.casefold() and (user.get("userid") or "").isdigit():
                return User(id=user.get("userid") or "", name=shown)
        return None

    async def _token(self) -> str:
        """The session's security token, as the last members' page showed it."""
        if self._last_token is None:
            kinds = set(PageKind) - LOGIN_KINDS - {PageKind.CAPTCHA}
            fetched = await self.page("index.php", kinds)
            if self._last_token is None:
                raise LayoutChanged(redact(fetched.url), N_("no security token on the index page"))
        return self._last_token

    # -- posting -------------------------------------------------------------------------

    async def _send(self, url: str, fresh: Any, fill: Any) -> str:
        """Post a form through vBulletin's refusals; where the board sends us next."""

        async def send(form: Form) -> Said[Form, str]:
            self.http.origin.check(form.action, "the posting form")
            data = {k: v for k, v in fill(form).items() if k not in _BUTTONS}
            response = await self.http.post(form.action, data)
            if response.is_redirect:
                target = pages.redirect_target(
                    str(response.url), "", response.headers.get("Location")
                )
                assert target is not None
                return Said(Answer.ACCEPTED, target)
            html, where = response.text, str(response.url)
            kind = pages.classify(html, where)
            said = pages.message(html)
            if kind is PageKind.POSTED:
                target = pages.redirect_target(where, html, None)
                if target is None:
                    raise LayoutChanged(redact(where), N_("a confirmation page that leads nowhere"))
                return Said(Answer.ACCEPTED, target)
            self.refuse(kind)
            if any(p in said.casefold() for p in pages.USERS_NOT_FOUND):
                raise NotFound(f"{self.base_url}: {said}")
            if kind is PageKind.FLOOD:
                wait = pages.flood_seconds(said, self.flood_wait)
                return answer_to(kind, said, where, wait=wait)
            return answer_to(kind, said, where)

        return await self.submit(url, fresh, send)

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id once it is seen on the thread."""
        self.begin()
        await self.ensure_login()
        tid = self.topic_id(thread)

        async def fresh() -> Form:
            fetched = await self.page(
                "showthread.php", {PageKind.TOPIC}, {"t": tid, "goto": "newpost"}
            )
            try:
                return pages.read_form(fetched.html, fetched.url, "do=postreply")
            except LayoutChanged:  # no quick reply on this board: the full reply page
                params = {"do": "newreply", "noquote": "1", "t": tid}
                full = await self.page("newreply.php", {PageKind.POSTING_FORM}, params)
                return pages.read_form(full.html, full.url, "do=postreply")

        def fill(form: Form) -> dict[str, str]:
            return form.data(message=self.encode(bbcode), wysiwyg="0", do="postreply", t=tid)

        target = await self._send(
            self.http.url("newreply.php", {"do": "postreply", "t": tid}), fresh, fill
        )
        post_id = pages.post_id_from(target)
        if post_id is None:
            raise LayoutChanged(
                redact(target), N_("the reply was accepted without naming the new post")
            )
        fetched = await self.page("showthread.php", {PageKind.TOPIC}, {"p": post_id})
        return self.posted(self._read_thread(fetched).posts, post_id, fetched.url, tid)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM (vBulletin checks the names: one it does not know is `NotFound`); its
        id (of the GM's copy) once it is listed in Sent Items."""
        names = [n.strip() for n in recipients if n.strip()]
        if not names:
            raise ValueError("a private message needs at least one recipient")
        for name in names:
            if ";" in name:
                raise BoardError(
                    N_("{name!r}: vBulletin's PM form cannot address a name with a ';'").format(
                        name=name
                    )
                )
        self.begin()
        await self.ensure_login()
        before = await self.newest_sent()

        async def fresh() -> Form:
            fetched = await self.page("private.php", {PageKind.POSTING_FORM}, {"do": "newpm"})
            return pages.read_form(fetched.html, fetched.url, "do=insertpm")

        def fill(form: Form) -> dict[str, str]:
            data = form.data(
                recipients=self.encode("; ".join(names)),
                bccrecipients="",
                title=self.encode(subject),
                message=self.encode(bbcode),
                wysiwyg="0",
                do="insertpm",
                savecopy="1",
            )
            data.pop("receipt", None)
            return data

        await self._send(self.http.url("private.php", {"do": "insertpm"}), fresh, fill)
        why_not = "may the GM keep a copy of sent messages?"
        return await self.sent_copy(before, subject, None, why_not)

    async def fetch(
        self, path: str, params: Mapping[str, str | int], expect: set[PageKind]
    ) -> tuple[str, str, httpx.Response]:
        fetched = await self.page(path, expect, params)
        return fetched.html, fetched.url, fetched.response
