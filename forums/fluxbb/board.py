"""`FluxbbBoard`: the `Board` protocol over a FluxBB 1.5 board, as the GM's account.

Logging in is FluxBB's form (`login.php`, a CSRF token, "log me in automatically" ticked:
without it the session ends after the board's visit timeout, 30 minutes by default).
Posting is `post.php`: no token, but FluxBB refuses a form whose `Referer` is not its own
posting or topic page, so the reply is sent with the form page as its referrer. Members
wait between posts (`g_post_flood`, 60 s by default): flood control says how long, and the
wait is taken as the board says.

Private messages. FluxBB has none in its core: `inbox` and `sent` are always empty (a
board without messages has none to read) and `send_pm` is refused with
`NoPrivateMessages`. `private_messages = False` tells the game's checks so: a game on
FluxBB is played in the open thread (`engine.config` refuses what needs PMs).

Time. The GM's profile (Essentials) says his zone — an offset in hours and a DST tick —
and his date format; both are read after each login, unless `tz` and `date_order` are
given. Cursors are the shared paged-thread cursor's (`forums.cursor`).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from enum import Enum
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

from forums.errors import N_, LayoutChanged, LoginFailed, NotFound
from forums.fluxbb import pages
from forums.fluxbb.pages import PageKind, Zone
from forums.fluxbb.selectors import DEFAULT, FluxbbSelectors
from forums.formboard import PagedBoard, Served, answer_to
from forums.guard import redact
from forums.pages import MemberList, TopicPage
from forums.records import User
from forums.userprefs import FilledForm, filled_form
from forums.webboard import Answer, Said

log = logging.getLogger("forums.fluxbb")


class FluxbbBoard(PagedBoard):
    """A FluxBB 1.5 board (stock styles, and styles that keep FluxBB's block ids), as the GM."""

    engine = "fluxbb"
    login_path = "login.php"
    flood_margin = 1.0
    default_per_page = 25
    default_flood_wait = 60.0
    default_date_order = "ymd"
    default_selectors = DEFAULT
    selectors: FluxbbSelectors
    private_messages: ClassVar[bool] = False
    """FluxBB has no private messages (see the module's docstring): the base refuses
    `send_pm` (`forums.webboard.NO_PMS`)."""
    product = "FluxBB"

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        super().__init__(base_url, username, password, **options)
        self.zone: Zone | None = None
        """The GM profile's zone and date format, as read after the login."""

    # -- session ----------------------------------------------------------------------

    def times_read(self) -> str:
        """How this adapter reads the times of the pages, for `board check`."""
        if self._tz is not None:
            return f"the board's own format, dates {self.date_order}, zone {self._tz} (configured)"
        if self.zone is not None:
            return f"the GM's profile: {self.zone.shown} (dates {self.date_order})"
        return "the board's own format (the GM's profile not read yet)"

    async def _form_login(self) -> User:
        response = await self.http.get(self.login_url())
        html, url = response.text, str(response.url)
        tree = pages.tree_of(html)
        kind = pages.classify(html, url, self.selectors)
        if kind is not PageKind.LOGIN_FORM:
            shown = pages.logged_in_as(tree, self.selectors)
            if self.is_gm(shown):
                return await self._session_user(N_("an earlier login"))  # its cookies still work
            raise LayoutChanged(redact(url), f"expected the login form, got a {kind.value} page")
        form = filled_form(tree, "req_password", url)

        def fill(password: str) -> dict[str, str]:
            fields = dict(form.fields, req_username=self.username, req_password=password)
            fields.update(save_pass="1", login="Login")
            return fields

        answer = await self.post_login(form.action, fill)
        said = pages.classify(answer.text, str(answer.url), self.selectors)
        if said is PageKind.LOGIN_FAILED or said is PageKind.MESSAGE:
            words = pages.message(pages.tree_of(answer.text), self.selectors)
            raise LoginFailed(
                N_("{url}: login as {user!r} failed: {said}").format(
                    url=self.base_url, user=self.username, said=words
                )
            )
        if said is not PageKind.POSTED and not answer.is_redirect:
            raise LayoutChanged(redact(str(answer.url)), f"a {said.value} page after the login")
        return await self._session_user(N_("logging in as {user!r}").format(user=self.username))

    async def _after_browser_login(self) -> User:
        return await self._session_user(N_("the browser login"))

    async def _session_user(self, after: str) -> User:
        """Whom the board's index greets now (the GM, or the login failed), and how the
        GM's profile reads times."""
        response = await self.http.get(self.http.url("index.php"))
        tree = pages.tree_of(response.text)
        shown = pages.logged_in_as(tree, self.selectors)
        uid = pages.my_id(tree, self.selectors) or ""
        user = self.greeted(User(id=uid, name=shown) if shown else None, after)
        if self._tz is None and uid:
            await self._read_zone(uid)
        return user

    async def _read_zone(self, uid: str) -> None:
        url = self.http.url("profile.php", {"section": "essentials", "id": uid})
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
                    "whose day and month are alike): choose Y-m-d in the GM's profile, "
                    "Essentials",
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
        """ "2", "id=2" or a viewtopic URL (`viewtopic.php?id=2&p=3`) → "2"."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        query = urlsplit(thread).query or thread
        found = parse_qs(query).get("id", [""])[0]
        if found.isdigit() and ("viewtopic" in thread or thread.startswith("id=")):
            return found
        raise NotFound(
            N_("not a {engine} topic: {thread!r}").format(engine="FluxBB", thread=thread)
        )

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        params: dict[str, str | int] = {"id": thread}
        if number > 1:
            params["p"] = number
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
        """A user by name, through the member list's search (FluxBB's LIKE: on SQLite it
        folds the case of A-Z only), matched here without regard to case. Its pages are
        read on until the name shows (`find_member`): a group that may not search users
        (`g_search_users`) is shown the whole list for any name, 50 users a page."""
        self.begin()
        known = self.known_member(name)
        if known is not None:
            return known

        async def listing(number: int, offset: int) -> MemberList:
            params: dict[str, str | int] = {
                "username": name.strip(),
                "show_group": "-1",
                "sort_by": "username",
            }
            if number > 1:
                params["p"] = number
            fetched = await self.page("userlist.php", {PageKind.MEMBERLIST}, params)
            return pages.parse_member_list(fetched.html, fetched.url, self.selectors)

        return await self.find_member(name, listing)

    # -- posting -----------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the topic; the new post's id, as the board's redirect names it."""
        self.begin()
        topic = self.topic_id(thread)
        target = await self.send_form(
            "post.php", {"tid": topic}, "req_message", {"req_message": bbcode, "submit": "Submit"}
        )
        pid = parse_qs(urlsplit(target).query).get("pid", [""])[0]
        if not pid.isdigit():
            raise LayoutChanged(redact(target), "the post's redirect names no post")
        return pid

    async def send_form(
        self, path: str, params: Mapping[str, str | int], field: str, values: Mapping[str, str]
    ) -> str:
        """Send the form holding `field` on the page `path` (posting, editing, deleting)
        with `values`, through flood control and a lost session; where the board's
        "Redirecting …" answer leads. FluxBB checks that the form came from its own page
        (the `Referer`), so the page is named as the referrer."""
        await self.ensure_login()
        where = self.http.url(path, params)

        async def fresh() -> tuple[FilledForm, str]:
            fetched = await self.page(path, {PageKind.POSTING_FORM}, params)
            return filled_form(pages.tree_of(fetched.html), field, fetched.url), fetched.url

        async def send(form: tuple[FilledForm, str]) -> Said[tuple[FilledForm, str], str]:
            filled, page = form
            self.http.origin.check(filled.action, f"the form of {path}")
            fields = dict(filled.fields, **values)
            answer = await self.http.post(filled.action, fields, headers={"Referer": page})
            html, url = answer.text, str(answer.url)
            kind = pages.classify(html, url, self.selectors)
            if kind is PageKind.POSTED:
                target = pages.redirect_target(html, url)
                if target is None:
                    raise LayoutChanged(redact(url), "a redirect page that leads nowhere")
                return Said(Answer.ACCEPTED, result=target)
            tree = pages.tree_of(html)
            said = pages.message(tree, self.selectors)
            if pages.is_guest(tree, self.selectors):
                return Said(Answer.LOGGED_OUT, text=said or "a guest's page")
            return answer_to(kind, said, url, wait=pages.flood_wait(said))

        return await self.submit(where, fresh, send)


__all__ = ["FluxbbBoard"]
