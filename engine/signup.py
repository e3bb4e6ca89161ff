"""Sign-ups («набор игроков»): what a post of the sign-up thread says, and the list the
thread makes.

The list is worked out again from every post of the thread as it reads now (an edit counts
by its new text), in the order the posts came:

- a post whose first line of its author's own words (quotes and signatures left out) is a
  join word («+», «в игре», "/in"…) puts the author at the end of the list; one that is a
  leave word («-», "/out"…) takes them off it. «+» / «-» and /commands also count when
  followed by more words («+ с удовольствием»);
- a second join of someone on the list changes nothing: he keeps his place and is told so
  (`double`);
- the first `cap` are in, the next `reserve` are the reserve, those after have no room
  (`over`) but move up when someone leaves before the close;
- with `approve`, a join waits for the host (`pending`) and takes a place only once
  approved; a refused one is off the list;
- at the close the list is fixed: a join after it goes to the end of the reserve (while it
  has room; else it is answered `late`), a leave after it takes a reserve player off, and a
  player of the list is only reported to the host (a substitute is his business:
  `forumgm game sub`);
- a join by an account whose name reads like one already on the list (a Latin look-alike
  letter, an invisible character, one letter apart in a long name) waits for the host
  (`pending`, note `lookalike`) whatever `approve` says: a game may not hold both
  (`game validate` refuses look-alikes); `signup approve` lets him in (in the reserve, say),
  `signup refuse` takes him off.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any

from engine.i18n import _
from engine.table_problems import true_or_false, unknown_key
from scraper.normalize import fold, lower, strip_invisible

JOIN_WORDS = (
    "+",
    "в игре",
    "я в игре",
    "участвую",
    "играю",
    "записываюсь",
    "/in",
    "/join",
    "/sign",
    "i'm in",
    "count me in",
)
"""What joins by default (ru and en); `[signup] join` replaces the list."""
LEAVE_WORDS = (
    "-",
    "–",
    "—",
    "выхожу",
    "не играю",
    "я не играю",
    "передумал",
    "передумала",
    "/out",
    "/leave",
    "/unsign",
    "i'm out",
)
"""What leaves by default; `[signup] leave` replaces the list."""

STATUSES = ("in", "reserve", "pending", "over", "left", "refused")
SIGNUP_KEYS = {"thread", "cap", "reserve", "closes", "join", "leave", "approve", "post_list"}
_TRAILING = " \t.!,;:)(?"


def word_key(text: str) -> str:
    """A join or leave word, or a post's first line, as they are compared."""
    return " ".join(lower(strip_invisible(text)).split()).strip(_TRAILING) or text.strip()


@dataclass(frozen=True)
class SignupSettings:
    """`[signup]` of a game file."""

    thread: str
    cap: int | None = None
    reserve: int = 0
    closes: datetime | None = None
    join: tuple[str, ...] = JOIN_WORDS
    leave: tuple[str, ...] = LEAVE_WORDS
    approve: bool = False
    post_list: timedelta | None = None
    """How often the list is posted in the thread (None: only when the host asks)."""

    def classify(self, text: str) -> str | None:
        """ "join", "leave" or None for a post's own words."""
        first = next((line for line in text.splitlines() if line.strip()), "")
        line = word_key(first)
        if not line:
            return None
        joins = {word_key(w) for w in self.join}
        leaves = {word_key(w) for w in self.leave}
        if line in joins:
            return "join"
        if line in leaves:
            return "leave"
        # «+ жду», «-, не успею», "/in please": a sign or a /command, then more words.
        head = re.match(r"^([+\-–—]|/\w+)[\s,]", line)
        if head:
            sign = head.group(1)
            if sign in joins:
                return "join"
            if sign in leaves:
                return "leave"
        return None


