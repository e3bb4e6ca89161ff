"""What the engines of PunBB's family share: FluxBB 1.5 and PunBB 1.2 (`forums.fluxbb`,
one layout) and PunBB 1.3/1.4 (`forums.punbb`, the `#brd-wrap` layout).

Their pages differ, their ways do not: the header greets the reader by name in a
`strong` and links to his profile; a form comes back with its errors in a list; an
answer is a "Redirecting …" page with a meta refresh; the paging line shows the current
page in `strong`; a quote is `div.quotebox` with «Name wrote:» in its `cite`; the smilies
are the same twelve images; the account's zone is an offset in hours with a DST tick and
its date format one of six (`forums.dates.DASHED_DATE_ORDERS`); the login form takes
`req_username`, `req_password` and `save_pass`. The readers here take the engine's
selectors (any object with the fields `FamilySelectors` names), and `PunFamilyBoard` is
the login, the session's user and his zone, over the engine's `classify`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from enum import Enum
from functools import partial
from typing import Any, ClassVar, Protocol
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.dates import DASHED_DATE_ORDERS, hour_offset_zone, order_of_example
from forums.errors import N_, LayoutChanged, LoginFailed
from forums.formboard import PagedBoard, Served, answer_to
from forums.guard import redact
from forums.html import parse_html, quote_author_from_cite
from forums.pages import MemberList, PageKind, TopicPage
from forums.records import User
from forums.userprefs import filled_form
from forums.webboard import Answer, Said

__all__ = [
    "NAME_SEARCH",
    "SMILIES",
    "FamilySelectors",
    "PunFamilyBoard",
    "Zone",
    "is_guest",
    "logged_in_as",
    "message",
    "my_id",
    "name_quoteboxes",
    "paging",
    "parse_members",
    "query_value",
    "read_hour_zone",
    "redirect_target",
    "smilies_as_typed",
    "spellings",
    "text_of",
    "tree_of",
    "viewtopic_id",
    "wait_asked",
]

_REFRESH = re.compile(
    r"""<meta[^>]+http-equiv=["']refresh["'][^>]+content=["']\d+;\s*URL=([^"']+)""", re.I
)
_SMILIE = re.compile(r"(?:^|/)img/smilies/([a-z_]+)\.(?:png|gif)$", re.I)
"""A smilie's image: absolute `…/img/smilies/smile.png`, or PunBB 1.2's relative path."""
SMILIES = {
    "smile": ":)",
    "neutral": ":|",
    "sad": ":(",
    "big_smile": ":D",
    "yikes": ":o",
    "wink": ";)",
    "hmm": ":/",
    "tongue": ":P",
    "lol": ":lol:",
    "mad": ":mad:",
    "roll": ":rolleyes:",
    "cool": ":cool:",
}
"""The family's smilies (FluxBB 1.5's and PunBB 1.4's parser): image name → the code typed."""


class FamilySelectors(Protocol):
    """The selectors every engine of the family names alike."""

    @property
    def welcome(self) -> str: ...
    @property
    def profile_link(self) -> str: ...
    @property
    def error_list(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def zone(self) -> str: ...
    @property
    def dst(self) -> str: ...
    @property
    def date_format(self) -> str: ...
    @property
    def member_link(self) -> str: ...


def tree_of(html: str) -> LexborHTMLParser:
    return parse_html(html)


def text_of(node: LexborNode | None) -> str:
    """A node's text with its white space folded ("" for none)."""
    return " ".join((node.text(deep=True) if node is not None else "").split())


def query_value(url: str, key: str) -> str | None:
    values = parse_qs(urlsplit(url.replace("&amp;", "&")).query).get(key)
    return values[0] if values else None


def viewtopic_id(thread: str) -> str | None:
    """The topic's id in what the host wrote: "2", "id=2" or a viewtopic address
    (`viewtopic.php?id=2&p=3`); None for anything else."""
    thread = thread.strip()
    if thread.isdigit():
        return thread
    found = parse_qs(urlsplit(thread).query or thread).get("id", [""])[0]
    if found.isdigit() and ("viewtopic" in thread or thread.startswith("id=")):
        return found
    return None


def logged_in_as(tree: LexborHTMLParser, selectors: FamilySelectors) -> str | None:
    """Whom the header greets ("Logged in as <strong>Name</strong>"), None for a guest."""
    welcome = tree.css_first(selectors.welcome)
    name = welcome.css_first("strong") if welcome is not None else None
    return text_of(name) or None


def is_guest(tree: LexborHTMLParser, selectors: FamilySelectors) -> bool:
    """The page greets a guest (the header is there, with no name in it)."""
    return tree.css_first(selectors.welcome) is not None and logged_in_as(tree, selectors) is None


def my_id(tree: LexborHTMLParser, selectors: FamilySelectors) -> str | None:
    """The reader's own user id, from the header's link to his profile."""
    link = tree.css_first(selectors.profile_link)
    found = query_value(link.attributes.get("href") or "", "id") if link is not None else None
    return found if found and found.isdigit() else None


def message(tree: LexborHTMLParser, selectors: FamilySelectors) -> str:
    """The board's words on a page: a form's errors, else an information page's line."""
    errors = [text_of(li) for li in tree.css(selectors.error_list)]
    if errors:
        return " ".join(e for e in errors if e)
    return text_of(tree.css_first(selectors.message))


def redirect_target(html: str, base: str) -> str | None:
    """Where a "Redirecting …" page sends the reader (a post's `viewtopic.php?pid=N#pN`)."""
    found = _REFRESH.search(html)
    return urljoin(base, found.group(1).replace("&amp;", "&")) if found else None


def paging(tree: LexborHTMLParser, line: str) -> tuple[int, int]:
    """The page shown and the last page, by the paging line `line` (the current page in
    `strong`, the others as links; 1 of 1 without one)."""
    found = tree.css_first(line)
    if found is None:
        return 1, 1
    numbers = [
        int(t)
        for t in (text_of(n).replace(",", "").replace(" ", "") for n in found.css("a, strong"))
        if t.isdigit()
    ]
    current = text_of(found.css_first("strong")).replace(",", "").replace(" ", "")
    page = int(current) if current.isdigit() else 1
    return page, max([page, *numbers])


def wait_asked(text: str, pattern: re.Pattern[str]) -> float | None:
    """The seconds flood control's message `text` asks to wait (`pattern`'s first group)."""
    found = pattern.search(text)
    return float(found.group(1)) if found else None


def name_quoteboxes(copy: LexborNode) -> None:
    """Name each `div.quotebox`'s author (its `cite`, «Вася wrote:») on the box and its
    `blockquote`, and drop the cite: a quote's own author is then not taken from the cite
    of a quote nested in it."""
    for box in copy.css("div.quotebox"):
        cite, quote = box.css_first("cite"), box.css_first("blockquote")
        author = quote_author_from_cite(cite) if cite is not None else None
        if cite is not None:
            cite.decompose()
        for named in (box, quote):
            if named is not None and author:
                named.attrs["data-author"] = author


def smilies_as_typed(copy: LexborNode) -> None:
    """A smilie's image read as the code typed (its `alt`); any other image dropped."""
    for image in copy.css("img"):
        found = _SMILIE.search(image.attributes.get("src") or "")
        if found is not None and found.group(1).lower() in SMILIES:
            image.attrs["alt"] = SMILIES[found.group(1).lower()]
        else:
            image.decompose()


def parse_members(html: str, selectors: FamilySelectors) -> list[User]:
    """The users a member list page shows."""
    users = []
    for link in tree_of(html).css(selectors.member_link):
        uid = query_value(link.attributes.get("href") or "", "id")
        name = text_of(link)
        if uid and uid.isdigit() and name:
            users.append(User(id=uid, name=name))
    return users


@dataclass(frozen=True)
class Zone:
    """How the account reads times: its zone and its date order (None: not to be told)."""

    tz: tzinfo
    order: str | None
    shown: str
    """The setting as the page shows it, for `board check`."""


def read_hour_zone(tree: LexborHTMLParser, today: date | None, selectors: FamilySelectors) -> Zone:
    """The zone and date order of the account's settings page: the selected offset with its
    DST tick, and the date format (its value, or for the board's default the example it
    shows of today's date, `today` in that zone)."""
    zone = tree.css_first(selectors.zone)
    if zone is None:
        raise LayoutChanged("profile", N_("no time zone on the account's settings"))
    dst_box = tree.css_first(selectors.dst)
    dst = dst_box is not None and "checked" in dst_box.attributes
    offset = zone.attributes.get("value") or "0"
    try:
        tz = hour_offset_zone(offset, dst)
    except ValueError:
        raise LayoutChanged(
            "profile", N_("an unknown time zone {offset!r}").format(offset=offset)
        ) from None
    chosen = tree.css_first(selectors.date_format)
    value = chosen.attributes.get("value") if chosen is not None else None
    example = text_of(chosen)
    order = DASHED_DATE_ORDERS.get(value or "")
    if order is None and chosen is not None and today is not None:
        order = order_of_example(re.sub(r"\s*\(.*\)\s*$", "", example), today)
    return Zone(tz, order, f"{utc_offset(offset, dst)}, dates like {example or '?'}")


def utc_offset(offset: str, dst: bool) -> str:
    """ "UTC+3" for an offset in hours and its DST tick."""
    return f"UTC{float(offset) + (1 if dst else 0):+g}"


class TopicReader(Protocol):
    """An engine's topic page reader (`parse_topic_page` of forums/fluxbb and forums/punbb)."""

    def __call__(
        self,
        html: str,
        url: str,
        *,
        tz: tzinfo,
        now: datetime,
        order: str = ...,
        per_page: int | None = ...,
        selectors: Any = ...,
    ) -> TopicPage: ...


NAME_SEARCH = "form[action*='userlist.php'] input[name='username']"
"""The member list's name field: only a group that may search users is shown it."""


def spellings(name: str) -> list[str]:
    """How a name is asked for in the member list's search: as given, then, where it has
    letters outside A-Z (which SQLite's LIKE compares by case), as such names are written:
    Capitalised, Title Case, lower case, UPPER CASE."""
    if not any(c.isalpha() and not c.isascii() for c in name):
        return [name]
    return list(dict.fromkeys([name, name.capitalize(), name.title(), name.lower(), name.upper()]))


class PunFamilyBoard(PagedBoard):
    """The login and the GM's zone of an engine of PunBB's family; the engine gives
    `classify` (its pages' kinds), `read_zone` (its settings page) and where they are."""

    default_date_order = "ymd"
    default_flood_wait = 60.0
    flood_margin = 1.0
    settings_params: ClassVar[dict[str, str]]
    """The query of the GM's settings page (`profile.php`), besides his id."""
    settings_name: ClassVar[str]
    """Where the host finds them: "profile, Essentials" (FluxBB), "settings" (PunBB 1.4)."""
    selectors: Any
    topic_reader: ClassVar[TopicReader]
    """The engine's topic page reader (`staticmethod(pages.parse_topic_page)`)."""

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        super().__init__(base_url, username, password, **options)
        self.zone: Zone | None = None
        """The GM's zone and date format, as read from his settings after the login."""

    def classify(self, html: str, url: str) -> PageKind:
        """Hook: what the engine's page is."""
        raise NotImplementedError

    def read_zone(self, html: str, today: date | None) -> Zone:
        """The GM's zone from his settings page (an engine with another page overrides)."""
        return read_hour_zone(tree_of(html), today, self.selectors)

    def times_read(self) -> str:
        """How this adapter reads the times of the pages, for `board check`."""
        if self._tz is not None:
            return N_("the board's own format, dates {order}, zone {tz} (configured)").format(
                order=self.date_order, tz=self._tz
            )
        if self.zone is not None:
            return N_("the GM's {settings}: {shown} (dates {order})").format(
                settings=self.settings_name, shown=self.zone.shown, order=self.date_order
            )
        return N_("the board's own format (the GM's {settings} not read yet)").format(
            settings=self.settings_name
        )

    async def _form_login(self) -> User:
        response = await self.http.get(self.login_url())
        html, url = response.text, str(response.url)
        tree = tree_of(html)
        kind = self.classify(html, url)
        if kind is not PageKind.LOGIN_FORM:
            if self.is_gm(logged_in_as(tree, self.selectors)):
                return await self._session_user(N_("an earlier login"))  # its cookies still work
            raise LayoutChanged(
                redact(url),
                N_("expected the login form, got a {kind} page").format(kind=kind.value),
            )
        form = filled_form(tree, "req_password", url)

        def fill(password: str) -> dict[str, str]:
            fields = dict(form.fields, req_username=self.username, req_password=password)
            fields.update(save_pass="1", login="Login")
            return fields

        answer = await self.post_login(form.action, fill)
        said = self.classify(answer.text, str(answer.url))
        if said in (PageKind.LOGIN_FAILED, PageKind.MESSAGE, PageKind.FORM_ERROR):
            words = message(tree_of(answer.text), self.selectors)
            raise LoginFailed(
                N_("{url}: login as {user!r} failed: {said}").format(
                    url=self.base_url, user=self.username, said=words
                )
            )
        if said is not PageKind.POSTED and not answer.is_redirect:
            raise LayoutChanged(
                redact(str(answer.url)), N_("a {said} page after the login").format(said=said.value)
            )
        return await self._session_user(N_("logging in as {user!r}").format(user=self.username))

    async def _after_browser_login(self) -> User:
        return await self._session_user(N_("the browser login"))

    async def _session_user(self, after: str) -> User:
        """Whom the board's index greets now (the GM, or the login failed), and how the
        GM's settings read times."""
        response = await self.http.get(self.http.url("index.php"))
        tree = tree_of(response.text)
        shown = logged_in_as(tree, self.selectors)
        uid = my_id(tree, self.selectors) or ""
        user = self.greeted(User(id=uid, name=shown) if shown else None, after)
        if self._tz is None and uid:
            await self._read_zone(uid)
        return user

    async def _read_zone(self, uid: str) -> None:
        url = self.http.url("profile.php", {**self.settings_params, "id": uid})
        answer = await self.http.get(url)
        now = self.served_at(answer)
        zone = self.read_zone(answer.text, None)
        zone = self.read_zone(answer.text, now.astimezone(zone.tz).date())
        self.zone, self.tz = zone, zone.tz
        if not self._order_known:
            if zone.order is None:
                raise LayoutChanged(
                    redact(url),
                    N_(
                        "the GM's date format cannot be told apart (d-m-Y or m-d-Y on a day "
                        "whose day and month are alike): choose Y-m-d in the GM's {settings}"
                    ).format(settings=self.settings_name),
                )
            self.date_order = zone.order

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        params: dict[str, str | int] = {"id": thread}
        if number > 1:
            params["p"] = number
        return await self.topic_view(params)

    async def topic_view(self, params: dict[str, str | int]) -> TopicPage:
        """The topic page `viewtopic.php` serves for `params` (`id` and `p`, or `pid`)."""
        fetched = await self.page("viewtopic.php", {PageKind.TOPIC}, params)
        if self.tz is None:
            raise LayoutChanged(redact(fetched.url), N_("no time zone read or configured"))
        view = self.topic_reader(
            fetched.html,
            fetched.url,
            tz=self.tz,
            now=self.served_at(fetched.response),
            order=self.date_order,
            per_page=self._per_page,
            selectors=self.selectors,
        )
        return self.noted(view)

    member_search: ClassVar[dict[str, str]] = {}
    """The member list's query besides the name and "any group" (FluxBB: its order)."""

    def member_list(self, html: str, url: str) -> MemberList:
        """Hook: a member list page as read (its users, its number, how many pages)."""
        raise NotImplementedError

    async def find_user(self, name: str) -> User | None:
        """A user by name (any case), through the member list's search (`userlist.php`),
        its pages read on until the name shows (`find_member`): a group that may not search
        users is shown the whole list for any name. The search is the database's LIKE,
        which on SQLite folds the case of A-Z only: a name with other letters is asked for
        again as such names are written (`spellings`) while the page offers the search."""
        self.begin()
        known = self.known_member(name)
        if known is not None:
            return known
        searched = False

        async def listing(number: int, offset: int, asked: str) -> MemberList:
            nonlocal searched
            params: dict[str, str | int] = {
                "username": asked,
                "show_group": "-1",
                **self.member_search,
            }
            if number > 1:
                params["p"] = number
            fetched = await self.page("userlist.php", {PageKind.MEMBERLIST}, params)
            searched = tree_of(fetched.html).css_first(NAME_SEARCH) is not None
            return self.member_list(fetched.html, fetched.url)

        for asked in spellings(name.strip()):
            found = await self.find_member(name, partial(listing, asked=asked))
            if found is not None or not searched:
                return found
        return None

    def asked_wait(self, said: str) -> float | None:
        """Hook: the seconds flood control's message `said` asks to wait (the engine's words)."""
        raise NotImplementedError

    def answer_of(self, answer: httpx.Response) -> Said[Any, str]:
        """What the board made of a form sent (a post, an edit): taken, where its redirect
        leads (a 302's `Location`, or a "Redirecting …" page's refresh); else the session
        gone (a guest's page), flood control with the wait it asks, or its refusal."""
        html, url = answer.text, str(answer.url)
        if answer.is_redirect and answer.headers.get("Location"):
            return Said(Answer.ACCEPTED, result=urljoin(url, answer.headers["Location"]))
        kind = self.classify(html, url)
        if kind is PageKind.POSTED:
            target = redirect_target(html, url)
            if target is None:
                raise LayoutChanged(redact(url), N_("a redirect page that leads nowhere"))
            return Said(Answer.ACCEPTED, result=target)
        tree = tree_of(html)
        said = message(tree, self.selectors)
        if is_guest(tree, self.selectors):
            return Said(Answer.LOGGED_OUT, text=said or "a guest's page")
        return answer_to(kind, said, url, wait=self.asked_wait(said))

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = self.classify(html, url)
        gone = is_guest(tree_of(html), self.selectors)
        return Served(kind, gone=gone, missing=kind is PageKind.MESSAGE)

    def _said(self, html: str) -> str:
        return message(tree_of(html), self.selectors)
