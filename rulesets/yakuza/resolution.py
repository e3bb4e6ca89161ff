"""The yakuza night and day, as the rulebook orders them (yakuza.md §9.4, §10.2, §10.3).

`NIGHT_STEPS` is the 27-step «порядок просчёта» followed by the end-of-night steps A–H;
`DAY_STEPS` is the day resolution order. Each step is a small function over the shared
context; orders within one step resolve in seating order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.core.events import Audience, Event
from engine.core.model import GameState
from engine.core.orders import Order
from engine.core.ruleset import PhaseInputs, Resolution, Step
from rulesets.yakuza import win
from rulesets.yakuza.hp import ceil, change, clamp, day_damage, healing, night_damage
from rulesets.yakuza.intake import PROXY, TAGGED, Reject, check_night
from rulesets.yakuza.roles import (
    ACTIONS,
    BOUNTY,
    COMA,
    CURSE_CAP,
    DEAD,
    DUAL,
    GRAVEDIGGER,
    HEAL,
    HOSPITAL,
    KATANA,
    KNIFE,
    KNIFE_HOSPITAL,
    MAFIA,
    MAX_HP,
    MEDIC,
    MEDIC_HOSPITAL,
    MONK,
    NAGANT,
    NO_LYNCH,
    PEACEFUL,
    PISTOL,
    REGEN,
    REGEN_CHIEF,
    REVENGE,
    REVOLUTION_DAMAGE,
    REVOLVER,
    SHAKEDOWN,
    SHOCK,
    SHURIKEN,
    SNIPER,
    TIE_DAMAGE,
    TRAP,
    YAKUZA,
)
from rulesets.yakuza.state import (
    alive,
    alive_names,
    has_trait,
    in_hospital,
    public_status_of,
    shown_hp,
    status_from_hp,
)


@dataclass
class Act:
    """One valid order during resolution."""

    player: str
    action: str
    targets: tuple[str, ...]
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def target(self) -> str:
        return self.targets[0] if self.targets else self.player


@dataclass
class Phase(Resolution):
    """What every step of a night or a day shares."""

    acts: list[Act] = field(default_factory=list)
    start_alive: list[str] = field(default_factory=list)
    start_hp: dict[str, int] = field(default_factory=dict)
    start_status: dict[str, str] = field(default_factory=dict)
    start_shown: dict[str, int] = field(default_factory=dict)
    dealers: dict[str, list[str]] = field(default_factory=dict)
    protected: set[str] = field(default_factory=set)
    killed: set[str] = field(default_factory=set)
    """Targets of a successful `kill`: no restoration this night."""
    died: list[str] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    """Abilities used this night (for observation, D33)."""
    pending: list[Event] = field(default_factory=list)
    """Private results held until the evaluation decides who may receive them (§12.3)."""
    auto_revenge: bool = False
    observations: list[Act] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.inputs.phase.id.number

    def of(self, *actions: str) -> list[Act]:
        return [a for a in self.acts if a.action in actions]

    def tell(self, to: str, type: str, **fields: Any) -> None:
        self.pending.append(Event.private(to, type, **fields))

    def p(self, name: str) -> Any:
        return self.state.player(name)


def _snapshot(ctx: Phase) -> None:
    for q in ctx.state.players:
        if alive(q):
            ctx.start_alive.append(q.name)
            ctx.start_hp[q.name] = 100 if q.fields.get("mortally_wounded") else int(q.fields["hp"])
            ctx.start_status[q.name] = str(q.fields.get("status"))
            ctx.start_shown[q.name] = shown_hp(q)


def new_phase(state: GameState, inputs: PhaseInputs, rng: random.Random) -> Phase:
    # Orders tagged for a later night (D7) wait in the state until that night.
    for number, players in (inputs.data.get(TAGGED) or {}).items():
        waiting = state.data.setdefault(TAGGED, {}).setdefault(number, {})
        for name, slots in players.items():
            waiting.setdefault(name, {}).update(slots)
    ctx = Phase(state, inputs, rng)
    _snapshot(ctx)
    if inputs.phase.id.kind == "night":
        ctx.acts = _night_acts(state, inputs)
    else:
        ctx.acts = [
            Act(o.player, o.action or "", tuple(o.targets), dict(o.args))
            for name in state.names
            for o in inputs.orders.get(name, {}).values()
        ]
    return ctx


def _night_acts(state: GameState, inputs: PhaseInputs) -> list[Act]:
    """This night's valid orders, plus orders sent for it during the day (D7)."""
    advance: dict[str, list[dict[str, Any]]] = state.data.pop("advance", {}) or {}
    tagged = (state.data.get(TAGGED) or {}).pop(str(inputs.phase.id.number), {})
    if not state.data.get(TAGGED):
        state.data.pop(TAGGED, None)
    proxies: dict[str, dict[str, Order]] = inputs.data.get(PROXY) or {}
    acts: list[Act] = []
    for name in state.names:
        orders: list[Order] = list(inputs.orders.get(name, {}).values())
        # Latest applicable first (D7): tonight's own orders, orders sent by day for
        # tonight, orders tagged for tonight earlier, then a faction-mate's (D6).
        if not orders and name not in advance and name in tagged:
            advance[name] = list(tagged[name].values())
        if not orders and name not in advance and name in proxies:
            orders = list(proxies[name].values())
        if not orders and name in advance and alive(state.player(name)):
            slots: dict[str, Order] = {}
            for raw in advance[name]:
                order = Order(
                    name,
                    kind=_order_kind(),
                    action=raw["action"],
                    targets=tuple(raw["targets"]),
                    args=raw["args"],
                )
                try:
                    checked = check_night(state, state.player(name), order)
                except (Reject, KeyError):
                    continue
                from rulesets.yakuza.state import is_extra

                slot = raw["action"] if is_extra(state.player(name), raw["action"]) else "main"
                slots[slot] = checked
            orders = list(slots.values())
        acts.extend(Act(o.player, o.action or "", tuple(o.targets), dict(o.args)) for o in orders)
    return acts


