"""The GM account's own date format (`[board] set_date_format = true`), board-independent parts.

A board prints every time in the reading account's date format, language and zone: «Ср 22
окт 2014, 18:19», "Today, 10:10 pm", «14-Ноя-15 00:40». The readers understand many such
shapes (`forums.dates`), but a board that lets each account choose its format can be asked
for one with nothing to guess. With the host's consent the phpBB and MyBB adapters set the
GM account's format in its profile once after logging in (phpBB: UCP → board preferences →
date format; MyBB: user CP → edit options → date and time format); XenForo has no
per-account date format. `board check` says which way the adapter reads times.

- phpBB takes any PHP date format: `Y-m-d H:i:s P` prints «2026-12-05 19:04:00 +03:00»,
  the offset in every time (`forums.dates` reads it as such, whatever the zone detection).
- MyBB offers fixed lists: ISO 8601 `Y-m-d` and the 24-hour `H:i` (no day-month order or
  am/pm to guess); it prints no offset, so the zone is still read from the page's clock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, BoardError, LayoutChanged
from forums.records import User

log = logging.getLogger("forums")


@dataclass(frozen=True)
class DateSetting:
    """What the adapter did with the GM account's date format."""

    shown: str
    """The format as the board's profile page calls it now (e.g. `Y-m-d H:i:s P`)."""
    before: str
    """The format the account had."""
    changed: bool
    """Whether this login changed it (False: it was set already)."""

    def describe(self) -> str:
        if self.changed:
            return N_("the GM's own date format, set to {shown} (it was {before})").format(
                shown=self.shown, before=self.before
            )
        return N_("the GM's own date format, {shown} (set before)").format(shown=self.shown)


@dataclass(frozen=True)
class FilledForm:
    """A form as a browser would send it unchanged: every named field with its value."""

    action: str
    fields: dict[str, str]

    def data(self, **values: str) -> dict[str, str]:
        """The fields with `values` filled in (or changed)."""
        return {**self.fields, **values}


def form_with(tree: LexborHTMLParser, field: str) -> LexborNode | None:
    """The first form holding a field named `field` (styles rename forms, not fields)."""
    for form in tree.css("form"):
        if form.css_first(f'[name="{field}"]') is not None:
            return form
    return None


def filled_form(tree: LexborHTMLParser, field: str, url: str) -> FilledForm:
    """The form holding the field `field`, as a browser submits it (`form_as_sent`). A
    board that resets what is not sent (MyBB's options form turns a missing checkbox off)
    keeps every other setting."""
    node = form_with(tree, field)
    if node is None:
        raise LayoutChanged(
            url, N_("no form with a {field!r} field on the page").format(field=field)
        )
    return form_as_sent(node, url)


def form_as_sent(node: LexborNode, url: str) -> FilledForm:
    """The form `node` as a browser submits it: hidden and text inputs, checked boxes and
    radio buttons, each select's chosen option (none when none is marked), and text areas;
    submit buttons are left to the caller."""
    fields: dict[str, str] = {}
    for control in node.css("input, select, textarea"):
        name = control.attributes.get("name")
        if not name or "disabled" in control.attributes:
            continue
        if control.tag == "select":
            chosen = _chosen(control)
            if chosen is not None:
                fields[name] = chosen
        elif control.tag == "textarea":
            fields[name] = control.text(deep=True)
        else:
            kind = (control.attributes.get("type") or "text").lower()
            value = control.attributes.get("value") or ""
            if kind in ("checkbox", "radio"):
                if "checked" in control.attributes:
                    fields[name] = value or "on"
            elif kind not in ("submit", "button", "image", "reset", "file", "password"):
                fields[name] = value
    action = urljoin(url, node.attributes.get("action") or url)
    return FilledForm(action, fields)


def _chosen(select: LexborNode) -> str | None:
    picked = next((o for o in select.css("option") if "selected" in o.attributes), None)
    if picked is None:
        # Not sent: the board keeps the account's own value. (A browser would send the
        # first option: phpBB refuses "" for a zone its list does not mark, e.g. "UTC".)
        return None
    value = picked.attributes.get("value")
    return value if value is not None else picked.text(deep=True).strip()


def option_label(tree: LexborHTMLParser, select: str, value: str) -> str | None:
    """The text of the option `value` of the select `select` (what the profile shows)."""
    node = tree.css_first(select)
    if node is None:
        return None
    for option in node.css("option"):
        if option.attributes.get("value") == value:
            return " ".join(option.text(deep=True).split())
    return None


class OwnDateFormat:
    """What a form-login board adds to set the GM's own date format once after logging in
    (`ensure_date_format`, the engine's); put before the board's base class. It takes the
    host's `set_date_format` off the board's options."""

    def __init__(self, *args: Any, set_date_format: bool = False, **options: Any) -> None:
        super().__init__(*args, **options)
        self.init_date_format(set_date_format)

    def init_date_format(self, wanted: bool) -> None:
        self.set_date_format = wanted
        """The host's consent (`[board] set_date_format`)."""
        self.date_setting: DateSetting | None = None
        self.date_setting_error: str | None = None
        """Why the date format could not be set (times are then read as the board prints them)."""
        self._setting_date = False

    async def login(self) -> User:
        user: User = await super().login()  # type: ignore[misc]
        if self.set_date_format and self.date_setting is None and not self._setting_date:
            self._setting_date = True  # a re-login while setting it does not set it again
            try:
                self.date_setting = await self.ensure_date_format()
                self.date_setting_error = None
            except BoardError as exc:
                # The game goes on with the board's own format, which the readers know.
                self.date_setting_error = f"{type(exc).__name__}: {exc}"
                log.warning("the GM's date format was not set: %s", self.date_setting_error)
            finally:
                self._setting_date = False
        return user

    async def ensure_date_format(self) -> DateSetting:
        """Hook: make the GM account's date format the engine's unambiguous one."""
        raise NotImplementedError
