"""The resolution of a turn as the rulebook orders it (twelve-rooms.md §9).

`TURN_STEPS` is the seed's algorithm, steps 0–22, one named `Step` each; orders within a
step are simultaneous, movement (17) is the only sequential step. Steps 0–16 read start
rooms, 18–21 end rooms. `PLACEMENT_STEPS` resolve `turn 0` (§2.1, §3.5).
"""

from __future__ import annotations

import random

from engine.core.events import Event
from engine.core.model import GameState
from engine.core.ruleset import VOTED, VOTES_VOIDED, PhaseInputs, Step
from rulesets.twelve_rooms.checks import Reject, rule_seven
from rulesets.twelve_rooms.context import INACTIVITY, INJECTION, MAFKILL, Turn
from rulesets.twelve_rooms.endturn import finish, private_reports, room_events, s22_end
from rulesets.twelve_rooms.movement import s17_movement
from rulesets.twelve_rooms.roles import SKILLS
from rulesets.twelve_rooms.rooms import CAMERAS, ISOLATED, door
from rulesets.twelve_rooms.state import (
    alive,
    effective_status,
    in_cocoa,
    is_mafia,
    occupants,
    place,
    role_of,
    role_state,
    room_type,
)
from rulesets.twelve_rooms.voting import s04_i_said, s05_hush, s06_vote

NOT_TWICE = tuple(s for s, skill in SKILLS.items() if skill.not_twice)


def new_turn(state: GameState, inputs: PhaseInputs, rng: random.Random) -> Turn:
    t = Turn(state, inputs, rng)
    for p in state.players:
        if alive(p):
            t.start_alive.append(p.name)
            t.start_room[p.name] = int(p.fields["room"])
            vote = inputs.votes.get(p.name)
            if vote is not None and vote.target is not None:
                t.ballots[p.name] = {"target": vote.target, "substituted": False}
    return t


def _ult_spent(t: Turn, player: str, skill: str) -> None:
    used = role_state(t.p(player)).setdefault("used_ults", [])
    if skill not in used:
        used.append(skill)


# == Steps 0–16: start rooms =================================================================


def s00_preparation(t: Turn) -> None:
    """Подготовка: bonuses and inheritance choices, missed votes (warnings, inactivity),
    the isolated room, vests; the choices of this turn become last turn's for the next."""
    n = t.number
    for name in t.start_alive:
        p = t.p(name)
        p.fields.setdefault("positions", {}).setdefault(str(n - 1), t.start_room[name])
        held = role_state(p)
        held["last_targets"] = {
            s: o.targets[0] for s in NOT_TWICE if (o := t.order(name, s)) is not None and o.targets
        }
        chosen = t.order(name, "inherit")
        if chosen is not None:
            skill, source = str(chosen.args["skill"]), chosen.args["from"]
            held.setdefault("inherited", []).append(skill)
            held["offers"] = [o for o in held.get("offers", []) if o["from"] != source]
    winner = t.inputs.data.get("map_bonus")
    if winner and not t.state.data.get("map_bonus_to"):
        t.state.data["map_bonus_to"] = winner
        bonus = t.p(str(winner)).fields
        bonus["vests"] = int(bonus.get("vests", 0)) + 1
        bonus["half_votes"] = True
    limit = int(t.state.options["missed_votes_limit"])
    voided = t.inputs.data.get(VOTES_VOIDED, ())
    # Who sent a vote: a running game's activity counts (the same the host reads in
    # `forumgm activity`), else the phase's standing votes.
    counted = t.inputs.data.get(VOTED)
    voted = set(counted) if counted is not None else set(t.inputs.votes)
    for name in t.start_alive:
        # A vote for a player the host removed is discarded, not missed (as at step 0, §2.4).
        if name in voted or name in voided or not alive(t.p(name)):
            continue
        p = t.p(name)
        p.fields["warnings"] = int(p.fields.get("warnings", 0)) + 1
        t.emit(Event.public("warning", player=name, count=p.fields["warnings"], limit=limit))
        if p.fields["warnings"] >= limit:
            t.removed.add(name)
            t.eliminate(name, INACTIVITY)
    for name in t.start_alive:
        if alive(t.p(name)) and room_type(t.state, t.start_room[name]) == ISOLATED:
            t.blocked.add(name)
    for name, order in t.orders("use_vest"):
        user = t.p(name)
        if int(user.fields.get("vests", 0)) > 0 and t.living(order.targets[0]):
            user.fields["vests"] = int(user.fields["vests"]) - 1
            t.protected.add(order.targets[0])


def s01_rest(t: Turn) -> None:
    """«Отдыхай»: the target's АС fail from step 2 on (two on each other both work)."""
    hits = [(n, o) for n, o in t.orders("rest") if t.can_use(n, "rest") and t.living(*o.targets)]
    for name, order in hits:
        t.blocked.add(order.targets[0])
        t.applied(name, order.targets)


def s02_stay_put(t: Turn) -> None:
    """«Останься»: the target is held in his room at this turn's movement."""
    for name, order in t.orders("stay_put"):
        if t.can_use(name, "stay_put") and t.living(*order.targets):
            t.held.add(order.targets[0])
            t.applied(name, order.targets)


