"""`SmfBoard`: the `Board` protocol over an SMF 2.1 board, as the GM's account.

Fetching and the board's moods live here; what a page says is read by the pure readers
(`forums.smf.pages`).

Cursors. A thread cursor is `{"thread", "last_id", "page", "per_page"}` (`forums.cursor`):
a poll starts at the page of the last post seen and reads on. A PM cursor is `{"last_id"}`:
SMF's message ids grow with time in every folder.

Time. SMF prints times in the reader's zone and names none. The zone is the GM profile's
("Look and Layout", read after each login) unless the adapter is given `tz`; `now` for
"Today at …" is the server's `Date`.

Spam protection. SMF refuses a post or PM sent within `spamWaitTime` (5 s) of the last one
from the same IP ("The last posting from your IP was less than 5 seconds ago"): waited out
and sent again. Its cap of PMs an hour (`pm_spam_settings`, 20 by default) is
`FloodControl` at once, with the host told which setting it is. (SMF 2.1.4 on PostgreSQL
never enforces the seconds between posts: its flood log's upsert always reports one row.)
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, tzinfo
from enum import Enum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import httpx

from forums.errors import N_, BoardError, FloodControl, LayoutChanged, LoginFailed, NotFound
from forums.formboard import PagedBoard, Served, answer_to
from forums.guard import redact
from forums.pages import MemberList, PageKind, PMListItem, TopicPage
from forums.records import PrivateMessage, User
from forums.smf import pages
from forums.smf.pages import Form, PMFolder
from forums.smf.selectors import DEFAULT, SmfSelectors
from forums.webboard import Answer, Said

log = logging.getLogger("forums.smf")

LOGIN_KINDS = frozenset({PageKind.LOGIN_FORM, PageKind.NOT_LOGGED_IN, PageKind.SESSION_EXPIRED})
FORM_KINDS = frozenset({PageKind.POSTING_FORM, PageKind.NEW_POSTS, PageKind.FORM_ERROR})
INBOX = "inbox"
SENT = "sent"
VERIFICATION_HELP = N_(
    "{url}: SMF asks {user!r} for a visual verification before a personal message (members "
    "with fewer posts than the board's setting). In the admin centre, Members → Personal "
    "Messages (or Security and Moderation → Anti-Spam): set the posts needed before PMs "
    "need no verification to 0, or give the GM account enough posts."
)
PER_HOUR_HELP = N_(
    "{url}: SMF's limit of {limit} personal messages an hour holds for {user!r}; the rest "
    "wait. Raise it (admin centre, Security and Moderation → Anti-Spam, personal messages "
    "per hour; 0 is no limit) for the GM's account group."
)


class SmfBoard(PagedBoard):
    """An SMF 2.1 board (the Curve2 theme and themes that keep its ids), as the GM."""

    engine = "smf"
    login_path = "index.php?action=login"
    flood_margin = 1.0
    default_per_page = pages.DEFAULT_PER_PAGE
    default_flood_wait = 6.0
    default_selectors = DEFAULT
    selectors: SmfSelectors
    inbox_folders = (INBOX,)
    sent_folders = (SENT,)
    """SMF keeps every message the GM sends in Sent Items."""

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        super().__init__(base_url, username, password, **options)
        self._shown_pms: dict[str, PrivateMessage] = {}
        """PMs a folder page showed in full, by id (no second request for them)."""

    def times_read(self) -> str:
        """How this adapter reads the times of the pages, for `board check`."""
        if self._tz is not None:
            return N_("the GM's own format, zone {tz} (configured)").format(tz=self._tz)
        if self.tz is not None:
            return N_("the GM's own format, zone {tz} (from the GM's profile)").format(tz=self.tz)
        return N_("the GM's own format, zone not read yet")

    # -- logging in --------------------------------------------------------------------

    async def _form_login(self) -> User:
        """The board's login form (its session field and token come with it)."""
        for _ in range(3):
            response = await self.http.get(self.login_url())
            html, url = response.text, str(response.url)
            user = pages.logged_in_user(html, self.selectors)
            if user is not None:
                if self.is_gm(user.name):
                    return await self._logged_in_as(user)  # an earlier login's cookies
                raise LoginFailed(
                    N_("{url}: the board shows {name}, not the GM").format(
                        url=self.base_url, name=user.name
                    )
                )
            form = pages.login_form(html, url, self.selectors)

            def fill(password: str, form: Form = form) -> dict[str, str]:
                return form.data(user=self.username, passwrd=password, cookielength="3153600")

            answer = await self.post_login(form.action, fill)
            if answer.is_redirect:
                answer = await self.http.get(
                    str(answer.next_request.url)
                    if answer.next_request
                    else self.http.url("index.php")
                )
            html, url = answer.text, str(answer.url)
            kind = pages.classify(html, url, self.selectors)
            said = pages.message(html, self.selectors)
            if kind is PageKind.FLOOD:  # SMF's seconds between logins from one IP
                wait = pages.flood_wait(said) or 2.0
                log.info("SMF asks to wait %.0f s before logging in again", wait)
                await self.http.sleep(wait + self.flood_margin)
                continue
            if pages.needs_verification(html):
                raise self.captcha()
            user = pages.logged_in_user(html, self.selectors)
            if user is None and kind not in LOGIN_KINDS | {PageKind.LOGIN_FAILED}:
                check = await self.http.get(self.http.url("index.php"))
                user = pages.logged_in_user(check.text, self.selectors)
            if user is None:
                raise LoginFailed(
                    N_("{url}: login as {user!r} failed: {said}").format(
                        url=self.base_url,
                        user=self.username,
                        said=said or N_("the login form came back"),
                    )
                )
            refused = self.not_the_gm(
                user.name, N_("logging in as {user!r}").format(user=self.username)
            )
            if refused is not None:
                raise refused
            return await self._logged_in_as(user)
        raise LoginFailed(
            N_("{url}: SMF kept refusing logins as too soon after another").format(
                url=self.base_url
            )
        )

    async def _logged_in_as(self, user: User) -> User:
        """Record the login, then read the GM's zone from his profile (unless configured)."""
        done = self._logged_in(user)
        if self._tz is None:
            response = await self.http.get(
                self.http.url("index.php", {"action": "profile", "area": "theme"})
            )
            zone = pages.profile_zone(response.text, self.selectors)
            if zone is None:
                raise LayoutChanged(
                    redact(str(response.url)),
                    N_(
                        "the GM's profile shows no time zone (choose one in his profile: Look "
                        "and Layout → Time zone)"
                    ),
                )
            try:
                self.tz = ZoneInfo(zone)
            except (ZoneInfoNotFoundError, ValueError):
                raise LayoutChanged(
                    redact(str(response.url)),
                    N_("the GM's profile names an unknown zone {zone!r}").format(zone=zone),
                ) from None
        return done

    # -- pages -------------------------------------------------------------------------

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = pages.classify(html, url, self.selectors)
        if kind is PageKind.CAPTCHA:
            raise self.captcha()
        gone = kind in LOGIN_KINDS or (kind not in expect and pages.is_guest(html))
        if kind in expect and kind is PageKind.TOPIC and pages.is_guest(html):
            gone = True  # a thread guests may read, served as to a guest: the session is gone
        return Served(kind, gone=gone, missing=kind is PageKind.MESSAGE)

    def _said(self, html: str) -> str:
        return pages.message(html, self.selectors)

    def _reading(self, response: httpx.Response) -> tuple[tzinfo, datetime]:
        """(zone, now) to read a page's times with: the GM's zone, the page's `Date`."""
        if self.tz is None:
            raise LayoutChanged(redact(str(response.url)), N_("the GM's time zone is not known"))
        return self.tz, self.served_at(response)

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "2", "2.0", "topic=2.15", an `index.php?topic=2.0` URL → "2"."""
        thread = thread.strip()
        head = thread.partition(".")[0]
        if head.isdigit():
            return head
        topic = pages.params(thread if "?" in thread else "?" + thread).get("topic", "")
        head = topic.partition(".")[0]
        if head.isdigit():
            return head
        raise NotFound(N_("not an {engine} thread: {thread!r}").format(engine="SMF", thread=thread))

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        """Page `number` of a thread, parsed."""
        start = (number - 1) * (self._per_page or self.default_per_page)

        def where() -> str:
            return self.http.url("index.php", {"topic": f"{thread}.{start}"})

        fetched = await self.page(where, {PageKind.TOPIC})
        tz, now = self._reading(fetched.response)
        view = pages.parse_topic_page(
            fetched.html, fetched.url, tz=tz, now=now, per_page=self._per_page, sel=self.selectors
        )
        if view.page != number and number <= view.pages:
            # SMF's pages are asked for by offset, counted with the page size known.
            raise LayoutChanged(
                redact(fetched.url),
                N_("asked for page {number}, the board served page {view_page}").format(
                    number=number, view_page=view.page
                ),
            )
        return self.noted(view)

    # -- private messages --------------------------------------------------------------

    async def pm_folder(self, folder: str = INBOX, start: int = 0) -> PMFolder:
        """A page of a PM folder, newest first (whatever the GM's own sort)."""
        query: dict[str, str | int] = {"action": "pm", "f": folder, "sort": "date", "desc": ""}
        if start:
            query["start"] = start
        fetched = await self.page("index.php", {PageKind.PM_FOLDER}, query)
        tz, now = self._reading(fetched.response)
        listing = pages.parse_pm_folder(
            fetched.html, fetched.url, tz=tz, now=now, sel=self.selectors
        )
        self._shown_pms.update(listing.messages)
        return listing

    async def pm_listing(self, folder: str, number: int, offset: int) -> PMFolder:
        return await self.pm_folder(folder, offset)

    async def read_pm(self, item: PMListItem) -> PrivateMessage:
        """The message a folder row lists: as its folder page showed it, else its own page."""
        shown = self._shown_pms.pop(item.id, None)
        if shown is not None:
            return shown
        query = {"action": "pm", "f": SENT if item.recipients else INBOX, "pmsg": item.id}
        fetched = await self.page("index.php", {PageKind.PM_FOLDER}, query)
        tz, now = self._reading(fetched.response)
        found = pages.pm_messages(fetched.html, fetched.url, tz=tz, now=now, sel=self.selectors)
        if item.id not in found:
            raise LayoutChanged(
                redact(fetched.url),
                N_("PM {item_id} is not on its own page").format(item_id=item.id),
            )
        return found[item.id]

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A member by name (any case), through the member list's search by name."""
        self.begin()
        known = self.known_member(name)
        if known is not None:
            return known

        async def listing(number: int, start: int) -> MemberList:
            query: dict[str, str | int] = {
                "action": "mlist",
                "sa": "search",
                "search": name.strip(),
                "fields": "name",
            }
            if start:
                query["start"] = start
            fetched = await self.page("index.php", {PageKind.MEMBERLIST}, query)
            users, page, pages_count = pages.parse_memberlist(
                fetched.html, fetched.url, self.selectors
            )
            return MemberList(tuple(users), page, pages_count)

        return await self.find_member(name, listing)

    # -- posting -----------------------------------------------------------------------

    async def _form(self, query: Mapping[str, str | int]) -> Form:
        # A fresh form may carry a warning already (new replies, an old topic): still a form.
        fetched = await self.page("index.php", FORM_KINDS | {PageKind.FLOOD}, query)
        if fetched.kind is PageKind.FLOOD:  # SMF's cap of PMs an hour refuses the form itself
            said = self._answer(fetched.response, "form")
            raise FloodControl(
                f"{self.base_url}: {said.text}",
                retry_after=said.wait or self.flood_wait,
            )
        if pages.needs_verification(fetched.html):
            raise BoardError(VERIFICATION_HELP.format(url=self.base_url, user=self.username))
        return pages.read_form(fetched.html, fetched.url, self.selectors.post_form)

    def _answer(self, response: httpx.Response, what: str) -> Said[Form, str]:
        """The board's answer to a submission that did not redirect."""
        html, url = response.text, str(response.url)
        kind = pages.classify(html, url, self.selectors)
        said = pages.message(html, self.selectors)
        limit = pages.per_hour_limit(said)
        if limit is not None:
            raise FloodControl(
                PER_HOUR_HELP.format(url=self.base_url, limit=limit, user=self.username),
                retry_after=3600 / max(limit, 1),
            )
        if kind is PageKind.POSTING_FORM and pages.needs_verification(html):
            raise BoardError(VERIFICATION_HELP.format(url=self.base_url, user=self.username))
        form = None
        if kind is PageKind.NEW_POSTS:
            form = pages.read_form(html, url, self.selectors.post_form)
        if kind is PageKind.POSTING_FORM:
            kind = PageKind.FORM_ERROR  # the form came back without a word: not taken
        return answer_to(
            kind, said or f"the {what} came back", url, form=form, wait=pages.flood_wait(said)
        )

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id (SMF names it in its redirect)."""
        self.begin()
        topic = self.topic_id(thread)
        await self.ensure_login()
        query = {"action": "post", "topic": f"{topic}.0"}

        async def fresh() -> Form:
            return await self._form(query)

        async def send(form: Form) -> Said[Form, str]:
            self.http.origin.check(form.action, "the reply form")
            response = await self.http.post(form.action, form.data(message=bbcode, goback="1"))
            if response.is_redirect:
                last = form.fields.get("last_msg", "")
                return Said(Answer.ACCEPTED, result=await self._new_post(topic, response, last))
            return self._answer(response, "reply form")

        return await self.submit(self.http.url("index.php", query), fresh, send)

    async def _new_post(self, topic: str, answer: httpx.Response, last_msg: str) -> str:
        """The GM's post the board just took: SMF's answer sends us to the thread (to the
        first unread post) without naming it; it is the GM's post there with an id above
        the form's `last_msg`, on that page or the last."""
        location = answer.headers.get("Location", "")
        named = pages.new_message_id(location)  # a board that names it (a return-to-post mod)
        if named is not None:
            return named
        after = int(last_msg) if last_msg.isdigit() else 0
        target = answer.next_request.url if answer.next_request is not None else None
        fetched = await self.page(
            str(target) if target else self.http.url("index.php", {"topic": f"{topic}.new"}),
            {PageKind.TOPIC},
        )
        tz, now = self._reading(fetched.response)
        view = pages.parse_topic_page(
            fetched.html, fetched.url, tz=tz, now=now, per_page=self._per_page, sel=self.selectors
        )
        if view.page < view.pages:
            view = await self.thread_page(topic, view.pages)
        mine = [
            int(p.id)
            for p in view.posts
            if int(p.id) > after and p.author.casefold() == self.username.casefold()
        ]
        if not mine:
            raise LayoutChanged(
                redact(fetched.url),
                N_("the board took the reply, but it is not on the thread's last page"),
            )
        return str(max(mine))

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM; its id, as SMF lists it in the GM's Sent Items."""
        self.begin()
        await self.ensure_login()
        users = await self.recipients(recipients)
        names = ", ".join(f'"{u.name}"' for u in users)
        query = {"action": "pm", "sa": "send"}
        before = await self.newest_sent()

        async def fresh() -> Form:
            return await self._form(query)

        async def send(form: Form) -> Said[Form, str]:
            self.http.origin.check(form.action, "the message form")
            data = form.data(to=names, bcc="", subject=subject, message=bbcode)
            response = await self.http.post(form.action, data)
            if response.is_redirect and "done=sent" in response.headers.get("Location", ""):
                return Said(Answer.ACCEPTED, result="sent")
            if response.is_redirect:
                raise BoardError(
                    N_("{url}: the board did not say the message was sent ({location})").format(
                        url=self.base_url, location=redact(response.headers.get("Location", ""))
                    )
                )
            return self._answer(response, "message form")

        await self.submit(self.http.url("index.php", query), fresh, send)
        why_not = "SMF keeps each one there: deleted at once?"
        return await self.sent_copy(before, subject, [u.name for u in users], why_not)