def parse_settings(raw: Mapping[str, Any], tz: tzinfo) -> tuple[SignupSettings | None, list[str]]:
    """`[signup]` read and checked: the settings, or None and what is wrong (key: message)."""
    from engine.config import parse_vote_count

    problems: list[str] = []
    for key in raw:
        if key not in SIGNUP_KEYS:
            problems.append(unknown_key(key, SIGNUP_KEYS))
    thread = raw.get("thread")
    if not isinstance(thread, str | int) or isinstance(thread, bool) or not str(thread).strip():
        problems.append(_("`thread`: the sign-up thread's id is needed"))
    cap = raw.get("cap")
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 2):
        problems.append(
            _("`cap`: the number of players, at least 2, got {value!r}").format(value=cap)
        )
    reserve = raw.get("reserve", 0)
    if not isinstance(reserve, int) or isinstance(reserve, bool) or reserve < 0:
        said = _("`reserve`: a number of players (0: none), got {value!r}")
        problems.append(said.format(value=reserve))
    closes = raw.get("closes")
    when: datetime | None = None
    if isinstance(closes, datetime):
        when = closes
    elif isinstance(closes, str):
        try:
            when = datetime.fromisoformat(closes)
        except ValueError:
            problems.append(_('`closes`: {value!r}: write "YYYY-MM-DD HH:MM"').format(value=closes))
    elif closes is not None:
        problems.append(_('`closes`: write "YYYY-MM-DD HH:MM", got {value!r}').format(value=closes))
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=tz)
    words: dict[str, tuple[str, ...]] = {}
    for key, default in (("join", JOIN_WORDS), ("leave", LEAVE_WORDS)):
        given = raw.get(key, default)
        if (
            not isinstance(given, list | tuple)
            or not given
            or not all(isinstance(w, str) and w.strip() for w in given)
        ):
            problems.append(
                _('`{key}`: a list of words, e.g. ["+", "в игре", "/in"]').format(key=key)
            )
            given = default
        words[key] = tuple(given)
    both = {word_key(w) for w in words["join"]} & {word_key(w) for w in words["leave"]}
    if both:
        problems.append(_("`join` and `leave` share {words}").format(words=", ".join(sorted(both))))
    approve = raw.get("approve", False)
    if not isinstance(approve, bool):
        problems.append(true_or_false("approve", approve))
    every: timedelta | None = None
    post_list = raw.get("post_list", "off")
    if not isinstance(post_list, str):
        said = _('`post_list`: "off" or e.g. "every day", got {value!r}')
        problems.append(said.format(value=post_list))
    else:
        try:
            every = parse_vote_count(post_list)
        except ValueError as exc:
            problems.append(f"`post_list`: {exc}")
    if problems:
        return None, problems
    return (
        SignupSettings(
            thread=str(thread).strip(),
            cap=cap,
            reserve=reserve,
            closes=when,
            join=words["join"],
            leave=words["leave"],
            approve=approve,
            post_list=every,
        ),
        [],
    )


# -- the list ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThreadPost:
    """A post of the sign-up thread as the list reads it."""

    post_id: str
    number: int
    author: str
    posted_at: datetime
    text: str
    deleted: bool = False


@dataclass(frozen=True)
class Entry:
    name: str
    status: str
    place: int
    """Its place among those of the same status (1, 2…), 0 for left and refused."""
    joined_at: datetime | None = None
    post_id: str | None = None


@dataclass(frozen=True)
class Note:
    """Something a post asked that changed nothing, answered once: `double` (already on the
    list), `late` (a join after the close with no room in the reserve), `not_listed` (a
    leave by someone not on the list), `after_close` (a player of the closed list leaves:
    for the host), `lookalike` (a name read like another's: for the host)."""

    post_id: str
    name: str
    kind: str
    other: str | None = None
    place: int | None = None


@dataclass
class SignupList:
    entries: list[Entry] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    def names(self, status: str) -> list[str]:
        return [e.name for e in sorted(self.of(status), key=lambda e: e.place)]

    def of(self, status: str) -> list[Entry]:
        return [e for e in self.entries if e.status == status]

    def find(self, name: str) -> Entry | None:
        key = name.casefold()
        return next((e for e in self.entries if e.name.casefold() == key), None)