def _order_kind() -> Any:
    from engine.core.orders import OrderKind

    return OrderKind.ORDER


# == Night: the 27 steps (§10.2) ==========================================================


def s01_disguise(n: Phase) -> None:
    """Маскировка: the target looks like `role` to wiretap and dossier from now on."""
    for act in n.of("disguise"):
        n.p(act.target).fields["disguise"] = act.args["role"]
        shinobi = n.p(act.player)
        shinobi.fields["disguises_left"] = int(shinobi.fields.get("disguises_left", 2)) - 1
        n.used.add("disguise")


def s02_revenge(n: Phase) -> None:
    """Месть (manual): 45 × marks to each living marked player; all marks cleared."""
    for act in n.of("revenge"):
        n.used.add("revenge")
        activated = _activate_marks(n, act.player)
        n.tell(act.player, "revenge_result", activated=activated)


def _activate_marks(n: Phase, sensei: str) -> bool:
    activated = False
    for q in n.state.players:
        marks = int(q.fields.get("marks", 0))
        if marks and q.name in n.start_alive:
            night_damage(n, q.name, REVENGE * marks, sensei, "revenge", attack=False)
            activated = True
        q.fields["marks"] = 0
    return activated


def s03_meditation(n: Phase) -> None:
    """Медитация (manual or automatic): non-yakuza users of night abilities on the sensei get marks."""
    for sensei in [q for q in n.state.players if q.role == "sensei" and q.name in n.start_alive]:
        manual = any(a.player == sensei.name for a in n.of("meditation"))
        automatic = (
            bool(sensei.fields.get("auto_meditation"))
            and n.start_status.get(sensei.name) != COMA
            and not any(a.player == sensei.name for a in n.of("meditation_off"))
        )
        if not (manual or automatic):
            continue
        n.used.add("meditation")
        per_shot = bool(n.state.options["marks_per_shot"])
        for act in n.acts:
            actor = n.p(act.player)
            if actor.faction == YAKUZA or act.action == "kill":
                continue
            if not ACTIONS[act.action].targeted or sensei.name not in act.targets:
                continue
            gained = act.targets.count(sensei.name) if per_shot else 1
            actor.fields["marks"] = int(actor.fields.get("marks", 0)) + gained
            n.emit(Event.host("mark", player=act.player))


def s04_protection(n: Phase) -> None:
    """Защита: guard (the sensei himself) and citizen protection — 25% of each attack."""
    for act in n.of("guard"):
        n.protected.add(act.player)
        n.used.add("guard")
    for act in n.of("protection"):
        n.protected.add(act.target)
        _spend(n, act.player, "protection")


def _spend(n: Phase, player: str, ability: str) -> None:
    spent = n.p(player).fields.setdefault("spent", [])
    if ability not in spent:
        spent.append(ability)


def _attacks(n: Phase, action: str, base: int, *, mafia: bool = False) -> None:
    for act in n.of(action):
        n.used.add(action)
        for target in act.targets:
            night_damage(n, target, base, act.player, action, attack=True, mafia=mafia)


def s05_assault(n: Phase) -> None:
    """Нападение: an attack of half the target's real HP at the start of the night."""
    for act in n.of("assault"):
        n.used.add("assault")
        base = Fraction(n.start_hp[act.target], 2)
        night_damage(n, act.target, base, act.player, "assault", attack=True, mafia=True)


def s06_katana(n: Phase) -> None:
    """Катана: attack 65 (the ninja, or the sensei after the ninja's death)."""
    _attacks(n, "katana", KATANA)


def s07_pistol(n: Phase) -> None:
    """Пистолет: 20 per shot, each an attack; extra shots spend stored shots."""
    for act in n.of("pistol"):
        n.used.add("pistol")
        shooter = n.p(act.player)
        shooter.fields["fired_pistol"] = True
        extra = len(act.targets) - 1
        shooter.fields["stored_shots"] = max(0, int(shooter.fields.get("stored_shots", 0)) - extra)
        for target in act.targets:
            night_damage(n, target, PISTOL, act.player, "pistol", attack=True, mafia=True)