def s03_absolution(t: Turn) -> None:
    """«Всепрощение» (УС): lasting guilt of every player is cleared."""
    for name, _order in t.orders("absolution"):
        if t.can_use(name, "absolution"):
            _ult_spent(t, name, "absolution")
            for p in t.state.players:
                p.fields["guilt"] = False


def s07_acquaintance(t: Turn) -> None:
    """«Знакомство» (УС): this turn's heal, if one takes effect, protects the Смотритель."""
    for name, _order in t.orders("acquaintance"):
        if t.can_use(name, "acquaintance"):
            _ult_spent(t, name, "acquaintance")
            t.redirect_to = name


def s08_support(t: Turn) -> None:
    """«Поддержка»: the target (or the Смотритель) is protected from kills this turn."""
    for name, order in t.orders("support"):
        if t.can_use(name, "support") and t.living(*order.targets):
            protected = t.redirect_to if t.redirect_to and t.living(t.redirect_to) else None
            target = protected or order.targets[0]
            t.protected.add(target)
            t.applied(name, (target,))


def s09_swap(t: Turn) -> None:
    """«Обмен»: two players swap roles with everything the roles hold; faction stays."""
    for name, order in t.orders("swap"):
        a, b = order.targets
        if not t.can_use(name, "swap") or not t.living(a, b):
            continue
        pa, pb = t.p(a), t.p(b)
        pa.role, pb.role = pb.role, pa.role
        pa.fields["role_state"], pb.fields["role_state"] = (
            pb.fields["role_state"],
            pa.fields["role_state"],
        )
        pairs: list[list[str]] = t.state.data.setdefault("swaps", [])
        pair = t.state.in_seating_order((a, b))
        if pair in pairs:
            pairs.remove(pair)
        else:
            pairs.append(pair)
        t.tell(a, "role_changed", role=pa.role)
        t.tell(b, "role_changed", role=pb.role)
        t.applied(name, order.targets)


def s10_deceit(t: Turn) -> None:
    """«Обман»: the target's status is inverted this turn and the next."""
    for name, order in t.orders("deceit"):
        if t.can_use(name, "deceit") and t.living(*order.targets):
            t.p(order.targets[0]).fields.setdefault("deceit_until", []).append(t.number + 1)
            t.applied(name, order.targets)


def s11_therapy(t: Turn) -> None:
    """«Терапия»: a teammate's guilt does not show this turn (even guilt gained later)."""
    for name, order in t.orders("therapy"):
        if t.can_use(name, "therapy") and t.living(*order.targets):
            t.hidden.add(order.targets[0])
            t.applied(name, order.targets)


def s12_sow_doubt(t: Turn) -> None:
    """«Зародить сомнения»: the target appears guilty this turn."""
    for name, order in t.orders("sow_doubt"):
        if t.can_use(name, "sow_doubt") and t.living(*order.targets):
            t.doubted.add(order.targets[0])
            t.applied(name, order.targets)


def s13_mafkill(t: Turn) -> None:
    """Мафкилл: not blockable; on a player who shared the performer's room at the start."""
    for name, order in t.orders("mafkill"):
        target = order.targets[0]
        here = t.start_room[name]
        t.attempt(
            target, MAFKILL, by=name, where=t.start_room[target], kind=room_type(t.state, here)
        )


def s14_injection(t: Turn) -> None:
    """«Препарат» (УС): a lethal injection; the Спаситель gets guilt, loses Поддержка on town."""
    for name, order in t.orders("injection"):
        if t.can_use(name, "injection"):
            _ult_spent(t, name, "injection")
            target = order.targets[0]
            t.attempt(target, INJECTION, by=name, where=t.start_room[target])


def s15_guise(t: Turn) -> None:
    """«Личина»: the target's current role (after this turn's swaps)."""
    for name, order in t.orders("guise"):
        target = order.targets[0]
        if t.can_use(name, "guise") and t.living(target):
            t.tell(name, "role_check", target=target, role=t.p(target).role)
            t.applied(name, order.targets)
        else:
            t.no_result(name, "guise")


def s16_door_cameras(t: Turn) -> None:
    """«Устройство»: cameras over two doors for this turn's movement."""
    for name, order in t.orders("door_cameras"):
        if t.can_use(name, "door_cameras"):
            t.watches.append((name, [door(a, b) for a, b in order.args["doors"]]))
        else:
            t.no_result(name, "door_cameras")


def s17_then_doors(t: Turn) -> None:
    """Перемещение (§3.3–3.4), then the door cameras report who crossed each door."""
    s17_movement(t)
    for name, doors in t.watches:
        report = []
        for d in doors:
            seen = {
                who
                for crossed, who in t.crossings
                if crossed == d and "unnoticed" not in role_of(t.p(who)).skills
            }
            report.append({"door": list(d), "players": sorted(seen, key=str.casefold)})
        t.tell(name, "door_report", doors=report)