def name_skeleton(name: str) -> str:
    """A name as it reads: case, ё, Latin look-alike letters and invisible marks folded."""
    return fold(lower(strip_invisible(name))).replace(" ", "").replace("_", "")


def look_alike(a: str, b: str) -> bool:
    """Two different accounts whose names a reader (or the vote parser) would mix up: the
    look-alikes `game validate` refuses in one game (`scraper.confusable`), names equal
    but for case, spaces or underscores, and long names one letter apart."""
    from rapidfuzz.distance import Levenshtein

    from scraper.confusable import skeletons

    if skeletons(a) & skeletons(b):
        return True
    x, y = name_skeleton(a), name_skeleton(b)
    if x == y:
        return True
    return min(len(x), len(y)) >= 6 and Levenshtein.distance(x, y) <= 1


@dataclass
class _Joined:
    name: str
    at: datetime
    post_id: str
    held: bool = False
    """Reads like a name already on the list: waits for the host whatever `approve` says."""


def compute_list(
    posts: Sequence[ThreadPost],
    settings: SignupSettings,
    *,
    gm_user: str,
    closes: datetime | None,
    decisions: Mapping[str, str] | None = None,
) -> SignupList:
    """The list the thread makes (see the module's doc); `closes` is when the sign-ups
    close(d), the file's time or the host's `signup close` (None: still open)."""
    decisions = {k.casefold(): v for k, v in (decisions or {}).items()}
    gm = gm_user.casefold()
    order: list[_Joined] = []
    left: dict[str, _Joined] = {}
    notes: list[Note] = []
    ordered = sorted(posts, key=lambda p: (p.posted_at, p.number))
    before = [p for p in ordered if closes is None or p.posted_at < closes]
    after = [p for p in ordered if closes is not None and p.posted_at >= closes]

    def standing(name: str) -> _Joined | None:
        return next((j for j in order if j.name.casefold() == name.casefold()), None)

    def place_of(name: str) -> int | None:
        result = _statuses(order, settings, decisions)
        found = next((e for e in result if e.name.casefold() == name.casefold()), None)
        return found.place if found is not None else None

    for post in before:
        kind = _kind(post, settings, gm)
        if kind == "join":
            if standing(post.author) is not None:
                notes.append(Note(post.post_id, post.author, "double", place=place_of(post.author)))
                continue
            if decisions.get(post.author.casefold()) == "refuse":
                continue
            joined = _Joined(post.author, post.posted_at, post.post_id)
            for other in order:
                if look_alike(other.name, post.author):
                    notes.append(Note(post.post_id, post.author, "lookalike", other.name))
                    joined.held = decisions.get(post.author.casefold()) != "approve"
            order.append(joined)
            left.pop(post.author.casefold(), None)
        elif kind == "leave":
            found = standing(post.author)
            if found is None:
                notes.append(Note(post.post_id, post.author, "not_listed"))
                continue
            order.remove(found)
            left[post.author.casefold()] = _Joined(post.author, post.posted_at, post.post_id)
    entries = _statuses(order, settings, decisions)
    fixed = {e.name.casefold(): e for e in entries}
    reserve = [e for e in entries if e.status == "reserve"]
    for post in after:  # the list is fixed: only the reserve moves
        kind = _kind(post, settings, gm)
        key = post.author.casefold()
        held = fixed.get(key)
        if kind == "join":
            if held is not None and held.status in ("in", "reserve", "pending"):
                notes.append(Note(post.post_id, post.author, "double", place=held.place))
            elif decisions.get(key) == "refuse":
                continue
            elif decisions.get(key) != "approve" and (
                alike := next((e for e in fixed.values() if look_alike(e.name, post.author)), None)
            ):
                notes.append(Note(post.post_id, post.author, "lookalike", alike.name))
            elif len(reserve) < settings.reserve:
                entry = Entry(post.author, "reserve", 0, post.posted_at, post.post_id)
                reserve.append(entry)
                fixed[key] = entry
                left.pop(key, None)
            else:
                notes.append(Note(post.post_id, post.author, "late"))
        elif kind == "leave":
            if held is not None and held.status == "reserve":
                reserve = [e for e in reserve if e.name.casefold() != key]
                del fixed[key]
                left[key] = _Joined(post.author, post.posted_at, post.post_id)
            elif held is not None and held.status == "in":
                notes.append(Note(post.post_id, post.author, "after_close"))
            elif held is None or held.status != "over":
                notes.append(Note(post.post_id, post.author, "not_listed"))
    if closes is not None:
        reserve_places = {e.name.casefold(): n for n, e in enumerate(reserve, start=1)}
        final = [
            Entry(e.name, e.status, reserve_places.get(k, e.place), e.joined_at, e.post_id)
            for k, e in fixed.items()
            if e.status != "reserve" or k in reserve_places
        ]
    else:
        final = list(fixed.values())
    final += [Entry(j.name, "left", 0, None, j.post_id) for k, j in left.items() if k not in fixed]
    for key, said in decisions.items():
        if said == "refuse" and key not in fixed and key not in left:
            final.append(Entry(_first_name(posts, key), "refused", 0))
    return SignupList(final, notes)