def s08_sniper_rifle(n: Phase) -> None:
    """Снайперская винтовка: attack 75."""
    _attacks(n, "sniper_rifle", SNIPER, mafia=True)


def s09_dual_pistols(n: Phase) -> None:
    """Парные пистолеты: attacks of 35 on two different targets."""
    _attacks(n, "dual_pistols", DUAL, mafia=True)


def s10_shuriken(n: Phase) -> None:
    """Сюрикены: 10 per shuriken, each an attack."""
    _attacks(n, "shuriken", SHURIKEN)


def s11_knife(n: Phase) -> None:
    """Нож: the maniac's 95 (45 from hospital, ×2 on the hunted); the psycho's `amount` and self-damage."""
    others_dead = not any(
        q.faction in (MAFIA, YAKUZA) for q in n.state.players if q.name in n.start_alive
    )
    for act in n.of("knife"):
        actor = n.p(act.player)
        target = n.p(act.target)
        if actor.role == "maniac":
            base = KNIFE_HOSPITAL if n.start_status.get(act.player) == HOSPITAL else KNIFE
            night_damage(n, act.target, base, act.player, "knife", attack=True, hunted_knife=True)
            if target.role == "psycho":
                n.tell(act.player, "partner_found", target=act.target, role="psycho")
        else:
            amount = int(act.args["amount"])
            night_damage(n, act.target, amount, act.player, "knife", attack=True)
            if not others_dead:
                night_damage(
                    n,
                    act.player,
                    Fraction(amount, 2),
                    act.player,
                    "knife_self",
                    attack=False,
                    only_contract=True,
                )
            if target.role == "maniac":
                n.tell(act.player, "partner_found", target=act.target, role="maniac")


def s12_revolver(n: Phase) -> None:
    """Револьвер: attack 40 / 30 / 20 by the punisher's shots so far."""
    for act in n.of("revolver"):
        shooter = n.p(act.player)
        shots = int(shooter.fields.get("revolver_shots", 0))
        base = REVOLVER[min(shots, len(REVOLVER) - 1)]
        shooter.fields["revolver_shots"] = shots + 1
        night_damage(n, act.target, base, act.player, "revolver", attack=True)


def s13_trap(n: Phase) -> None:
    """Ловушка: last night's traps fire on players who ordered an active action (95); new traps noted."""
    active = {a.player for a in n.acts if a.action != "meditation_off"}
    for q in n.state.players:
        if q.fields.get("trapped") and q.name in n.start_alive and q.name in active:
            setter = str(q.fields.get("trapped_by") or q.name)
            amount = night_damage(n, q.name, TRAP, setter, "trap", attack=False)
            n.emit(Event.host("trap_triggered", player=q.name, amount=amount))
    if n.of("trap"):
        n.used.add("trap")


def s14_message(n: Phase) -> None:
    """Послание: the recipient will hold a nagant next night (settled in step F)."""
    if n.of("message"):
        n.used.add("message")


def s15_nagant(n: Phase) -> None:
    """Наган: attack 30, a mafia ability, by last night's message recipient."""
    _attacks(n, "nagant", NAGANT, mafia=True)


def _targets_of(n: Phase, actor: str) -> list[str]:
    out: list[str] = []
    for act in n.acts:
        if act.player == actor and ACTIONS[act.action].targeted:
            out.extend(act.targets)
    return n.state.in_seating_order(out)


def _sources_on(n: Phase, target: str, exclude: str) -> list[str]:
    names = [
        a.player
        for a in n.acts
        if ACTIONS[a.action].targeted and target in a.targets and a.player != exclude
    ]
    return n.state.in_seating_order(names)


def s16_surveillance(n: Phase) -> None:
    """Слежка: everybody the target used targeted abilities on; himself if none (D38)."""
    for act in n.of("surveillance"):
        found = _targets_of(n, act.target)
        n.tell(act.player, "surveillance_result", target=act.target, targets=found or [act.target])


def s17_shadow(n: Phase) -> None:
    """Тень: the target's targets and the target's visitors, this shadow excluded (D37)."""
    for act in n.of("shadow"):
        n.used.add("shadow")
        n.tell(
            act.player,
            "shadow_result",
            target=act.target,
            targets=_targets_of(n, act.target),
            sources=_sources_on(n, act.target, act.player),
        )


def _seen_role(n: Phase, name: str) -> str:
    q = n.p(name)
    return str(q.fields.get("disguise") or q.role)


def s18_wiretap(n: Phase) -> None:
    """Прослушка: the target's secret role (the disguise if disguised)."""
    for act in n.of("wiretap"):
        n.used.add("wiretap")
        n.tell(act.player, "role_result", target=act.target, role=_seen_role(n, act.target))


