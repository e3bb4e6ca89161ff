"""Events to BBCode: results posts, other posts and PMs rendered with a ruleset's Jinja2 templates."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta, tzinfo
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import jinja2

from engine.core.events import Audience, Event, private_events
from engine.core.numbers import plural_en, plural_ru
from engine.core.ruleset import Ruleset
from engine.wording import Wording, a_an, capfirst, case_after, phase_words

__all__ = [
    "LeakError",
    "RenderError",
    "Renderer",
    "bbcode_safe",
    "format_dt",
    "nick",
    "plural_en",
    "plural_ru",
]

DEFAULT_TZ = "Europe/Moscow"


class RenderError(Exception):
    """A template, a text table or an event could not be rendered."""


class LeakError(RenderError):
    """A non-public event was handed to a public post."""


# Fullwidth brackets look like brackets to a reader but no board parses them as BBCode,
# so a nickname or a forwarded text cannot open or close tags in our posts.
_SAFE = str.maketrans({"[": "［", "]": "］"})
_ONE_LINE = str.maketrans({"\r": " ", "\n": " ", "\t": " "})


def bbcode_safe(text: object) -> str:
    """Player-written text with every BBCode bracket neutralised (line breaks kept)."""
    if text is None:
        raise RenderError("expected text, got None")
    return str(text).translate(_SAFE)


def plain_nick(name: object) -> str:
    """A nickname as plain text: BBCode-safe and on one line."""
    return bbcode_safe(name).translate(_ONE_LINE).strip()


def nick(name: object) -> str:
    """A nickname in bold, in the nominative exactly as registered (never declined)."""
    return f"[b]{plain_nick(name)}[/b]"


def number(n: float, lang: str = "ru") -> str:
    """A count as the game's language writes it: 2, 2.5 in English, 2,5 in Russian."""
    if n == int(n):
        return str(int(n))
    text = f"{n:g}"
    return text.replace(".", ",") if lang == "ru" else text


_EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_RU_ZONES = {"MSK": "МСК", "MSD": "МСД", "UTC": "UTC", "GMT": "GMT"}


def _zone_label(local: datetime, lang: str) -> str:
    name = local.tzname() or ""
    if name.isalpha():
        return _RU_ZONES.get(name, name) if lang == "ru" else name
    # Zones without an abbreviation ("+05", "UTC+05:00"): show the offset readably.
    offset = local.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{mins:02d}" if mins else "")


