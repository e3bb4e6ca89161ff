"""Every template of every ruleset (and the generic ones) rendered from sample events, in ru and en.

The samples name players of both genders, one whose gender the file gives (Nekr0, a woman),
one the dictionary cannot tell (Орёл, a word, not a name) and Latin nicks, so the golden
files show how each text reads with each. `tests/render/test_golden_posts.py` compares the
renderings with `tests/render/golden/<ruleset>.<lang>.txt`;
`.venv/bin/python -m tests.render.golden_posts --update` rewrites them after a deliberate
change (read the diff as a player would before committing it).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

from engine.core.events import Audience, Event
from engine.render import Renderer

GOLDEN = Path(__file__).with_name("golden")
MSK = ZoneInfo("Europe/Moscow")
DEADLINE = datetime(2026, 12, 2, 19, 0, tzinfo=MSK).isoformat()
START = datetime(2026, 12, 1, 19, 0, tzinfo=MSK).isoformat()
AT = datetime(2026, 12, 2, 12, 30, tzinfo=MSK)
GENDERS = {"Nekr0": "f"}
ME = "Вася"


@dataclass(frozen=True)
class Case:
    """One rendering: a template with its events (or its context), under a title."""

    title: str
    template: str
    events: tuple[Event, ...] = ()
    phase: str = ""
    ctx: Mapping[str, Any] = field(default_factory=dict)

    def render(self, r: Renderer) -> str:
        if self.template == "private":
            body = r.render_private(list(self.events), ME)
            assert body is not None, self.title
            return body
        if self.template == "results":
            seating = ["Вася", "Петя", "Маша", "Коля", "Оля", "Nekr0", "Орёл", "Катя"]
            return r.render_public(
                list(self.events), phase=self.phase, context={"players": seating}
            )
        if self.template == "host_events":  # the host's measures (engine.app.steer)
            views = [SimpleNamespace(type=e.type, **e.fields) for e in self.events]
            return r.render_post("host_events", events=views)
        if self.events:
            return r.render_event_post(self.events[0])
        return r.render_post(self.template, **self.ctx)


def _pm(title: str, *events: Event) -> Case:
    return Case(title, "private", events)


def _results(title: str, phase: str, *events: Event) -> Case:
    return Case(title, "results", events, phase)


def _post(title: str, event: Event) -> Case:
    return Case(title, event.type, (event,))


def _named(title: str, template: str, /, **ctx: Any) -> Case:
    return Case(title, template, ctx=ctx)


SEATING = ("Вася", "Петя", "Маша", "Коля", "Оля", "Nekr0", "Орёл", "Катя")


def classic_orders(role: str, *, action: str | None = None) -> Any:
    """What the classic ruleset lists for `ME` in `role` (or one action's form), from a real
    game's state: the help texts come from the grammar, not from these samples."""
    from engine.core.ruleset import Seat
    from rulesets import find
    from rulesets.classic.help import action_usage, orders_of

    seats = [Seat(name, role if name == ME else "citizen") for name in SEATING]
    seats[-1] = Seat(SEATING[-1], "killer")
    state, _ = find("classic").setup(seats, None, 1)
    if action is not None:
        return action_usage(state, ME, action)
    return orders_of(state, ME)


def yakuza_lists(role: str, visible: str | None = None) -> dict[str, Any]:
    """The yakuza night and day lists for `ME` in `role` (from a real game's state)."""
    from engine.core.ruleset import Seat
    from rulesets import find
    from rulesets.yakuza.help import day_orders, night_orders

    roles = ["boss", "brute", "killer", "sensei", "ninja", "spy", "commissar", "citizen"]
    roles[0] = role
    seats = [Seat(n, r) for n, r in zip(SEATING, roles, strict=True)]
    seats[0] = Seat(ME, role, visible_role=visible)
    state, _ = find("yakuza").setup(seats, None, 1)
    return {"orders": night_orders(state, ME), "day_orders": day_orders(state, ME)}


def yakuza_form(role: str, action: str) -> Any:
    from engine.core.ruleset import Seat
    from rulesets import find
    from rulesets.yakuza.help import action_usage

    roles = ["citizen", "brute", "killer", "sensei", "ninja", "spy", "commissar", "boss"]
    roles[0] = role
    seats = [Seat(n, r) for n, r in zip(SEATING, roles, strict=True)]
    state, _ = find("yakuza").setup(seats, None, 1)
    return action_usage(state, ME, action)


def votecount_forms(players: list[str], *, no_lynch: bool) -> list[dict[str, Any]]:
    from engine.core.ruleset import Seat
    from rulesets import find
    from rulesets.votecount.help import how_to_vote

    state, _ = find("votecount").setup([Seat(n) for n in players], {"no_lynch": no_lynch}, 1)
    return how_to_vote(state, players)


def pv(kind: str, **fields: object) -> Event:
    return Event.private(ME, kind, **fields)


def pub(kind: str, **fields: object) -> Event:
    return Event.public(kind, **fields)


CLASSIC: list[Case] = [
    _post(
        "game_started",
        pub(
            "game_started",
            players=["Вася", "Петя", "Маша", "Nekr0", "Орёл"],
            roles={"citizen": 2, "mafioso": 1, "commissar": 1, "doctor": 1},
            clans=1,
            deadline=DEADLINE,
            start=START,
        ),
    ),
    _post(
        "game_started without a deadline",
        pub("game_started", players=["Вася", "Петя"], roles={"citizen": 1}, clans=1, deadline=None),
    ),
    _post("turn_started", pub("turn_started", turn=3, deadline=DEADLINE)),
    _post("turn_closed", pub("turn_closed", turn=3)),
    _post(
        "vote_rating",
        pub("vote_rating", turn=2, votes={"Вася": "Маша", "Петя": "Маша"}, totals={"Маша": 2}),
    ),
    _post("vote_rating, no votes", pub("vote_rating", turn=2, votes={}, totals={})),
    _pm("role_assigned (citizen)", pv("role_assigned", role="citizen", faction="town")),
    _pm("role_assigned (mafioso)", pv("role_assigned", role="mafioso", faction="mafia")),
    _pm(
        "team_roster and outcast_known",
        pv("team_roster", faction="mafia", members={"Вася": "mafioso", "Коля": "killer"}),
        pv("outcast_known", player="Nekr0"),
    ),
    _pm("check_result (town)", pv("check_result", target="Оля", role="citizen", faction="town")),
    _pm("check_result (mafia)", pv("check_result", target="Орёл", role="mafioso", faction="mafia")),
    _pm(
        "vigilante_result (own)", pv("vigilante_result", target="Маша", result="own", role="doctor")
    ),
    _pm("vigilante_result (enemy)", pv("vigilante_result", target="Коля", result="enemy")),
    _pm("peek_result (nobody)", pv("peek_result", target="Маша", attacker=None)),
    _pm("peek_result (seen)", pv("peek_result", target="Маша", attacker="Nekr0")),
    _pm("action_blocked", pv("action_blocked", action="check", target="Оля")),
    _pm("action_void", pv("action_void", action="check", target="Оля")),
    _pm("outcast_joined (me)", Event.private(ME, "outcast_joined", player=ME, faction="mafia")),
    _pm("outcast_joined (my clan)", pv("outcast_joined", player="Катя", faction="mafia")),
    _pm("anonymous_message", pv("anonymous_message", text="Коля врёт\nвторая строка")),
    _pm(
        "target_list",
        pv("target_list", faction="mafia", team_shot={"Вася": "Маша"}, shots={}),
    ),
    _pm(
        "receipts",
        pv("vote_accepted", target="Коля"),
        pv("vote_accepted", target="Nekr0"),
        pv("vote_withdrawn"),
        pv("order_accepted", action="check", target="Катя"),
        pv("order_cancelled", action="check"),
        Event("anon_sent", {"to": "Маша"}, Audience.PRIVATE, (ME,)),
        pv("thread_vote_reminder"),
    ),
    _pm("order_rejected (unknown_command)", pv("order_rejected", reason="unknown_command")),
    _pm(
        "role_assigned with the orders (doctor)",
        pv("role_assigned", role="doctor", faction="town", orders=classic_orders("doctor")),
    ),
    _pm(
        "role_assigned with the orders (mafioso)",
        pv("role_assigned", role="mafioso", faction="mafia", orders=classic_orders("mafioso")),
    ),
    _pm("orders_help (commissar)", pv("orders_help", orders=classic_orders("commissar"))),
    _pm(
        "two messages without a command: one list",
        pv("order_rejected", reason="unknown_command", orders=classic_orders("witness")),
        pv("order_rejected", reason="unknown_command", orders=classic_orders("witness")),
    ),
    _pm(
        "order_rejected with the form",
        pv(
            "order_rejected",
            action="check",
            reason="unknown_target",
            usage=classic_orders("commissar", action="check"),
        ),
        pv(
            "order_rejected",
            action="heal",
            reason="action_not_available",
            orders=classic_orders("sheriff"),
        ),
    ),
    _pm(
        "order_rejected (reasons)",
        pv("order_rejected", action="check", reason="unknown_target"),
        pv("order_rejected", action="vote", reason="thread_vote_ignored"),
        pv("order_rejected", action=None, reason="late"),
    ),
    _results(
        "a day of votes",
        "turn 2",
        pub(
            "vote_tally",
            turn=2,
            votes={"Вася": "Маша", "Петя": "Маша", "Коля": "Орёл", "Маша": None},
            totals={"Маша": 2, "Орёл": 1},
            no_votes=False,
        ),
        pub("imprisonment", player="Маша", reason="leader", votes=2, role="doctor", faction="town"),
        pub("death", player="Коля", cause="killed", role="commissar", faction="town"),
        pub("death", player="Nekr0", cause="poison"),
        pub("attempt_partial", target="Катя"),
        pub("attempt_failed", target="Орёл"),
        pub("coughing", player="Оля"),
        pub("turn_started", turn=3, deadline=DEADLINE),
    ),
    _results(
        "a tie, and a turn without votes",
        "turn 3",
        pub("imprisonment", player="Коля", reason="tie_break", votes=2),
        pub("turn_started", turn=4, deadline=None),
    ),
    _results(
        "nobody voted",
        "turn 4",
        pub("vote_tally", turn=4, votes={}, totals={}, no_votes=True),
        pub("imprisonment", player="Катя", reason="no_votes", role="mafioso", faction="mafia"),
    ),
    _results(
        "game over",
        "turn 5",
        pub(
            "game_over",
            winner="town",
            survivors=["Вася", "Оля"],
            roles={"Вася": "commissar", "Оля": "citizen", "Петя": "mafioso"},
        ),
    ),
    _results(
        "a draw",
        "turn 6",
        pub("game_over", winner="draw", survivors=[], roles={"Вася": "citizen"}),
    ),
]

YAKUZA: list[Case] = [
    _post(
        "game_started",
        pub(
            "game_started",
            players=["Вася", "Маша", "Nekr0", "Орёл"],
            visible_roles={"Вася": "monk", "Маша": "strongman", "Nekr0": "none", "Орёл": "hulk"},
            deadline=DEADLINE,
        ),
    ),
    _pm(
        "role_assigned and team",
        pv(
            "role_assigned",
            role="ninja",
            faction="yakuza",
            visible_role="medic",
            hp=100,
            max_hp=100,
            abilities=[{"action": "katana", "limit": "unlimited"}],
        ),
        pv(
            "team",
            members=[{"player": "Вася", "role": "ninja"}, {"player": "Маша", "role": "sensei"}],
        ),
    ),
    _pm(
        "role_assigned without a visible role",
        pv("role_assigned", role="citizen", faction="law", visible_role="none", hp=100, max_hp=100),
    ),
    _pm("hp_report", pv("hp_report", hp=65)),
    _pm(
        "check results",
        pv("check_result", target="Катя", result="peaceful"),
        pv("check_result", target="Коля", result="not_peaceful"),
        pv("role_result", target="Маша", role="spy"),
    ),
    _pm(
        "surveillance",
        pv("surveillance_result", target="Маша", targets=["Коля", "Катя"]),
        pv("surveillance_result", target="Орёл", targets=[]),
    ),
    _pm(
        "shadow",
        pv("shadow_result", target="Катя", targets=["Коля"], sources=["Nekr0", "Петя"]),
        pv("shadow_result", target="Коля", targets=[], sources=[]),
    ),
    _pm(
        "observation and revenge",
        pv("observation_result", ability="katana", used=True),
        pv("observation_result", ability="trap", used=False),
        pv("revenge_result", activated=True),
        pv("revenge_result", activated=False),
    ),
    _pm("partner_found", pv("partner_found", target="Маша", role="sensei")),
    _pm(
        "nagant",
        pv("nagant_received", victim="Катя", victim_visible_role="medic"),
        pv("nagant_report", player="Катя", target="Коля"),
        pv("nagant_report", player="Коля", target=None),
    ),
    _pm("mortally_wounded", pv("mortally_wounded", until="day 2")),
    _pm(
        "receipts",
        pv("order_accepted", action="katana", targets=["Маша"]),
        pv("order_accepted", action="guard", targets=[], night=3),
        pv("order_accepted", action="katana", targets=["Коля"], proxy_for="Маша"),
        pv("order_accepted", action="katana", targets=["Коля"], proxy_by="Nekr0"),
        pv("proxy_replaced", member="Маша", action="katana"),
        pv("proxy_replaced", member="Коля", action="pistol"),
        pv("order_rejected", action="katana", reason="unknown_target"),
    ),
    _pm(
        "role_assigned with the orders (citizen, medic)",
        pv(
            "role_assigned",
            role="citizen",
            faction="law",
            visible_role="medic",
            hp=100,
            max_hp=100,
            **yakuza_lists("citizen", "medic"),
        ),
    ),
    _pm(
        "role_assigned with the orders (boss)",
        pv(
            "role_assigned",
            role="boss",
            faction="mafia",
            visible_role="none",
            hp=100,
            max_hp=100,
            **yakuza_lists("boss"),
        ),
    ),
    _pm("orders_help (shinobi)", pv("orders_help", **yakuza_lists("shinobi"))),
    _pm(
        "a replaced order, a refusal with the form, one list for two",
        pv("order_accepted", action="contract", targets=["Коля"]),
        pv(
            "order_accepted",
            action="pistol",
            targets=["Петя"],
            replaces={"action": "contract", "targets": ["Коля"]},
        ),
        pv(
            "order_rejected",
            action="observation",
            reason="bad_parameter",
            usage=yakuza_form("citizen", "observation"),
        ),
        pv("order_rejected", reason="unknown_command", action="order", **yakuza_lists("psycho")),
        pv("order_rejected", reason="unknown_command", action="order", **yakuza_lists("psycho")),
    ),
    _results(
        "a morning",
        "night 1",
        pub("death", player="Маша", cause="night"),
        pub("death", player="Орёл", cause="night"),
        pub("death", player="Nekr0", cause="mortal_wound"),
        pub("status_change", player="Коля", status="lightly_wounded"),
        pub("status_change", player="Катя", status="hospital"),
        pub("status_change", player="Орёл", status="coma"),
        pub("status_change", player="Оля", status="healthy"),
        pub("contract_announced", player="Петя"),
        pub("hunt_announced", player="Катя"),
    ),
    _results(
        "an evening",
        "day 1",
        pub(
            "vote_tally",
            votes={"Вася": "Маша", "Петя": "no_lynch"},
            totals={"Маша": 1, "no_lynch": 1},
        ),
        pub("lynch", player="Маша"),
        pub("day_action", player="Вася", action="shock", target="Коля"),
        pub("day_action", player="Петя", action="rest", target=None),
        pub("death", player="Маша", cause="lynch"),
        pub("death", player="Коля", cause="day"),
    ),
    _results(
        "a tie, peace and no lynch",
        "day 2",
        pub("vote_tally", votes={}, totals={}),
        pub("tie", damage=20, players=["Маша", "Коля"]),
        pub("no_lynch", reason="peace"),
        pub("no_lynch", reason="no_votes"),
        pub("lynch", player="Орёл"),
    ),
    _results(
        "game over",
        "day 3",
        pub(
            "game_over",
            winner="yakuza",
            survivors=["Вася"],
            roles={"Вася": "ninja", "Маша": "boss"},
        ),
    ),
]

VOTECOUNT: list[Case] = [
    _post(
        "game_started", pub("game_started", players=["Alice", "Маша", "Орёл"], deadline=DEADLINE)
    ),
    _post("game_started without a deadline", pub("game_started", players=["Alice"], deadline=None)),
    _post(
        "game_started with the forms (no lynch allowed)",
        pub(
            "game_started",
            players=["Alice", "Маша", "Орёл"],
            deadline=DEADLINE,
            orders=votecount_forms(["Alice", "Маша", "Орёл"], no_lynch=True),
        ),
    ),
    _pm(
        "order_rejected",
        pv("order_rejected", action="vote", reason="unknown_target"),
        pv(
            "order_rejected",
            action="vote",
            reason="unknown_target",
            usage=votecount_forms(["Маша", "Alice"], no_lynch=False)[0],
        ),
        pv("order_rejected", action="unvote", reason="late"),
        pv("order_rejected", action="vote_count_request", reason="sender_not_in_play"),
    ),
    _pm(
        "vote_count_refused",
        pv("vote_count_refused", last=DEADLINE, next=DEADLINE),
    ),
    _results(
        "a lynch",
        "day 1",
        pub(
            "vote_tally",
            votes={"Вася": "Маша", "Петя": "Маша", "Коля": "no_lynch"},
            totals={"Маша": 2, "no_lynch": 1},
            not_voting=["Орёл"],
        ),
        pub("hammer", player="Маша", post_id="7"),
        pub("lynch", player="Маша", reason="majority"),
    ),
    _results("Орёл lynched", "day 2", pub("lynch", player="Орёл", reason="plurality")),
    _results(
        "no lynch",
        "day 3",
        pub("vote_tally", votes={}, totals={}, not_voting=[]),
        pub("no_lynch", reason="no_votes"),
        pub("no_lynch", reason="tie"),
        pub("no_lynch", reason="no_majority"),
        pub("no_lynch", reason="no_lynch_vote"),
    ),
    _named(
        "with history",
        "vote_count",
        votes={"Вася": "Маша", "Петя": "no_lynch"},
        totals={"Маша": 1, "no_lynch": 1},
        not_voting=["Коля"],
        majority=2,
        at=AT,
        history=[
            {"voter": "Вася", "target": "Маша", "url": "https://f.example/p1"},
            {"voter": "Петя", "target": None, "url": None},
            {"voter": "Петя", "target": "no_lynch", "url": None},
        ],
    ),
    _named("empty", "vote_count", votes={}, totals={}, not_voting=[], majority=None, at=None),
]

GENERIC: list[Case] = [
    _named(
        "a day",
        "phase_opened",
        phase="day 2",
        kind="day",
        number=2,
        deadline=DEADLINE,
        players=["Вася", "Маша", "Орёл"],
    ),
    _named(
        "a night",
        "phase_opened",
        phase="night 3",
        kind="night",
        number=3,
        deadline=DEADLINE,
        players=["Вася"],
    ),
    _named(
        "votes",
        "vote_count",
        votes={"Вася": "Маша", "Петя": "Маша"},
        totals={"Маша": 2},
        not_voting=["Коля"],
        at=AT,
    ),
    _named("no votes", "vote_count", votes={}, totals={}, not_voting=[], at=None),
    _named(
        "a second substitute, with the seat's history",
        "handover",
        seat="Маша",
        previous="Nekr0",
        role="Ваша роль: [b]Доктор[/b].",
        history=[{"subject": "Итоги хода 1", "body": "Вас лечили."}],
    ),
    _named("the first substitute", "handover", seat="Орёл", previous="Орёл", role="…", history=[]),
    _named(
        "two games of one GM",
        "which_game",
        games=["М12", "Голосовалка [b]"],
        subject="Re: Ваша роль [url=x]",
        at=AT,
    ),
    _named("three games", "which_game", games=["А", "Б", "В"], subject="ход", at=AT),
    Case(
        "a removal, role shown, and what follows in the thread",
        "host_events",
        (
            Event.public(
                "player_removed", player="Маша", revealed=True, role="mafioso", faction="mafia"
            ),
            Event.public("player_removed", player="Nekr0", revealed=False),
            Event.public("leader_gone", player="Орёл"),
            Event.public("vote_weight_set", player="Катя", weight=2),
            Event.public("cannot_vote_set", player="Коля", cannot_vote=True),
            Event.public("cannot_vote_set", player="Коля", cannot_vote=False),
        ),
    ),
    Case(
        "what a player is told in private",
        "host_events",
        (
            Event.private("Вася", "teammate_removed", player="Маша"),
            Event.private("Вася", "vest_granted", count=1, vests=2),
            Event.private("Вася", "immunity_granted", until=3),
        ),
    ),
    _named(
        "a deadline moved",
        "host_deadline",
        phase="day 2",
        deadline=DEADLINE,
        old=AT,
        shifted=None,
    ),
    _named(
        "every deadline shifted",
        "host_deadline",
        phase="turn 3",
        deadline=DEADLINE,
        old=AT,
        shifted=timedelta(days=1, hours=6),
    ),
    _named("the game paused", "host_paused"),
    _named("the game goes on", "host_resumed", phase="night 2", deadline=DEADLINE),
    _named(
        "a winner declared",
        "host_ended",
        outcome="town",
        roles={"Вася": "commissar", "Маша": "mafioso", "Nekr0": "citizen"},
        alive=["Вася", "Nekr0"],
    ),
    _named(
        "a draw",
        "host_ended",
        outcome="draw",
        roles={"Вася": "commissar", "Маша": "mafioso"},
        alive=["Вася", "Маша"],
    ),
    _named("abandoned", "host_ended", outcome="abandoned", roles={"Вася": None}, alive=[]),
    _named("the host's own words", "host_message", text="Завтра [b]праздник[/b]: пауза."),
    _named(
        "results wait",
        "host_notice",
        cause="review",
        title="Зимняя мафия",
        phase="turn 2",
        path="winter.toml",
        db=" --db store.sqlite",
        dashboard="https://mafia.example.org/games/1",
        warnings=3,
    ),
    _named(
        "a deadline passed while they waited",
        "host_notice",
        cause="missed",
        title="Зимняя мафия",
        phase="night 1",
        path="winter.toml",
        db="",
        dashboard=None,
        deadline=DEADLINE,
    ),
    _named(
        "the steps fail",
        "host_notice",
        cause="failing",
        title="Зимняя мафия",
        phase="day 1",
        path="winter.toml",
        db="",
        dashboard=None,
        minutes=45,
        why="step failed: BoardUnavailable: 503 [b]",
    ),
    _named(
        "the board holds the GM's messages back",
        "host_notice",
        cause="limited",
        title="Зимняя мафия",
        phase="night 1",
        path="winter.toml",
        db="",
        dashboard=None,
        why=(
            "https://forum.example.org/: Discourse refuses a personal message for 20 h; 7 "
            "items wait for it, kept and sent when it lifts"
        ),
    ),
]


def _every_key(table: dict[str, Any]) -> list[str]:
    """The keys of a text table (its Russian side; a test checks both sides have the same)."""
    return list(table["ru"])


def classic_every_text() -> list[Case]:
    """A sample of every entry of the classic word tables (`rulesets.classic.texts`)."""
    from rulesets.classic import texts as t
    from rulesets.classic.roles import CLAN, ROLES

    def faction(role: str) -> str:
        return "mafia" if ROLES[role].faction == CLAN else ROLES[role].faction

    roles = [pv("role_assigned", role=r, faction=faction(r)) for r in t.ROLE_ORDER]
    sides = [
        pv("check_result", target="Оля", role="outcast", faction=f) for f in _every_key(t.SIDES)
    ]
    joined = [
        Event.private(ME, "outcast_joined", player=ME, faction=f)
        for f in _every_key(t.FACTIONS_DAT)
    ]
    actions = [pv("order_accepted", action=a, target="Катя") for a in _every_key(t.ACTIONS)]
    reasons = [
        pv("order_rejected", action=a, reason=r)
        for a, r in zip(
            [*_every_key(t.COMMANDS), *_every_key(t.ACTIONS)] * 2,
            [r for r in _every_key(t.REJECT_REASONS) if r != "unknown_command"],
            strict=False,
        )
    ]
    deaths = [pub("death", player="Коля", cause=c) for c in _every_key(t.CAUSES)]
    return [
        _pm("every role", *roles),
        _pm("every side", *sides),
        _pm("every clan an outcast joins", *joined),
        _pm("every action", *actions),
        _pm("every refusal, named by every command and action", *reasons),
        _results("every cause of death", "turn 2", *deaths),
        *[
            _results(
                f"game over: {w}", "turn 7", pub("game_over", winner=w, survivors=[], roles={})
            )
            for w in _every_key(t.WINNERS)
        ],
    ]


def yakuza_every_text() -> list[Case]:
    """A sample of every entry of the yakuza word tables (`rulesets.yakuza.texts`)."""
    from rulesets.yakuza import texts as t
    from rulesets.yakuza.roles import ROLES

    roles = [
        pv(
            "role_assigned",
            role=r,
            faction=ROLES[r].faction,
            visible_role="none",
            hp=100,
            max_hp=100,
        )
        for r in t.ROLE_ORDER
    ]
    visible = _every_key(t.VISIBLE)
    names = [f"{SEATING[i % len(SEATING)]}{i // len(SEATING) or ''}" for i in range(len(visible))]
    opening = pub(
        "game_started",
        players=names,
        visible_roles=dict(zip(names, visible, strict=True)),
        deadline=DEADLINE,
    )
    actions = [pv("order_accepted", action=a, targets=["Маша"]) for a in _every_key(t.ACTIONS)]
    reasons = [
        pv("order_rejected", action="katana", reason=r)
        for r in _every_key(t.REASONS)
        if r != "unknown_command"
    ]
    night = [pub("death", player="Маша", cause=c) for c in _every_key(t.CAUSES)]
    night += [pub("status_change", player="Коля", status=s) for s in _every_key(t.STATUSES)]
    return [
        _post("game_started: every visible role", opening),
        _pm("every role", *roles),
        _pm("every action", *actions),
        _pm("every refusal", *reasons),
        _results("every cause and status", "night 2", *night),
        *[
            _results(f"game over: {w}", "day 4", pub("game_over", winner=w, survivors=[], roles={}))
            for w in _every_key(t.WINNERS)
        ],
    ]


def votecount_every_text() -> list[Case]:
    """A sample of every entry of the votecount word tables (`rulesets.votecount.texts`)."""
    from rulesets.votecount import texts as t

    return [
        _pm(
            "every refusal",
            *[pv("order_rejected", action="vote", reason=r) for r in _every_key(t.REJECT_REASONS)],
        ),
        _results(
            "every lynch",
            "day 4",
            *[pub("lynch", player="Маша", reason=r) for r in _every_key(t.LYNCH_REASONS)],
        ),
        _results(
            "every day without one",
            "day 5",
            *[pub("no_lynch", reason=r) for r in _every_key(t.NO_LYNCH_REASONS)],
        ),
    ]


CLASSIC += classic_every_text()
YAKUZA += yakuza_every_text()
VOTECOUNT += votecount_every_text()

SETS: dict[str, tuple[str, str | None, list[Case]]] = {
    "classic": ("rulesets.classic.templates", None, CLASSIC),
    "yakuza": ("rulesets.yakuza.templates", None, YAKUZA),
    "votecount": ("rulesets.votecount.templates", None, VOTECOUNT),
    "generic": ("engine.templates", "rulesets.classic.texts", GENERIC),
}
"""Golden set → (templates package, texts module, samples)."""


def renderer(name: str, lang: str) -> Renderer:
    package, texts, _ = SETS[name]
    return Renderer(package, lang, tz="Europe/Moscow", texts=texts, genders=GENDERS)


def render_set(name: str, lang: str) -> str:
    r = renderer(name, lang)
    parts: list[str] = []
    for case in SETS[name][2]:
        title = case.template if case.title == case.template else f"{case.template}: {case.title}"
        parts.append(f"### {title}\n{case.render(r)}\n")
    return "\n".join(parts)


def golden_path(name: str, lang: str) -> Path:
    return GOLDEN / f"{name}.{lang}.txt"


def update(names: Iterable[str] = SETS) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in names:
        for lang in ("ru", "en"):
            golden_path(name, lang).write_text(render_set(name, lang), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        raise SystemExit("usage: python -m tests.render.golden_posts --update")
    update()