def s19_dossier(n: Phase) -> None:
    """Досье: peaceful for citizen, maniac or psycho (disguise applies), else not_peaceful."""
    for act in n.of("dossier"):
        result = "peaceful" if _seen_role(n, act.target) in PEACEFUL else "not_peaceful"
        n.tell(act.player, "check_result", target=act.target, result=result)


def s20_contract(n: Phase) -> None:
    """Заказ: the target is contracted for the next night (set in step F)."""
    if n.of("contract"):
        n.used.add("contract")


def s21_hunt(n: Phase) -> None:
    """Охота: the target is hunted for the next night (set in step F)."""


def s22_disinformation(n: Phase) -> None:
    """Дезинформация: a fake HP prepared, applied in step F if the target lives."""
    for act in n.of("disinformation"):
        n.used.add("disinformation")
        done = n.p(act.player).fields.setdefault("disinformed", [])
        if act.target not in done:
            done.append(act.target)


def s23_kill(n: Phase) -> None:
    """Убийство: a right guess of the real role sets HP to 0 and blocks all restoration."""
    for act in n.of("kill"):
        target = n.p(act.target)
        success = target.role == act.args["role"]
        if success and not target.fields.get("mortally_wounded"):
            target.fields["hp"] = 0
            n.killed.add(act.target)
        n.emit(Event.host("kill", player=act.target, success=success))


def s24_observation(n: Phase) -> None:
    """Наблюдение: whether anyone used the ability this night (answered once step A is known)."""
    for act in n.of("observation"):
        _spend(n, act.player, "observation")
        n.observations.append(act)


def s25_rest(n: Phase) -> None:
    """Отдых: a spent once-per-game ability becomes available again from the next night."""
    for act in n.of("rest"):
        spent = n.p(act.player).fields.setdefault("spent", [])
        if act.args["ability"] in spent:
            spent.remove(act.args["ability"])


def _restore(n: Phase, name: str, amount: int, source: str, action: str) -> None:
    if name in n.killed:
        return
    q = n.p(name)
    change(q, amount)
    n.emit(Event.host("heal", player=name, amount=amount, source=source, action=action))


def s26_heal(n: Phase) -> None:
    """Лечение: +40 per heal; +15 per contract damage dealer; student ×1.5; not for kill targets."""
    for act in n.of("heal"):
        _spend(n, act.player, "heal")
        _restore(n, act.target, healing(n.p(act.target), HEAL), act.player, "heal")
    for q in n.state.players:
        if q.fields.get("contracted") and q.name in n.start_alive:
            for dealer in n.dealers.get(q.name, []):
                if dealer in n.start_alive:
                    _restore(n, dealer, healing(n.p(dealer), BOUNTY), q.name, "bounty")


def s27_regeneration(n: Phase) -> None:
    """Пассивное восстановление: +15 (chief doctor +20) in hospital/coma; monk +10."""
    for name in n.start_alive:
        q = n.p(name)
        if n.start_status.get(name) in (HOSPITAL, COMA) and name not in n.killed:
            amount = REGEN_CHIEF if has_trait(q, "chief_doctor") else REGEN
            change(q, amount)
            n.emit(Event.host("regen", player=name, amount=amount))
        if has_trait(q, "monk"):
            _restore(n, name, healing(q, MONK), name, "monk")


# == Night: after step 27 (§10.3) ==========================================================


def _becomes_mortal(q: Any) -> bool:
    return has_trait(q, "avenger") and not q.fields.get("mortally_wounded")


def a_auto_revenge(n: Phase) -> None:
    """A. Automatic revenge: the sensei died tonight or yesterday — marks fire (this night's too)."""
    pending = bool(n.state.data.pop("auto_revenge", False))
    tonight = [
        q.name
        for q in n.state.players
        if q.role == "sensei"
        and q.name in n.start_alive
        and (
            (int(q.fields["hp"]) <= 0 and not _becomes_mortal(q))
            or (
                q.fields.get("mortally_wounded")
                and q.fields.get("mw_until") == str(n.inputs.phase.id)
            )
        )
    ]
    if pending or tonight:
        n.used.add("revenge")
        sensei = (
            tonight[0]
            if tonight
            else next((q.name for q in n.state.players if q.role == "sensei"), "")
        )
        _activate_marks(n, sensei)
        n.auto_revenge = True
    for act in n.observations:
        ability = act.args["ability"]
        n.tell(act.player, "observation_result", ability=ability, used=ability in n.used)


def _die(ctx: Phase, name: str, cause: str, until: str) -> None:
    """HP ≤ 0: death — or, for an avenger, a last phase as a mortally wounded player (§8 #11)."""
    q = ctx.p(name)
    if _becomes_mortal(q) and cause != "mortal_wound":
        q.fields["mortally_wounded"] = True
        q.fields["mw_until"] = until
        q.fields["hp"] = 100
        ctx.tell(name, "mortally_wounded", until=until)
        return
    q.fields["alive"] = False
    q.fields["status"] = DEAD
    q.fields["mortally_wounded"] = False
    ctx.died.append(name)
    ctx.emit(Event.public("death", player=name, cause=cause))
    if q.role == "sensei" and ctx.inputs.phase.id.kind == "day":
        ctx.state.data["auto_revenge"] = True


