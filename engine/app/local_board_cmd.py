"""`forumgm board local`: the rehearsal board a game file names (`engine = "local"`).

`init` creates the board the game file describes (the GM's account with the password from
where the file says, one account per player, the game thread); `post` and `pm` let the
host play a rehearsal by hand, as any player, at the command's clock (`FORUMGM_NOW`);
`show` prints the thread or a player's inbox as the players see them — of a game's board,
or of the demo's (`forumgm board local show forumgm-demo.sqlite`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Annotated

import typer

from engine.app.console import out
from engine.clock import Clock, local_time
from engine.config import ConfigError, GameConfig
from engine.credentials import CredentialsRef
from engine.i18n import _, board_text, for_game, ngettext, said_of, shown
from forums.errors import BoardError, NotFound
from forums.local import LocalBoard
from forums.local import tables as t

app = typer.Typer(
    help="The local rehearsal board: create it, post and send PMs as a player, read it.",
    no_args_is_help=True,
)

GameArg = Annotated[Path, typer.Argument(help="The game file (its [board] engine is local).")]
As = Annotated[str, typer.Option("--as", help="The player (board account) who writes.")]
Text = Annotated[str, typer.Argument(help="The text as BBCode; '-' reads stdin.")]


def _fail(message: str, code: int = 2) -> typer.Exit:
    out.print(message)
    return typer.Exit(code)


@dataclass(frozen=True)
class LocalGame:
    """What `board local` reads of a game file: a whole one, or one whose players the
    sign-ups have yet to write (`[signup]`, `[players] players = []`)."""

    path: str
    engine: str
    url: str
    gm_user: str
    password: CredentialsRef | None
    players: list[str]
    replacements: dict[str, str]
    reserve: list[str]
    title: str
    thread: str
    signup_thread: str | None
    tz: tzinfo
    language: str

    @classmethod
    def of(cls, config: GameConfig) -> LocalGame:
        signup = config.signup.thread if config.signup is not None else None
        return cls(
            config.path,
            config.engine,
            config.url,
            config.gm_user,
            config.password,
            list(config.players),
            dict(config.replacements),
            list(config.reserve),
            config.title,
            config.thread,
            signup,
            config.schedule.tz,
            config.language,
        )


def _signup_stage(game: Path) -> LocalGame | None:
    """The file as the sign-ups see it, when it has a [signup] and no players yet."""
    import tomllib

    from engine.config import ConfigError, load_signup_config

    try:
        raw = tomllib.loads(game.read_text(encoding="utf-8"))
        config = load_signup_config(game)
    except (OSError, ValueError, ConfigError):
        return None
    if config.players:
        return None
    thread = raw.get("board", {}).get("thread", "")
    return LocalGame(
        str(game),
        config.board.engine,
        config.board.url,
        config.board.gm_user,
        config.board.password,
        [],
        {},
        [],
        config.title,
        str(thread),
        config.settings.thread,
        config.tz,
        config.language,
    )


def _local_config(game: Path) -> LocalGame:
    from engine.app.game_file import load_game
    from engine.app.service_cmd import config_or_exit

    try:
        config = LocalGame.of(load_game(game))
    except ConfigError:
        early = _signup_stage(game)
        config = early if early is not None else LocalGame.of(config_or_exit(game))
    for_game(config.language)
    if config.engine != "local":
        raise _fail(
            _(
                "{game}: its board is {engine}, not a rehearsal board: `board local` "
                'works on a game file with [board] engine = "local"'
            ).format(game=game, engine=config.engine)
        )
    return config


def _board(config: LocalGame, *, create: bool = False) -> tuple[LocalBoard, str]:
    """The game's local board as its GM, on the command's clock, and the GM's password."""
    from engine.app.service_cmd import command_clock
    from engine.credentials import CredentialsError, resolve_password

    if config.password is None:  # only an API board goes without one; a local board has none
        raise _fail(_("[board] password: a rehearsal board needs the GM's password (env:VARIABLE)"))
    try:
        password = resolve_password(config.password, config.gm_user)
    except CredentialsError as exc:
        raise _fail(shown(said_of(exc))) from None
    board, made = _open(config.url, config.gm_user, password.reveal(), clock=command_clock())
    if not create and not made:
        raise _fail(
            _("no rehearsal board at {url} yet: forumgm board local init {game}").format(
                url=config.url, game=config.path
            )
        )
    return board, password.reveal()


def _open(
    url: str, user: str = "", password: str = "", *, clock: Clock | None = None
) -> tuple[LocalBoard, bool]:
    """The local board at `url` and whether its tables are made; a URL that names no
    database forumgm can open (a file that is not one, an unknown scheme) is one line."""
    from sqlalchemy.exc import SQLAlchemyError

    from engine.app.service_cmd import shown_url

    try:
        board = LocalBoard(url, user, password, clock=clock)
        return board, board.has_schema()
    except SQLAlchemyError as exc:
        raise _fail(
            _("cannot open the local board {url}: {error}").format(
                url=shown_url(url), error=type(exc).__name__
            )
        ) from None


