"""CSS selectors for MyBB 1.8 pages (default theme), as data in one place.

A board with a quirky theme overrides one field (`dataclasses.replace(DEFAULT, post=…)`)
and passes the result to the parsers and to `MybbBoard(selectors=…)`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MybbSelectors:
    name: str
    # -- every page -----------------------------------------------------------------------
    welcome: str
    """The header's welcome block: "Welcome back, <a>Name</a>" or "Hello There, Guest!"."""
    logout_link: str
    current_time: str
    """The footer's "Current time: …", the board's clock in the reader's time zone."""
    error_box: str
    """The inline error list of a re-displayed form (`error_inline`)."""
    message_cell: str
    """The one cell of an error/no-permission page (`error`, `error_nopermission`)."""
    # -- thread pages ---------------------------------------------------------------------
    posts: str
    post: str
    """One post (also a deleted-post stub); its id is `post_<pid>`."""
    author_link: str
    author_name: str
    """The author without a profile link (a guest's post)."""
    stub_author: str
    post_date: str
    post_number: str
    body: str
    signature: str
    edit_notice: str
    pagination_pages: str
    pagination_current: str
    breadcrumb_active: str
    linear_mode_link: str
    """Present only on a threaded-mode page (its switch back to linear)."""
    # -- forms ----------------------------------------------------------------------------
    reply_form: str
    pm_form: str
    # -- private messages -----------------------------------------------------------------
    pm_folder_form: str
    pm_row_check: str
    pm_row_link: str
    pm_folder_jump: str
    pm_view_title: str
    pm_to_line: str
    # -- member list ----------------------------------------------------------------------
    member_link: str
    """A profile link: `member.php?action=profile&uid=N`, or `user-N.html` with SEO URLs."""


DEFAULT = MybbSelectors(
    name="mybb-default",
    welcome="#panel span.welcome",
    logout_link="a.logout, a[href*='action=logout']",
    current_time="#current_time",
    error_box="div.error li",
    message_cell="#content table.tborder td.trow1",
    posts="#posts",
    post="div.post[id^='post_']",
    author_link=(
        "div.author_information .largetext a[href*='uid='], "
        "div.author_information .largetext a[href*='user-']"
    ),
    author_name="div.author_information .largetext",
    stub_author="div.deleted_post_author",
    post_date="div.post_head span.post_date",
    post_number="div.post_head a[href*='pid=']",
    body="div.post_body",
    signature="div.signature",
    edit_notice="span.edited_post",
    pagination_pages="div.pagination span.pages",
    pagination_current="div.pagination span.pagination_current",
    breadcrumb_active="div.navigation span.active",
    linear_mode_link="td.thead a[href*='mode=linear']",
    reply_form="form[name='input']",
    pm_form="form[name='input']",
    pm_folder_form="form[name='pmForm']",
    pm_row_check="input[name^='check[']",
    pm_row_link="a[href*='action=read'][href*='pmid=']",
    pm_folder_jump="select[name='jumpto'] option[selected]",
    pm_view_title="td.thead strong",
    pm_to_line="div.post_head",
    member_link="a[href*='action=profile'][href*='uid='], a[href*='user-'][href$='.html']",
)
