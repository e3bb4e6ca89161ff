"""`forumgm export` and `forumgm tally`: a thread as JSON Lines, and the vote count as of a post."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from engine.app.board_options import (
    DEFAULT_PASSWORD_ENV,
    BoardMaker,
    Engine,
    Insecure,
    PasswordEnv,
    Url,
    User,
    open_board,
)
from engine.app.console import console
from engine.core.orders import Channel, Source
from engine.core.ruleset import RulesError, Ruleset, Seat
from engine.core.slots import Moment
from engine.core.warnings import ParseWarning
from engine.i18n import _, error_line, ngettext, shown, warning_text
from engine.players_file import PLAYERS_HELP, PlayersFileError, load_players
from engine.session import GameSession
from forums import Board, BoardError
from forums.html import html_to_postbody
from forums.mybb.html import mybb_html_to_postbody
from forums.records import Post, PostBody
from forums.smf.pages import smf_html_to_postbody
from forums.vbulletin.body import vb_html_to_postbody
from rulesets import find
from scraper.reading import Cast, read_post

# The count itself is votecount's: the ruleset whose whole game is the thread vote. Other
# rulesets lend their grammar (how a vote is written) and their name leniency.
COUNTING_RULESET = "votecount"
# A tally has no deadline of its own (--until is the cut), so the day spans all time.
_DAWN = datetime(1970, 1, 1, tzinfo=UTC)
_DUSK = datetime(9000, 1, 1, tzinfo=UTC)

READERS: dict[str, Callable[[str], PostBody]] = {
    "phpbb": html_to_postbody,
    "mybb": mybb_html_to_postbody,
    "smf": smf_html_to_postbody,
    "vbulletin": vb_html_to_postbody,
    "vbulletin5": vb_html_to_postbody,
}
"""How each engine's exported post HTML (`Post.raw`) is read."""

make_board: BoardMaker | None = None
"""Tests set this to build the board over a mocked client; None uses the engine registry."""


# -- the JSON Lines file -------------------------------------------------------------------


@dataclass(frozen=True)
class ThreadPost:
    """One line of an exported thread."""

    number: int
    id: str
    user: str
    user_id: str | None
    time: datetime | None
    content: str
    """The post body's HTML as the board served it."""


def post_line(post: Post) -> dict[str, Any]:
    """The JSON object `forumgm export` writes for one post."""
    return {
        "number": post.number,
        "id": post.id,
        "user": post.author,
        "user_id": post.author_id,
        "time": post.posted_at.isoformat(),
        "content": post.raw or "",
    }


REQUIRED = ("number", "id", "user", "content")
OPTIONAL = ("user_id", "time")
DISPLAY_TIMES = ("%a %b %d, %Y %I:%M %p", "%a %b %d, %Y %H:%M", "%d %b %Y, %H:%M", "%d.%m.%Y %H:%M")
"""A board's display of a date with its year (older dumps, e.g. donbot's mafiascum scrapes,
carry it instead of a moment): accepted, but it is no moment (no time zone)."""