def _not_found(exc: NotFound) -> str:
    """The board's «no thread '9'» / «no post '9'» / «no user 'X'» in the host's language."""
    return board_text(str(exc))


def _text(text: str, game: Path) -> str:
    body = sys.stdin.read() if text == "-" else text
    if not body.strip():
        _local_config(game)  # said in the game's language (and a wrong file said first)
        raise _fail(_("the text is empty"))
    return body


@app.command("init")
def init(
    game: GameArg,
    more: Annotated[
        list[str] | None,
        typer.Option("--account", help="Another player account (a substitute, a latecomer)."),
    ] = None,
) -> None:
    """Create the game file's rehearsal board: the GM (password from where the file says),
    an account per player and the game thread. Running it again adds what is missing."""
    config = _local_config(game)
    board, password = _board(config, create=True)
    board.create_schema()
    gm = board.user(config.gm_user)
    if gm is None:
        board.add_user(config.gm_user, password)
    else:
        try:
            board.authenticate(config.gm_user, password)
        except BoardError:
            raise _fail(
                _("{gm} has another password on this board than the one in {where}").format(
                    gm=config.gm_user, where=config.password
                )
            ) from None
    names = [*config.players, *config.replacements, *config.reserve, *(more or [])]
    added = list(dict.fromkeys(n for n in names if not board.user(n)))
    for name in added:
        board.add_user(name, None)  # players act through `board local post/pm --as`
    thread = config.thread
    if not board.has_thread(thread):
        made = board.create_thread(config.title or "Мафия", config.gm_user)
        if made != thread:
            raise _fail(
                _(
                    "the board's new game thread is {made}, but the game file says thread = "
                    '"{thread}": write thread = "{made}" in {game}'
                ).format(made=made, thread=thread, game=game)
            )
    signup = config.signup_thread
    if signup is not None and not board.has_thread(signup):
        made = board.create_thread(f"Набор: {config.title or 'Мафия'}", config.gm_user)
        if made != signup:
            raise _fail(
                _(
                    "the board's new sign-up thread is {made}, but the game file says [signup] "
                    'thread = "{thread}": write thread = "{made}" in {game}'
                ).format(made=made, thread=signup, game=game)
            )
    # English keeps «account(s)», as `init` always printed it; Russian has its three forms.
    accounts = ngettext("{n} account(s) added", "{n} account(s) added", len(added))
    said = _("Rehearsal board {url}: GM {gm}, {accounts}, game thread {thread}").format(
        url=config.url, gm=config.gm_user, accounts=accounts.format(n=len(added)), thread=thread
    )
    if signup:
        said += _(", sign-up thread {thread}").format(thread=signup)
    out.print(said + ".")
    out.print(
        _(
            'Players write with: forumgm board local post {game} --as NAME "text" (thread), '
            'forumgm board local pm {game} --as NAME "text" (PM to the GM).'
        ).format(game=game)
    )


def _as_player(
    game: Path,
    write: Callable[[LocalBoard, LocalGame], str],
    said: Callable[[str, str, LocalGame], str],
) -> None:
    """Write on the game's board as a player; print `said(board id, local time, config)`."""
    config = _local_config(game)
    board, _password = _board(config)
    try:
        made = write(board, config)
    except NotFound as exc:
        if str(exc).startswith("no thread"):  # the board has no such thread: init makes it
            raise _fail(
                _(
                    "{error} on the rehearsal board {url}: forumgm board local init {game} "
                    "creates the game's threads (or the game file names another)"
                ).format(error=_not_found(exc), url=config.url, game=game)
            ) from None
        if str(exc).startswith("no post"):
            raise _fail(
                _("{error} on the rehearsal board {url}").format(
                    error=_not_found(exc), url=config.url
                )
            ) from None
        raise _fail(
            _("{error}: forumgm board local init {game} --account NAME adds one").format(
                error=_not_found(exc), game=game
            )
        ) from None
    out.print(said(made, local_time(board.clock(), config.tz), config))


@app.command("post")
def post(
    game: GameArg,
    text: Text,
    author: As,
    signup: Annotated[
        bool, typer.Option("--signup", help="Post in the sign-up thread ([signup] thread).")
    ] = False,
) -> None:
    """Post to the game thread (or the sign-up thread) as a player, at the command's clock
    (`FORUMGM_NOW`)."""
    body = _text(text, game)

    def thread(config: LocalGame) -> str:
        if not signup:
            return config.thread
        if config.signup_thread is None:
            raise _fail(_("{game} has no [signup] thread").format(game=game))
        return config.signup_thread

    _as_player(
        game,
        lambda board, config: board.post_as(author, thread(config), body),
        lambda post_id, at, config: _("post {id} by {author} in thread {thread} at {at}").format(
            id=post_id, author=author, thread=thread(config), at=at
        ),
    )