def b_deaths(n: Phase) -> None:
    """B. Deaths: HP ≤ 0 dies (avenger: mortally wounded until the end of the next day)."""
    here = str(n.inputs.phase.id)
    for name in list(n.start_alive):
        q = n.p(name)
        if q.fields.get("mortally_wounded"):
            if q.fields.get("mw_until") == here:
                _die(n, name, "mortal_wound", "")
        elif int(q.fields["hp"]) <= 0:
            _die(n, name, "night", f"day {n.number}")


def c_clamp(n: Phase) -> None:
    """C. Clamp: HP above max_hp becomes max_hp."""
    clamp(n.state, alive_names(n.state))


def d_gravedigger(n: Phase) -> None:
    """D. Gravedigger: +20 for each death announced this morning, then clamp again."""
    if not n.died:
        return
    for q in n.state.players:
        if alive(q) and has_trait(q, "gravedigger"):
            _restore(n, q.name, healing(q, GRAVEDIGGER * len(n.died)), q.name, "gravedigger")
    clamp(n.state, alive_names(n.state))


def e_pistol_accumulation(n: Phase) -> None:
    """E. The boss stores a shot if alive, silent with the pistol, and not in hospital at dusk."""
    for q in n.state.players:
        fired = q.fields.pop("fired_pistol", False)
        if (
            q.role == "boss"
            and alive(q)
            and not fired
            and not in_hospital(n.start_status.get(q.name), {"coma_is_hospital": True})
        ):
            q.fields["stored_shots"] = int(q.fields.get("stored_shots", 0)) + 1


def f_flags(n: Phase) -> None:
    """F. Flags for the next night, nagant penalties, fake HP, and inheritance."""
    state = n.state
    here = n.number
    # Nagant penalties and reports for last night's messages (D22, D24).
    strict = bool(state.options["message_strict"])
    boss = next((q for q in state.players if q.role == "boss"), None)
    for q in state.players:
        victim = q.fields.get("nagant_victim")
        if not victim or q.name not in n.start_alive:
            continue
        shot = next((a.target for a in n.of("nagant") if a.player == q.name), None)
        if boss is not None and alive(boss):
            n.tell(boss.name, "nagant_report", player=q.name, target=shot)
        exempt = not strict and (
            n.start_status.get(q.name) in (HOSPITAL, COMA) or victim not in n.start_alive
        )
        if shot != victim and not exempt:
            q.fields["mafia_double"] = True
    for q in state.players:
        for key in ("trapped", "contracted", "hunted"):
            q.fields[key] = False
        q.fields["nagant_victim"] = None
        q.fields.pop("trapped_by", None)
        if q.fields.get("fake_hp") is not None and int(q.fields.get("fake_night", here)) < here:
            q.fields["fake_hp"] = None
            q.fields.pop("fake_night", None)
    for act in n.of("trap"):
        n.p(act.target).fields["trapped"] = True
        n.p(act.target).fields["trapped_by"] = act.player
    for act in n.of("contract"):
        n.p(act.target).fields["contracted"] = True
    for act in n.of("hunt"):
        n.p(act.target).fields["hunted"] = True
    for act in n.of("message"):
        recipient = n.p(act.target)
        if alive(recipient):
            victim = str(act.args["victim"])
            recipient.fields["nagant_victim"] = victim
            n.tell(
                act.target,
                "nagant_received",
                victim=victim,
                victim_visible_role=n.p(victim).fields.get("visible_role"),
            )
    for act in n.of("disinformation"):
        target = n.p(act.target)
        if alive(target):
            target.fields["fake_hp"] = int(act.args["amount"])
            target.fields["fake_night"] = here
    inherit(n)


def inherit(ctx: Phase) -> None:
    """The boss's pistol passes to the brute, the ninja's katana to the sensei (§7.1, §7.5)."""
    state = ctx.state
    for dead in [ctx.p(name) for name in ctx.died]:
        if dead.role == "boss":
            for brute in [q for q in state.players if q.role == "brute" and alive(q)]:
                brute.fields["has_pistol"] = True
                brute.fields["stored_shots"] = int(brute.fields.get("stored_shots", 0)) + int(
                    dead.fields.get("stored_shots", 0)
                )
            dead.fields["stored_shots"] = 0
        if dead.role == "ninja":
            for sensei in [q for q in state.players if q.role == "sensei" and alive(q)]:
                sensei.fields["has_katana"] = True
                sensei.fields["auto_meditation"] = True


