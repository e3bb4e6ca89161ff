"""Order parsing on the labelled corpus, and phase resolution for 20 and 100 players in every
registered ruleset (a ruleset added to the registry gets its rows with no edit here)."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta

from bench_common import Row, cpu, ms

import rulesets
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import RulesError, Ruleset, Seat, get_ruleset, registered
from engine.session import GameSession

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SIZES = (20, 100)


def parsing_rows(quick: bool) -> list[Row]:
    from engine.corpus import all_items
    from scraper.reading import read_post

    items = all_items()
    prepared = []
    for item in items:
        ruleset = rulesets.find(item.ruleset)
        options = ruleset.options(item.options)
        prepared.append((item, item.body(), ruleset.grammar_for(options), options))

    def read_all() -> None:
        for item, body, grammar, options in prepared:
            read_post(
                body,
                grammar,
                item.cast,
                sender=item.sender,
                channel=item.channel,
                lenient=bool(options.get("lenient_names", False)),
                no_lynch=bool(options.get("no_lynch", True)),
                at=item.at,
                deadline=item.deadline,
                edited_at=item.edited_at,
            )

    read_all()  # word forms and dictionaries load once per process, not per post
    seconds = cpu(read_all, 3 if quick else 7)
    return [
        Row(
            "order parsing on the labelled corpus",
            f"{len(prepared) / seconds:.0f} posts/s ({len(prepared)} posts, {ms(seconds)})",
            "(measured)",
            None,
            "—",
            "scraper.reading.read_post as `forumgm parse` and the corpus score read each post",
            {"posts": len(prepared), "seconds": seconds},
        ),
        crafted_row(quick),
    ]


def crafted_row(quick: bool) -> Row:
    """Issue 10 item 2: generated adversarial posts up to 64 KB, each under 100 ms."""
    import parse_time

    from tests.scraper.crafted import ATTACKS, parse_cpu, warm

    warm()
    named = max(parse_cpu(text) for text in ATTACKS)
    examples = 40 if quick else 200
    slowest, missed = parse_time.generated(examples)
    return Row(
        f"crafted posts up to 64 KB (the issue's attacks and {examples} generated)",
        f"slowest: attacks {ms(named[0])} ({named[1]}), generated {ms(slowest)}",
        "each under 100 ms",
        max(named[0], slowest) < parse_time.TARGET,
        "—",
        "benchmarks/parse_time.py; the slowest grammar of every ruleset, best of three",
        {"attacks_seconds": named[0], "generated_seconds": slowest, "missed": len(missed)},
    )


def _orders(session: GameSession, rng: random.Random) -> list[Order]:
    """A vote from every player in play and one of each command of the grammar to a random
    target: intake takes what each role may do and rejects the rest, as in a real phase."""
    grammar = session.ruleset.grammar_for(session.state.options)
    alive = session.ruleset.in_play(session.state) or list(session.state.names)
    orders = []
    for player in alive:
        target = rng.choice([n for n in alive if n != player] or alive)
        for channel in (Channel.THREAD, Channel.PM):
            orders.append(Order(player, OrderKind.VOTE, targets=(target,), channel=channel))
        for form in grammar.forms:
            if form.kind is not OrderKind.ORDER or not form.actions:
                continue
            action = form.actions[0] if len(form.actions) == 1 else None
            candidates = form.actions if len(form.actions) > 1 else ()
            target = rng.choice(alive)
            orders.append(Order(player, OrderKind.ORDER, action, (target,), candidates=candidates))
    return orders


def _new_game(ruleset: Ruleset, players: int, seed: int) -> GameSession:
    """A game of `players` dealt by the ruleset's defaults; a ruleset that deals only from a
    host's list (classic's `roles`) gets every one of its roles once and the first for the
    rest, seated by hand."""
    names = [f"Игрок{n}" for n in range(1, players + 1)]
    try:
        return GameSession.new(ruleset, [Seat(n) for n in names], ruleset.options({}), seed)
    except RulesError:
        if not ruleset.role_ids:
            raise
    roles = [*ruleset.role_ids, *[ruleset.role_ids[0]] * players][:players]
    seats = [Seat(n, role=r) for n, r in zip(names, roles, strict=True)]
    return GameSession.new(ruleset, seats, ruleset.options({}), seed)


def _resolve_time(ruleset_id: str, players: int, repeat: int) -> tuple[float, int]:
    """Median seconds to resolve one phase (the first two phases, each timed), orders taken."""
    ruleset = get_ruleset(ruleset_id)
    times, taken = [], 0
    for run in range(repeat):
        session = _new_game(ruleset, players, seed=run + 1)
        rng = random.Random(run)
        at = START
        for _phase in range(2):
            if session.state.finished:
                break
            session.open_phase(at, at + timedelta(days=1))
            for order in _orders(session, rng):
                session.submit(order.with_(at=at + timedelta(hours=1)))
            assert session.inputs is not None
            taken = max(taken, len(session.inputs.log))
            start = time.process_time()
            session.resolve()
            times.append(time.process_time() - start)
            at += timedelta(days=1)
    times.sort()
    return times[len(times) // 2], taken


def resolution_rows(quick: bool) -> list[Row]:
    rulesets.load_all()
    out = []
    for ruleset_id in registered():
        for players in SIZES:
            what = f"resolution, {ruleset_id}, {players} players"
            try:
                seconds, taken = _resolve_time(ruleset_id, players, 2 if quick else 5)
            except Exception as exc:  # a ruleset that cannot seat this many says why
                out.append(Row(what, f"n/a: {type(exc).__name__}: {exc}"[:160], "(measured)", None))
                continue
            out.append(
                Row(
                    what,
                    f"{ms(seconds)} per phase ({taken} orders taken)",
                    "(measured)",
                    None,
                    "—",
                    "a vote from everyone and one of each command of the grammar, then resolve",
                    {"seconds": seconds, "orders": taken},
                )
            )
    return out
