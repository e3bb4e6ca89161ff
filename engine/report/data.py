"""What a game report shows, read from the store: public facts only, or everything.

Public (`public=True`) is what players have already seen: the phases' deadlines, the posts
forumgm published, the public events of phases whose results went out, thread posts, and
votes only where the ruleset makes them public (votes in the thread); a secret vote shows
only as its published tally. Roles are shown only where a public event revealed them (a
death that names the role, the end of the game). Full adds every role, every vote and order
with its time, and the ruleset's hidden numbers (yakuza's HP, twelve-rooms' map, minimafik's
hands). Nothing here writes to the store.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from markupsafe import Markup

from engine.core.events import Audience, Event
from engine.core.model import GameState
from engine.core.orders import Channel, OrderKind
from engine.core.ruleset import Ruleset, get_ruleset
from engine.publish import marker_line
from engine.report.words import cause, phase_label, words
from engine.session import GameSession
from engine.store import Store
from engine.store.models import GameStatus, OutboxKind, OutboxStatus, PhaseRecord, PhaseStatus

OUT_TYPES = ("death", "imprisonment", "lynch")
"""Public events that take a player out of play."""
NO_LYNCH = "no_lynch"


@dataclass
class VoteSpan:
    """One voter on one wagon: from `start` to `end` (minutes into the phase)."""

    voter: str
    target: str
    start: float
    end: float
    ended: str
    """"unvote", "switch" (a vote for another), or "deadline" (still on it at the end)."""


@dataclass
class Tally:
    votes: dict[str, str]
    """Voter → target, where the count names them."""
    totals: list[tuple[str, float]]
    """Target → votes, most first."""


@dataclass
class PhaseView:
    id: str
    label: str
    kind: str
    opened: str
    deadline: str
    status: str
    minutes: float
    """The phase's length in minutes (the vote chart's time axis)."""
    results_public: bool
    out: list[tuple[str, str]] = field(default_factory=list)
    """(player, what took them out) of this phase."""
    posts: list[Markup] = field(default_factory=list)
    """The posts forumgm published for the phase, as HTML."""
    spans: list[VoteSpan] | None = None
    """The vote flow (None: not shown in this report)."""
    tally: Tally | None = None
    orders: list[str] = field(default_factory=list)
    """Full reports: "Коля: heal → Петя" for each order the phase took."""


@dataclass
class PlayerView:
    name: str
    seat: int
    role: str | None
    faction: str | None
    fate: str
    alive: bool
    posts: list[int]
    votes: int | None
    orders: int | None
    pms: int | None


@dataclass
class Extra:
    title: str
    pictures: list[tuple[str, Markup]] = field(default_factory=list)
    """(caption, SVG) pairs."""
    table: tuple[list[str], list[list[str]]] | None = None


@dataclass
class ReportData:
    title: str
    ruleset: str
    lang: str
    public: bool
    finished: bool
    winner: str | None
    as_of: str
    current: str | None
    players: list[PlayerView]
    phases: list[PhaseView]
    opening: list[Markup]
    extras: list[Extra]
    secret_votes: bool
    words: dict[str, str]


def build(
    store: Store,
    game_id: int,
    *,
    public: bool,
    now: datetime,
    lang: str | None = None,
) -> ReportData:
    from engine.app.dashboard.bbcode_html import bbcode_to_html

    game = store.get_game(game_id)
    ruleset = get_ruleset(game.ruleset)
    language = lang or game.language
    tz = _zone(game.time_zone)
    w = words(language)
    state = store.load_state(game_id)
    phases = store.phases(game_id)
    finished = game.status is GameStatus.FINISHED or bool(state and state.finished)
    players = store.players(game_id)
    names = [p.name for p in players]
    secret = _votes_secret(ruleset, phases)

    posts_by_phase = _post_counts(store, game, phases, names, now)
    pms_by_player: Counter[str] = Counter()
    if not public:
        for pm in store.pms_in(game_id, now):
            pms_by_player[pm.author] += 1

    outbox = store.outbox(game_id)
    posted: dict[int | None, list[Markup]] = defaultdict(list)
    for item in outbox:
        if item.kind is OutboxKind.POST and item.status is OutboxStatus.POSTED:
            text = item.bbcode.removesuffix(marker_line(item.marker))
            posted[item.phase_id].append(bbcode_to_html(text))

    views: list[PhaseView] = []
    out_in: dict[str, tuple[str, str]] = {}
    revealed: dict[str, tuple[str | None, str | None]] = {}
    votes_cast: Counter[str] = Counter()
    orders_sent: Counter[str] = Counter()
    for ph in phases:
        results_public = ph.status is PhaseStatus.PUBLISHED
        results_known = results_public or (not public and ph.status is PhaseStatus.RESOLVED)
        events = store.events(game_id, ph.phase) if results_known else []
        shown = [e for e in events if e.audience is Audience.PUBLIC] if public else events
        view = PhaseView(
            id=ph.phase,
            label=phase_label(language, ph.phase),
            kind=ph.phase.split(" ")[0],
            opened=_local(ph.opened_at, tz),
            deadline=_local(ph.deadline, tz),
            status=_status(ph, w),
            minutes=max(1.0, (ph.deadline - ph.opened_at).total_seconds() / 60),
            results_public=results_public,
            posts=posted.get(ph.id, []),
        )
        for e in shown:
            if e.type in OUT_TYPES and e.audience is Audience.PUBLIC:
                player = str(e.fields.get("player"))
                why = _out_reason(e, language)
                known = [k for k, (name, _) in enumerate(view.out) if name == player]
                if known and e.type == "death":
                    pass  # already out by the vote this phase (yakuza's lynch, then death)
                elif known:
                    view.out[known[0]] = (player, why)
                    out_in[player] = (view.label, why)
                else:
                    view.out.append((player, why))
                    out_in.setdefault(player, (view.label, why))
                if e.fields.get("role"):
                    revealed[player] = (str(e.fields["role"]), e.fields.get("faction"))
            if e.type == "game_over" and e.audience is Audience.PUBLIC:
                for player, role in (e.fields.get("roles") or {}).items():
                    revealed.setdefault(player, (str(role), None))
            if e.type == "vote_tally" and e.audience is Audience.PUBLIC:
                view.tally = _tally(e)
        flow_ok = not public or not secret
        if flow_ok:
            spans, taken = _flow(store, game_id, ruleset, ph, now, thread_only=public)
            view.spans = spans
            for order in taken:
                if order.is_vote:
                    if order.kind is not OrderKind.UNVOTE:
                        votes_cast[order.player] += 1
                elif not public and order.kind is OrderKind.ORDER:
                    orders_sent[order.player] += 1
                    view.orders.append(_order_words(order))
            if view.tally is None and spans and (not public or ph.status is not PhaseStatus.OPEN):
                view.tally = _tally_from_spans(spans)
        elif view.tally is not None:
            for voter in view.tally.votes:
                votes_cast[voter] += 1
        views.append(view)

    player_views = []
    for p in players:
        if public:
            role, faction = revealed.get(p.name, (None, None))
        else:
            role, faction = p.role, p.faction
        gone = out_in.get(p.name)
        alive = gone is None if public else p.in_play
        if gone is not None:
            fate = f"{gone[0]}: {gone[1]}"
        elif public or p.in_play:
            fate = w["alive"]
        else:
            fate = w["nobody"]
        player_views.append(
            PlayerView(
                name=p.name,
                seat=p.seat,
                role=role,
                faction=faction,
                fate=fate,
                alive=alive,
                posts=[posts_by_phase[ph.phase].get(p.name, 0) for ph in phases],
                votes=votes_cast.get(p.name, 0)
                if (not public or not secret or votes_cast)
                else None,
                orders=orders_sent.get(p.name, 0) if not public else None,
                pms=pms_by_player.get(p.name, 0) if not public else None,
            )
        )
    current = next((ph.phase for ph in reversed(phases) if ph.status is PhaseStatus.OPEN), None)
    winner = state.winner if state is not None and finished else None
    extras = [] if public else _extras(ruleset, phases, language)
    return ReportData(
        title=game.title or f"{ruleset.title}",
        ruleset=game.ruleset,
        lang=language,
        public=public,
        finished=finished,
        winner=winner,
        as_of=_local(now, tz),
        current=phase_label(language, current) if current else None,
        players=player_views,
        phases=views,
        opening=posted.get(None, []),
        extras=extras,
        secret_votes=secret,
        words=w,
    )


# -- pieces ---------------------------------------------------------------------------------


def _zone(name: str | None) -> tzinfo:
    try:
        return ZoneInfo(name or "UTC")
    except Exception:  # an unknown zone in an old store: UTC, said on the page
        return ZoneInfo("UTC")


def _local(moment: datetime, tz: tzinfo) -> str:
    local = moment.astimezone(tz)
    return f"{local:%Y-%m-%d %H:%M}"


def _status(ph: PhaseRecord, w: dict[str, str]) -> str:
    if ph.status is PhaseStatus.PUBLISHED:
        return w["published"]
    if ph.status is PhaseStatus.OPEN:
        return w["open"]
    return w["waiting"]


def _votes_secret(ruleset: Ruleset, phases: list[PhaseRecord]) -> bool:
    """Whether the ruleset keeps votes secret (asked of its public vote view)."""
    if not phases:
        return ruleset.vote_channel is Channel.PM
    from engine.core.phases import Phase, PhaseId
    from engine.core.ruleset import PhaseInputs

    ph = phases[-1]
    state = GameState.from_json(ph.state_before)
    inputs = PhaseInputs(Phase(PhaseId.parse(ph.phase), ph.opened_at, ph.deadline))
    try:
        return ruleset.vote_view(state, inputs, public=True).secret
    except Exception:  # a phase without a vote (minimafik's draft): ask the channel
        return ruleset.vote_channel is Channel.PM


def _post_counts(
    store: Store, game: Any, phases: list[PhaseRecord], names: list[str], now: datetime
) -> dict[str, Counter[str]]:
    """Thread posts of each player in each phase (by when they were posted)."""
    counts: dict[str, Counter[str]] = {ph.phase: Counter() for ph in phases}
    if not phases:
        return counts
    players = set(names)
    for item in store.posts_in(game.id, game.thread_id, now):
        if item.author not in players or item.deleted:
            continue
        for ph in phases:
            if ph.opened_at < item.at <= ph.deadline:
                counts[ph.phase][item.author] += 1
                break
    return counts


def _out_reason(e: Event, lang: str) -> str:
    f = e.fields
    if e.type == "imprisonment":
        text = cause(lang, "imprisoned")
    elif e.type == "lynch":
        text = cause(lang, "lynch")
    else:
        text = cause(lang, f.get("cause")) or "†"
    if f.get("role"):
        text += f" ({f['role']})"
    return text


def _tally(e: Event) -> Tally:
    raw = e.fields.get("votes")
    votes: dict[str, str] = {}
    if isinstance(raw, dict):
        votes = {str(k): str(v) for k, v in raw.items() if v is not None}
    elif isinstance(raw, list):
        votes = {str(v["voter"]): str(v["target"]) for v in raw if v.get("target") is not None}
    totals_raw = e.fields.get("totals") or e.fields.get("counts")
    totals: dict[str, float] = {}
    if isinstance(totals_raw, dict):
        totals = {str(k): float(v) for k, v in totals_raw.items()}
    elif isinstance(raw, list):
        for v in raw:
            if v.get("target") is not None:
                key = str(v["target"])
                totals[key] = totals.get(key, 0.0) + float(v.get("weight", 1))
    else:
        totals = dict(Counter(votes.values()))
    ordered = sorted(((k, v) for k, v in totals.items() if v), key=lambda kv: (-kv[1], kv[0]))
    return Tally(votes, ordered)


def _tally_from_spans(spans: list[VoteSpan]) -> Tally:
    final = {s.voter: s.target for s in spans if s.ended == "deadline"}
    counts = Counter(final.values())
    return Tally(final, sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _flow(
    store: Store,
    game_id: int,
    ruleset: Ruleset,
    ph: PhaseRecord,
    now: datetime,
    *,
    thread_only: bool,
) -> tuple[list[VoteSpan], list[Any]]:
    """The phase's votes over time: its orders replayed through the ruleset's intake, the
    common vote view read after each vote; and the orders intake took. `thread_only` (a
    public report): what was said in the thread alone, nothing sent by PM."""
    orders = store.effective_orders(game_id, ph.phase)
    if thread_only:
        orders = [o for o in orders if o.channel is Channel.THREAD]
    if not orders:
        return [], []
    session = GameSession(ruleset, GameState.from_json(ph.state_before))
    try:
        session.open_phase(ph.opened_at, ph.deadline)
    except Exception:  # a phase the rules cannot open again (a finished game): no flow
        return [], []
    assert session.inputs is not None
    inputs = session.inputs
    end = min(ph.deadline, now) if ph.status is PhaseStatus.OPEN else ph.deadline

    def minutes(at: datetime | None) -> float:
        moment = at or ph.opened_at
        return max(0.0, (min(moment, end) - ph.opened_at).total_seconds() / 60)

    def current() -> dict[str, str]:
        try:
            view = ruleset.vote_view(session.state, inputs, public=False)
        except Exception:
            return {}
        return {k: v for k, v in view.votes.items() if v}

    taken: list[Any] = []
    open_spans: dict[str, VoteSpan] = {}
    spans: list[VoteSpan] = []
    before = current()
    for order in orders:
        log_size = len(inputs.log)
        session.submit(order)
        if len(inputs.log) > log_size:
            taken.extend(inputs.log[log_size:])
        if not order.is_vote:
            continue
        after = current()
        at = minutes(order.at)
        for voter in set(before) | set(after):
            old, new = before.get(voter), after.get(voter)
            if old == new:
                continue
            if voter in open_spans:
                span = open_spans.pop(voter)
                span.end = at
                span.ended = "switch" if new else "unvote"
            if new:
                span = VoteSpan(voter, new, at, at, "deadline")
                open_spans[voter] = span
                spans.append(span)
        before = after
    final = minutes(end)
    for span in open_spans.values():
        span.end = final
    return spans, taken


def _order_words(order: Any) -> str:
    targets = ", ".join(order.targets)
    action = order.action or order.kind.value
    return f"{order.player}: {action}" + (f" → {targets}" if targets else "")


# -- the rulesets' hidden numbers (full reports only) ----------------------------------------


def _extras(ruleset: Ruleset, phases: list[PhaseRecord], lang: str) -> list[Extra]:
    from engine.report import svg

    w = words(lang)
    states = [
        (ph, GameState.from_json(ph.state_after)) for ph in phases if ph.state_after is not None
    ]
    if not states:
        return []
    if ruleset.id == "yakuza":
        series: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
        top = 1
        first = GameState.from_json(phases[0].state_before)
        for p in first.players:
            series[p.name].append((0, int(p.fields.get("hp", 0))))
            top = max(top, int(p.fields.get("max_hp", 100) or 100))
        for n, (_, st) in enumerate(states, start=1):
            for p in st.players:
                hp = int(p.fields.get("hp", 0)) if p.fields.get("alive", True) else None
                series[p.name].append((n, hp))
                top = max(top, int(p.fields.get("max_hp", 100) or 100))
        labels = [phase_label(lang, ph.phase) for ph, _ in states]
        return [Extra(w["hp"], svg.hp_pictures(series, top, labels))]
    if ruleset.id == "twelve-rooms":
        from rulesets.twelve_rooms.mapview import svg_map

        pictures = []
        for ph in phases:
            st = GameState.from_json(ph.state_before)
            if st.data.get("rooms"):
                picture = Markup(svg_map(st, lang))  # the project's own, names escaped there
                pictures.append((phase_label(lang, ph.phase), picture))
        return [Extra(w["map"], pictures)]
    if ruleset.id == "minimafik":
        from rulesets.minimafik.collection_file import collection_of

        header = [w["phase"], *[p.name for p in states[0][1].players]]
        rows = []
        for ph, st in states:
            try:
                coll = collection_of(st.options.get("collection"))
            except Exception:
                coll = None
            row = [phase_label(lang, ph.phase)]
            for p in st.players:
                hand = list(p.fields.get("hand") or [])
                if not p.fields.get("alive", True):
                    row.append("†")
                    continue
                row.append(", ".join(_card(coll, c) for c in hand) or "—")
            rows.append(row)
        return [Extra(w["hands"], table=(header, rows))]
    return []


def _card(coll: Any, card: str) -> str:
    if coll is None:
        return card
    try:
        return str(coll.card(card).name)
    except Exception:  # rot, blank and the like have no card of the collection
        return card