def _time(value: Any) -> datetime | None:
    """The post's moment (ISO 8601, as `forumgm export` writes); None for a board's display
    of a full date; anything else is a ValueError."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(_("time {value} is not a date and time").format(value=repr(value)))
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        pass
    else:
        if moment.tzinfo is None:  # `forumgm export` writes the offset: without it, no moment
            raise ValueError(
                _(
                    "time {value} has no UTC offset: write it as forumgm export does "
                    "(2026-12-01T19:05:00+03:00)"
                ).format(value=repr(value))
            )
        return moment
    for form in DISPLAY_TIMES:
        try:
            datetime.strptime(value.strip(), form)
        except ValueError:
            continue
        return None
    raise ValueError(
        _(
            "time {value} is not a date and time: write it as forumgm export does "
            "(2026-12-01T19:05:00+03:00)"
        ).format(value=repr(value))
    )


def _post(doc: Any) -> ThreadPost:
    if not isinstance(doc, dict):
        raise ValueError(_("expected a JSON object {{number, id, user, content, …}}").format())
    missing = [key for key in REQUIRED if key not in doc]
    if missing:
        others = [k for k in doc if k not in (*REQUIRED, *OPTIONAL)]
        hint = _(" (it has {keys})").format(keys=", ".join(others)) if others else ""
        raise ValueError(
            _("no {missing}{hint}: a post needs {required} ({optional} optional)").format(
                missing=", ".join(missing),
                hint=hint,
                required=", ".join(REQUIRED),
                optional=", ".join(OPTIONAL),
            )
        )
    number = doc["number"]
    if isinstance(number, bool) or not isinstance(number, int | str) or not str(number).isdigit():
        raise ValueError(_("number {number} is not a post number").format(number=repr(number)))
    return ThreadPost(
        number=int(number),
        id=str(doc["id"]),
        user=str(doc["user"]),
        user_id=None if doc.get("user_id") is None else str(doc["user_id"]),
        time=_time(doc.get("time")),
        content=str(doc["content"]),
    )


def read_posts(lines: Iterable[str]) -> list[ThreadPost]:
    """Posts from JSON Lines, in thread order; a bad line is a ValueError naming it."""
    posts = []
    for index, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            posts.append(_post(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise ValueError(
                _("line {n}: not JSON ({error})").format(n=index, error=exc.msg)
            ) from exc
        except ValueError as exc:
            raise ValueError(_("line {n}: {error}").format(n=index, error=exc)) from exc
    return sorted(posts, key=lambda p: p.number)


def load_posts(path: str | Path) -> list[ThreadPost]:
    with open(path, encoding="utf-8") as handle:
        try:
            return read_posts(handle)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from exc


async def export_thread(board: Board, thread: str) -> list[dict[str, Any]]:
    """Every visible post of the thread, as `post_line`s (deleted stubs left out)."""
    try:
        page = await board.thread_posts(thread)
    finally:
        await board.close()
    return [post_line(p) for p in page.items if not p.deleted]


# -- the tally -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PostWarning:
    """A warning with the post it came from."""

    number: int
    post: ThreadPost
    warning: ParseWarning

    def as_dict(self) -> dict[str, Any]:
        w = self.warning
        out: dict[str, Any] = {
            "post": self.number,
            "id": self.post.id,
            "user": self.post.user,
            "code": w.code,
            "message": w.message,
        }
        if w.choices:
            out["choices"] = list(w.choices)
        if w.accepted:
            out["accepted"] = True
        if w.source is not None and w.source.line is not None:
            out["line"] = w.source.line
        return out


@dataclass
class Tally:
    votes: dict[str, str | None]
    """Every voter in play → target (or "no_lynch"), None when not voting; seating order."""
    totals: dict[str, float]
    leader: str | None
    majority: int | None
    warnings: list[PostWarning] = field(default_factory=list)
    last_post: int | None = None
    slots: dict[str, str] = field(default_factory=dict)
    """Slot → "A (replaced B, replaced C)" as of the last post read, for slots that changed hands."""
    chains: dict[str, list[str]] = field(default_factory=dict)
    """Slot → its holders as of the last post read (those that changed hands): the table
    names them in the host's language."""

    @property
    def not_voting(self) -> list[str]:
        return [v for v, t in self.votes.items() if t is None]

    def label(self, name: str | None) -> str:
        """A seat as the table shows it: by its holders, in the host's language."""
        if name is None:
            return "—"
        from engine.config import slot_label

        chain = self.chains.get(name)
        return slot_label(chain) if chain else self.slots.get(name, name)

    def as_dict(self) -> dict[str, Any]:
        return {
            "votes": self.votes,
            "totals": self.totals,
            "leader": self.leader,
            "majority": self.majority,
            "as_of_post": self.last_post,
            "slots": self.slots,
            "warnings": [w.as_dict() for w in self.warnings],
        }