def g_evaluation(ctx: Phase) -> None:
    """G. Statuses from the shown HP, public status changes, HP reports and held messages."""
    state = ctx.state
    night = ctx.inputs.phase.id.kind == "night"
    left_coma: list[str] = []
    for q in state.players:
        if not alive(q):
            continue
        before = str(q.fields.get("status"))
        status = status_from_hp(q, shown_hp(q), before)
        public = public_status_of(q, status)
        q.fields["status"] = status
        if public != q.fields.get("public_status"):
            q.fields["public_status"] = public
            ctx.emit(Event.public("status_change", player=q.name, status=public))
        if before == COMA and status != COMA:
            left_coma.append(q.name)
    reports: list[Event] = []
    if night:
        always = state.options["report_hp"] == "always"
        for name in ctx.start_alive:
            q = ctx.p(name)
            if alive(q) and (always or shown_hp(q) != ctx.start_shown.get(name)):
                reports.append(Event.private(name, "hp_report", hp=shown_hp(q)))
    for event in reports + ctx.pending:
        (to,) = event.to
        q = ctx.p(to)
        if not alive(q):
            continue
        if q.fields.get("status") == COMA and event.type != "hp_report":
            q.fields.setdefault("queued", []).append({"type": event.type, **event.fields})
            continue
        ctx.emit(event)
    for name in left_coma:
        for raw in ctx.p(name).fields.pop("queued", []):
            fields = dict(raw)
            ctx.emit(Event.private(name, str(fields.pop("type")), **fields))
    for q in state.players:
        if not alive(q):
            q.fields.pop("queued", None)
    if night:
        for kind, key in (("contract_announced", "contracted"), ("hunt_announced", "hunted")):
            for q in state.players:
                if alive(q) and q.fields.get(key):
                    ctx.emit(Event.public(kind, player=q.name))


def h_victory(ctx: Phase) -> None:
    """H. Victory: one faction left alive wins; nobody left is a draw (§3)."""
    winner = win.winner(ctx.state)
    if winner is None:
        return
    ctx.state.winner = winner
    ctx.state.finished = True
    ctx.emit(
        Event.public(
            "game_over",
            winner=winner,
            survivors=alive_names(ctx.state),
            roles={q.name: q.role for q in ctx.state.players},
        )
    )


NIGHT_STEPS: tuple[Step[Phase], ...] = (
    Step("1 Маскировка", s01_disguise, s01_disguise.__doc__ or ""),
    Step("2 Месть", s02_revenge, s02_revenge.__doc__ or ""),
    Step("3 Медитация", s03_meditation, s03_meditation.__doc__ or ""),
    Step("4 Защита", s04_protection, s04_protection.__doc__ or ""),
    Step("5 Нападение", s05_assault, s05_assault.__doc__ or ""),
    Step("6 Катана", s06_katana, s06_katana.__doc__ or ""),
    Step("7 Пистолет", s07_pistol, s07_pistol.__doc__ or ""),
    Step("8 Снайперская винтовка", s08_sniper_rifle, s08_sniper_rifle.__doc__ or ""),
    Step("9 Парные пистолеты", s09_dual_pistols, s09_dual_pistols.__doc__ or ""),
    Step("10 Сюрикены", s10_shuriken, s10_shuriken.__doc__ or ""),
    Step("11 Нож", s11_knife, s11_knife.__doc__ or ""),
    Step("12 Револьвер", s12_revolver, s12_revolver.__doc__ or ""),
    Step("13 Ловушка", s13_trap, s13_trap.__doc__ or ""),
    Step("14 Послание", s14_message, s14_message.__doc__ or ""),
    Step("15 Наган", s15_nagant, s15_nagant.__doc__ or ""),
    Step("16 Слежка", s16_surveillance, s16_surveillance.__doc__ or ""),
    Step("17 Тень", s17_shadow, s17_shadow.__doc__ or ""),
    Step("18 Прослушка", s18_wiretap, s18_wiretap.__doc__ or ""),
    Step("19 Досье", s19_dossier, s19_dossier.__doc__ or ""),
    Step("20 Заказ", s20_contract, s20_contract.__doc__ or ""),
    Step("21 Охота", s21_hunt, s21_hunt.__doc__ or ""),
    Step("22 Дезинформация", s22_disinformation, s22_disinformation.__doc__ or ""),
    Step("23 Убийство", s23_kill, s23_kill.__doc__ or ""),
    Step("24 Наблюдение", s24_observation, s24_observation.__doc__ or ""),
    Step("25 Отдых", s25_rest, s25_rest.__doc__ or ""),
    Step("26 Лечение", s26_heal, s26_heal.__doc__ or ""),
    Step("27 Пассивное восстановление", s27_regeneration, s27_regeneration.__doc__ or ""),
    Step("A Автоматическая месть", a_auto_revenge, a_auto_revenge.__doc__ or ""),
    Step("B Смерти", b_deaths, b_deaths.__doc__ or ""),
    Step("C Ограничение хп", c_clamp, c_clamp.__doc__ or ""),
    Step("D Гробовщик", d_gravedigger, d_gravedigger.__doc__ or ""),
    Step("E Накопление пистолета", e_pistol_accumulation, e_pistol_accumulation.__doc__ or ""),
    Step("F Флаги следующей ночи", f_flags, f_flags.__doc__ or ""),
    Step("G Утренняя оценка", g_evaluation, g_evaluation.__doc__ or ""),
    Step("H Проверка победы", h_victory, h_victory.__doc__ or ""),
)


