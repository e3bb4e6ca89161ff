"""`MybbBoard`: the `Board` protocol over a MyBB 1.8 board, as the GM's account.

Fetching and the board's moods live here; what a page says is read by the pure parsers
(`forums.mybb.thread`, `forums.mybb.pms`, `forums.mybb.forms`); replying and sending PMs
are in `forums.mybb.posting`.

Cursors. A thread cursor is `{"thread", "last_id", "page", "per_page"}`: the highest post
id seen and the page that held it. A poll starts at that page (stepping back while the page
holds only unseen posts: deletions move posts to earlier pages) and reads on to the last
page; it returns every post on the pages it read, so an edit there — or MyBB merging a
player's second post into the first — is seen at once, not only at the deadline. `since=None`
reads every page (the deadline freeze). A PM cursor is `{"last_id"}`: MyBB's `pmid`s grow
with time in every folder.

Time. MyBB pages print times in the GM's zone and name none: each page's zone (and the
m-d/d-m order) comes from its footer clock against the server's `Date` header, unless `tz`
(and `date_order`) are given.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, tzinfo
from enum import Enum
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from forums.cursor import ThreadView
from forums.errors import N_, BoardError, LayoutChanged, LoginFailed, NotFound
from forums.formboard import PagedBoard, Served
from forums.guard import redact
from forums.mybb import forms, posting
from forums.mybb.dates import read_clock
from forums.mybb.forms import PageKind
from forums.mybb.pms import SENT, PMFolder, PMListItem, parse_pm_folder, parse_pm_view
from forums.mybb.selectors import DEFAULT, MybbSelectors
from forums.mybb.thread import parse_thread_page
from forums.pages import MemberList, TopicPage
from forums.records import Cursor, PrivateMessage, User
from forums.userprefs import DateSetting, OwnDateFormat, filled_form, option_label

log = logging.getLogger("forums.mybb")

TWO_STEP_HELP = N_(
    "{url}: the account {user!r} asks for a one-time code after its password (two-step "
    "verification), which forumgm cannot give. Switch it off for the GM account (User CP), "
    "or ask the board's administrator to exempt that account."
)
LOGIN_KINDS = frozenset({PageKind.LOGIN_FORM, PageKind.NOT_LOGGED_IN, PageKind.SESSION_EXPIRED})
INBOX = "0"


OPTIONS_PAGE = {"action": "options"}
DATE_FORMAT = {"dateformat": "13", "timeformat": "3"}
"""MyBB's own lists (inc/init.php): 13 is ISO 8601 `Y-m-d`, 3 the 24-hour `H:i`."""
DATE_FORMAT_SHOWN = "Y-m-d H:i"


def _is_set(fields: Mapping[str, str]) -> bool:
    return all(fields.get(k) == v for k, v in DATE_FORMAT.items())


def _shown_format(tree: Any, fields: Mapping[str, str]) -> str:
    """The account's date and time format as its options page shows them («Use Default»)."""
    date = option_label(tree, "select[name=dateformat]", fields.get("dateformat", "0"))
    clock = option_label(tree, "select[name=timeformat]", fields.get("timeformat", "0"))
    return f"{date or 'Use Default'}, {clock or 'Use Default'}"