def _counting_session(ruleset: Ruleset, cast: Cast, no_lynch: bool) -> GameSession:
    counter = find(COUNTING_RULESET)
    options: Mapping[str, Any] | None = {} if ruleset is counter else {"no_lynch": no_lynch}
    # Names arrive already slotted by read_post (substitute and original are one slot,
    # named as the players file lists it), so the seats are the listed names alone.
    seats = [Seat(n) for n in cast.players] + [Seat(n, state={"alive": False}) for n in cast.dead]
    session = GameSession.new(counter, seats, options, seed=0, aliases=cast.aliases)
    session.open_phase(_DAWN, _DUSK, _DUSK)
    return session


def tally_posts(
    posts: Sequence[ThreadPost],
    ruleset: Ruleset,
    cast: Cast,
    *,
    first: int | None = None,
    last: int | None = None,
    gm: str | None = None,
    reader: Callable[[str], PostBody] = html_to_postbody,
) -> Tally:
    """The count after reading posts numbered `first`..`last` (inclusive) in thread order.

    The `gm`'s posts are not read, as a live game does not read the host's own posts
    (their vote examples and counts would only raise warnings). Each post is read as `forumgm parse` reads it (the ruleset's grammar, the players
    file's dead, substitutes and aliases: `scraper.reading.read_post`); the orders then
    go through votecount's intake, which keeps the ledger a live game keeps.
    """
    options = ruleset.options({})
    grammar = ruleset.grammar_for(options)
    lenient = bool(options.get("lenient_names", False))
    no_lynch = bool(options.get("no_lynch", True))
    # A substitution the players file gives no post for happens at the substitute's first.
    first_seen: dict[str, Moment] = {}
    for post in posts:
        first_seen.setdefault(post.user, Moment(post.time, post.number))
    cast = cast.settled(first_seen)
    session = _counting_session(ruleset, cast, no_lynch)
    warnings: list[PostWarning] = []
    read_to: int | None = None
    for post in posts:
        if (first is not None and post.number < first) or (last is not None and post.number > last):
            continue
        read_to = post.number
        if gm is not None and post.user.casefold() == gm.casefold():
            continue
        source = Source(Channel.THREAD, post.id)
        result = read_post(
            reader(post.content),
            grammar,
            cast,
            sender=post.user,
            channel=Channel.THREAD,
            lenient=lenient,
            no_lynch=no_lynch,
            source=source,
            at=post.time,
            post_number=post.number,
        )
        said = ruleset.keep_parse_warnings(Channel.THREAD, list(result.warnings))
        for order in result.orders:
            said.extend(session.submit(order)[1])
        warnings.extend(PostWarning(post.number, post, w) for w in said)
    assert session.inputs is not None
    view = session.ruleset.vote_view(session.state, session.inputs, public=True)
    as_of = Moment(post=read_to) if read_to is not None else None
    labels = {key: cast.slots.label(key, as_of) for key in cast.slots.keys}
    return Tally(
        votes=dict(view.votes),
        totals=dict(view.totals),
        leader=view.leader,
        majority=view.majority,
        warnings=warnings,
        last_post=read_to,
        slots={key: label for key, label in labels.items() if label != key},
        chains={key: chain for key in labels if len(chain := cast.slots.chain(key, as_of)) > 1},
    )


# -- the commands --------------------------------------------------------------------------


def _fail(message: str) -> typer.Exit:
    typer.echo(_("error: {message}").format(message=message), err=True)
    return typer.Exit(2)


def export(
    url: Url,
    user: User,
    thread: Annotated[str, typer.Option("--thread", help="The thread (topic id or URL).")],
    engine: Engine = "phpbb",
    password_env: PasswordEnv = DEFAULT_PASSWORD_ENV,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write here instead of standard output.")
    ] = None,
    allow_insecure_http: Insecure = False,
) -> None:
    """Write the thread's posts as JSON Lines: number, id, user, user_id, time, content."""
    board = open_board(
        engine, url, user, password_env, make_board, _fail, allow_insecure_http=allow_insecure_http
    )
    try:
        import asyncio  # only export talks to a board

        lines = asyncio.run(export_thread(board, thread))
    except BoardError as exc:
        # Adapter errors never carry the password; say it anyway only as the board put it.
        raise _fail(shown(error_line(exc))) from None
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise _fail(
                _("cannot write {path}: {error}").format(path=out, error=exc.strerror or exc)
            ) from None
        typer.echo(
            ngettext(
                "{n} posts written to {path}", "{n} posts written to {path}", len(lines)
            ).format(n=len(lines), path=out),
            err=True,
        )