# == Day (§9) ==============================================================================


def vote_weight(voter: Any, target: str | None, state: GameState) -> Fraction:
    """What `voter`'s vote for `target` counts (§9): 1 against the VIP, else the role's."""
    if target is not None and target != NO_LYNCH and has_trait(state.player(target), "vip"):
        return Fraction(1)
    if has_trait(voter, "authority"):
        return Fraction(5, 2)
    if has_trait(voter, "lawyer"):
        return Fraction(3, 2)
    return Fraction(1)


def as_number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def d2_tally(d: Phase) -> None:
    """Tally: weights (authority 2.5, lawyer 1.5, 1 against the VIP), revolutionary extras, lawyer −1.5."""
    state = d.state
    votes: dict[str, str] = {}
    for name in state.names:
        order = d.inputs.votes.get(name)
        q = state.player(name)
        if order is None or not alive(q) or d.start_status.get(name) == COMA:
            continue
        target = order.target
        if target is None or (target != NO_LYNCH and not alive(state.player(target))):
            continue
        votes[name] = target
    totals: dict[str, Fraction] = {}
    for voter, target in votes.items():
        totals[target] = totals.get(target, Fraction(0)) + vote_weight(
            state.player(voter), target, state
        )
    extras: dict[str, int] = {}
    for act in d.of("extra_votes"):
        target = votes.get(act.player)
        if target is None or target == NO_LYNCH or has_trait(state.player(target), "vip"):
            continue
        extras[act.player] = int(act.args["amount"])
        totals[target] += int(act.args["amount"])
    for candidate in list(totals):
        lawyer = state.player(candidate) if candidate != NO_LYNCH else None
        if (
            lawyer is not None
            and has_trait(lawyer, "lawyer")
            and d.start_status.get(candidate) != COMA
        ):
            totals[candidate] = max(Fraction(0), totals[candidate] - Fraction(3, 2))
    d.inputs.data["tally"] = totals
    d.inputs.data["extras"] = extras
    ordered = sorted(totals, key=lambda c: (-totals[c], _seat(state, c)))
    d.emit(
        Event.public(
            "vote_tally",
            totals={c: as_number(totals[c]) for c in ordered},
            votes=votes,
        )
    )


def _seat(state: GameState, candidate: str) -> int:
    return len(state.names) if candidate == NO_LYNCH else state.seat(candidate)


def d3_execution(d: Phase) -> None:
    """Execution: the single top candidate is lynched (HP 0); a tie deals 50 to each tied player."""
    state = d.state
    totals: dict[str, Fraction] = d.inputs.data["tally"]
    top = max(totals.values(), default=Fraction(0))
    lynched: list[str] = []
    if top <= 0:
        d.emit(Event.public("no_lynch", reason="no_votes"))
    else:
        leaders = [c for c in totals if totals[c] == top]
        whole = sum(totals.values(), Fraction(0))
        if len(leaders) == 1:
            leader = leaders[0]
            if state.options["majority"] == "absolute" and top * 2 <= whole:
                d.emit(Event.public("no_lynch", reason="no_majority"))
            elif leader == NO_LYNCH:
                d.emit(Event.public("no_lynch", reason="peace"))
            else:
                d.emit(Event.public("lynch", player=leader))
                q = state.player(leader)
                lynched.append(leader)
                if not q.fields.get("mortally_wounded"):
                    q.fields["hp"] = 0
                    _die(d, leader, "lynch", f"night {d.number + 1}")
        else:
            tied = state.in_seating_order(c for c in leaders if c != NO_LYNCH)
            d.emit(Event.public("tie", players=tied, damage=TIE_DAMAGE))
            for name in tied:
                change(state.player(name), -TIE_DAMAGE, day=True)
                if int(state.player(name).fields["hp"]) <= 0:
                    _die(d, name, "day", f"night {d.number + 1}")
                    lynched.append(name)
    d.inputs.data["executed"] = lynched