def _first_name(posts: Sequence[ThreadPost], key: str) -> str:
    """An account's name as the board writes it (a decision is kept case-folded)."""
    return next((p.author for p in posts if p.author.casefold() == key), key)


def _kind(post: ThreadPost, settings: SignupSettings, gm: str) -> str | None:
    if post.deleted or post.author.casefold() == gm:
        return None
    return settings.classify(post.text)


def _statuses(
    order: Sequence[_Joined], settings: SignupSettings, decisions: Mapping[str, str]
) -> list[Entry]:
    out: list[Entry] = []
    counts = {"in": 0, "reserve": 0, "pending": 0, "over": 0}
    for j in order:
        if j.held or (settings.approve and decisions.get(j.name.casefold()) != "approve"):
            status = "pending"
        elif settings.cap is None or counts["in"] < settings.cap:
            status = "in"
        elif counts["reserve"] < settings.reserve:
            status = "reserve"
        else:
            status = "over"
        counts[status] += 1
        out.append(Entry(j.name, status, counts[status], j.at, j.post_id))
    return out


# -- what the GM posts ----------------------------------------------------------------------

_SAID = {
    "ru": {
        "in": "{name} — в списке ({place})",
        "reserve": "{name} — в резерве ({place})",
        "pending": "{name} — запись ждёт решения ведущего",
        "lookalike": "{name} — имя читается так же, как [b]{other}[/b]: запись ждёт решения "
        "ведущего",
        "over": "{name} — мест нет: список и резерв заполнены; если кто-то выйдет до "
        "закрытия набора, место перейдёт к вам",
        "up": "{name} — из резерва в список ({place})",
        "left": "{name} — больше не в списке",
        "refused": "{name} — ведущий не принял запись",
        "double": "{name} — вы уже в списке ({place}), место то же",
        "late": "{name} — набор закрыт, и резерв заполнен: запись не принята",
        "not_listed": "{name} — вас нет в списке, выходить неоткуда",
        "after_close": "{name} — набор закрыт: о выходе сообщено ведущему, он найдёт замену",
        "title": "Набор",
        "list": "Список игроков",
        "reserve_title": "Резерв",
        "pending_title": "Ждут решения ведущего",
        "over_title": "Мест нет (ждут, если кто-то выйдет)",
        "closes": "Набор закрывается {when}.",
        "closed": "Набор закрыт.",
        "how": "Записаться: «{join}», выйти: «{leave}».",
        "empty": "пока никого",
    },
    "en": {
        "in": "{name} — in ({place})",
        "reserve": "{name} — in the reserve ({place})",
        "pending": "{name} — waits for the host's approval",
        "lookalike": "{name} — the name reads like [b]{other}[/b]: the sign-up waits for the host",
        "over": "{name} — no room: the list and the reserve are full; if someone leaves "
        "before the close, the place is yours",
        "up": "{name} — moved up from the reserve ({place})",
        "left": "{name} — no longer on the list",
        "refused": "{name} — the host did not accept the sign-up",
        "double": "{name} — you are on the list already ({place}), same place",
        "late": "{name} — sign-ups are closed and the reserve is full: not taken",
        "not_listed": "{name} — you are not on the list",
        "after_close": "{name} — sign-ups are closed: the host is told, and will find a substitute",
        "title": "Sign-ups",
        "list": "Players",
        "reserve_title": "Reserve",
        "pending_title": "Waiting for the host",
        "over_title": "No room (waiting in case someone leaves)",
        "closes": "Sign-ups close {when}.",
        "closed": "Sign-ups are closed.",
        "how": "Sign up: “{join}”, leave: “{leave}”.",
        "empty": "nobody yet",
    },
}
FOR_HOST = ("after_close",)
"""Notes the host reads (`forumgm signup status`); the others are answered in the thread."""


