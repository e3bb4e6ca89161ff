"""CSS selectors for SMF 2.1 pages (the default Curve2 theme), as data in one place.

A board with a quirky theme overrides one field (`dataclasses.replace(DEFAULT, post=…)`)
and passes the result to the readers and to `SmfBoard(selectors=…)`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SmfSelectors:
    name: str
    # -- every page -----------------------------------------------------------------------
    user_menu: str
    """The header's link to the reader's own profile, with his name (members only)."""
    login_form: str
    fatal_error: str
    """The box of a fatal error page ("An error has occurred")."""
    form_errors: str
    """The error list of a re-displayed posting form."""
    error_box: str
    """Any other error box (a failed login, a guest's warning)."""
    # -- thread pages ---------------------------------------------------------------------
    posts: str
    post: str
    """One post; its id is `msg<id>`."""
    author: str
    author_link: str
    post_date: str
    body: str
    signature: str
    edit_notice: str
    pagination: str
    title: str
    # -- forms ----------------------------------------------------------------------------
    post_form: str
    """The reply form and the PM compose form (`form#postmodify`)."""
    # -- private messages -----------------------------------------------------------------
    pm_folder_form: str
    pm_row: str
    pm_row_check: str
    pm_message: str
    pm_subject: str
    pm_info: str
    pm_body: str
    # -- member list ----------------------------------------------------------------------
    member_link: str
    # -- profile --------------------------------------------------------------------------
    timezone: str
    time_format: str


DEFAULT = SmfSelectors(
    name="smf-curve2",
    user_menu="#profile_menu_top",
    login_form="form#frmLogin",
    fatal_error="#fatal_error",
    form_errors="#errors #error_list",
    error_box="div.errorbox",
    posts="#forumposts",
    post="#forumposts div[id^='msg']",
    author="div.poster h4",
    author_link="div.poster h4 a[href*='action=profile']",
    post_date="div.postinfo a.smalltext",
    body="div.post div.inner",
    signature="div.signature",
    edit_notice="span.modified",
    pagination="div.pagelinks",
    title="#top_subject",
    post_form="form#postmodify",
    pm_folder_form="form#pmFolder",
    pm_row="form#pmFolder table.table_grid tbody tr",
    pm_row_check="input[name='pms[]']",
    pm_message="div.windowbg[id^='msg']",
    pm_subject="div.subject_title",
    pm_info="div.postinfo span.smalltext",
    pm_body="div.post div.inner",
    member_link="td.real_name a[href*='action=profile'][href*='u=']",
    timezone="select[name=timezone]",
    time_format="input[name=time_format]",
)