@app.command("edit")
def edit(
    game: GameArg,
    post_id: Annotated[str, typer.Argument(help="The post's id (as `post` printed it).")],
    text: Text,
    author: As,
) -> None:
    """Edit a post as its author, at the command's clock (the board shows the edit)."""
    body = _text(text, game)

    def write(board: LocalBoard, config: LocalGame) -> str:
        owner = board.post_author(post_id)
        if t.name_key(owner) != t.name_key(author):
            # A player edits his own posts only, as on a real board; the GM's are his.
            raise _fail(
                _("post {id} is {owner}'s: {author} can edit only his own posts").format(
                    id=post_id, owner=owner, author=author
                )
            )
        board.edit_post(post_id, body, author)
        return post_id

    _as_player(
        game,
        write,
        lambda pid, at, config: _("post {id} edited by {author} at {at}").format(
            id=pid, author=author, at=at
        ),
    )


@app.command("pm")
def pm(
    game: GameArg,
    text: Text,
    author: As,
    to: Annotated[
        list[str] | None, typer.Option("--to", help="Recipient (default: the GM).")
    ] = None,
    subject: Annotated[str, typer.Option(help="The PM's subject.")] = "ход",
) -> None:
    """Send a PM as a player (to the GM unless --to), at the command's clock."""
    body = _text(text, game)
    sent: list[str] = []

    def send(board: LocalBoard, config: LocalGame) -> str:
        sent.extend(to or [config.gm_user])
        return board.pm_as(author, sent, subject, body)

    _as_player(
        game,
        send,
        lambda pm_id, at, config: _("PM {id} from {author} to {to} at {at}").format(
            id=pm_id, author=author, to=", ".join(sent), at=at
        ),
    )


@app.command("show")
def show(
    target: Annotated[
        str,
        typer.Argument(
            help="A game file, or a local board's database (URL or SQLite file, e.g. "
            "forumgm-demo.sqlite)."
        ),
    ],
    inbox: Annotated[
        str | None, typer.Option("--inbox", help="Show this account's PMs, not the thread.")
    ] = None,
    thread: Annotated[
        str | None, typer.Option("--thread", help="The thread (default: the game's, or 1).")
    ] = None,
    last: Annotated[int, typer.Option(min=0, help="Only the last N posts or PMs (0: all).")] = 0,
    bbcode: Annotated[bool, typer.Option(help="Print the BBCode as stored.")] = False,
    zone_name: Annotated[
        str | None,
        typer.Option("--tz", help="Times in this zone (default: the game's, or UTC)."),
    ] = None,
) -> None:
    """Print the thread, or one account's inbox, as the players see them."""
    url, tz, thread = _target(target, thread)
    if zone_name is not None:
        from engine.schedule import ScheduleError, zone

        try:
            tz = zone(zone_name)
        except ScheduleError as exc:
            raise _fail(f"--tz: {exc}") from None
    board, made = _open(url)
    if not made:
        raise _fail(_("no local board at {url}").format(url=url))
    if inbox is not None:
        user = board.user(inbox)
        if user is None:
            raise _fail(_("no account {name} on this board").format(name=repr(inbox)))
        messages = board.pms_after(user, "inbox", 0)
        for m in messages[-last:] if last else messages:
            out.print(
                _("--- PM {id} from {sender} at {at}: {subject}").format(
                    id=m.id, sender=m.sender, at=local_time(m.sent_at, tz), subject=m.subject
                )
            )
            out.print(m.raw if bbcode else m.body.full_text())
        if not messages:
            out.print(_("{name} has no PMs").format(name=inbox))
        return
    try:
        posts = board.posts_after(thread, 0)
    except NotFound:
        raise _fail(_("no thread {thread} on this board").format(thread=repr(thread))) from None
    for p in posts[-last:] if last else posts:
        gone = _(" [deleted]") if p.deleted else ""
        out.print(
            _("--- #{number} {author} at {at}").format(
                number=p.number, author=p.author, at=local_time(p.posted_at, tz)
            )
            + gone
        )
        out.print(p.raw if bbcode else p.body.full_text())


def _target(target: str, thread: str | None) -> tuple[str, tzinfo, str]:
    """(board URL, time zone, thread) of a game file or a board database."""
    if target.endswith(".toml"):
        config = _local_config(Path(target))
        return config.url, config.tz, thread or config.thread
    if "://" in target:
        return target, UTC, thread or "1"
    path = Path(target).expanduser()
    if not path.exists():
        raise _fail(_("{path}: no such file").format(path=target))
    return f"sqlite:///{path.resolve()}", UTC, thread or "1"
