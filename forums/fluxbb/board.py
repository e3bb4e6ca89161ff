"""`FluxbbBoard`: the `Board` protocol over a FluxBB 1.5 board, as the GM's account.

Logging in is FluxBB's form (`login.php`, a CSRF token, "log me in automatically" ticked:
without it the session ends after the board's visit timeout, 30 minutes by default).
Posting is `post.php`: no token, but FluxBB refuses a form whose `Referer` is not its own
posting or topic page, so the reply is sent with the form page as its referrer. Members
wait between posts (`g_post_flood`, 60 s by default): flood control says how long, and the
wait is taken as the board says.

Private messages. FluxBB has none in its core: `inbox` and `sent` are always empty (a
board without messages has none to read) and `send_pm` is refused with
`NoPrivateMessages`. `private_messages = False` tells the game's checks so: a game on
FluxBB is played in the open thread (`engine.config` refuses what needs PMs).

Time. The GM's profile (Essentials) says his zone — an offset in hours and a DST tick —
and his date format; both are read after each login, unless `tz` and `date_order` are
given. Cursors are the shared paged-thread cursor's (`forums.cursor`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import date
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

from forums.errors import N_, LayoutChanged, NotFound
from forums.fluxbb import pages
from forums.fluxbb.pages import PageKind, Zone
from forums.fluxbb.selectors import DEFAULT, FluxbbSelectors
from forums.guard import redact
from forums.pages import MemberList
from forums.punfamily import PunFamilyBoard, viewtopic_id
from forums.userprefs import FilledForm, filled_form
from forums.webboard import Said

log = logging.getLogger("forums.fluxbb")


class FluxbbBoard(PunFamilyBoard):
    """A FluxBB 1.5 board (stock styles, and styles that keep FluxBB's block ids), as the GM.
    The login and the GM's zone are the family's (`forums.punfamily`)."""

    engine = "fluxbb"
    login_path = "login.php"
    default_per_page = 25
    default_selectors = DEFAULT
    selectors: FluxbbSelectors
    topic_reader = staticmethod(pages.parse_topic_page)
    private_messages: ClassVar[bool] = False
    """FluxBB has no private messages (see the module's docstring): the base refuses
    `send_pm` (`forums.webboard.NO_PMS`)."""
    product = "FluxBB"
    settings_params: ClassVar[dict[str, str]] = {"section": "essentials"}
    settings_name: ClassVar[str] = N_("profile, Essentials")

    def classify(self, html: str, url: str) -> PageKind:
        return pages.classify(html, url, self.selectors)

    def asked_wait(self, said: str) -> float | None:
        return pages.flood_wait(said)

    def read_zone(self, html: str, today: date | None) -> Zone:
        return pages.read_zone(html, today, self.selectors)

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "2", "id=2" or a viewtopic URL (`viewtopic.php?id=2&p=3`) → "2"."""
        found = viewtopic_id(thread)
        if found is not None:
            return found
        raise NotFound(
            N_("not a {engine} topic: {thread!r}").format(engine="FluxBB", thread=thread)
        )

    # -- users -------------------------------------------------------------------------

    member_search: ClassVar[dict[str, str]] = {"sort_by": "username"}

    def member_list(self, html: str, url: str) -> MemberList:
        """FluxBB's member list (its LIKE: on SQLite it folds the case of A-Z only; a group
        that may not search users is shown the whole list, 50 users a page)."""
        return pages.parse_member_list(html, url, self.selectors)

    # -- posting -----------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the topic; the new post's id, as the board's redirect names it."""
        self.begin()
        topic = self.topic_id(thread)
        target = await self.send_form(
            "post.php", {"tid": topic}, "req_message", {"req_message": bbcode, "submit": "Submit"}
        )
        pid = parse_qs(urlsplit(target).query).get("pid", [""])[0]
        if not pid.isdigit():
            raise LayoutChanged(redact(target), N_("the post's redirect names no post"))
        return pid

    async def send_form(
        self, path: str, params: Mapping[str, str | int], field: str, values: Mapping[str, str]
    ) -> str:
        """Send the form holding `field` on the page `path` (posting, editing, deleting)
        with `values`, through flood control and a lost session; where the board's
        "Redirecting …" answer leads. FluxBB checks that the form came from its own page
        (the `Referer`), so the page is named as the referrer."""
        await self.ensure_login()
        where = self.http.url(path, params)

        async def fresh() -> tuple[FilledForm, str]:
            fetched = await self.page(path, {PageKind.POSTING_FORM}, params)
            return filled_form(pages.tree_of(fetched.html), field, fetched.url), fetched.url

        async def send(form: tuple[FilledForm, str]) -> Said[tuple[FilledForm, str], str]:
            filled, page = form
            self.http.origin.check(filled.action, f"the form of {path}")
            fields = dict(filled.fields, **values)
            answer = await self.http.post(filled.action, fields, headers={"Referer": page})
            return self.answer_of(answer)

        return await self.submit(where, fresh, send)


__all__ = ["FluxbbBoard"]