def d4_day_abilities(d: Phase) -> None:
    """Day abilities after the execution, at once: shock, shakedown, curse, medic, revolutionary; then copies."""
    state = d.state
    executed = set(d.inputs.data.get("executed", []))
    delta: dict[str, int] = {}
    summary: list[Event] = []

    def usable(act: Act) -> bool:
        actor = state.player(act.player)
        return alive(actor) and act.player not in executed and act.player in d.start_alive

    def live_target(name: str) -> bool:
        return alive(state.player(name)) and name not in executed

    for act in d.acts:
        if not usable(act):
            continue
        actor = state.player(act.player)
        target = act.targets[0] if act.targets else None
        if act.action == "extra_votes":
            amount = d.inputs.data.get("extras", {}).get(act.player)
            if amount:
                hit = day_damage(
                    d, act.player, REVOLUTION_DAMAGE * amount, d.start_status.get(act.player)
                )
                delta[act.player] = delta.get(act.player, 0) - hit
                summary.append(
                    Event.public(
                        "day_action",
                        player=act.player,
                        action=act.action,
                        target=d.inputs.votes[act.player].target,
                        amount=amount,
                    )
                )
            continue
        if target is None:
            continue
        if act.action == "loot":
            dead = state.player(target)
            if alive(dead) and target not in executed:
                continue
            copied = dead.fields.get("visible_role")
            actor.fields["copied_role"] = copied
            actor.fields["looted"] = True
            if copied in MAX_HP:
                actor.fields["max_hp"] = max(int(actor.fields["max_hp"]), MAX_HP[str(copied)])
            d.emit(Event.host("copy", player=act.player, role=copied))
            summary.append(
                Event.public("day_action", player=act.player, action="loot", target=target)
            )
            continue
        if not live_target(target):
            continue
        t = state.player(target)
        vip = has_trait(t, "vip")
        if act.action == "shock" and not vip:
            delta[target] = delta.get(target, 0) - day_damage(
                d, target, SHOCK, d.start_status.get(target)
            )
        elif act.action == "shakedown" and not vip:
            delta[target] = delta.get(target, 0) - day_damage(
                d, target, SHAKEDOWN, d.start_status.get(target)
            )
            delta[act.player] = delta.get(act.player, 0) + healing(actor, SHAKEDOWN)
        elif act.action == "curse" and not vip:
            own = d.start_hp.get(act.player, int(actor.fields["hp"]))
            base = min(CURSE_CAP, ceil(Fraction(int(actor.fields["max_hp"]) - own, 3)))
            if base > 0:
                delta[target] = delta.get(target, 0) - day_damage(
                    d, target, base, d.start_status.get(target)
                )
        elif act.action == "medic_heal":
            base = (
                MEDIC_HOSPITAL if in_hospital(d.start_status.get(target), state.options) else MEDIC
            )
            delta[target] = delta.get(target, 0) + healing(t, base)
        elif act.action == "plagiarize":
            d.inputs.data.setdefault("copies", []).append((act.player, target))
        summary.append(
            Event.public("day_action", player=act.player, action=act.action, target=target)
        )
    for name in state.in_seating_order(delta):
        change(state.player(name), delta[name], day=True)
    for event in summary:
        d.emit(event)
    # Copies: yesterday's plagiarism ends today unless replaced (§8 #13, D44).
    for q in state.players:
        copy_day = q.fields.get("copy_day")
        if (
            q.fields.get("visible_role") == "plagiarist"
            and copy_day is not None
            and int(copy_day) < d.number
        ):
            q.fields["copied_role"] = None
            q.fields["copy_day"] = None
    for player, target in d.inputs.data.get("copies", []):
        q = state.player(player)
        q.fields["copied_role"] = state.player(target).fields.get("visible_role")
        q.fields["copy_day"] = d.number
        q.fields.setdefault("plagiarized", []).append(target)
        d.emit(Event.host("copy", player=player, role=q.fields["copied_role"]))


def d5_deaths(d: Phase) -> None:
    """Deaths: HP ≤ 0 dies (avenger: mortally wounded for the next night); last phases end."""
    here = str(d.inputs.phase.id)
    for name in list(d.start_alive):
        q = d.p(name)
        if not alive(q) or name in d.died:
            continue
        if q.fields.get("mortally_wounded"):
            if q.fields.get("mw_until") == here:
                _die(d, name, "mortal_wound", "")
        elif int(q.fields["hp"]) <= 0:
            _die(d, name, "day", f"night {d.number + 1}")
    inherit(d)
    advance = d.inputs.data.get("advance")
    if advance:
        d.state.data["advance"] = {
            name: [
                {"action": o.action, "targets": list(o.targets), "args": dict(o.args)}
                for o in orders
            ]
            for name, orders in advance.items()
        }


def d6_evening(d: Phase) -> None:
    """Clamp, evening evaluation (statuses, held messages), victory check."""
    clamp(d.state, alive_names(d.state))
    g_evaluation(d)
    h_victory(d)


DAY_STEPS: tuple[Step[Phase], ...] = (
    Step("1-2 Подсчёт голосов", d2_tally, d2_tally.__doc__ or ""),
    Step("3 Казнь", d3_execution, d3_execution.__doc__ or ""),
    Step("4 Дневные способности", d4_day_abilities, d4_day_abilities.__doc__ or ""),
    Step("5 Смерти", d5_deaths, d5_deaths.__doc__ or ""),
    Step("6 Вечерняя оценка", d6_evening, d6_evening.__doc__ or ""),
)


def private_only(events: list[Event]) -> list[Event]:
    return [e for e in events if e.audience is Audience.PRIVATE]