# == Steps 18–21: end rooms ==================================================================


def _after_movement(t: Turn, name: str, skill: str, targets: tuple[str, ...]) -> bool:
    """Usable after movement: alive, held, not blocked, living targets, rule 7 on end rooms."""
    if not t.can_use(name, skill) or not t.living(*targets):
        return False
    if is_mafia(t.p(name)):
        try:
            rule_seven(t.state, t.p(name), targets)
        except Reject:
            return False
    return True


def s18_papers(t: Turn) -> None:
    """«По бумагам»: whether two players' effective statuses are the same."""
    for name, order in t.orders("papers"):
        if not _after_movement(t, name, "papers", order.targets):
            t.no_result(name, "papers")
            continue
        a, b = (effective_status(t.state, t.p(x), t.number) for x in order.targets)
        result = "same" if a == b else "different"
        t.tell(name, "status_compare", targets=list(order.targets), result=result)
        t.applied(name, order.targets, after_movement=True)


def s19_who_is_here(t: Turn) -> None:
    """«Кто здесь?»: the roles (no names) in a room after movement; none for the cameras."""
    for name, order in t.orders("who_is_here"):
        number = int(order.args["room"])
        if not t.can_use(name, "who_is_here") or room_type(t.state, number) == CAMERAS:
            t.no_result(name, "who_is_here")
            continue
        inside = occupants(t.state, number)
        fields: dict[str, object] = {
            "room": number,
            "roles": sorted(str(t.p(n).role) for n in inside),
        }
        if t.state.options["who_is_here_names"]:
            fields["players"] = sorted(inside, key=str.casefold)
        t.tell(name, "room_roles", **fields)


def s20_interrogation(t: Turn) -> None:
    """«Допрос»: guilty unless in the cocoa room, guilt hidden (Терапия) or absent; doubt shows."""
    for name, order in t.orders("interrogation"):
        if not _after_movement(t, name, "interrogation", order.targets):
            t.no_result(name, "interrogation")
            continue
        target = order.targets[0]
        q = t.p(target)
        guilty = not in_cocoa(t.state, q) and (
            (bool(q.fields.get("guilt")) and target not in t.hidden) or target in t.doubted
        )
        t.tell(name, "guilt_check", target=target, result="guilty" if guilty else "not_detected")
        t.applied(name, order.targets, after_movement=True)


def s21_route(t: Turn) -> None:
    """«Путевой лист»: the target's rooms over the last three turns (start, then each end)."""
    for name, order in t.orders("route"):
        if not _after_movement(t, name, "route", order.targets):
            t.no_result(name, "route")
            continue
        target = order.targets[0]
        positions = t.p(target).fields.get("positions", {})
        first = max(1, t.number - 2)
        rooms = [
            int(positions[str(k)]) for k in range(first - 1, t.number + 1) if str(k) in positions
        ]
        t.tell(name, "route", target=target, rooms=rooms)
        t.applied(name, order.targets, after_movement=True)


TURN_STEPS: tuple[Step[Turn], ...] = tuple(
    Step(label, fn, fn.__doc__ or "")
    for label, fn in (
        ("0 Подготовка", s00_preparation),
        ("1 Отдыхай", s01_rest),
        ("2 Останься", s02_stay_put),
        ("3 Всепрощение", s03_absolution),
        ("4 Я сказал", s04_i_said),
        ("5 Молчать", s05_hush),
        ("6 Голосование", s06_vote),
        ("7 Знакомство", s07_acquaintance),
        ("8 Поддержка", s08_support),
        ("9 Обмен", s09_swap),
        ("10 Обман", s10_deceit),
        ("11 Терапия", s11_therapy),
        ("12 Зародить сомнения", s12_sow_doubt),
        ("13 Мафкилл", s13_mafkill),
        ("14 Препарат", s14_injection),
        ("15 Личина", s15_guise),
        ("16 Устройство", s16_door_cameras),
        ("17 Перемещение", s17_then_doors),
        ("18 По бумагам", s18_papers),
        ("19 Кто здесь?", s19_who_is_here),
        ("20 Допрос", s20_interrogation),
        ("21 Путевой лист", s21_route),
        ("22 Конец хода", s22_end),
    )
)


# == Turn 0: placement =======================================================================


def p0_regroup(t: Turn) -> None:
    """Перегруппировка: mafia members who asked move to their new starting rooms."""
    for name, order in t.orders("start_room"):
        place(t.state, t.p(name), int(order.args["room"]))
    for p in t.state.players:
        if alive(p):
            p.fields.setdefault("positions", {})["0"] = p.fields["room"]


def p1_report(t: Turn) -> None:
    """Отчёт о размещении: the cameras and the detector, positions, roommates, the next turn."""
    for event in room_events(t.state, t.number):
        t.emit(event)
    private_reports(t)
    finish(t)


PLACEMENT_STEPS: tuple[Step[Turn], ...] = (
    Step("0 Перегруппировка", p0_regroup, p0_regroup.__doc__ or ""),
    Step("Отчёт о размещении", p1_report, p1_report.__doc__ or ""),
)
