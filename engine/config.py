"""A game's configuration: one TOML file per game, checked with the line of every error."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from engine.activity import ActivitySettings, parse_activity
from engine.clock import local_time
from engine.core.ruleset import RulesError, Ruleset, Seat
from engine.core.slots import Handover, SlotError, Slots
from engine.credentials import CredentialsError, CredentialsRef
from engine.i18n import _, ngettext, warning_text
from engine.schedule import Schedule, ScheduleError, zone
from engine.signup import SignupSettings, parse_settings
from engine.wording import parse_gender
from forums.board import board_factory
from forums.errors import BoardError
from forums.guard import insecure_url

BOARD_ENGINES = (
    "discourse",
    "fluxbb",
    "local",
    "mybb",
    "phpbb",
    "punbb",
    "smf",
    "vbulletin",
    "vbulletin5",
    "xenforo",
)
"""The board engines a game file may name: each is an adapter registered under that name
(tests/forums/test_engines.py keeps this list and the registry equal)."""
START_GRACE = timedelta(minutes=15)
"""A start this little past is no surprise: the host starts the game at its start time."""
REVIEW_MODES = ("always", "warnings", "auto")
"""always: the host approves every phase; warnings: only phases with parse warnings; auto: never wait."""

TABLES = {
    "game": {
        "ruleset",
        "title",
        "seed",
        "language",
        "review",
        "receipts",
        "vote_count",
        "max_post_chars",
        "opening_post",
        "tag",
        "hosts",
    },
    "board": {
        "engine",
        "url",
        "thread",
        "gm_user",
        "password",
        "allow_insecure_http",
        "browser",
        "api_key",
        "api_user",
        "api_key_kind",
        "set_date_format",
    },
    "schedule": {"timezone", "deadlines", "start"},
    "options": None,
    "players": {
        "players",
        "reserve",
        "dead",
        "replacements",
        "aliases",
        "gender",
        "visible_roles",
    },
    "signup": None,
    "activity": None,
    "answers": {"posts_per_hour", "receipts_per_hour", "refusals_per_hour"},
    "roles": None,
    "deal": None,
    "notify": {"smtp", "email_to", "email_from", "failed_after", "dashboard"},
}
"""Every table of a game file and its keys (None: any key, the ruleset's or a name);
docs/host-guide.md documents each one (tests/docs/test_host_guide.py checks it)."""


BROWSER_ENGINES = ("mybb", "phpbb", "xenforo")
"""Engines whose adapter can log in through a real browser (`[board] browser = true`)."""
API_KEY_ENGINES = ("discourse", "xenforo")
"""Engines with a REST API that takes a key instead of the GM's login (`[board] api_key`)."""
API_KEY_KINDS = ("admin", "user")
"""`[board] api_key_kind` (Discourse): an administrator's API key, or a user API key."""
API_USER_ENGINES = ("discourse",)
"""Engines whose API key names the account it acts as in the request (`[board] api_user`:
Discourse's `Api-Username`)."""
DATE_FORMAT_ENGINES = ("mybb", "phpbb")
"""Boards whose adapter may set the GM account's own date format (`[board] set_date_format`)."""
API_ONLY_ENGINES = ("discourse",)
"""Engines read through a JSON API alone: no pages to log in on through a browser, no date
format to set (every time is an ISO timestamp), and a PM limit per day that the hosts'
notices by PM wait behind as the players' PMs do (`_api_only`)."""
NO_PM_ENGINES = {
    "fluxbb": "FluxBB has no private messages",
    "punbb": "PunBB has no private messages",
}
"""Engines without private messages, and why: a game there is played in the open thread —
no role PMs, no PM orders, no receipts, no hosts' notices or prods by PM (`_no_pms`)."""


@dataclass(frozen=True)
class ConfigProblem:
    """One problem (or, with `warning`, something to know) in a game file, where it is."""

    line: int | None
    message: str
    table: str | None = None
    warning: bool = False

    def __str__(self) -> str:
        """The problem as the host reads it, in the current language (the message was made
        in it where the file was read)."""
        message = (
            _("warning: {message}").format(message=self.message) if self.warning else (self.message)
        )
        if self.line:
            return _("line {line}: {message}").format(line=self.line, message=message)
        if self.table and not self.message.startswith(f"[{self.table}]"):
            return _("[{table}] (not in the file): {message}").format(
                table=self.table, message=message
            )
        return message


class ConfigError(Exception):
    """The file has problems; `problems` lists every one with its line."""

    def __init__(self, path: str, problems: list[ConfigProblem]) -> None:
        self.path = path
        self.problems = problems
        super().__init__("\n".join(f"{path}: {p}" for p in problems))


@dataclass(frozen=True)
class AnswerLimits:
    """`[answers]` of the game file: ceilings per hour on automatic answers
    (`engine.service.answers`)."""

    posts_per_hour: int = 6
    """Each kind of public answer in the thread (vote ratings, counts asked for)."""
    receipts_per_hour: int = 60
    """Messages answered by a PM that says something was taken (receipts, maps)."""
    refusals_per_hour: int = 10
    """Messages answered by a PM that only refuses (not accepted, a count asked too soon)."""

    KEYS: ClassVar[tuple[str, ...]] = ("posts_per_hour", "receipts_per_hour", "refusals_per_hour")


@dataclass(frozen=True)
class NotifyConfig:
    """`[notify]`: how the hosts are told when the game needs them."""

    smtp: CredentialsRef | None = None
    """Where the SMTP server's URL is (env:VAR holding smtp://user:password@host:port, or
    smtps://…, smtp+starttls://…); None: no e-mail."""
    email_to: tuple[str, ...] = ()
    email_from: str = "forumgm@localhost"
    failed_after: timedelta = timedelta(minutes=30)
    """A step failing this long (the board down, the login held) is worth a notice."""
    dashboard: str | None = None
    """The dashboard's address, named in notices besides the `forumgm review` command."""


@dataclass
class GameConfig:
    path: str
    ruleset: str
    title: str
    seed: int
    language: str
    review: str
    receipts: bool
    engine: str
    url: str
    thread: str
    gm_user: str
    password: CredentialsRef | None
    """Where the GM's password is; None only for a board used through its API (`api_key`)."""
    schedule: Schedule
    start: datetime
    options: dict[str, Any]
    players: list[str]
    dead: list[str] = field(default_factory=list)
    replacements: dict[str, str] = field(default_factory=dict)
    """`[players] replacements`: substitute → the player whose seat they took (chains allowed)."""
    handovers: tuple[Handover, ...] = ()
    """The same, with when each took over where the file says (`{replaces = …, at = …}`)."""
    aliases: dict[str, list[str]] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    deal: dict[str, int] = field(default_factory=dict)
    vote_count: timedelta | None = None
    """How often a vote count post goes to the thread during a phase (None: never)."""
    max_post_chars: int | None = None
    """Characters of one post or PM the parser reads (None: its default, 20 000); past it
    the beginning and the end are read and the host gets a `truncated` warning."""
    opening_post: bool = True
    """`[game] opening_post = false`: the host posts the game's opening; forumgm drafts none."""
    tag: str | None = None
    """`[game] tag`: a short name of the game a player puts in a PM's subject when the GM
    account runs several games and they play in more than one (the title works too)."""
    allow_insecure_http: bool = False
    """`[board] allow_insecure_http`: the host accepts an http:// board (password in clear)."""
    browser: bool = False
    """Log in with a real browser (JS challenges, login widgets), then go on over HTTP."""
    set_date_format: bool = False
    """`[board] set_date_format`: the host lets the adapter set the GM account's own date
    format to an unambiguous one (`forums.userprefs`)."""
    api_key: CredentialsRef | None = None
    """Where the board's REST API key is (XenForo, Discourse): the adapter uses the API."""
    api_user: str | None = None
    """`[board] api_user`: the account a Discourse key acts as (`Api-Username`); the GM's."""
    api_key_kind: str = "admin"
    """`[board] api_key_kind`: a Discourse administrator's key ("admin") or a user API key
    the GM account made ("user", sent as `User-Api-Key`)."""
    genders: dict[str, str] = field(default_factory=dict)
    """`[players] gender`: name → "m" or "f", for texts that agree with a player."""
    visible_roles: dict[str, str] = field(default_factory=dict)
    """`[players] visible_roles`: name → public role id (yakuza's явные роли)."""
    deal_option: str = "roles"
    """The ruleset option `[deal]` fills (`Ruleset.deal_option`)."""
    warnings: list[ConfigProblem] = field(default_factory=list)
    """What the host should know but that does not stop the game (an unset password…)."""
    reserve: list[str] = field(default_factory=list)
    """`[players] reserve`: who takes a seat that falls free, in this order (`game sub`)."""
    signup: SignupSettings | None = None
    """`[signup]`: the sign-up thread that makes the list (`forumgm signup`)."""
    activity: ActivitySettings | None = None
    """`[activity]`: when a player is quiet, and whether he is prodded by PM."""
    answers: AnswerLimits = field(default_factory=AnswerLimits)
    """`[answers]`: ceilings per hour on automatic answers (`engine.service.answers`)."""
    hosts: list[str] = field(default_factory=list)
    """`[game] hosts`: the hosts' board accounts, told by PM when the game needs them."""
    notify: NotifyConfig = field(default_factory=lambda: NotifyConfig())
    """`[notify]`: e-mail besides the PMs, and when a failing step is worth a notice."""

    def seats(self) -> list[Seat]:
        """The seating order with the host's roles; dead players start out of play."""
        return [
            Seat(
                name,
                self.roles.get(name),
                visible_role=self.visible_roles.get(name),
                state={"alive": False} if name in self.dead else {},
            )
            for name in self.players
        ]

    def ruleset_options(self) -> dict[str, Any]:
        options = dict(self.options)
        if self.deal:
            options[self.deal_option] = dict(self.deal)
        return options


_OFF = {"off", "no", "never", "нет", "выкл", "никогда"}
_INTERVAL = re.compile(
    r"^\s*(?:every|каждые|каждый|каждая)\s+(?:(\d+)\s+)?"
    r"(hour|hours|час|часа|часов|day|days|день|дня|дней)\s*$",
    re.IGNORECASE,
)


def parse_vote_count(text: str) -> timedelta | None:
    """`[game] vote_count`: "off", or "every 12 hours" / "every day" / "каждые 6 часов"."""
    if text.strip().casefold() in _OFF:
        return None
    match = _INTERVAL.match(text)
    if not match or int(match.group(1) or 1) < 1:
        raise ValueError(
            _('{text!r}: write "off" or e.g. "every 12 hours", "every day"').format(text=text)
        )
    count = int(match.group(1) or 1)
    daily = match.group(2).casefold().startswith(("day", "д"))
    return timedelta(days=count) if daily else timedelta(hours=count)


def _cannot_read(exc: OSError) -> ConfigProblem:
    return ConfigProblem(None, _("cannot read: {error}").format(error=exc.strerror or exc))


def _language_problem(language: object) -> str:
    return _("[game] language: ru or en, got {value!r}").format(value=language)


def _kind_words(kind: type | tuple[type, ...]) -> str:
    """The type a key expects, as the host reads it: `int`, `str or list` in English, «целое
    число», «строка или список» in Russian."""
    words = {
        "str": _("str"),
        "int": _("int"),
        "bool": _("bool"),
        "list": _("list"),
        "dict": _("dict"),
    }
    kinds = (kind,) if isinstance(kind, type) else kind
    said = [words.get(k.__name__, k.__name__) for k in kinds]
    return _(" or ").join(said)


class _Lines:
    """Finds the line of a table or key in the raw text (tomllib keeps no positions)."""

    def __init__(self, text: str) -> None:
        self.where: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for number, line in enumerate(text.splitlines(), start=1):
            header = re.match(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$", line)
            if header:
                table = tuple(part.strip().strip('"') for part in header.group(1).split("."))
                self.where.setdefault(table, number)
                continue
            key = re.match(r'^\s*("[^"]+"|[A-Za-z0-9_\-]+)\s*=', line)
            if key:
                self.where.setdefault((*table, key.group(1).strip('"')), number)

    def line(self, *path: str) -> int | None:
        while path:
            if path in self.where:
                return self.where[path]
            path = path[:-1]
        return None


@dataclass(frozen=True)
class Checks:
    """What a file is checked against besides itself; each part is skipped when not given.

    `rulesets` are the registered ones; `now` refuses a start or first
    deadline already past (unless `allow_past`, which makes it a warning); `environ` is
    where an `env:` password must be set (a warning when it is not).
    """

    rulesets: Mapping[str, Ruleset] | None = None
    now: datetime | None = None
    allow_past: bool = False
    environ: Mapping[str, str] | None = None


def load_config(
    path: str | Path,
    *,
    rulesets: Mapping[str, Ruleset] | None = None,
    checks: Checks | None = None,
) -> GameConfig:
    """Read and check a game file; raises ConfigError listing every problem found."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(name, [_cannot_read(exc)]) from exc
    return parse_config(text, name, rulesets=rulesets, checks=checks)


def parse_config(
    text: str,
    name: str = "<game.toml>",
    *,
    rulesets: Mapping[str, Ruleset] | None = None,
    checks: Checks | None = None,
) -> GameConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) if found else None
        raise ConfigError(
            name, [ConfigProblem(line, _("not valid TOML: {error}").format(error=exc))]
        ) from exc
    checks = checks or Checks()
    if rulesets is not None:
        checks = Checks(rulesets, checks.now, checks.allow_past, checks.environ)
    return _Checker(raw, _Lines(text), name, checks).run()


class _Checker:
    def __init__(self, raw: dict[str, Any], lines: _Lines, name: str, checks: Checks) -> None:
        self.raw, self.lines, self.name = raw, lines, name
        self.checks = checks
        self.rulesets = checks.rulesets
        self.problems: list[ConfigProblem] = []
        self.warnings: list[ConfigProblem] = []
        self._other_names: dict[str, str] = {}  # a character's name → the player (minimafik)

    def problem(self, message: str, *path: str, warning: bool = False) -> None:
        found = ConfigProblem(self.lines.line(*path), message, path[0] if path else None, warning)
        (self.warnings if warning else self.problems).append(found)

    def get(self, table: str, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        value = self.raw.get(table, {}).get(key, default)
        if value is ...:
            self.problem(_("[{table}] needs `{key}`").format(table=table, key=key), table)
            return None
        if value is not default and not isinstance(value, kind):
            said = _("[{table}] {key}: expected {kind}, got {value!r}").format(
                table=table, key=key, kind=_kind_words(kind), value=value
            )
            self.problem(said, table, key)
            return None
        return value

    def run(self) -> GameConfig:
        for table, value in self.raw.items():
            if table not in TABLES:
                said = _("unknown table [{table}] (known: {known})")
                self.problem(said.format(table=table, known=", ".join(TABLES)), table)
            elif not isinstance(value, dict):
                self.problem(_("`{table}` must be a table [{table}]").format(table=table), table)
            elif TABLES[table] is not None:
                for key in value:
                    if key not in TABLES[table]:  # type: ignore[operator]
                        known = ", ".join(sorted(TABLES[table] or ()))
                        said = _("unknown key `{key}` in [{table}] (known: {known})")
                        self.problem(said.format(key=key, table=table, known=known), table, key)
        ruleset_id = self.get("game", "ruleset", str)
        seed = self.get("game", "seed", int, 0)
        title = self.get("game", "title", str, "")
        receipts = self.get("game", "receipts", bool, True)
        language = self.get("game", "language", str, "ru")
        if language not in ("ru", "en"):
            self.problem(_language_problem(language), "game", "language")
        review = self.get("game", "review", str, "warnings")
        if review not in REVIEW_MODES:
            said = _("[game] review: one of {modes}").format(modes=", ".join(REVIEW_MODES))
            self.problem(said, "game", "review")
        vote_count = self._vote_count()
        hosts = self._hosts()
        notify = self._notify(hosts)
        max_post_chars = self._max_post_chars()
        answers = self._answers()
        insecure = self._insecure_http()
        engine, url, thread, gm_user = self._board()
        browser, api_key = self._access(engine)
        set_date_format = self._date_format(engine)
        if insecure and engine == "local":
            self.problem(
                _(
                    "[board] allow_insecure_http: the local board is a database, reached "
                    "without HTTP, so it changes nothing there"
                ),
                "board",
                "allow_insecure_http",
                warning=True,
            )
        # A board used through its REST API needs only the key (`[board] api_key`).
        password = self._secret("password", "password", required=api_key is None)
        api_user = self._api_user(engine, api_key, gm_user)
        api_key_kind = self._api_key_kind(engine, api_key, api_user)
        schedule, start = self._schedule()
        players = self._players()
        dead = self._names("dead", players)
        reserve = self._reserve(players)
        signup = self._signup(schedule)
        activity = self._activity()
        handovers = self._replacements(players)
        substitutes = [h.new for h in handovers if h.new not in players]
        self._lookalikes([*players, *substitutes, *(n for n in reserve if n not in substitutes)])
        roles = self._str_map("roles")
        deal = {k: v for k, v in self._plain("deal").items()}
        for who in roles:
            if who not in players:
                said = _("[roles] {name!r} is not in players").format(name=who)
                self.problem(said, "roles", who)
        for role, count in deal.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                said = _("[deal] {role}: expected a count, got {value!r}")
                self.problem(said.format(role=role, value=count), "deal", role)
        genders = self._genders(players)
        visible = self._player_map("visible_roles", players)
        options = self._plain("options")
        deal_option = "roles"
        if ruleset_id is not None and self.rulesets is not None:
            self._resolve_paths(ruleset_id, options)
            deal_option = self._check_ruleset(ruleset_id, options, deal, roles, visible, players)
        if engine in NO_PM_ENGINES:
            self._no_pms(engine, ruleset_id, options, hosts, activity)
            receipts = False  # receipts are PMs
        if engine in API_ONLY_ENGINES:
            self._hosts_by_mail(hosts, notify)
        aliases = self._aliases(players, handovers)
        for other, player in self._other_names.items():  # a character is its player's gender
            if player in genders:
                genders.setdefault(other, genders[player])
        if schedule is not None and start is not None:
            self._timing(schedule, start)
        closes = signup.closes if signup is not None else None
        if closes is not None and schedule is not None and start is not None and closes > start:
            self.problem(
                _(
                    "[signup] closes {closes} is after the game's start {start}: the list must "
                    "close before the game opens"
                ).format(
                    closes=local_time(closes, schedule.tz), start=local_time(start, schedule.tz)
                ),
                "signup",
                "closes",
            )
        if schedule is not None and schedule.explicit:
            last = schedule.explicit[-1]
            self.problem(
                ngettext(
                    "[schedule] deadlines: the list ends at {at} ({n} phase): if the game goes "
                    "on after it, no phase opens until more deadlines are added to the list "
                    "(forumgm status says so)",
                    "[schedule] deadlines: the list ends at {at} ({n} phases): if the game goes "
                    "on after it, no phase opens until more deadlines are added to the list "
                    "(forumgm status says so)",
                    len(schedule.explicit),
                ).format(at=local_time(last, schedule.tz), n=len(schedule.explicit)),
                "schedule",
                "deadlines",
                warning=True,
            )
        if self.problems:
            raise ConfigError(self.name, self.problems)
        assert (
            (password is not None or api_key is not None)
            and schedule is not None
            and start is not None
        )
        return GameConfig(
            path=self.name,
            ruleset=ruleset_id,
            title=title,
            seed=seed,
            language=language,
            review=review,
            receipts=receipts,
            opening_post=self.get("game", "opening_post", bool, True),
            tag=self._tag(),
            engine=engine,
            url=url,
            allow_insecure_http=insecure,
            set_date_format=set_date_format,
            thread=thread,
            gm_user=gm_user,
            password=password,
            schedule=schedule,
            start=start,
            options=options,
            players=players,
            dead=dead,
            replacements={h.new: h.old for h in handovers},
            handovers=handovers,
            aliases=aliases,
            roles=roles,
            deal=deal,
            vote_count=vote_count,
            max_post_chars=max_post_chars,
            answers=answers,
            browser=browser,
            api_key=api_key,
            api_user=api_user,
            api_key_kind=api_key_kind,
            genders=genders,
            visible_roles=visible,
            deal_option=deal_option,
            warnings=self.warnings,
            reserve=reserve,
            signup=signup,
            activity=activity,
            hosts=hosts,
            notify=notify,
        )

    def _no_pms(
        self,
        engine: str,
        ruleset_id: str | None,
        options: dict[str, Any],
        hosts: list[str],
        activity: ActivitySettings | None,
    ) -> None:
        """On a board without private messages, refuse what needs them (receipts are off
        there: `[game] receipts = true` is refused)."""
        # The reason in the host's language (steer.py says it to the host in English).
        why = {
            "fluxbb": _("FluxBB has no private messages"),
            "punbb": _("PunBB has no private messages"),
        }.get(engine) or NO_PM_ENGINES[engine]
        ruleset = self.rulesets.get(ruleset_id) if self.rulesets and ruleset_id else None
        if ruleset is not None:
            try:
                needed = ruleset.private_messages_needed(options)
            except RulesError:
                needed = None  # the options' own problem is reported by the ruleset check
            if needed is not None:
                self.problem(
                    _(
                        "[game] ruleset {ruleset!r} cannot run on {engine}: {why} and {needed} "
                        '(only a game played in the open thread can: ruleset "votecount" with '
                        'vote_channel = "thread")'
                    ).format(ruleset=ruleset_id, engine=engine, why=why, needed=needed),
                    "game",
                    "ruleset",
                )
        if self.get("game", "receipts", bool, False):
            self.problem(
                _("[game] receipts: {why}, so no receipt can be sent; remove the key").format(
                    why=why
                ),
                "game",
                "receipts",
            )
        if hosts:
            self.problem(
                _(
                    "[game] hosts: {why} to tell the hosts by; remove the key (for e-mail "
                    "notices set [notify] smtp and email_to)"
                ).format(why=why),
                "game",
                "hosts",
            )
        if activity is not None and (activity.prod or activity.substitute):
            self.problem(
                _(
                    "[activity] prod and substitute send private messages, and {why}; "
                    "set them to false (quiet players are still reported to the host)"
                ).format(why=why),
                "activity",
                "prod" if activity.prod else "substitute",
            )

    def _hosts_by_mail(self, hosts: list[str], notify: NotifyConfig) -> None:
        """On Discourse a PM to the hosts waits behind the GM account's daily PM limit,
        like the players' PMs (`forums.discourse`: the publisher holds PMs until it lifts):
        a notice that the game needs the hosts could come hours late. Only e-mail goes at
        once, so hosts without `[notify] smtp` are warned of (not refused: the PM still
        arrives, and a game with few PMs may never reach the limit)."""
        if hosts and notify.smtp is None:
            self.problem(
                _(
                    "[game] hosts: on Discourse a PM to the hosts waits behind the same daily "
                    "limit of personal messages as the players' PMs, so a notice that the game "
                    "needs you may come hours late; set [notify] smtp and email_to: e-mail "
                    "goes at once"
                ),
                "game",
                "hosts",
                warning=True,
            )

    def _hosts(self) -> list[str]:
        names = self.get("game", "hosts", list, [])
        if names is None:
            return []
        if not all(isinstance(n, str) and n.strip() for n in names):
            self.problem(
                _('[game] hosts: a list of board accounts, e.g. ["Ведущий2"]'), "game", "hosts"
            )
            return []
        return [str(n).strip() for n in names]

    def _notify(self, hosts: list[str]) -> NotifyConfig:
        table = self.raw.get("notify", {})
        if not isinstance(table, dict) or not table:
            return NotifyConfig()
        smtp_text = self.get("notify", "smtp", str, None)
        smtp = None
        if smtp_text is not None:
            try:
                smtp = CredentialsRef.parse(smtp_text)
            except CredentialsError:
                self.problem(
                    _(
                        "[notify] smtp must say where the SMTP server's URL is (env:VARIABLE "
                        "holding smtp://user:password@host:port); never the URL itself here"
                    ),
                    "notify",
                    "smtp",
                )
        to = self.get("notify", "email_to", (list, str), [])
        addresses = [to] if isinstance(to, str) else list(to or [])
        if not all(isinstance(a, str) and "@" in a for a in addresses):
            self.problem(
                _('[notify] email_to: e-mail addresses, e.g. ["host@example.org"]'),
                "notify",
                "email_to",
            )
            addresses = []
        if smtp is not None and not addresses:
            self.problem(_("[notify] smtp needs email_to: whom to write"), "notify", "email_to")
        sender = self.get("notify", "email_from", str, "forumgm@localhost")
        span = self.get("notify", "failed_after", str, "30m")
        failed_after = timedelta(minutes=30)
        if span is not None:
            found = re.fullmatch(r"\s*(\d+)\s*(m|min|h|d)\s*", span)
            if found is None or int(found.group(1)) == 0:
                said = _('[notify] failed_after: a length such as "30m", "2h"')
                self.problem(said, "notify", "failed_after")
            else:
                unit = {"m": 60, "min": 60, "h": 3600, "d": 86400}[found.group(2)]
                failed_after = timedelta(seconds=int(found.group(1)) * unit)
        dashboard = self.get("notify", "dashboard", str, None)
        return NotifyConfig(
            smtp=smtp,
            email_to=tuple(addresses),
            email_from=sender or "forumgm@localhost",
            failed_after=failed_after,
            dashboard=dashboard.rstrip("/") if dashboard else None,
        )

    def _tag(self) -> str | None:
        tag = self.get("game", "tag", str, None)
        if tag is not None and not 1 <= len(tag.strip()) <= 40:
            self.problem(_('[game] tag: 1 to 40 characters, e.g. "М12"'), "game", "tag")
            return None
        return tag.strip() if tag is not None else None

    def _date_format(self, engine: str) -> bool:
        """`[board] set_date_format`, where the engine's accounts have a date format: a
        page engine that reads the GM's own format is warned of (nothing to set there); on
        an API-only engine, which has no pages, the key is refused."""
        wanted = bool(self.get("board", "set_date_format", bool, False))
        why = date_format_refusal(engine) if wanted else None
        if why is None:
            return wanted
        if engine in API_ONLY_ENGINES:
            said = _("[board] set_date_format: {why}; remove the key")
            self.problem(said.format(why=why), "board", "set_date_format")
            return False
        self.problem(
            _("[board] set_date_format: {why}; it changes nothing there (only {engines})").format(
                why=why, engines=", ".join(DATE_FORMAT_ENGINES)
            ),
            "board",
            "set_date_format",
            warning=True,
        )
        return False

    def _insecure_http(self) -> bool:
        allowed = self.get("board", "allow_insecure_http", bool, False)
        url = self.raw.get("board", {}).get("url")
        refused = insecure_url(url, bool(allowed)) if isinstance(url, str) else None
        if refused:  # forums.guard's refusal, in the host's language
            said = _(
                "{url}: an http:// board would get the GM's password unencrypted; use https:// "
                "or, if the board has no HTTPS, set allow_insecure_http = true in [board] "
                "(--allow-insecure-http on the command line)"
            )
            self.problem(said.format(url=url), "board", "url")
        elif allowed and isinstance(url, str) and url.lower().startswith("http://"):
            self.problem(
                _(
                    "{url}: plain http, allowed by allow_insecure_http: the GM's password and "
                    "session travel unencrypted"
                ).format(url=url),
                "board",
                "allow_insecure_http",
                warning=True,
            )
        return bool(allowed)

    def _engine(self) -> str:
        engine: str | None = self.get("board", "engine", str)
        if engine is not None and engine not in BOARD_ENGINES:
            self.problem(
                _("[board] engine: one of {engines}, got {value!r}").format(
                    engines=", ".join(BOARD_ENGINES), value=engine
                ),
                "board",
                "engine",
            )
        return engine or ""

    def _access(self, engine: str) -> tuple[bool, CredentialsRef | None]:
        """`[board] browser` and `api_key`, where the engine has them."""
        browser = bool(self.get("board", "browser", bool, False))
        why = browser_refusal(engine) if browser else None
        if why is not None:
            said = (
                _("[board] browser: {why}; remove the key")
                if engine in API_ONLY_ENGINES
                else _(
                    "[board] browser: the {engine} board cannot log in through a browser "
                    "(only {engines})"
                )
            )
            self.problem(
                said.format(why=why, engine=engine, engines=", ".join(BROWSER_ENGINES)),
                "board",
                "browser",
            )
        given = isinstance(self.raw.get("board", {}).get("api_key"), str)
        if given and engine in BOARD_ENGINES and engine not in API_KEY_ENGINES:
            self.problem(
                _(
                    "[board] api_key: the {engine} board has no API forumgm uses (only {engines})"
                ).format(engine=engine, engines=", ".join(API_KEY_ENGINES)),
                "board",
                "api_key",
            )
        return browser, self._secret("api_key", "key", required=False)

    def _api_user(
        self, engine: str, api_key: CredentialsRef | None, gm_user: str | None
    ) -> str | None:
        """`[board] api_user`: whom a Discourse key acts as — the GM account (forumgm knows
        its own posts by `gm_user`), named where the key is an admin's for all users."""
        name = self.get("board", "api_user", str, None)
        if name is None:
            return None
        if engine in BOARD_ENGINES and engine not in API_USER_ENGINES:
            self.problem(
                _(
                    "[board] api_user: the {engine} board's key names no user (only {engines})"
                ).format(engine=engine, engines=", ".join(API_USER_ENGINES)),
                "board",
                "api_user",
            )
        elif not name.strip():
            self.problem(_("[board] api_user is empty"), "board", "api_user")
        elif api_key is None and "api_key" not in self.raw.get("board", {}):
            self.problem(
                _("[board] api_user names whom the API key acts as: set api_key too"),
                "board",
                "api_user",
            )
        elif gm_user is not None and name.strip().casefold() != gm_user.strip().casefold():
            self.problem(
                _(
                    "[board] api_user: the key must act as the GM account {gm_user!r}, not "
                    "{name!r} (forumgm knows the GM's own posts by gm_user)"
                ).format(gm_user=gm_user, name=name),
                "board",
                "api_user",
            )
        return name.strip() or None

    def _api_key_kind(
        self, engine: str, api_key: CredentialsRef | None, api_user: str | None
    ) -> str:
        """`[board] api_key_kind`: "admin" (an administrator's key, the default) or "user"
        (a user API key the GM account made: it acts as that account, so no api_user)."""
        kind = self.get("board", "api_key_kind", str, None)
        if kind is None:
            return "admin"
        if engine in BOARD_ENGINES and engine not in API_USER_ENGINES:
            self.problem(
                _(
                    "[board] api_key_kind: the {engine} board has one kind of key (only "
                    "{engines} has two)"
                ).format(engine=engine, engines=", ".join(API_USER_ENGINES)),
                "board",
                "api_key_kind",
            )
            return "admin"
        if kind not in API_KEY_KINDS:
            self.problem(
                _(
                    '[board] api_key_kind: "admin" (an administrator\'s API key) or "user" (a '
                    "user API key the GM account made), got {kind!r}"
                ).format(kind=kind),
                "board",
                "api_key_kind",
            )
            return "admin"
        if api_key is None and "api_key" not in self.raw.get("board", {}):
            self.problem(
                _("[board] api_key_kind says what kind api_key is: set api_key too"),
                "board",
                "api_key_kind",
            )
        elif kind == "user" and api_user is not None:
            self.problem(
                _(
                    "[board] api_user: a user API key acts as the account that made it; "
                    "api_user is for an administrator's key (leave it out)"
                ),
                "board",
                "api_user",
            )
        return kind

    def _board(self) -> tuple[str, str, str, str]:
        engine = self._engine()
        url = self.get("board", "url", str)
        thread = self.get("board", "thread", (str, int))
        gm_user = self.get("board", "gm_user", str)
        if url is not None:
            trouble = url_problem(engine, url)
            if trouble:
                self.problem(f"[board] url: {trouble}", "board", "url")
        if thread is not None and (not str(thread).strip() or " " in str(thread).strip()):
            said = _("[board] thread: expected the thread's id, got {value!r}")
            self.problem(said.format(value=thread), "board", "thread")
        elif thread is not None:
            thread = self._thread_id(engine, str(thread).strip())
        if gm_user is not None and not gm_user.strip():
            self.problem(_("[board] gm_user is empty"), "board", "gm_user")
        return engine, url, str(thread) if thread is not None else "", gm_user

    def _thread_id(self, engine: str, thread: str) -> str:
        """The thread's id as the engine's pages name it, from what the host wrote (an id or
        the thread's address): the service files each post under the id its page gives, so
        a game kept under the address would read the thread and count none of it."""
        if thread.isdigit() or engine == "local":
            return thread
        from engine.service.build import load_adapters

        load_adapters()  # whatever the command imported so far: the same id every time
        try:
            topic_id = getattr(board_factory(engine), "topic_id", None)
        except KeyError:
            return thread
        if not callable(topic_id):
            return thread
        try:
            return str(topic_id(thread))
        except BoardError:
            said = _("[board] thread: expected the thread's id, got {value!r}")
            self.problem(said.format(value=thread), "board", "thread")
            return thread

    def _secret(self, key: str, what: str, *, required: bool) -> CredentialsRef | None:
        """`[board] password` or `api_key`: where the secret is (env:… or keyring:…), with a
        warning when its environment variable is not set where the file is checked."""
        text = self.get("board", key, str, ... if required else None)
        if text is None:
            return None
        try:
            ref = CredentialsRef.parse(text)
        except CredentialsError:
            # Never echo the value: it may be the secret itself.
            self.problem(
                _(
                    "[board] {key} must say where the {what} is (env:VARIABLE or "
                    "keyring:SERVICE); never put the {what} itself in this file"
                ).format(key=key, what=_("password") if what == "password" else _("key")),
                "board",
                key,
            )
            return None
        environ = self.checks.environ
        if ref.kind == "env" and environ is not None and not environ.get(ref.name):
            self.problem(
                _(
                    "[board] {key}: the environment variable {name} is not set; "
                    "`game start` and `run` need it"
                ).format(key=key, name=ref.name),
                "board",
                key,
                warning=True,
            )
        return ref

    def _schedule(self) -> tuple[Schedule | None, datetime | None]:
        tz = self.get("schedule", "timezone", str, "Europe/Moscow")
        rule = self.get("schedule", "deadlines", (str, list))
        start_text = self.get("schedule", "start", str)
        schedule = start = None
        zone_ok = tz is not None
        if tz is not None:
            try:
                zone(tz)
            except ScheduleError as exc:
                said = _("[schedule] timezone: {error}").format(error=exc)
                self.problem(said, "schedule", "timezone")
                zone_ok = False
        if rule is not None:
            # With a zone that is wrong the deadlines are still read (in UTC) for their own
            # mistakes: one problem does not hide another.
            try:
                parsed = Schedule.parse(rule, tz if zone_ok and tz is not None else "UTC")
            except ScheduleError as exc:
                said = _("[schedule] deadlines: {error}").format(error=exc)
                self.problem(said, "schedule", "deadlines")
            else:
                schedule = parsed if zone_ok else None
        if start_text is not None:
            try:
                start = datetime.fromisoformat(start_text)
            except ValueError:
                said = _("[schedule] start: {value!r} is not a date and time")
                self.problem(said.format(value=start_text), "schedule", "start")
            else:
                if schedule is None:
                    return None, None
                start = start.replace(tzinfo=schedule.tz) if start.tzinfo is None else start
        return schedule, start

    def _max_post_chars(self) -> int | None:
        value = self.get("game", "max_post_chars", int, None)
        if value is not None and not 500 <= value <= 1_000_000:
            self.problem(
                _(
                    "[game] max_post_chars: a number of characters from 500 to 1000000, got {value}"
                ).format(value=value),
                "game",
                "max_post_chars",
            )
            return None
        return value

    def _answers(self) -> AnswerLimits:
        """`[answers]`: each ceiling a whole number of answers per hour, 1 to 10 000."""
        given: dict[str, int] = {}
        for key in AnswerLimits.KEYS:
            value = self.get("answers", key, int, None)
            if value is None:
                continue
            if isinstance(value, bool) or not 1 <= value <= 10_000:
                self.problem(
                    _(
                        "[answers] {key}: a number of answers per hour from 1 to 10000, "
                        "got {value!r}"
                    ).format(key=key, value=value),
                    "answers",
                    key,
                )
                continue
            given[key] = value
        return AnswerLimits(**given)

    def _vote_count(self) -> timedelta | None:
        text = self.get("game", "vote_count", str, "off")
        if text is None:
            return None
        try:
            return parse_vote_count(text)
        except ValueError as exc:
            said = _("[game] vote_count: {error}").format(error=exc)
            self.problem(said, "game", "vote_count")
            return None

    def _signup(self, schedule: Schedule | None) -> SignupSettings | None:
        raw = self.raw.get("signup")
        if not isinstance(raw, dict):
            return None
        tz = schedule.tz if schedule is not None else zone("Europe/Moscow")
        settings, problems = parse_settings(raw, tz)
        for message in problems:
            key = re.search(r"`(\w+)`", message)  # the key it names first
            self.problem(f"[signup] {message}", "signup", *(key.groups() if key else ()))
        return settings

    def _activity(self) -> ActivitySettings | None:
        raw = self.raw.get("activity")
        if not isinstance(raw, dict):
            return None
        settings, problems = parse_activity(raw)
        for message in problems:
            key = re.search(r"`(\w+)`", message)  # the key it names first
            self.problem(f"[activity] {message}", "activity", *(key.groups() if key else ()))
        return settings

    def _reserve(self, players: list[str]) -> list[str]:
        names = [str(v) for v in self.get("players", "reserve", list, []) or []]
        seen: set[str] = set()
        for n in names:
            if n.casefold() in {p.casefold() for p in players} or n.casefold() in seen:
                self.problem(
                    _("[players] reserve: {name!r} is listed twice or plays already").format(
                        name=n
                    ),
                    "players",
                    "reserve",
                )
            seen.add(n.casefold())
        return names

    def _players(self) -> list[str]:
        players = self.get("players", "players", list)
        if not players:
            if players == [] and isinstance(self.raw.get("signup"), dict):
                self.problem(
                    _(
                        "[players] players is empty: the sign-ups fill it when they close "
                        "(forumgm signup run, or signup close)"
                    ),
                    "players",
                    "players",
                )
            elif players == []:
                self.problem(_("[players] players is empty"), "players", "players")
            return []
        names = [str(p) for p in players]
        # One problem for a name written more than once, however often: at its first repeat,
        # with how many times it is listed.
        times = Counter(n.casefold() for n in names)
        seen: set[str] = set()
        for n in names:
            key = n.casefold()
            if key in seen and times[key] > 0:
                if times[key] == 2:
                    said = _("[players] {name!r} is listed twice").format(name=n)
                else:
                    said = ngettext(
                        "[players] {name!r} is listed {n} time",
                        "[players] {name!r} is listed {n} times",
                        times[key],
                    ).format(name=n, n=times[key])
                self.problem(said, "players", "players")
                times[key] = 0  # said once
            seen.add(key)
        return names

    def _names(self, key: str, players: list[str]) -> list[str]:
        value = self.get("players", key, list, [])
        names = [str(v) for v in value or []]
        for n in names:
            if n not in players:
                said = _("[players] {key}: {name!r} is not in players").format(key=key, name=n)
                self.problem(said, "players", key)
        return names

    def _replacements(self, players: list[str]) -> tuple[Handover, ...]:
        """`new = "old"` or `new = {replaces = "old", at = 2026-12-03T12:00:00+03:00}`; the
        chains are checked as a whole (a cycle, one name in two chains, no seat)."""
        out = []
        for new, value in self._plain("players", "replacements").items():
            at = None
            if isinstance(value, dict):
                unknown = set(value) - {"replaces", "at"}
                at = value.get("at")
                if unknown or not isinstance(value.get("replaces"), str):
                    self.problem(
                        _(
                            '[players] replacements: {new}: write {new} = "old name" or '
                            '{{replaces = "old name", at = 2026-12-03T12:00:00+03:00}}'
                        ).format(new=new),
                        "players",
                        "replacements",
                    )
                    continue
                if at is not None and (not isinstance(at, datetime) or at.tzinfo is None):
                    self.problem(
                        _(
                            "[players] replacements: {new}: at must be a date and time with an "
                            "offset (2026-12-03T12:00:00+03:00)"
                        ).format(new=new),
                        "players",
                        "replacements",
                    )
                    continue
                value = value["replaces"]
            out.append(Handover(str(new), str(value), at=at))
        try:
            Slots(players, out)
        except SlotError as exc:
            self.problem(f"[players] {slot_problem(exc)}", "players", "replacements")
        return tuple(out)

    def _lookalikes(self, names: list[str]) -> None:
        """Two names of the game (players, substitutes, the reserve) that readers cannot tell
        apart (`Bася` with a Latin B, or `Ва` U+200B `ся`, a zero-width space inside, next to
        `Вася`): a vote for one would count for the other unseen, so the pair is refused
        (scraper.confusable)."""
        from scraper.confusable import differences, lookalike_pairs

        for a, b in lookalike_pairs(names):
            self.problem(
                _(
                    "[players] {a!r} and {b!r} look the same to readers ({difference}): "
                    "one of them must go by another name (ask the player to choose a name "
                    "written in one alphabet, without invisible characters)"
                ).format(a=a, b=b, difference="; ".join(map(warning_text, differences(a, b)))),
                "players",
                "players",
            )

    def _plain(self, table: str, key: str | None = None) -> dict[str, Any]:
        value = self.raw.get(table, {})
        if key is not None:
            value = value.get(key, {}) if isinstance(value, dict) else {}
        if not isinstance(value, dict):
            said = _("{table} must be a table").format(table=table + ("." + key if key else ""))
            self.problem(said, table, *(key or "",))
            return {}
        return dict(value)

    def _aliases(self, players: list[str], handovers: tuple[Handover, ...]) -> dict[str, list[str]]:
        """`[players] aliases`: a list of names for a player, a substitute, or a name the
        ruleset gives a player (a minimafik character: `"Grillby" = ["Грилби"]`, kept
        under the player's seat)."""
        out: dict[str, list[str]] = {}
        holders = {h.new for h in handovers}
        for key, forms in self._plain("players", "aliases").items():
            name = str(key)
            if not isinstance(forms, list) or not all(
                isinstance(f, str) and f.strip() for f in forms
            ):
                self.problem(
                    _(
                        '[players] aliases: {name}: expected a list of names, e.g. ["Васёк", '
                        '"Вася П"]'
                    ).format(name=name),
                    "players",
                    "aliases",
                )
                continue
            seat = name if name in players or name in holders else self._other_names.get(name)
            if seat is None:
                said = _("[players] aliases: {name!r} is not a player of the game")
                self.problem(said.format(name=name), "players", "aliases")
                continue
            out.setdefault(seat, []).extend(f for f in forms if f not in out.get(seat, []))
        return out

    def _str_map(self, table: str, key: str | None = None) -> dict[str, str]:
        return {str(k): str(v) for k, v in self._plain(table, key).items()}

    def _resolve_paths(self, ruleset_id: str, options: dict[str, Any]) -> None:
        """Files an option names (a card collection) are relative to the game file."""
        assert self.rulesets is not None
        ruleset = self.rulesets.get(ruleset_id)
        if ruleset is None or self.name.startswith("<"):
            return
        for key in ruleset.path_options:
            value = options.get(key)
            if isinstance(value, str) and value and not Path(value).is_absolute():
                options[key] = str(Path(self.name).parent / value)

    def _genders(self, players: list[str]) -> dict[str, str]:
        genders: dict[str, str] = {}
        for name, given in self._player_map("gender", players).items():
            try:
                genders[name] = parse_gender(given)
            except ValueError:  # parse_gender's own words, in the host's language
                said = _("[players] gender: {name!r}: {value!r}: write m or f (м or ж)")
                self.problem(said.format(name=name, value=given), "players", "gender")
        return genders

    def _player_map(self, key: str, players: list[str]) -> dict[str, str]:
        """A `[players]` table keyed by player name (gender, visible_roles)."""
        value = (
            self.raw.get("players", {}).get(key, {})
            if isinstance(self.raw.get("players"), dict)
            else {}
        )
        if not isinstance(value, dict):
            said = _('[players] {key}: expected a table such as {{ "Маша" = "…" }}')
            self.problem(said.format(key=key), "players", key)
            return {}
        for name in value:
            if name not in players:
                said = _("[players] {key}: {name!r} is not in players").format(key=key, name=name)
                self.problem(said, "players", key)
        return {str(k): str(v) for k, v in value.items()}

    def _timing(self, schedule: Schedule, start: datetime) -> None:
        """A start or first deadline already past would resolve the first phase by lot at once."""
        now = self.checks.now
        if now is None:
            return
        first = schedule.deadline_after(start)
        if first is None:
            self.problem(
                _("[schedule] deadlines: none after the start {start}").format(
                    start=local_time(start, schedule.tz)
                ),
                "schedule",
                "deadlines",
            )
            return
        hint = "" if self.checks.allow_past else _("; move it, or pass --allow-past")
        said = "" if not self.checks.allow_past else _(" (allowed by --allow-past)")
        times = {"now": local_time(now, schedule.tz), "tail": said + hint}
        if first <= now:
            self.problem(
                _(
                    "[schedule] the first deadline {first} is already past (now {now}): turn 1 "
                    "would be resolved at once{tail}"
                ).format(first=local_time(first, schedule.tz), **times),
                "schedule",
                "start",
                warning=self.checks.allow_past,
            )
        elif start < now - START_GRACE:
            self.problem(
                _(
                    "[schedule] start {start} is already past (now {now}): the first phase is "
                    "shorter than planned{tail}"
                ).format(start=local_time(start, schedule.tz), **times),
                "schedule",
                "start",
                warning=self.checks.allow_past,
            )

    def _check_ruleset(
        self,
        ruleset_id: str,
        options: dict[str, Any],
        deal: dict[str, int],
        roles: dict[str, str],
        visible: dict[str, str],
        players: list[str],
    ) -> str:
        """Check the file against its ruleset; returns the option `[deal]` fills."""
        assert self.rulesets is not None
        ruleset = self.rulesets.get(ruleset_id)
        if ruleset is None:
            known = ", ".join(sorted(self.rulesets))
            said = _("[game] unknown ruleset {ruleset!r} (known: {known})")
            self.problem(said.format(ruleset=ruleset_id, known=known), "game", "ruleset")
            return "roles"
        deal_option = ruleset.deal_option
        if deal and deal_option is None:
            said = _("[deal] {ruleset} deals no roles; remove [deal]").format(ruleset=ruleset_id)
            self.problem(said, "deal")
            return "roles"
        deal_option = deal_option or "roles"
        known_roles = ruleset.role_ids
        for key in deal:
            role = key.partition("@")[0]
            if known_roles and role not in known_roles and key not in ruleset.deal_groups:
                groups = ", ".join(ruleset.deal_groups)
                said = (
                    _("[deal] unknown role {role!r} for {ruleset} (roles: {roles}; teams: {teams})")
                    if groups
                    else _("[deal] unknown role {role!r} for {ruleset} (roles: {roles})")
                )
                self.problem(
                    said.format(
                        role=key, ruleset=ruleset_id, roles=", ".join(known_roles), teams=groups
                    ),
                    "deal",
                    key,
                )
        for who, role in roles.items():
            if known_roles and role not in known_roles:
                self.problem(
                    _(
                        "[roles] {name}: unknown role {role!r} for {ruleset} (roles: {roles})"
                    ).format(name=who, role=role, ruleset=ruleset_id, roles=", ".join(known_roles)),
                    "roles",
                    who,
                )
        if visible and not ruleset.visible_role_ids:
            self.problem(
                _("[players] visible_roles: {ruleset} has no visible roles").format(
                    ruleset=ruleset_id
                ),
                "players",
                "visible_roles",
            )
        for who, role in visible.items():
            if ruleset.visible_role_ids and role not in ruleset.visible_role_ids:
                self.problem(
                    _(
                        "[players] visible_roles: {name}: unknown visible role {role!r} "
                        "(known: {known})"
                    ).format(name=who, role=role, known=", ".join(ruleset.visible_role_ids)),
                    "players",
                    "visible_roles",
                )
        holders: dict[str, list[str]] = {}
        for who, role in visible.items():
            holders.setdefault(role, []).append(who)
        for role, given in holders.items():
            if len(given) > 1:
                self.problem(
                    _(
                        "[players] visible_roles: {role} is given to {names}: one player per "
                        "visible role"
                    ).format(role=role, names=_(" and ").join(given)),
                    "players",
                    "visible_roles",
                )
        merged = dict(options, **{deal_option: dict(deal)}) if deal else dict(options)
        # An option the ruleset does not have, on its own line and in the host's language
        # (the ruleset's own refusal says it in English and names no line).
        unknown = [key for key in merged if key not in ruleset.option_defaults]
        for key in unknown:
            said = _("[options] unknown option {key!r} for ruleset {ruleset} (known: {known})")
            known = ", ".join(sorted(ruleset.option_defaults))
            self.problem(said.format(key=key, ruleset=ruleset_id, known=known), "options", key)
        if unknown:
            return deal_option
        try:
            least = ruleset.options(merged).get("min_players")
        except RulesError as exc:
            named = re.search(r"option ([\w.]+)", str(exc))
            path = named.group(1).strip(".").split(".") if named else [""]
            keys = _file_keys(exc, deal, deal_option) or ("options", *path)
            self.problem(f"[{keys[0]}] {warning_text(str(exc))}", *keys)
            return deal_option
        if isinstance(least, int) and players and len(players) < least:
            # Before the deal: a short deal's «needs 12 players for 10 open seats» would
            # hide the rule's own minimum.
            self.problem(
                ngettext(
                    "[players] {ruleset} needs at least {least} player, the file lists {n} "
                    "(option min_players)",
                    "[players] {ruleset} needs at least {least} players, the file lists {n} "
                    "(option min_players)",
                    least,
                ).format(ruleset=ruleset_id, least=least, n=len(players)),
                "players",
                "players",
            )
            return deal_option
        dealt_by_default = bool(ruleset.option_defaults.get(deal_option))
        needs_roles = ruleset.deal_option is not None and not dealt_by_default
        # A player listed twice is said on his own line: he needs one role, not two.
        roleless = list(dict.fromkeys(n for n in players if n not in roles))
        if needs_roles and not deal and roleless and not roles:
            self.problem(
                _(
                    "no roles are given: add a [deal] table (role = count) or a [roles] table "
                    "(name = role)"
                ),
                "deal",
            )
            return deal_option
        if needs_roles and not deal and roleless:
            # [roles] is there: the host needs the names it leaves out, not a hint to add it.
            self.problem(
                ngettext(
                    "[roles] gives no role to {names}: add a line (name = role) for this "
                    "player, or deal the roles with [deal] instead",
                    "[roles] gives no role to {names}: add a line (name = role) for each of "
                    "them, or deal the roles with [deal] instead",
                    len(roleless),
                ).format(names=", ".join(roleless)),
                "roles",
            )
            return deal_option
        if players and not self.problems:
            seats = [Seat(n, roles.get(n), visible_role=visible.get(n)) for n in players]
            try:
                state, _rest = ruleset.setup(seats, merged, 0)
                self._other_names = {
                    other: name
                    for name, others in ruleset.name_aliases(state).items()
                    for other in others
                }
            except RulesError as exc:
                # «Вася: unknown role 'bosss'» points at Вася's line of [roles].
                seat = next((n for n in roles if str(exc).startswith(f"{n}:")), None)
                option = re.match(r"option ([\w.]+)", str(exc))
                table = "deal" if deal else "roles"
                where: tuple[str, ...] = (table,)
                if exc.where:
                    where = _file_keys(exc, deal, deal_option)
                elif seat:
                    where = ("roles", seat)
                elif option:
                    where = ("options", *option.group(1).strip(".").split("."))
                    if deal and where[:2] == ("options", deal_option):
                        where = ("deal", *where[2:])
                if where[0] in ("deal", "roles"):
                    said = _("[{table}] the ruleset cannot deal this game: {error}")
                    error = warning_text(str(exc))
                    self.problem(said.format(table=where[0], error=error), *where)
                else:  # an option or a [players] table: its own line, its own name
                    self.problem(f"[{where[0]}] {warning_text(str(exc))}", *where)
        return deal_option


def _file_keys(exc: RulesError, deal: dict[str, int], deal_option: str) -> tuple[str, ...]:
    """The game-file keys a ruleset's error names (`RulesError.where`); a deal the host
    wrote as a [deal] table is that table, not [options] roles."""
    where = tuple(exc.where)
    if deal and where[:2] == ("options", deal_option):
        return ("deal", *where[2:])
    return where


def slot_problem(exc: SlotError) -> str:
    """Why substitutes cannot be, in the host's language: the core made it in English (its
    template is in the warnings catalogue); a cycle's handovers are worded one by one
    («Петя заменяет Васю»)."""
    if exc.chain:  # the seat it names, by its holders in the host's words
        return warning_text(str(exc)).replace(Slots._label(exc.chain), slot_label(exc.chain))
    if not exc.cycle:
        return warning_text(str(exc))
    from engine.wording import inflect_name

    steps = [
        _("{new} replaces {old}").format(new=new, old=old, old_acc=inflect_name(old, "acc"))
        for new, old in exc.cycle
    ]
    return _("replacements form a cycle: {cycle}").format(cycle=" → ".join(steps))


def slot_label(chain: Sequence[str]) -> str:
    """A seat by its holders in the host's language, the holder of the moment first: "A
    (replaced B, replaced C)", «Лёша (вместо Оли, вместо Пети)»."""
    if len(chain) <= 1:
        return "".join(chain)
    from engine.wording import inflect_name

    before = [
        _("replaced {name}").format(name=name, name_gen=inflect_name(name, "gen"))
        for name in reversed(chain[:-1])
    ]
    return _("{holder} ({before})").format(holder=chain[-1], before=", ".join(before))


def browser_refusal(engine: str) -> str | None:
    """Why the `engine` adapter cannot log in through a browser (`[board] browser`, board
    check's `--browser`), in the host's language; None where it can (or the engine is
    unknown: that is its own problem)."""
    if engine not in BOARD_ENGINES or engine in BROWSER_ENGINES:
        return None
    if engine in API_ONLY_ENGINES:
        return _(
            "Discourse is read through its JSON API: there is no login page for a browser to "
            "open (forumgm logs in with the password, or uses the API key)"
        )
    return _("the {engine} board cannot log in through a browser (only {engines})").format(
        engine=engine, engines=", ".join(BROWSER_ENGINES)
    )


def date_format_refusal(engine: str) -> str | None:
    """Why forumgm sets no date format of the GM account's own on `engine` (`[board]
    set_date_format`, board check's `--set-date-format`), in the host's language; None
    where it does (or the engine is unknown)."""
    if engine not in BOARD_ENGINES or engine in DATE_FORMAT_ENGINES:
        return None
    return {
        "discourse": _(
            "Discourse is read through its JSON API, whose every time is an ISO timestamp "
            "(to the millisecond, in UTC): there are no pages and no date format to set"
        ),
        "xenforo": _(
            "XenForo has no date format of an account's own (its pages carry "
            "machine-readable times already)"
        ),
        "fluxbb": _(
            "forumgm reads the FluxBB GM's own zone and date format from his "
            "profile after each login, so there is nothing to set"
        ),
        "punbb": _(
            "forumgm reads the PunBB GM's own zone and date format from his "
            "settings after each login, so there is nothing to set"
        ),
        "smf": _(
            "forumgm reads the SMF GM's times in whatever format his profile "
            "chose, in the zone his profile names, so there is nothing to set"
        ),
    }.get(engine) or _("the {engine} board has no date format of an account's own").format(
        engine=engine
    )


def url_problem(engine: str | None, url: str) -> str | None:
    """Why `url` cannot be a board of `engine` (None: it can)."""
    text = url.strip()
    if engine == "local":
        # The local board lives in a database: its URL is the database's.
        if not re.match(r"^(sqlite|postgresql)(\+\w+)?://", text):
            return _(
                "{url!r}: the local board's url is its database, e.g. sqlite:///board.sqlite"
            ).format(url=url)
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or " " in text:
        return _("{url!r} is not a board address; write e.g. https://forum.example.org/").format(
            url=url
        )
    return None


@dataclass(frozen=True)
class BoardAccess:
    """How forumgm reaches a board as the GM (`[board]` without the game thread): what the
    board adapter is made from (`engine.service.build.make_board`)."""

    engine: str
    url: str
    gm_user: str
    password: CredentialsRef | None
    allow_insecure_http: bool = False
    browser: bool = False
    api_key: CredentialsRef | None = None
    api_user: str | None = None
    api_key_kind: str = "admin"


@dataclass(frozen=True)
class SignupConfig:
    """What `forumgm signup` reads of a game file before its players are known."""

    path: str
    board: BoardAccess
    settings: SignupSettings
    title: str
    language: str
    tz: tzinfo
    players: list[str]
    """`[players] players` as the file has it now (empty until the close writes it)."""


def load_signup_config(
    path: str | Path, *, environ: Mapping[str, str] | None = None
) -> SignupConfig:
    """The `[signup]`, `[board]` and language of a game file whose `[players]` may still be
    empty; raises ConfigError listing every problem of those tables."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except OSError as exc:
        raise ConfigError(name, [_cannot_read(exc)]) from exc
    except tomllib.TOMLDecodeError as exc:
        said = _("not valid TOML: {error}").format(error=exc)
        raise ConfigError(name, [ConfigProblem(None, said)]) from exc
    checker = _Checker(raw, _Lines(text), name, Checks(environ=environ))
    engine, url, _thread, gm_user = checker._board()
    insecure = checker._insecure_http()
    browser, api_key = checker._access(engine)
    # A key the engine refuses is refused before the sign-ups as well (their board sets no
    # date format: the value itself is for the game).
    checker._date_format(engine)
    password = checker._secret("password", "password", required=api_key is None)
    api_user = checker._api_user(engine, api_key, gm_user)
    api_key_kind = checker._api_key_kind(engine, api_key, api_user)
    tz_name = checker.get("schedule", "timezone", str, "Europe/Moscow") or "Europe/Moscow"
    try:
        tz: tzinfo = zone(tz_name)
    except ScheduleError as exc:
        said = _("[schedule] timezone: {error}").format(error=exc)
        checker.problem(said, "schedule", "timezone")
        tz = zone("Europe/Moscow")
    language = checker.get("game", "language", str, "ru")
    if language not in ("ru", "en"):
        checker.problem(_language_problem(language), "game", "language")
    title = checker.get("game", "title", str, "") or ""
    settings = None
    if not isinstance(raw.get("signup"), dict):
        said = _('[signup] is needed: thread = "…" names the sign-up thread')
        checker.problem(said, "signup")
    else:
        settings, problems = parse_settings(raw["signup"], tz)
        for message in problems:
            key = re.search(r"`(\w+)`", message)  # the key it names first
            checker.problem(f"[signup] {message}", "signup", *(key.groups() if key else ()))
    players = (
        raw.get("players", {}).get("players", []) if isinstance(raw.get("players"), dict) else []
    )
    if checker.problems:
        raise ConfigError(name, checker.problems)
    assert settings is not None
    return SignupConfig(
        path=name,
        board=BoardAccess(
            engine, url, gm_user, password, insecure, browser, api_key, api_user, api_key_kind
        ),
        settings=settings,
        title=title,
        language=language if language in ("ru", "en") else "ru",
        tz=tz,
        players=[str(p) for p in players or []] if isinstance(players, list) else [],
    )
