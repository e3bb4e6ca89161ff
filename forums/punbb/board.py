"""`PunbbBoard`: the `Board` protocol over a PunBB 1.3/1.4 board, as the GM's account.

Logging in is PunBB's form (`login.php`: `form_sent`, `redirect_url` and the form's
`csrf_token` as served, "Remember me" ticked, else the session ends with the visit
timeout). The board answers a login or a post with a 302 to where it leads (its default
redirect delay is 0; with a delay, a "Redirecting …" page saying where). Posting is
`post.php?tid=N` with its token; members wait between posts (`g_post_flood`, 60 s by
default: "At least 60 seconds have to pass between posts"), and the wait is taken as the
board says. A reply is confirmed on the topic page that shows it (`viewtopic.php?pid=N`, or
the last page where PunBB's count of older posts misplaces it).

Private messages. PunBB's core has none (the pun_pm extension adds them, on its own
pages): `inbox` and `sent` are always empty and `send_pm` is refused in the same line as
FluxBB's (`forums.webboard.NO_PMS`). `private_messages = False` tells the game's checks so:
a game on PunBB is played in the open thread (`engine.config` refuses what needs PMs).

Time. The GM's settings (`profile.php?section=settings`) say his zone — an offset in hours
and a DST tick — and his date format; both are read after each login, unless `tz` and
`date_order` are given. PunBB prints an edit as "(edited by Name Today 17:23)" (ru
«(изменено: Name, Сегодня 17:23)») beside the post's time. Cursors are the shared
paged-thread cursor's (`forums.cursor`).
"""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

from forums.errors import N_, LayoutChanged, NotFound
from forums.guard import redact
from forums.pages import MemberList, PageKind
from forums.punbb import pages
from forums.punbb.selectors import DEFAULT, PunbbSelectors
from forums.punfamily import PunFamilyBoard, viewtopic_id
from forums.userprefs import FilledForm, filled_form
from forums.webboard import Said

_SEF_TOPIC = re.compile(r"(?:/topic/|/topic)(\d+)(?:[/-]|\.html|$)")
"""A topic's address with PunBB's friendly URLs on: `/topic/2/title/` (folder based) or
`/topic2-title.html` (file based)."""


class PunbbBoard(PunFamilyBoard):
    """A PunBB 1.3/1.4 board (stock styles, and styles that keep PunBB's block ids), as the
    GM. The login and the GM's zone are the family's (`forums.punfamily`)."""

    engine = "punbb"
    product = "PunBB"
    login_path = "login.php"
    default_per_page = 25
    default_selectors = DEFAULT
    selectors: PunbbSelectors
    topic_reader = staticmethod(pages.parse_topic_page)
    private_messages: ClassVar[bool] = False
    """PunBB's core has no private messages (see the module's docstring)."""
    settings_params: ClassVar[dict[str, str]] = {"section": "settings"}
    settings_name: ClassVar[str] = N_("settings")

    def classify(self, html: str, url: str) -> PageKind:
        return pages.classify(html, url, self.selectors)

    def asked_wait(self, said: str) -> float | None:
        return pages.flood_wait(said)

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "2", "id=2", a viewtopic URL (`viewtopic.php?id=2&p=3`) or a friendly one
        (`/topic/2/title/`, `/topic2-title.html`) → "2"."""
        found = viewtopic_id(thread)
        if found is not None:
            return found
        sef = _SEF_TOPIC.search(urlsplit(thread.strip()).path)
        if sef is not None:
            return sef.group(1)
        raise NotFound(N_("not a {engine} topic: {thread!r}").format(engine="PunBB", thread=thread))

    # -- users -------------------------------------------------------------------------

    def member_list(self, html: str, url: str) -> MemberList:
        tree = pages.tree_of(html)
        return MemberList(
            tuple(pages.parse_members(html, self.selectors)), *pages.paging(tree, self.selectors)
        )

    # -- posting -----------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the topic; the new post's id, once its topic page shows it."""
        self.begin()
        topic = self.topic_id(thread)
        await self.ensure_login()
        params = {"tid": topic}
        where = self.http.url("post.php", params)

        async def fresh() -> tuple[FilledForm, str]:
            fetched = await self.page("post.php", {PageKind.POSTING_FORM}, params)
            return filled_form(pages.tree_of(fetched.html), "req_message", fetched.url), fetched.url

        async def send(form: tuple[FilledForm, str]) -> Said[tuple[FilledForm, str], str]:
            filled, page = form
            self.http.origin.check(filled.action, "the reply form")
            fields = filled.data(req_message=bbcode, submit_button="Submit")
            answer = await self.http.post(filled.action, fields, headers={"Referer": page})
            return self.answer_of(answer)

        target = await self.submit(where, fresh, send)
        pid = parse_qs(urlsplit(target).query).get("pid", [""])[0]
        if not pid.isdigit():
            raise LayoutChanged(redact(target), N_("the post's redirect names no post"))
        view = await self.topic_view({"pid": pid})
        if view.page < view.pages and not any(p.id == pid for p in view.posts):
            # PunBB finds a post's page by counting the posts older than it: posts of the
            # same second (a busy game) push the new one onto a later page than it says.
            view = await self.thread_page(topic, view.pages)
        return self.posted(view.posts, pid, view.url, topic)


__all__ = ["PunbbBoard"]
