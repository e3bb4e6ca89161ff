"""CSS selectors for PunBB 1.3 and 1.4 pages (its stock styles, Oxygen and the rest, which
share one template: `#brd-wrap`, a `div.brd-page` whose id names the page, posts as
`div.post`), as data in one place.

A board whose style renames a block overrides one field
(`dataclasses.replace(DEFAULT, post=…)`) and passes the result to the readers and to
`PunbbBoard(selectors=…)`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PunbbSelectors:
    name: str
    # -- every page -----------------------------------------------------------------------
    page: str
    """The block whose id names the page (`brd-viewtopic`, `brd-login`, `brd-post`, …:
    PunBB's `FORUM_PAGE`)."""
    welcome: str
    """The header's welcome line: "Logged in as <strong>Name</strong>." (ru: «Вы вошли как
    <strong>Name</strong>.»), or "You are not logged in." with no name."""
    profile_link: str
    """The header's link to the reader's own profile (`profile.php?id=N`)."""
    error_list: str
    """The errors of a form served again (a wrong password, flood control)."""
    message: str
    """The paragraph of an information page ("Bad request", "No permission")."""
    redirect: str
    """The "Redirecting …" page after a login or a post (sent with a 302 by default)."""
    # -- thread pages ---------------------------------------------------------------------
    post: str
    """One post; its head (`div.posthead`) has the id `p<id>`."""
    post_head: str
    post_number: str
    author: str
    """The byline's name: a profile link, or `strong` for a guest's post (or where members
    may not see profiles)."""
    post_link: str
    """The post's time: `<a class="permalink" href="…viewtopic.php?pid=N#pN">Today …</a>`."""
    edit_notice: str
    """"(edited by Name Today 17:23:23)", ru «(изменено: Name, Сегодня 17:23:23)»."""
    body: str
    signature: str
    pages: str
    """The pagination line: the current page in `strong`, the others as links."""
    shown: str
    """"Posts: 1 to 4 of 6" (ru «Сообщения с 1 по 4 из 6»): the page's first and last post and
    the topic's total."""
    title: str
    # -- forms, settings, members ---------------------------------------------------------
    zone: str
    dst: str
    date_format: str
    member_link: str


DEFAULT = PunbbSelectors(
    name="punbb-1.4",
    page="div.brd-page[id^='brd-']",
    welcome="#welcome",
    profile_link="#navprofile a[href*='profile.php?id=']",
    error_list="div.error-box ul.error-list li",
    message="div.main-message p",
    redirect="#brd-redirect",
    post="div.post",
    post_head="div.posthead[id^='p']",
    post_number="span.post-num",
    author="span.post-byline a, span.post-byline strong",
    post_link="span.post-link a",
    edit_notice="span.post-edit",
    body="div.entry-content",
    signature="div.sig-content",
    pages="p.paging",
    shown="div.main-head h2 span.item-info",
    title="h1.main-title a.permalink",
    zone="select[name='form[timezone]'] option[selected]",
    dst="input[name='form[dst]']",
    date_format="select[name='form[date_format]'] option[selected]",
    member_link="td.tc0 a[href*='profile.php?id=']",
)
