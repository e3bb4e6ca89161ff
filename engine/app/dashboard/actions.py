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


class FormError(Exception):
    """A form field missing or not of its kind (the message names it)."""


def _text(form: FormData, key: str, what: str) -> str:
    value = form.get(key)
    if not isinstance(value, str) or not value.strip():
        raise FormError(f"the form has no {what}")
    return value


def _id(form: FormData, key: str) -> int:
    value = _text(form, key, f"{key} number").strip().lstrip("#")
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if not value.isdecimal() or len(value) > 12:
        raise FormError(f"{key} must be a number, not {value!r}")
    return int(value)


async def fix(rv: Review, form: FormData) -> str:
    warning, name = _id(form, "warning"), _text(form, "name", "name to pick")
    rv.fix(warning, name)
    return f"Warning #{warning} settled: {name.strip()}"


async def ignore(rv: Review, form: FormData) -> str:
    warning = _id(form, "warning")
    rv.ignore(warning)
    return f"Warning #{warning} ignored: what it is about does not count"


async def typed(rv: Review, form: FormData) -> str:
    warning, text = _id(form, "warning"), _text(form, "text", "typed order")
    read = rv.typed(warning, text)
    settled = "; ".join(order_words(o, player=True) for o in read)
    return f"Warning #{warning} settled with: {settled}"


async def drop(rv: Review, form: FormData) -> str:
    order = _id(form, "order")
    rv.drop(order)
    return f"Order #{order} dropped: it does not count"


async def retarget(rv: Review, form: FormData) -> str:
    order, name = _id(form, "order"), _text(form, "name", "name to set")
    rv.retarget(order, name)
    return f"Order #{order} now names {name.strip()}"


def _approved(rv: Review, form: FormData) -> int:
    """Approve the drafts (past held warnings only when the form says "approve anyway")."""
    held = len(rv.held())
    if held and form.get("confirm_held") != "yes":
        raise FormError(
            f"{held} warning(s) still hold the results: settle them, or tick "
            "“approve anyway” (what they are about will not count)"
        )
    return rv.approve()


async def approve(rv: Review, form: FormData) -> str:
    count = _approved(rv, form)
    return f"Approved {count} item(s): publish them now, or `forumgm run` will"


async def deadline(rv: Review, form: FormData) -> str:
    choice = _text(form, "choice", "choice (shift or shorten)").strip().lower()
    moved = rv.deadline(choice)
    return (
        f"The next phase ends {local_time(moved, rv.driver.config.schedule.tz)}; the results say so"
    )


async def publish(rv: Review, form: FormData) -> str:
    done = await rv.publish()
    return f"Published {done.sent} item(s); {done.status}"


async def approve_and_publish(rv: Review, form: FormData) -> str:
    approved = _approved(rv, form)
    return f"Approved {approved} item(s). {await publish(rv, form)}"


def _steer(rv: Review, act: Callable[[Steer], Steered]) -> str:
    """A host command through `engine.app.steer`, as `forumgm steer` runs it."""
    try:
        done = act(Steer(rv.driver, by=rv.by, via=rv.via))
    except SteerError as exc:
        raise FormError(str(exc)) from None
    waiting = f"; {done.waiting} item(s) wait for your approval below" if done.waiting else ""
    return done.said + waiting


async def steer_remove(rv: Review, form: FormData) -> str:
    player = _text(form, "player", "player to remove")
    choice = str(form.get("reveal") or "")
    reveal = {"yes": True, "no": False}.get(choice)
    return _steer(rv, lambda s: s.remove(player, reveal=reveal))


async def steer_deadline(rv: Review, form: FormData) -> str:
    given = {k: str(form.get(k) or "").strip() for k in ("at", "extend", "shift")}
    chosen = [k for k, v in given.items() if v]
    if len(chosen) != 1:
        raise FormError("fill one of: the new deadline, longer/shorter, shift all")

    def act(s: Steer) -> Steered:
        if given["at"]:
            try:
                when = datetime.fromisoformat(given["at"])
            except ValueError:
                raise SteerError(f"{given['at']!r}: write YYYY-MM-DD HH:MM") from None
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
    outcome = _text(form, "outcome", "outcome")
    if form.get("confirm") != "yes":
        raise FormError("tick “I mean it” to end the game")
    return _steer(rv, lambda s: s.end(outcome))


async def steer_grant(rv: Review, form: FormData) -> str:
    player, what = _text(form, "player", "player"), _text(form, "grant", "grant")
    value = str(form.get("value") or "").strip() or None
    return _steer(rv, lambda s: s.grant(player, what, value))


async def steer_say(rv: Review, form: FormData) -> str:
    text = _text(form, "text", "message")
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