def change_lines(
    old: Mapping[str, tuple[str, int, str]], new: SignupList, language: str
) -> list[tuple[str, str]]:
    """(name, line) for each player whose standing changed since `old` (case-folded name →
    status, place, name): the GM's answer to the joins and leaves a read brought. A join
    post edited or deleted away is a leave."""
    said = _SAID[language]
    lines: list[tuple[str, str]] = []
    for e in new.entries:
        was = old.get(e.name.casefold())
        if was is not None and was[0] == e.status:
            continue
        if e.status == "left" and (was is None or was[0] in ("left", "refused")):
            continue
        if e.status == "refused" and was is None:
            continue
        key = "up" if e.status == "in" and was is not None and was[0] == "reserve" else e.status
        lines.append((e.name, said[key].format(name=f"[b]{e.name}[/b]", place=e.place)))
    for gone in old_gone(old, new):
        lines.append((gone, said["left"].format(name=f"[b]{gone}[/b]", place=0)))
    return lines


def old_gone(old: Mapping[str, tuple[str, int, str]], new: SignupList) -> list[str]:
    """Names on the old list that the new one no longer has at all (a join post deleted,
    or edited into something else)."""
    have = {e.name.casefold() for e in new.entries}
    return [
        name
        for key, (status, _, name) in old.items()
        if key not in have and status not in ("left", "refused")
    ]


def note_line(note: Note, language: str) -> str:
    return _SAID[language][note.kind].format(
        name=f"[b]{note.name}[/b]", place=note.place, other=note.other
    )


def list_post(
    current: SignupList,
    settings: SignupSettings,
    language: str,
    *,
    title: str,
    closes: datetime | None,
    closed: bool,
    tz: tzinfo,
) -> str:
    """The list as the GM posts it in the sign-up thread."""
    said = _SAID[language]
    lines = [f"[b]{said['title']}: {title}[/b]" if title else f"[b]{said['title']}[/b]", ""]
    players = current.names("in")
    cap = f" ({len(players)}/{settings.cap})" if settings.cap else f" ({len(players)})"
    lines.append(f"[b]{said['list']}[/b]{cap}")
    lines += [f"{n}. {name}" for n, name in enumerate(players, start=1)] or [said["empty"]]
    for status, key in (("reserve", "reserve_title"), ("pending", "pending_title")):
        names = current.names(status)
        if names or (status == "reserve" and settings.reserve):
            limit = f" ({len(names)}/{settings.reserve})" if status == "reserve" else ""
            lines += ["", f"[b]{said[key]}[/b]{limit}"]
            lines += [f"{n}. {name}" for n, name in enumerate(names, start=1)] or [said["empty"]]
    over = current.names("over")
    if over:
        lines += ["", f"[b]{said['over_title']}[/b]: {', '.join(over)}"]
    lines.append("")
    if closed:
        lines.append(said["closed"])
    else:
        if closes is not None:
            local = closes.astimezone(tz)
            lines.append(said["closes"].format(when=f"{local:%d.%m.%Y %H:%M} ({local.tzname()})"))
        lines.append(said["how"].format(join=settings.join[0], leave=settings.leave[0]))
    return "\n".join(lines)
