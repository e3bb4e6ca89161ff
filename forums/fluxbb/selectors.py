"""CSS selectors for FluxBB 1.5 pages (its stock styles: Air, Earth, Fire, …, which share
one template; PunBB 1.2's pages keep these ids, fixtures/punbb/1.2.50), as data in one
place.

A board whose style renames a block overrides one field
(`dataclasses.replace(DEFAULT, post=…)`) and passes the result to the readers and to
`FluxbbBoard(selectors=…)`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FluxbbSelectors:
    name: str
    # -- every page -----------------------------------------------------------------------
    welcome: str
    """The header's welcome line: "Logged in as <strong>Name</strong>" (ru: «Вы
    <strong>Name</strong>»), or "You are not logged in." with no name."""
    profile_link: str
    """The header's link to the reader's own profile (`profile.php?id=N`)."""
    error_list: str
    """The errors of a re-displayed form (`#posterror`)."""
    message: str
    """The one paragraph of an information page ("Bad request", "No permission")."""
    redirect: str
    """The "Redirecting …" page after a login, a post or an edit."""
    # -- thread pages ---------------------------------------------------------------------
    post: str
    """One post; its id is `p<id>`."""
    post_link: str
    """The post's number and time: `<a href="viewtopic.php?pid=N#pN">Today 17:09:12</a>`."""
    post_number: str
    author: str
    """The author's name (a profile link, or bare text for a guest's post)."""
    author_link: str
    body: str
    signature: str
    edit_notice: str
    pages: str
    """The pagination line: the current page in `strong`, the others as links."""
    title: str
    plain_crumbs: str
    """Crumbs whose last item is the title as plain text (PunBB 1.2), when `title` finds no
    link."""
    # -- forms ----------------------------------------------------------------------------
    login_form: str
    post_form: str
    # -- the account's settings and the member list ----------------------------------------
    zone: str
    dst: str
    date_format: str
    date_format_choice: str
    """The profile's date format field: PunBB 1.2 has none (the board's format for all)."""
    member_link: str


DEFAULT = FluxbbSelectors(
    name="fluxbb-1.5",
    welcome="#brdwelcome .conl",
    profile_link="#navprofile a[href*='profile.php?id=']",
    error_list="#posterror ul.error-list li",
    message="#msg div.inbox p",
    redirect="#punredirect",
    post="div.blockpost[id^='p']",
    post_link="h2 a[href*='pid=']",
    post_number="h2 span.conr",
    author="div.postleft dt",
    author_link="div.postleft dt a[href*='profile.php?id=']",
    body="div.postmsg",
    signature="div.postsignature",
    edit_notice="p.postedit",
    pages="p.pagelink",
    title="ul.crumbs li strong a[href*='viewtopic.php']",
    plain_crumbs="div.linkst ul",
    login_form="form#login",
    post_form="form#post, form#edit, form#delete",
    zone="select[name='form[timezone]'] option[selected]",
    dst="input[name='form[dst]']",
    date_format="select[name='form[date_format]'] option[selected]",
    date_format_choice="select[name='form[date_format]']",
    member_link="td.tcl a[href*='profile.php?id=']",
)