def _table(result: Tally, out: Console) -> None:
    table = Table(title=_("Votes as of post {n}").format(n=result.last_post))
    table.add_column(_("Voter"))
    table.add_column(_("Votes for"))
    for voter, target in result.votes.items():
        table.add_row(result.label(voter), result.label(target))
    out.print(table)
    out.print(_("Totals:"))
    for target, count in sorted(result.totals.items(), key=lambda item: -item[1]):
        voters = [result.label(v) for v, t in result.votes.items() if t == target]
        out.print(f"  {result.label(target)} — {count:g} ({', '.join(voters)})")
    if not result.totals:
        out.print(_("  no votes"))
    not_voting = ", ".join(result.label(v) for v in result.not_voting)
    out.print(_("Not voting: {names}").format(names=not_voting or _("nobody")))
    out.print(_("Majority: {n}").format(n=result.majority))
    leader = result.label(result.leader) if result.leader else _("none (tie or no votes)")
    out.print(_("Leader: {name}").format(name=leader))
    for item in result.warnings:
        w = item.warning
        choices = _(" — choices: {names}").format(names=", ".join(w.choices)) if w.choices else ""
        out.print(
            _("  warning #{n} {user}: {code}: {message}").format(
                n=item.number, user=item.post.user, code=w.code, message=warning_text(w.message)
            )
            + choices
        )


def tally(
    posts: Annotated[Path, typer.Option("--posts", help="The thread as JSON Lines (export).")],
    players: Annotated[Path, typer.Option("--players", help=PLAYERS_HELP)],
    ruleset: Annotated[str, typer.Option("--ruleset", help="votecount, …")] = "votecount",
    engine: Annotated[
        str, typer.Option("--engine", help="The board the HTML came from.")
    ] = "phpbb",
    first: Annotated[
        int | None, typer.Option("--from", help="Start reading at this post number.")
    ] = None,
    until: Annotated[
        int | None, typer.Option("--until", help="The count as of this post number.")
    ] = None,
    gm: Annotated[
        str | None,
        typer.Option(
            "--gm",
            help="The host, whose posts are not read; by default the thread opener when he "
            "is not in the players file ('' reads every post).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the vote count as of a post of an exported thread (exit 2 on bad input)."""
    if engine not in READERS:
        raise _fail(
            _("--engine {engine}: post HTML of {engines} can be read").format(
                engine=engine, engines=", ".join(READERS)
            )
        )
    try:
        cast = load_players(players)
        rules = find(ruleset)
        thread = load_posts(posts)
    except (PlayersFileError, RulesError, KeyError, ValueError, OSError) as exc:
        raise _fail(str(exc)) from exc
    if first is not None and until is not None and first > until:
        raise _fail(
            _("--from {first} comes after --until {until}: nothing to count").format(
                first=first, until=until
            )
        )
    if not any(
        (first is None or p.number >= first) and (until is None or p.number <= until)
        for p in thread
    ):
        numbers = f"{thread[0].number}–{thread[-1].number}" if thread else _("none: it is empty")
        raise _fail(
            _("{path}: no post in that range (its posts: {numbers})").format(
                path=posts, numbers=numbers
            )
        )
    if gm is None and thread and thread[0].user not in cast.roster:
        gm = thread[0].user
    result = tally_posts(
        thread, rules, cast, first=first, last=until, gm=gm or None, reader=READERS[engine]
    )
    if as_json:
        typer.echo(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        return
    _table(result, console())
    if gm:
        typer.echo(_("Posts by {gm} (the host) were not read.").format(gm=gm))
