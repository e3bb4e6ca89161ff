"""The dashboard's forms: each host decision, read from a form and done by the review functions.

One entry per form the game page posts (`ACTIONS[name]`); a field missing or malformed is a
`FormError` with one clear line, a decision the review refuses is its `ReviewError`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from starlette.datastructures import FormData

from engine.app.review import Review, order_words
from engine.app.steer import Steer, Steered, SteerError, parse_span
from engine.clock import local_time
from engine.i18n import _, shown


class FormError(Exception):
    """A form field missing or not of its kind (the message names it)."""


def _text(form: FormData, key: str, what: str) -> str:
    """The field `key`, not blank; else a FormError naming `what` (already translated)."""
    value = form.get(key)
    if not isinstance(value, str) or not value.strip():
        raise FormError(_("the form has no {what}").format(what=what))
    return value


def _chosen(form: FormData, key: str) -> str:
    """A name picked from a list: the list starts on no one, and a form sent so is refused."""
    value = form.get(key)
    if not isinstance(value, str) or not value.strip():
        raise FormError(_("no player chosen: pick one from the list, then send the form again"))
    return value


def _id(form: FormData, key: str) -> int:
    value = _text(form, key, _("{field} number").format(field=key)).strip().lstrip("#")
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if not value.isdecimal() or len(value) > 12:
        raise FormError(_("{field} must be a number, not {value!r}").format(field=key, value=value))
    return int(value)


async def fix(rv: Review, form: FormData) -> str:
    warning, name = _id(form, "warning"), _chosen(form, "name")
    rv.fix(warning, name)
    return _("Warning #{id} settled: {name}").format(id=warning, name=name.strip())


async def ignore(rv: Review, form: FormData) -> str:
    warning = _id(form, "warning")
    rv.ignore(warning)
    return _("Warning #{id} ignored: what it is about does not count").format(id=warning)


async def typed(rv: Review, form: FormData) -> str:
    warning, text = _id(form, "warning"), _text(form, "text", _("typed order"))
    read = rv.typed(warning, text)
    settled = "; ".join(order_words(o, player=True) for o in read)
    return _("Warning #{id} settled with: {orders}").format(id=warning, orders=settled)


async def drop(rv: Review, form: FormData) -> str:
    order = _id(form, "order")
    rv.drop(order)
    return _("Order #{id} dropped: it does not count").format(id=order)


async def retarget(rv: Review, form: FormData) -> str:
    order, name = _id(form, "order"), _chosen(form, "name")
    rv.retarget(order, name)
    return _("Order #{id} now names {name}").format(id=order, name=name.strip())


def _approved(rv: Review, form: FormData) -> int:
    """Approve the drafts (past held warnings only when the form says "approve anyway")."""
    held = len(rv.held())
    if held and form.get("confirm_held") != "yes":
        raise FormError(
            _(
                "{n} warning(s) still hold the results: settle them, or tick "
                "“approve anyway” (what they are about will not count)"
            ).format(n=held)
        )
    return rv.approve()


async def approve(rv: Review, form: FormData) -> str:
    count = _approved(rv, form)
    return _("Approved {n} item(s): publish them now, or `forumgm run` will").format(n=count)


async def deadline(rv: Review, form: FormData) -> str:
    choice = _text(form, "choice", _("choice (shift or shorten)")).strip().lower()
    moved = rv.deadline(choice)
    return _("The next phase ends {at}; the results say so").format(
        at=local_time(moved, rv.driver.config.schedule.tz)
    )


async def publish(rv: Review, form: FormData) -> str:
    done = await rv.publish()
    return _("Published {n} item(s); {status}").format(n=done.sent, status=shown(done.status))


async def approve_and_publish(rv: Review, form: FormData) -> str:
    approved = _approved(rv, form)
    published = await publish(rv, form)
    return _("Approved {n} item(s). {published}").format(n=approved, published=published)


def _steer(rv: Review, act: Callable[[Steer], Steered]) -> str:
    """A host command through `engine.app.steer`, as `forumgm steer` runs it."""
    try:
        done = act(Steer(rv.driver, by=rv.by, via=rv.via))
    except SteerError as exc:
        raise FormError(str(exc)) from None
    waiting = (
        _("; {n} item(s) wait for your approval below").format(n=done.waiting)
        if done.waiting
        else ""
    )
    return done.said + waiting


async def steer_remove(rv: Review, form: FormData) -> str:
    player = _chosen(form, "player")
    choice = str(form.get("reveal") or "")
    reveal = {"yes": True, "no": False}.get(choice)
    return _steer(rv, lambda s: s.remove(player, reveal=reveal))


async def steer_deadline(rv: Review, form: FormData) -> str:
    given = {k: str(form.get(k) or "").strip() for k in ("at", "extend", "shift")}
    chosen = [k for k, v in given.items() if v]
    if len(chosen) != 1:
        raise FormError(_("fill one of: the new deadline, longer/shorter, shift all"))

    def act(s: Steer) -> Steered:
        if given["at"]:
            try:
                when = datetime.fromisoformat(given["at"])
            except ValueError:
                raise SteerError(
                    _("{at!r}: write YYYY-MM-DD HH:MM").format(at=given["at"])
                ) from None
            if when.tzinfo is None:
                when = when.replace(tzinfo=s.driver.config.schedule.tz)
            return s.deadline(at=when)
        if given["extend"]:
            return s.deadline(extend=parse_span(given["extend"]))
        return s.deadline(shift=parse_span(given["shift"]))

    return _steer(rv, act)


async def steer_pause(rv: Review, form: FormData) -> str:
    return _steer(rv, lambda s: s.pause())


async def steer_resume(rv: Review, form: FormData) -> str:
    return _steer(rv, lambda s: s.resume())


async def steer_end(rv: Review, form: FormData) -> str:
    outcome = _text(form, "outcome", _("outcome"))
    if form.get("confirm") != "yes":
        raise FormError(_("tick “I mean it” to end the game"))
    return _steer(rv, lambda s: s.end(outcome))


async def steer_grant(rv: Review, form: FormData) -> str:
    player, what = _chosen(form, "player"), _text(form, "grant", _("grant"))
    value = str(form.get("value") or "").strip() or None
    return _steer(rv, lambda s: s.grant(player, what, value))


async def steer_say(rv: Review, form: FormData) -> str:
    text = _text(form, "text", _("message"))
    to = str(form.get("to") or "").strip() or None
    return _steer(rv, lambda s: s.say(text, to=to))


Action = Callable[[Review, FormData], Awaitable[str]]
ACTIONS: dict[str, Action] = {
    "fix": fix,
    "ignore": ignore,
    "typed": typed,
    "drop": drop,
    "retarget": retarget,
    "approve": approve,
    "deadline": deadline,
    "publish": publish,
    "approve-publish": approve_and_publish,
    "steer-remove": steer_remove,
    "steer-deadline": steer_deadline,
    "steer-pause": steer_pause,
    "steer-resume": steer_resume,
    "steer-end": steer_end,
    "steer-grant": steer_grant,
    "steer-say": steer_say,
}
