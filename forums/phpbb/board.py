"""`PhpbbBoard`: the `Board` protocol over a phpBB 3.x board, as the GM's account.

Fetching and the board's moods live here; what a page says is read by the pure parsers
(`forums.phpbb.topic`, `forums.phpbb.pms`, `forums.phpbb.forms`).

Cursors. A thread cursor is `{"topic", "last_id", "count", "per_page"}`: the highest post
id seen, how many posts the thread had and its page size. A poll starts at the page that
held the last seen post and reads on to the last page; `since=None` re-reads every page (the
deadline freeze, which catches edits and deletions). A PM cursor is `{"last_id"}`; PM ids
grow with time on phpBB, whichever folder a message sits in.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, tzinfo
from enum import Enum
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx

from forums.cursor import Resume, ThreadView
from forums.errors import N_, BoardError, LayoutChanged, LoginFailed, NotFound
from forums.formboard import CAPTCHA_HELP, FormLoginBoard, Served, answer_to
from forums.html import parse_html
from forums.phpbb import forms
from forums.phpbb.client import PhpbbClient, redact
from forums.phpbb.dates import detect_timezone, server_date
from forums.phpbb.forms import Form, PageKind, Selectors
from forums.phpbb.pms import PMFolder, PMListItem, parse_pm_folder, parse_pm_view
from forums.phpbb.topic import DEFAULT_PER_PAGE, TopicPage, parse_topic_page
from forums.records import Cursor, PrivateMessage, User
from forums.userprefs import DateSetting, OwnDateFormat, filled_form
from forums.webboard import Answer, Said

log = logging.getLogger("forums.phpbb")

DATE_FORMAT = "Y-m-d H:i:s P"
"""The GM's own date format when the host allows it: «2026-12-05 19:04:00 +03:00», every
time with its offset, in no language (PHP's date letters, as phpBB's UCP takes them)."""
PREFS_PAGE = {"i": "ucp_prefs", "mode": "personal"}
_HTML_LANG = re.compile(r"<html[^>]*?\blang=[\"']([\w-]+)", re.I)


def _form_error(html: str) -> str:
    node = parse_html(html).css_first("form .error")
    return " ".join(node.text(deep=True).split()) if node is not None else ""


_LOGIN_KINDS = {PageKind.LOGIN_FORM, PageKind.NOT_LOGGED_IN, PageKind.SESSION_EXPIRED}

__all__ = ["CAPTCHA_HELP", "PhpbbBoard"]


class PhpbbBoard(OwnDateFormat, FormLoginBoard):
    """A phpBB 3.x board (prosilver and derived styles) seen through the GM's account."""

    engine = "phpbb"
    client_class = PhpbbClient
    cursor_key = "topic"
    login_path = "ucp.php?mode=login"
    selectors = Selectors
    folders: Mapping[str, str] = {"inbox": "inbox", "outbox": "outbox", "sentbox": "sentbox"}
    inbox_folders = ("inbox",)
    sent_folders = ("outbox", "sentbox")
    """What the GM sent: the outbox (unread by recipients) and the sentbox (read)."""

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        form_min_age: float = 2.0,
        **options: Any,
    ) -> None:
        # `set_date_format` (made `DATE_FORMAT`, `forums.userprefs`) is `OwnDateFormat`'s.
        super().__init__(base_url, username, password, **options)
        self.form_min_age = form_min_age
        self.page_lang: str | None = None
        """The language of the last page read (`<html lang>`)."""
        self.tz_found = False
        """Whether the zone was read from a page (not given)."""
        self._per_page = DEFAULT_PER_PAGE
        """The topic's page size as last seen: page N starts at post (N - 1) × this."""

    @property
    def http(self) -> PhpbbClient:
        client = self.session.http
        assert isinstance(client, PhpbbClient)
        return client

    # -- session ----------------------------------------------------------------------

    def times_read(self) -> str:
        """How this adapter reads the times of the pages, for `board check`."""
        if self.date_setting is not None:
            return N_("{setting}: every time carries its offset").format(
                setting=self.date_setting.describe()
            )
        if self.tz is None:
            zone = N_("zone not seen yet")
        elif self.tz_found:
            zone = N_("zone {tz} (named on the page)").format(tz=self.tz)
        else:
            zone = N_("zone {tz}").format(tz=self.tz)
        lang = self.page_lang or N_("not said")
        shown = N_("the board's own format, language {lang}, {zone}").format(lang=lang, zone=zone)
        if self.date_setting_error is not None:
            return N_("{shown}; the GM's own date format was not set: {error}").format(
                shown=shown, error=self.date_setting_error
            )
        return shown

    async def ensure_date_format(self) -> DateSetting:
        """Make the GM account's date format `DATE_FORMAT` (UCP → board preferences), unless
        it is already; the form is sent as served with the date format changed, so no other
        preference moves. Checked on the page again after the board took it."""
        html, url = await self._page("ucp.php", PREFS_PAGE, {PageKind.PREFERENCES})
        fetched = self.http.now()
        form = filled_form(parse_html(html), "dateformat", url)
        before = form.fields.get("dateformat", "")
        if before == DATE_FORMAT:
            return DateSetting(DATE_FORMAT, before, changed=False)
        self.http.origin.check(form.action, "the board preferences form")
        fields = dict(form.fields, dateformat=DATE_FORMAT, submit="Submit")
        if "dateoptions" in fields:
            fields["dateoptions"] = "custom"  # the list's own choice for a typed format
        await self._age(fetched)
        response = await self.http.post(form.action, fields)
        answer, answered_at = response.text, str(response.url)
        if not response.is_redirect and forms.classify(answer, answered_at) is not PageKind.POSTED:
            said = forms.message_box(answer) or _form_error(answer) or N_("the form came back")
            raise BoardError(
                N_(
                    "{url}: the board did not take the date format: {said} (set it by hand in "
                    "the GM's UCP, board preferences, or leave [board] set_date_format off)"
                ).format(url=self.base_url, said=said)
            )
        html, url = await self._page("ucp.php", PREFS_PAGE, {PageKind.PREFERENCES})
        now = filled_form(parse_html(html), "dateformat", url).fields.get("dateformat")
        if now != DATE_FORMAT:
            raise LayoutChanged(
                url, N_("the date format is still {now!r} after it was set").format(now=now)
            )
        log.info("the GM's date format is now %s (it was %s)", DATE_FORMAT, before)
        return DateSetting(DATE_FORMAT, before, changed=True)

    async def _form_login(self) -> User:
        """The board's login form: form token, "remember me"."""
        url = self.login_url()
        response = await self.http.get(url)
        html, url = response.text, str(response.url)
        fetched = self.http.now()
        kind = forms.classify(html, url)
        if kind is PageKind.CAPTCHA:
            raise self.captcha()
        if kind not in _LOGIN_KINDS | {PageKind.LOGIN_FAILED}:
            if forms.logged_in_as(html) == self.username:
                return self._phpbb_logged_in(html, url)
            raise LayoutChanged(
                url, N_("expected the login form, got a {kind} page").format(kind=kind.value)
            )
        form = forms.parse_form(html, url, Selectors.login_form)
        self.http.origin.check(form.action, "the login form (it would get the GM's password)")
        await self._age(fetched)
        response = await self.post_login(
            form.action,
            lambda password: form.data(
                username=self.username, password=password, autologin="on", login="Login"
            ),
        )
        if response.is_redirect:
            response = await self.http.get(urljoin(url, response.headers["Location"]))
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url)
        if kind is PageKind.CAPTCHA:
            raise self.captcha()
        if kind in _LOGIN_KINDS | {PageKind.LOGIN_FAILED}:
            said = forms.message_box(html) or "the login form came back"
            raise LoginFailed(
                N_("{url}: login as {user!r} failed: {said}").format(
                    url=self.base_url, user=self.username, said=said
                )
            )
        if forms.logged_in_as(html) is None:
            # A "you have been logged in" box without the header: look at the index.
            response = await self.http.get(self.http.url("index.php"))
            html, url = response.text, str(response.url)
        name = forms.logged_in_as(html)
        if name is None or name.casefold() != self.username.casefold():
            if name is None:
                said = N_("{url}: after logging in as {user!r} the board shows a guest")
            else:
                said = N_("{url}: after logging in as {user!r} the board shows {name}")
            raise LoginFailed(said.format(url=self.base_url, user=self.username, name=name))
        return self._phpbb_logged_in(html, url)

    async def _after_browser_login(self) -> User:
        response = await self.http.get(self.http.url("index.php"))
        html, url = response.text, str(response.url)
        refused = self.not_the_gm(forms.logged_in_as(html), "the browser login")
        if refused is not None:
            raise refused
        return self._phpbb_logged_in(html, url)

    def _phpbb_logged_in(self, html: str, url: str) -> User:
        if self.http.sid is None:
            self.http.sid = forms.sid_from_html(html)
        self.http.sid_in_urls = forms.links_carry_sid(html)
        name = forms.logged_in_as(html) or self.username
        user_id = forms.logged_in_user_id(html, url) or ""
        return self._logged_in(User(id=user_id, name=name))

    async def _age(self, fetched: float) -> None:
        """phpBB rejects a form posted less than ~1 s after it was served: wait as needed."""
        await self.http.sleep(fetched + self.form_min_age - self.http.now())

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = forms.classify(html, url)
        if kind is PageKind.CAPTCHA:
            raise self.captcha()
        # A guest-readable page served to a guest: our session is gone.
        gone = kind in _LOGIN_KINDS or (kind in expect and forms.logged_in_as(html) is None)
        return Served(kind, gone=gone, missing=kind is PageKind.MESSAGE)

    def _said(self, html: str) -> str:
        return forms.message_box(html)

    async def _page(
        self, path: str, params: Mapping[str, str | int], expect: set[PageKind]
    ) -> tuple[str, str]:
        """GET a page that needs the GM's session; (html, final url). Re-logs in once."""
        fetched = await self.page(path, expect, params)
        self._server_date = fetched.response.headers.get("date")
        if (lang := _HTML_LANG.search(fetched.html[:4096])) is not None:
            self.page_lang = lang.group(1)
        return fetched.html, fetched.url

    def _tz(self, html: str, url: str) -> tzinfo:
        if self.tz is None:
            found = detect_timezone(html, server_date(getattr(self, "_server_date", None)))
            if found is None and self.date_setting is not None:
                return UTC  # every time the page prints carries its offset (DATE_FORMAT)
            if found is None:
                raise LayoutChanged(url, N_("the page names no time zone and none is configured"))
            self.tz_found = True
            self.tz = found
        return self.tz

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "2", "t=2" or a viewtopic URL → "2"."""
        if thread.isdigit():
            return thread
        query = parse_qs(urlsplit(thread).query or thread)
        values = query.get("t")
        if values and values[0].isdigit():
            return values[0]
        raise NotFound(N_("not a {engine} topic: {thread!r}").format(engine="phpBB", thread=thread))

    async def topic_page(self, topic: str, start: int = 0) -> TopicPage:
        """One page of a topic, parsed; a page without posts is a layout change."""
        params: dict[str, str | int] = {"t": topic}
        if start:
            params["start"] = start
        html, url = await self._page("viewtopic.php", params, {PageKind.TOPIC})
        page = parse_topic_page(html, url, tz=self._tz(html, url), now=self._clock())
        if not page.posts:
            raise LayoutChanged(redact(url), N_("a topic page with no posts"))
        return page

    async def thread_view(self, thread: str, number: int) -> TopicPage:
        page = await self.topic_page(thread, (number - 1) * self._per_page)
        self._per_page = page.per_page
        return page

    def _resume(self, state: Mapping[str, Any], thread: str) -> Resume | None:
        """A phpBB cursor counts posts: the last seen one is on the page that post count ends."""
        count, per_page = state.get("count"), state.get("per_page")
        if not (isinstance(count, int) and isinstance(per_page, int) and per_page > 0):
            return None
        self._per_page = per_page
        return Resume.of({**state, "page": max(0, count - 1) // per_page + 1}, thread, "topic")

    def _thread_cursor(self, thread: str, last_id: int, views: Mapping[int, ThreadView]) -> Cursor:
        last = views[max(views)]
        assert isinstance(last, TopicPage)
        return Cursor(
            {
                "topic": thread,
                "last_id": last_id,
                "count": last.total_posts or max(p.number for p in last.posts),
                "per_page": last.per_page,
            }
        )

    # -- private messages --------------------------------------------------------------

    async def pm_folder(self, folder: str, start: int = 0) -> PMFolder:
        params: dict[str, str | int] = {"i": "pm", "folder": self.folders.get(folder, folder)}
        if start:
            params["start"] = start
        html, url = await self._page("ucp.php", params, {PageKind.PM_FOLDER})
        return parse_pm_folder(html, url, tz=self._tz(html, url), now=self._clock())

    async def read_pm(self, item: PMListItem) -> PrivateMessage:
        path = item.url or f"ucp.php?i=pm&mode=view&p={item.id}"
        params = dict(parse_qs(urlsplit(urljoin(self.base_url, path)).query))
        flat = {k: v[0] for k, v in params.items() if k != "sid"}
        html, url = await self._page("ucp.php", flat, {PageKind.PM_VIEW})
        return parse_pm_view(html, url, tz=self._tz(html, url), now=self._clock())

    async def pm_listing(self, folder: str, number: int, offset: int) -> PMFolder:
        return await self.pm_folder(folder, offset)

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (case-insensitive), through the memberlist."""
        self.begin()
        known = self.known_member(name)
        if known is not None:
            return known
        await self._members_page({"mode": "searchuser", "username": name.strip()})
        known = self.known_member(name)
        if known is not None:
            return known

        async def listing(number: int, start: int) -> forms.MemberList:
            # The search may be disabled for the GM: walk the whole list.
            found = await self._members_page({"start": start} if start else {})
            if found is None:
                raise LayoutChanged(self.http.url("memberlist.php"), N_("no member list"))
            return found

        return await self.find_member(name, listing)

    async def _members_page(self, params: Mapping[str, str | int]) -> forms.MemberList | None:
        html, url = await self._page(
            "memberlist.php", params, {PageKind.MEMBERLIST, PageKind.MESSAGE}
        )
        if forms.classify(html, url) is not PageKind.MEMBERLIST:
            return None
        listing = forms.parse_memberlist(html, url)
        for user in listing.users:
            self._members.setdefault(user.name.casefold(), user)
        return listing

    # -- posting -----------------------------------------------------------------------

    async def _form(self, path: str, params: Mapping[str, str | int]) -> tuple[Form, float]:
        html, url = await self._page(path, params, {PageKind.POSTING_FORM})
        return forms.parse_form(html, url, Selectors.post_form), self.http.now()

    async def _submit(
        self, path: str, params: Mapping[str, str | int], fields: Callable[[Form], dict[str, str]]
    ) -> httpx.Response:
        """Fetch a posting form, fill it and post it, through phpBB's refusals
        (`WebBoard.submit`): flood control, an invalid form token, new posts in the topic
        since the form was served (post again with the re-displayed form), an expired
        session. Returns the board's answer to the accepted POST."""

        async def fresh() -> tuple[Form, float]:
            return await self._form(path, params)

        async def send(served: tuple[Form, float]) -> Said[tuple[Form, float], httpx.Response]:
            form, fetched = served
            self.http.origin.check(form.action, "the posting form")
            await self._age(fetched)
            response = await self.http.post(form.action, fields(form))
            if response.is_redirect:
                return Said(Answer.ACCEPTED, response)
            html, url = response.text, str(response.url)
            kind = forms.classify(html, url)
            said = forms.message_box(html)
            if kind is PageKind.POSTED:
                return Said(Answer.ACCEPTED, response)
            if kind is PageKind.CAPTCHA:
                raise self.captcha()
            again = None
            if kind in (PageKind.FLOOD, PageKind.NEW_POSTS):
                # The form comes back with a fresh token: post it again.
                again = (forms.parse_form(html, url, Selectors.post_form), self.http.now())
            return answer_to(kind, said, url, form=again)

        return await self.submit(self.http.url(path, params), fresh, send)

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the topic; the new post's id once it is seen on the topic page."""
        self.begin()
        await self.ensure_login()
        topic = self.topic_id(thread)

        def fields(form: Form) -> dict[str, str]:
            return form.data(subject=form.texts.get("subject", ""), message=bbcode, post="Submit")

        response = await self._submit("posting.php", {"mode": "reply", "t": topic}, fields)
        location = response.headers.get("Location", "") if response.is_redirect else ""
        post_id = forms.post_id_from_location(location) if location else None
        if post_id is None:
            raise LayoutChanged(
                redact(str(response.url)), N_("the reply was accepted without naming the new post")
            )
        html, url = await self._page("viewtopic.php", {"p": post_id}, {PageKind.TOPIC})
        page = parse_topic_page(html, url, tz=self._tz(html, url), now=self._clock())
        return self.posted(page.posts, post_id, url, topic)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM; its id once it is listed in the GM's outbox or sentbox."""
        users = await self.recipients(recipients)
        self.begin()

        def fields(form: Form) -> dict[str, str]:
            data = form.data(subject=subject, message=bbcode, post="Submit")
            for key in [k for k in data if k.startswith("address_list[")]:
                del data[key]
            data.update({f"address_list[u][{u.id}]": "to" for u in users})
            return data

        response = await self._submit("ucp.php", {"i": "pm", "mode": "compose"}, fields)
        if response.is_redirect:
            response = await self.http.get(urljoin(str(response.url), response.headers["Location"]))
        pm_id = forms.pm_id_from_confirmation(response.text, str(response.url))
        for folder in ("outbox", "sentbox"):
            page = await self.pm_folder(folder)
            if any(item.id == pm_id for item in page.items):
                log.info("sent PM %s to %s", pm_id, ", ".join(u.name for u in users))
                return pm_id
        raise BoardError(
            N_("{url}: PM {pm} was sent but is in neither outbox nor sentbox").format(
                url=self.base_url, pm=pm_id
            )
        )
