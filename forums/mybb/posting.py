"""Replying and sending PMs on a MyBB board, through its refusals.

- Flood control ("Please wait 61 more seconds."): wait as long as the board says and post
  again with the re-displayed form, `flood_retries` times, then `FloodControl`.
- "Authorization code mismatch" (a stale `my_post_key`): fetch a fresh form once.
- A not-logged-in answer: log in again once and start over with a fresh form.
- A reply confirms by finding the post on the thread page it was sent to. MyBB merges a
  user's post into their previous one when it is the thread's last and recent enough
  (`postmergemins`): the board then names the old post; that is logged as a warning and the
  old post's id returned (it now ends with the new text).
- A PM confirms by finding the GM's copy in "Sent Items" (sent with "Save a Copy" on): a
  new message there with the subject sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import httpx

from forums.errors import N_, BoardError, LayoutChanged
from forums.formboard import answer_to
from forums.guard import redact
from forums.mybb import forms
from forums.mybb.forms import Form, PageKind
from forums.mybb.thread import parse_thread_page
from forums.webboard import Answer, Said

if TYPE_CHECKING:
    from forums.mybb.board import MybbBoard

log = logging.getLogger("forums.mybb")

_BUTTONS = ("previewpost", "preview", "saveasdraft", "newattachment", "rem", "attachmentaid")


async def _form(board: MybbBoard, path: str, params: Mapping[str, str | int]) -> Form:
    html, url, _ = await board.fetch(path, params, {PageKind.POSTING_FORM})
    return forms.read_form(html, url, board.selectors.reply_form)


async def submit(
    board: MybbBoard,
    path: str,
    params: Mapping[str, str | int],
    fill: Callable[[Form], dict[str, str]],
) -> tuple[str, httpx.Response]:
    """Fetch a form, fill it and post it through MyBB's refusals (`WebBoard.submit`);
    (where the board sends us next, its answer)."""

    async def fresh() -> Form:
        return await _form(board, path, params)

    async def send(form: Form) -> Said[Form, tuple[str, httpx.Response]]:
        board.http.origin.check(form.action, "the posting form")
        data = {k: v for k, v in fill(form).items() if k not in _BUTTONS}
        response = await board.http.post(form.action, data)
        if response.is_redirect:
            target = forms.absolute(str(response.url), response.headers["Location"])
            return Said(Answer.ACCEPTED, (target, response))
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url, board.selectors)
        said = forms.message(html, board.selectors)
        if kind is PageKind.POSTED:
            found = forms.redirect_target(html, url)
            if found is None:
                raise LayoutChanged(redact(url), N_("a confirmation page that leads nowhere"))
            return Said(Answer.ACCEPTED, (found, response))
        board.refuse(kind)  # a CAPTCHA, a one-time code
        if kind is PageKind.FLOOD:
            wait = forms.flood_wait(said, board.flood_wait)
            again = forms.read_form(html, url, board.selectors.reply_form)
            return answer_to(kind, said, url, form=again, wait=wait)
        return answer_to(kind, said, url)

    return await board.submit(board.http.url(path, params), fresh, send)


async def reply(board: MybbBoard, thread: str, bbcode: str) -> str:
    board.begin()
    await board.ensure_login()
    tid = board.topic_id(thread)
    before = board.highest_post

    def fill(form: Form) -> dict[str, str]:
        return form.data(message=bbcode, submit="Post Reply")

    target, response = await submit(board, "newreply.php", {"tid": tid}, fill)
    post_id = forms.post_id_from(target)
    if post_id is None:
        raise LayoutChanged(
            redact(str(response.url)), N_("the reply was accepted without naming the new post")
        )
    params = {"tid": tid, "pid": post_id, "mode": "linear"}
    html, url, page_response = await board.fetch("showthread.php", params, {PageKind.TOPIC})
    tz, order, now = board.reading(html, page_response)
    view = parse_thread_page(html, url, tz=tz, now=now, order=order, selectors=board.selectors)
    board.posted(view.posts, post_id, url, tid)
    post = next(p for p in view.posts if p.id == post_id)
    if int(post_id) <= before or post.edit is not None:
        log.warning(
            "%s merged the reply into the GM's post %s (posted %s): MyBB joins a user's "
            "consecutive posts (postmergemins); players see it at the end of that post",
            board.base_url,
            post_id,
            post.posted_at.isoformat(timespec="minutes"),
        )
    return post_id


async def send_pm(board: MybbBoard, recipients: Sequence[str], subject: str, bbcode: str) -> str:
    names = []
    for user in await board.recipients(recipients):
        if "," in user.name:
            raise BoardError(
                N_("{user_name!r}: MyBB's PM form cannot address a name with a comma").format(
                    user_name=user.name
                )
            )
        names.append(user.name)
    board.begin()
    before = await board.newest_sent()

    def fill(form: Form) -> dict[str, str]:
        data = form.data(to=", ".join(names), bcc="", subject=subject, message=bbcode)
        # The GM's copy in Sent Items is how forumgm confirms the PM and finds its marker;
        # read receipts would only add noise for the players.
        data["options[savecopy]"] = "1"
        data.pop("options[readreceipt]", None)
        data.update(action="do_send", submit="Send Message")
        return data

    await submit(board, "private.php", {"action": "send"}, fill)
    return await board.sent_copy(before, subject, names, "is 'Save a Copy' disabled on this board?")
