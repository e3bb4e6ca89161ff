"""`PunbbBoard`: the `Board` protocol over a PunBB 1.3/1.4 board, as the GM's account.

Logging in is PunBB's form (`login.php`: `form_sent`, `redirect_url` and the form's
`csrf_token` as served, "Remember me" ticked, else the session ends with the visit
timeout). The board answers a login or a post with a 302 to where it leads (its default
redirect delay is 0; with a delay, a "Redirecting …" page saying where). Posting is
`post.php?tid=N` with its token; members wait between posts (`g_post_flood`, 60 s by
default: "At least 60 seconds have to pass between posts"), and the wait is taken as the
board says. A reply is confirmed on the topic page that shows it (`viewtopic.php?pid=N`).

Private messages. PunBB's core has none (the pun_pm extension adds them, on its own
pages): `inbox` and `sent` are always empty and `send_pm` is refused in the same line as
FluxBB's (`forums.webboard.NO_PMS`). `private_messages = False` tells the game's checks so:
a game on PunBB is played in the open thread (`engine.config` refuses what needs PMs).

Time. The GM's settings (`profile.php?section=settings`) say his zone — an offset in hours
and a DST tick — and his date format; both are read after each login, unless `tz` and
`date_order` are given. PunBB prints an edit as "(edited by Name Today 17:23)" (ru
«(изменено: Name, Сегодня 17:23)») beside the post's time. Cursors are the shared
paged-thread cursor's (`forums.cursor`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from enum import Enum
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

from forums.errors import LayoutChanged, LoginFailed, NotFound
from forums.formboard import PagedBoard, Served, answer_to
from forums.guard import redact
from forums.pages import MemberList, PageKind, TopicPage
from forums.punbb import pages
from forums.punbb.pages import Zone
from forums.punbb.selectors import DEFAULT, PunbbSelectors
from forums.records import User
from forums.userprefs import FilledForm, filled_form
from forums.webboard import Answer, Said

_SEF_TOPIC = re.compile(r"(?:/topic/|/topic)(\d+)(?:[/-]|\.html|$)")
"""A topic's address with PunBB's friendly URLs on: `/topic/2/title/` (folder based) or
`/topic2-title.html` (file based)."""


class PunbbBoard(PagedBoard):
    """A PunBB 1.3/1.4 board (stock styles, and styles that keep PunBB's block ids), as the GM."""

    engine = "punbb"
    product = "PunBB"
    login_path = "login.php"
    flood_margin = 1.0
    default_per_page = 25
    default_flood_wait = 60.0
    default_date_order = "ymd"
    default_selectors = DEFAULT
    selectors: PunbbSelectors
    private_messages: ClassVar[bool] = False
    """PunBB's core has no private messages (see the module's docstring)."""

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        super().__init__(base_url, username, password, **options)
        self.zone: Zone | None = None
        """The GM's zone and date format, as read from his settings after the login."""

    # -- session ----------------------------------------------------------------------

    def times_read(self) -> str:
        """How this adapter reads the times of the pages, for `board check`."""
        if self._tz is not None:
            return f"the board's own format, dates {self.date_order}, zone {self._tz} (configured)"
        if self.zone is not None:
            return f"the GM's settings: {self.zone.shown} (dates {self.date_order})"
        return "the board's own format (the GM's settings not read yet)"

    async def _form_login(self) -> User:
        response = await self.http.get(self.login_url())
        html, url = response.text, str(response.url)
        tree = pages.tree_of(html)
        kind = pages.classify(html, url, self.selectors)
        if kind is not PageKind.LOGIN_FORM:
            if self.is_gm(pages.logged_in_as(tree, self.selectors)):
                return await self._session_user("an earlier login")  # its cookies still work
            raise LayoutChanged(redact(url), f"expected the login form, got a {kind.value} page")
        form = filled_form(tree, "req_password", url)

        def fill(password: str) -> dict[str, str]:
            fields = dict(form.fields, req_username=self.username, req_password=password)
            fields.update(save_pass="1", login="Login")
            return fields

        answer = await self.post_login(form.action, fill)
        said = pages.classify(answer.text, str(answer.url), self.selectors)
        if said in (PageKind.LOGIN_FAILED, PageKind.MESSAGE, PageKind.FORM_ERROR):
            words = pages.message(pages.tree_of(answer.text), self.selectors)
            raise LoginFailed(f"{self.base_url}: login as {self.username!r} failed: {words}")
        if said is not PageKind.POSTED and not answer.is_redirect:
            raise LayoutChanged(redact(str(answer.url)), f"a {said.value} page after the login")
        return await self._session_user(f"logging in as {self.username!r}")

    async def _after_browser_login(self) -> User:
        return await self._session_user("the browser login")

    async def _session_user(self, after: str) -> User:
        """Whom the board's index greets now (the GM, or the login failed), and how the
        GM's settings read times."""
        response = await self.http.get(self.http.url("index.php"))
        tree = pages.tree_of(response.text)
        shown = pages.logged_in_as(tree, self.selectors)
        uid = pages.my_id(tree, self.selectors) or ""
        user = self.greeted(User(id=uid, name=shown) if shown else None, after)
        if self._tz is None and uid:
            await self._read_zone(uid)
        return user

    async def _read_zone(self, uid: str) -> None:
        url = self.http.url("profile.php", {"section": "settings", "id": uid})
        answer = await self.http.get(url)
        now = self.served_at(answer)
        zone = pages.read_zone(answer.text, None, self.selectors)
        zone = pages.read_zone(answer.text, now.astimezone(zone.tz).date(), self.selectors)
        self.zone, self.tz = zone, zone.tz
        if not self._order_known:
            if zone.order is None:
                raise LayoutChanged(
                    redact(url),
                    "the GM's date format cannot be told apart (d-m-Y or m-d-Y on a day "
                    "whose day and month are alike): choose Y-m-d in the GM's settings",
                )
            self.date_order = zone.order

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = pages.classify(html, url, self.selectors)
        gone = pages.is_guest(pages.tree_of(html), self.selectors)
        return Served(kind, gone=gone, missing=kind is PageKind.MESSAGE)

    def _said(self, html: str) -> str:
        return pages.message(pages.tree_of(html), self.selectors)

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "2", "id=2", a viewtopic URL (`viewtopic.php?id=2&p=3`) or a friendly one
        (`/topic/2/title/`, `/topic2-title.html`) → "2"."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        query = urlsplit(thread).query or thread
        found = parse_qs(query).get("id", [""])[0]
        if found.isdigit() and ("viewtopic" in thread or thread.startswith("id=")):
            return found
        sef = _SEF_TOPIC.search(urlsplit(thread).path)
        if sef is not None:
            return sef.group(1)
        raise NotFound(f"not a PunBB topic: {thread!r}")

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        params: dict[str, str | int] = {"id": thread}
        if number > 1:
            params["p"] = number
        return await self._topic_page(params)

    async def _topic_page(self, params: dict[str, str | int]) -> TopicPage:
        fetched = await self.page("viewtopic.php", {PageKind.TOPIC}, params)
        if self.tz is None:
            raise LayoutChanged(redact(fetched.url), "no time zone read or configured")
        view = pages.parse_topic_page(
            fetched.html,
            fetched.url,
            tz=self.tz,
            now=self.served_at(fetched.response),
            order=self.date_order,
            per_page=self._per_page,
            selectors=self.selectors,
        )
        return self.noted(view)

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (any case), through the member list's search."""
        self.begin()
        known = self.known_member(name)
        if known is not None:
            return known

        async def listing(number: int, offset: int) -> MemberList:
            params: dict[str, str | int] = {"username": name.strip(), "show_group": "-1"}
            if number > 1:
                params["p"] = number
            fetched = await self.page("userlist.php", {PageKind.MEMBERLIST}, params)
            users = pages.parse_members(fetched.html, self.selectors)
            page, last = pages.paging(pages.tree_of(fetched.html), self.selectors)
            return MemberList(tuple(users), page, last)

        return await self.find_member(name, listing)

    # -- posting -----------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the topic; the new post's id, once its topic page shows it."""
        self.begin()
        topic = self.topic_id(thread)
        await self.ensure_login()
        params = {"tid": topic}
        where = self.http.url("post.php", params)

        async def fresh() -> tuple[FilledForm, str]:
            fetched = await self.page("post.php", {PageKind.POSTING_FORM}, params)
            return filled_form(pages.tree_of(fetched.html), "req_message", fetched.url), fetched.url

        async def send(form: tuple[FilledForm, str]) -> Said[tuple[FilledForm, str], str]:
            filled, page = form
            self.http.origin.check(filled.action, "the reply form")
            fields = filled.data(req_message=bbcode, submit_button="Submit")
            answer = await self.http.post(filled.action, fields, headers={"Referer": page})
            html, url = answer.text, str(answer.url)
            target = answer.headers.get("Location") if answer.is_redirect else None
            kind = pages.classify(html, url, self.selectors)
            if target is None and kind is PageKind.POSTED:
                target = pages.redirect_target(html, url)
            if target is not None:
                return Said(Answer.ACCEPTED, result=target)
            tree = pages.tree_of(html)
            said = pages.message(tree, self.selectors)
            if pages.is_guest(tree, self.selectors):
                return Said(Answer.LOGGED_OUT, text=said or "a guest's page")
            return answer_to(kind, said, url, wait=pages.flood_wait(said))

        target = await self.submit(where, fresh, send)
        pid = parse_qs(urlsplit(target).query).get("pid", [""])[0]
        if not pid.isdigit():
            raise LayoutChanged(redact(target), "the post's redirect names no post")
        view = await self._topic_page({"pid": pid})
        return self.posted(view.posts, pid, view.url, topic)


__all__ = ["PunbbBoard"]