class MybbBoard(OwnDateFormat, PagedBoard):
    """A MyBB 1.8 board (default theme and themes that keep its classes), as the GM."""

    engine = "mybb"
    login_path = "member.php?action=login"
    two_step_help = TWO_STEP_HELP
    flood_margin = 1.0
    default_flood_wait = 30.0
    default_date_order = "mdy"
    default_selectors = DEFAULT
    selectors: MybbSelectors
    inbox_folders = (INBOX,)
    sent_folders = (SENT,)
    """MyBB keeps a copy in Sent Items when "Save a Copy" is ticked (`posting.send_pm` ticks it)."""

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        # `set_date_format` (ISO dates, 24-hour times: `DATE_FORMAT`) is `OwnDateFormat`'s;
        # a configured `tz` is kept, else each page's clock says the zone.
        super().__init__(base_url, username, password, **options)
        self._times: dict[str, datetime] = {}
        """When each post was made, as last seen: a deleted-post stub shows no time."""
        self.highest_post = 0
        """The highest post id seen on this board (a reply below it was merged)."""

    # -- session ----------------------------------------------------------------------

    def times_read(self) -> str:
        """How this adapter reads the times of the pages, for `board check`."""
        if self._tz is not None:
            zone = N_("zone {tz} (configured)").format(tz=self._tz)
        elif self.tz is not None:
            zone = N_("zone {tz} (from the page's clock)").format(tz=self.tz)
        else:
            zone = N_("zone not seen")
        if self.date_setting is not None:
            return N_("{setting}, {zone}").format(setting=self.date_setting.describe(), zone=zone)
        if self._order_known:
            shown = N_("the board's own format, dates {order}, {zone}")
        else:
            shown = N_("the board's own format, dates {order} (from the clock), {zone}")
        shown = shown.format(order=self.date_order, zone=zone)
        if self.date_setting_error is not None:
            return N_("{shown}; the GM's own date format was not set: {error}").format(
                shown=shown, error=self.date_setting_error
            )
        return shown

    async def ensure_date_format(self) -> DateSetting:
        """Make the GM account's date and time format ISO 8601 and 24-hour (user CP → Edit
        Options), unless they are already. MyBB turns off whatever option the form does not
        send, so the form goes back as served with only these two changed; checked on the
        page again after."""
        html, url, _ = await self.fetch("usercp.php", OPTIONS_PAGE, {PageKind.PREFERENCES})
        tree = forms.tree_of(html)
        form = filled_form(tree, "dateformat", url)
        before = _shown_format(tree, form.fields)
        if _is_set(form.fields):
            return DateSetting(DATE_FORMAT_SHOWN, before, changed=False)
        self.http.origin.check(form.action, "the user CP's options form")
        fields = dict(form.fields, **DATE_FORMAT)
        fields.setdefault("regsubmit", "Update Options")
        response = await self.http.post(form.action, fields)
        kind = forms.classify(response.text, str(response.url), self.selectors)
        if not response.is_redirect and kind is not PageKind.POSTED:
            said = forms.message(response.text, self.selectors) or N_("the form came back")
            raise BoardError(
                N_(
                    "{url}: the board did not take the date format: {said} (set it by hand in "
                    "the GM's user CP, Edit Options, or leave [board] set_date_format off)"
                ).format(url=self.base_url, said=said)
            )
        html, url, _ = await self.fetch("usercp.php", OPTIONS_PAGE, {PageKind.PREFERENCES})
        now = filled_form(forms.tree_of(html), "dateformat", url).fields
        if not _is_set(now):
            raise LayoutChanged(url, N_("the date and time format did not change when set"))
        self.date_order = "ymd"
        self._order_known = True
        return DateSetting(DATE_FORMAT_SHOWN, before, changed=True)

    async def _form_login(self) -> User:
        """The board's login form (`my_post_key`, "remember me")."""
        response = await self.http.get(self.login_url())
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url, self.selectors)
        self.refuse(kind)
        if kind not in (PageKind.LOGIN_FORM, PageKind.LOGIN_FAILED):
            user = forms.logged_in_user(html, self.selectors)
            if user is not None and self.is_gm(user.name):
                return self._logged_in(user)  # the cookies of an earlier login still work
            raise LayoutChanged(
                redact(url),
                N_("expected the login form, got a {kind} page").format(kind=kind.value),
            )
        form = forms.login_form(html, url)

        def fill(password: str) -> dict[str, str]:
            data = form.data(username=self.username, password=password)
            data.setdefault("remember", "yes")
            return data

        response = await self.post_login(form.action, fill)
        if response.is_redirect:
            response = await self.http.get(forms.absolute(url, response.headers["Location"]))
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url, self.selectors)
        self.refuse(kind)
        if kind in LOGIN_KINDS | {PageKind.LOGIN_FAILED, PageKind.MESSAGE}:
            said = forms.message(html, self.selectors) or N_("the login form came back")
            raise LoginFailed(
                N_("{url}: login as {user!r} failed: {said}").format(
                    url=self.base_url,
                    user=self.username,
                    said=forms.capital_letters_note(self.username, said),
                )
            )
        # The answer is a "you are now logged in" redirect page without the header.
        return await self._session_user(N_("logging in as {user!r}").format(user=self.username))

    async def _after_browser_login(self) -> User:
        return await self._session_user(N_("the browser login"))

    async def _session_user(self, after: str) -> User:
        """Whom the board's index now shows: the GM, or the login failed."""
        response = await self.http.get(self.http.url("index.php"))
        self.refuse(forms.classify(response.text, str(response.url), self.selectors))
        return self.greeted(forms.logged_in_user(response.text, self.selectors), after)

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = forms.classify(html, url, self.selectors)
        self.refuse(kind)
        # A page guests may read, served as to a guest: the session is gone too.
        gone = kind in LOGIN_KINDS or forms.is_guest(html, self.selectors)
        return Served(kind, gone=gone, missing=kind is PageKind.MESSAGE)

    def _said(self, html: str) -> str:
        return forms.message(html, self.selectors)

    async def fetch(
        self, path: str, params: Mapping[str, str | int], expect: set[PageKind]
    ) -> tuple[str, str, httpx.Response]:
        """GET a page that needs the GM's session: (html, final url, response)."""
        fetched = await self.page(path, expect, params)
        return fetched.html, fetched.url, fetched.response

    def reading(self, html: str, response: httpx.Response) -> tuple[tzinfo, str, datetime]:
        """(zone, date order, now) to read this page's times with."""
        now = self.served_at(response)
        shown = forms.footer_clock(html, self.selectors)
        clock = read_clock(shown, now) if shown else None
        if clock is not None and clock.order is not None and not self._order_known:
            self.date_order = clock.order
        tz = self._tz or (clock.tz if clock is not None else self.tz)
        if tz is None:
            raise LayoutChanged(
                redact(str(response.url)),
                N_("the page shows no clock to read the time zone from and none is configured"),
            )
        self.tz = tz
        return tz, self.date_order, now

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "1", "tid=1", a showthread URL or an SEO URL (`thread-1.html`) → "1"."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        tid = forms.query_param(thread, "tid") or next(iter(parse_qs(thread).get("tid", [])), None)
        if tid and tid.isdigit():
            return tid
        found = forms.seo_thread_id(urlsplit(thread).path)
        if found:
            return found
        raise NotFound(N_("not a {engine} thread: {thread!r}").format(engine="MyBB", thread=thread))

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        """One page of a thread in linear mode, parsed; a page without posts is a layout change."""
        params: dict[str, str | int] = {"tid": thread, "mode": "linear"}
        if number > 1:
            params["page"] = number
        html, url, response = await self.fetch("showthread.php", params, {PageKind.TOPIC})
        tz, order, now = self.reading(html, response)
        view = parse_thread_page(
            html,
            url,
            tz=tz,
            now=now,
            order=order,
            per_page=self._per_page,
            known_times=self._times,
            selectors=self.selectors,
        )
        self._note(view)
        return self.noted(view)

    def _note(self, view: TopicPage) -> None:
        for post in view.posts:
            if post.body.runs or not post.deleted:
                self._times[post.id] = post.posted_at
            self.highest_post = max(self.highest_post, int(post.id))

    def _thread_cursor(self, thread: str, last_id: int, views: Mapping[int, ThreadView]) -> Cursor:
        last = views[max(views)]
        return Cursor(
            {
                "thread": thread,
                "last_id": last_id,
                "page": last.page,
                "per_page": self._per_page or last.per_page,
            }
        )

    # -- private messages --------------------------------------------------------------

    async def pm_folder(self, folder: str = INBOX, number: int = 1) -> PMFolder:
        params: dict[str, str | int] = {"fid": folder}
        if number > 1:
            params["page"] = number
        html, url, response = await self.fetch("private.php", params, {PageKind.PM_FOLDER})
        tz, order, now = self.reading(html, response)
        return parse_pm_folder(html, url, tz=tz, now=now, order=order, selectors=self.selectors)

    async def pm_listing(self, folder: str, number: int, offset: int) -> PMFolder:
        return await self.pm_folder(folder, number)

    async def read_pm(self, item: PMListItem) -> PrivateMessage:
        params = {"action": "read", "pmid": item.id}
        html, url, response = await self.fetch("private.php", params, {PageKind.PM_VIEW})
        tz, order, now = self.reading(html, response)
        pm = parse_pm_view(html, url, tz=tz, now=now, order=order, selectors=self.selectors)
        if pm.id != item.id:
            raise LayoutChanged(
                redact(url),
                N_("asked for PM {item_id}, the page shows PM {pm_id}").format(
                    item_id=item.id, pm_id=pm.id
                ),
            )
        return pm

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (case-insensitive), through the member list's search: MyBB's exact
        search first, then its "begins with" search (a LIKE, not MyBB's LOWER(), which on
        SQLite cannot find a name with a capital letter outside A-Z), the match made here."""
        self.begin()
        known = self.known_member(name)
        if known is not None:
            return known
        for match in (None, "begins"):

            async def listing(
                number: int, offset: int, match: str | None = match
            ) -> MemberList | None:
                params: dict[str, str | int] = {"username": name.strip()}
                if match is not None:
                    params["username_match"] = match
                if number > 1:
                    params["page"] = number
                html, url, _ = await self.fetch(
                    "memberlist.php", params, {PageKind.MEMBERLIST, PageKind.MESSAGE}
                )
                if forms.classify(html, url, self.selectors) is PageKind.MESSAGE:
                    return None  # "no members found"
                return forms.parse_memberlist(html, url, self.selectors)

            found = await self.find_member(name, listing)
            if found is not None:
                return found
        return None

    # -- posting -------------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id once it is seen on the thread page."""
        return await posting.reply(self, thread, bbcode)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM; its id (of the GM's copy) once it is listed in Sent Items."""
        return await posting.send_pm(self, recipients, subject, bbcode)