def format_dt(value: datetime | str, tz: tzinfo, lang: str = "ru") -> str:
    """An aware datetime (or ISO string with an offset) in the game's time zone."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError as exc:
            raise RenderError(f"not an ISO datetime: {value!r}") from exc
    if not isinstance(value, datetime):
        raise RenderError(f"not a datetime: {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        # A naive deadline is ambiguous by hours; refuse rather than publish a wrong time.
        raise RenderError(f"naive datetime {value.isoformat()}: deadlines must be time-zone aware")
    local = value.astimezone(tz)
    zone = _zone_label(local, lang)
    if lang == "en":
        month = _EN_MONTHS[local.month - 1]
        return f"{local.day} {month} {local.year} {local:%H:%M} {zone}"
    return f"{local:%d.%m.%Y %H:%M} {zone}"


def span_words(span: timedelta, lang: str) -> str:
    """ "1 д 6 ч" / "1 d 6 h": a shift as the players read it."""
    seconds = abs(int(span.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    ru = lang == "ru"
    units = (("д", "d"), ("ч", "h"), ("мин", "min"))
    words = [
        f"{n} {unit[0] if ru else unit[1]}"
        for n, unit in zip((days, hours, minutes), units, strict=True)
        if n
    ]
    return " ".join(words)


def by_count(totals: Mapping[str, float]) -> list[tuple[str, float]]:
    """Vote totals, most votes first; equal totals keep their given (seating) order."""
    return sorted(totals.items(), key=lambda item: -item[1])


_TURN = re.compile(r"(\d+)\s*$")


def _turn_of(phase: str) -> int | None:
    found = _TURN.search(phase)
    return int(found.group(1)) if found else None


def _unknown_event(kind: str) -> str:
    # Templates call this for an event type they do not know: fail loudly rather than
    # send a PM that silently drops a result.
    raise RenderError(f"the template has no text for event {kind!r}")


def _view(event: Event) -> SimpleNamespace:
    # An attribute namespace, not a dict: a field called "items" or "values" would
    # otherwise resolve to a dict method in Jinja, and a missing optional field stays
    # undefined so templates can ask `is defined`.
    return SimpleNamespace(type=event.type, **event.fields)


def _tidy(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


class Renderer:
    """Renders one ruleset's events in one language.

    Templates are `<templates_package>/<lang>/<name>.j2`; the word tables come from the
    ruleset's texts module (by default the templates package's sibling `texts`), found by
    name so the engine never imports a ruleset directly.
    """

    def __init__(
        self,
        templates_package: str,
        lang: str = "ru",
        *,
        tz: str | tzinfo = DEFAULT_TZ,
        texts: str | None = None,
        genders: Mapping[str, str] | None = None,
    ) -> None:
        self.templates_package = templates_package
        self.lang = lang
        self.wording = Wording(lang, genders)
        self.shown_as: dict[str, str] = {}
        """Seat key → the name it shows as now (its substitute's): the game names its seats
        by the game file's players, the posts by whoever plays them."""
        self.tz: tzinfo = ZoneInfo(tz) if isinstance(tz, str) else tz
        texts_module = texts or templates_package.rpartition(".")[0] + ".texts"
        try:
            module = importlib.import_module(texts_module)
        except ImportError as exc:
            raise RenderError(f"cannot import texts module {texts_module!r}: {exc}") from exc
        tables: Mapping[str, Mapping[str, Mapping[str, str]]] = getattr(module, "TEXTS", {})
        if lang not in tables:
            raise RenderError(f"{texts_module} has no texts for language {lang!r}")
        self.tables = tables[lang]
        self.role_order: Sequence[str] = getattr(module, "ROLE_ORDER", ())
        results_order: Sequence[Sequence[str]] = getattr(module, "RESULTS_ORDER", ())
        self._rank = {kind: i for i, group in enumerate(results_order) for kind in group}
        self._seated: Mapping[str, str] = getattr(module, "SEATED", {})
        self._separate: frozenset[str] = frozenset(getattr(module, "SEPARATE_POSTS", ()))
        try:
            loader = jinja2.PackageLoader(templates_package, lang)
        except (ValueError, ImportError) as exc:
            raise RenderError(f"no {lang!r} templates in {templates_package}") from exc
        self.env = jinja2.Environment(
            loader=loader,
            autoescape=False,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        self.env.filters.update(
            nick=self.nick,
            plain=self.plain,
            subject=self.subject,
            agree=self.agree,
            capfirst=capfirst,
            a_an=a_an,
            phase_name=self.phase_name,
            text=bbcode_safe,
            plural_ru=plural_ru,
            plural_en=plural_en,
            number=self.number,
            dt=self.dt,
            span=self.span,
            role_name=self.role_name,
            faction_name=self.faction_name,
            action_name=self.action_name,
            term=self.term,
            by_count=by_count,
            by_role_order=self.by_role_order,
            usage_form=self.usage_form,
            usage_example=self.usage_example,
            usage_line=self.usage_line,
        )
        self.env.globals.update(
            lang=lang,
            plural_ru=plural_ru,
            plural_en=plural_en,
            unknown_event=_unknown_event,
            gender=self.wording.gender,
        )

    @classmethod
    def for_ruleset(
        cls,
        ruleset: Ruleset,
        lang: str = "ru",
        *,
        tz: str | tzinfo = DEFAULT_TZ,
        genders: Mapping[str, str] | None = None,
    ) -> Renderer:
        if not ruleset.templates:
            raise RenderError(f"ruleset {ruleset.id} declares no templates")
        return cls(ruleset.templates, lang, tz=tz, genders=genders)

    # -- filters ---------------------------------------------------------------------

    def _shown(self, name: object) -> object:
        return self.shown_as.get(name, name) if isinstance(name, str) else name

    def plain(self, name: object, case: str | None = None) -> str:
        """A nickname as plain text in a case (`engine.wording`): «Колю», «Nekr0»."""
        try:
            return plain_nick(self.wording.case(plain_nick(self._shown(name)), case))
        except ValueError as exc:
            raise RenderError(str(exc)) from exc

    def nick(self, name: object, case: str | None = None) -> str:
        """A nickname in bold, in a case: «Голос за [b]Колю[/b] принят»."""
        return f"[b]{self.plain(name, case)}[/b]"

    def subject(self, name: object, case: str = "nom", bold: bool = True) -> str:
        """The name a verb agrees with: «[b]Маша[/b]», or «игрок [b]Nekr0[/b]» (gender unknown)."""
        shown = nick if bold else plain_nick
        if self.wording.needs_player_word(self._shown(name)):
            return f"{self.wording.player_word(case)} {shown(self._shown(name))}"
        return self.nick(name, case) if bold else self.plain(name, case)

    def phase_name(self, phase: object, case: str = "nom") -> str:
        """A phase id as words in a case: «ночи 2» (`до конца {{ p|phase_name("gen") }}`)."""
        try:
            return phase_words(phase, case, self.lang)
        except ValueError as exc:
            raise RenderError(str(exc)) from exc

    def agree(self, text: object, name: object) -> str:
        """`{masculine|feminine}` (or `{m|f|unknown}`) in `text` chosen for `name`'s gender."""
        return self.wording.agree(text, plain_nick(self._shown(name)))

    def term(self, value: object, table: str, default: str | None = None) -> str:
        """`value` looked up in one of the ruleset's word tables for this language."""
        words = self.tables.get(table)
        if words is None:
            raise RenderError(f"no text table {table!r} for {self.lang!r}")
        key = str(value)
        if key in words:
            return words[key]
        if default is not None:
            return default
        raise RenderError(f"no {self.lang!r} text for {value!r} in {table!r}")

    def role_name(self, role: object) -> str:
        return self.term(role, "roles")

    def faction_name(self, faction: object) -> str:
        return self.term(faction, "factions")

    def action_name(self, action: object) -> str:
        return self.term(action, "actions")

    def span(self, value: timedelta) -> str:
        """A length of time (a shift of the deadlines) in the game's language."""
        return span_words(value, self.lang)

    def dt(self, value: datetime | str) -> str:
        return format_dt(value, self.tz, self.lang)

    def number(self, value: float) -> str:
        return number(value, self.lang)

    def by_role_order(self, roles: Mapping[str, int]) -> list[tuple[str, int]]:
        """A {role: count} map in the ruleset's catalogue order (unknown roles last)."""
        rank = {role: i for i, role in enumerate(self.role_order)}
        return sorted(roles.items(), key=lambda item: rank.get(item[0], len(rank)))

    def _usage(self, entry: Mapping[str, Any]) -> Mapping[str, Any]:
        found = entry.get(self.lang)
        if not isinstance(found, Mapping):
            raise RenderError(f"no {self.lang!r} usage for order {entry.get('action')!r}")
        return found

    def usage_form(self, entry: Mapping[str, Any]) -> str:
        """An order's form as `engine.core.usage` took it from the grammar: «лечу <игрок>»."""
        words = self._usage(entry)
        return " ".join(w for w in (words["phrase"], words["hint"]) if w)

    def usage_example(self, entry: Mapping[str, Any]) -> str:
        """The order written out with real names, each in the case its phrase asks for
        («лечу Машу», «проверка Коли», «голосую за Колю»), plain so it can be copied."""
        words = self._usage(entry)
        parts = [words["phrase"]]
        for part in words["example"]:
            if isinstance(part, str):
                parts.append(part)
                continue
            case = part.get("case")
            if case is None:
                case = case_after(words["phrase"]) if self.lang == "ru" else None
            parts.append(self.plain(part["name"], case))
        text = " ".join(p for p in parts if p)
        return re.sub(r" ([:,])", r"\1", text)

    def usage_line(self, entry: Mapping[str, Any]) -> str:
        """«лечу <игрок> — например: лечу Машу», «рейтинг — опубликовать рейтинг голосования»;
        an order of one word is shown once."""
        form, example = self.usage_form(entry), self.usage_example(entry)
        what = self._usage(entry).get("what")
        said = "например:" if self.lang == "ru" else "e.g."
        if what:
            return f"{form} — {what}" if form == example else f"{form} — {what}, {said} {example}"
        return form if form == example else f"{form} — {said} {example}"

    # -- posts and PMs ---------------------------------------------------------------

    def render_public(
        self,
        events: Iterable[Event],
        *,
        phase: str,
        context: Mapping[str, Any] | None = None,
    ) -> str:
        """The results post of a phase from its PUBLIC events, in the rulebook's order.

        `context` may give `players` (the seating order, which orders deaths and attempts)
        and `turn`; it is also passed to the template. Events that are posts of their own
        (the opening post, vote ratings) are left out; any non-public event is refused.
        """
        given = list(events)
        for event in given:
            if event.audience is not Audience.PUBLIC:
                raise LeakError(
                    f"{event.audience.value} event {event.type!r} given to a public post"
                )
        ctx = dict(context or {})
        sections = self.results_sections(given, seating=ctx.get("players", ()))
        turn = ctx.get("turn", _turn_of(phase))
        if turn is None:
            raise RenderError(f"cannot tell the turn number from phase {phase!r}")
        ctx.update(phase=phase, turn=turn, sections=sections)
        return self._render("results", ctx)

    def results_sections(
        self, events: Sequence[Event], *, seating: Sequence[str] = ()
    ) -> list[list[SimpleNamespace]]:
        """Events grouped and ordered as the results post lists them."""
        seat = {name: i for i, name in enumerate(seating)}
        keyed: list[tuple[tuple[int, int, int], Event]] = []
        for index, event in enumerate(events):
            if event.type in self._separate:
                continue
            if self._rank and event.type not in self._rank:
                raise RenderError(f"event {event.type!r} has no place in a results post")
            who_field = self._seated.get(event.type)
            who = event.fields.get(who_field) if who_field else None
            place = seat.get(who, len(seat)) if isinstance(who, str) else len(seat)
            keyed.append(((self._rank.get(event.type, 0), place, index), event))
        keyed.sort(key=lambda item: item[0])
        sections: list[list[SimpleNamespace]] = []
        last_rank: int | None = None
        for (rank, _, _), event in keyed:
            if rank != last_rank:
                sections.append([])
                last_rank = rank
            sections[-1].append(_view(event))
        return sections

    def render_private(
        self, events: Iterable[Event], player: str, *, context: Mapping[str, Any] | None = None
    ) -> str | None:
        """One PM body with every PRIVATE event addressed to `player`; None if there are none."""
        mine = private_events(events, player)
        if not mine:
            return None
        ctx = dict(context or {})
        ctx.update(me=player, events=[_view(e) for e in mine])
        return self._render("private", ctx)

    def render_post(self, name: str, **ctx: Any) -> str:
        """Any other post by template name (`game_started`, `turn_started`, `vote_rating`…)."""
        return self._render(name, ctx)

    def render_event_post(self, event: Event, **ctx: Any) -> str:
        """A public event that is a post of its own, rendered with its template."""
        if event.audience is not Audience.PUBLIC:
            raise LeakError(f"{event.audience.value} event {event.type!r} given to a public post")
        return self._render(event.type, {**ctx, **event.fields})

    def _render(self, name: str, ctx: Mapping[str, Any]) -> str:
        try:
            template = self.env.get_template(f"{name}.j2")
            return _tidy(template.render(ctx))
        except jinja2.TemplateError as exc:
            raise RenderError(f"{self.templates_package}/{self.lang}/{name}.j2: {exc}") from exc
