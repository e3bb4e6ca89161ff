"""CSS selectors for phpBB pages, as data: prosilver first, then theme variants.

A board with a quirky style overrides one field (`dataclasses.replace(PROSILVER, …)`) and
passes its own tuple of variants. Each variant is tried in order; the first that finds
posts on a page wins.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TopicSelectors:
    name: str
    post: str
    """One post; its `id` is `p<post id>`."""
    author_line: str
    """The line with the author's name and the post time, inside a post."""
    profile_name: str
    """The author's name in the profile column: a fallback for the author line."""
    content: str
    signature: str
    edit_notice: str
    time: str
    topic_title: str
    pagination: str
    logged_in_name: str
    logout_link: str


PROSILVER = TopicSelectors(
    name="prosilver",
    post="div.post[id^='p']",
    author_line="p.author",
    profile_name="dl.postprofile a.username, dl.postprofile a.username-coloured",
    content="div.content",
    signature="div.signature",
    edit_notice="div.notice",
    time="time[datetime]",
    topic_title="h2.topic-title a, h2 a[href*='viewtopic.php']",
    pagination="div.pagination",
    logged_in_name="#username_logged_in span.username, #username_logged_in .username-coloured",
    logout_link="a[href*='mode=logout']",
)

PHPBB30_CUSTOM = TopicSelectors(
    name="phpbb3.0-custom",
    post="div.post[id^='p']",
    author_line="div.author, p.author",
    profile_name="dl.postprofile dt a[href*='viewprofile']",
    content="div.content",
    signature="div.signature",
    edit_notice="div.notice",
    time="time[datetime]",
    topic_title="h2 a[href*='viewtopic.php'], h3 a[href*='viewtopic.php']",
    pagination="div.pagination, div.paging",
    logged_in_name="#username_logged_in span.username",
    logout_link="a[href*='mode=logout']",
)

TOPIC_VARIANTS: tuple[TopicSelectors, ...] = (PROSILVER, PHPBB30_CUSTOM)


@dataclass(frozen=True)
class PMSelectors:
    folder_list: str
    folder_row: str
    row_item: str
    row_title: str
    row_user: str
    row_info: str
    folder_form: str
    current_folder: str
    message: str
    message_subject: str
    message_author: str
    message_content: str
    message_signature: str
    pagination: str


PM_PROSILVER = PMSelectors(
    folder_list="ul.pmlist",
    folder_row="li.row",
    row_item="dl.row-item, dl",
    row_title="a.topictitle",
    row_user="a.username, a.username-coloured",
    row_info="dd.info",
    folder_form="form#viewfolder",
    current_folder="input[name='cur_folder_id']",
    message="div.post.pm[id^='post-']",
    message_subject="h3",
    message_author="p.author",
    message_content="div.content",
    message_signature="div.signature",
    pagination="div.pagination",
)
