"""The resolution of a classic turn: steps R1–R8 of classic.md §7, in the rulebook's order.

An action can cancel only actions of later steps; actions within one step happen at once.
An order is stopped at most once, by the first step that stops it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.model import GameState
from engine.core.ruleset import PhaseInputs, Resolution, Step
from rulesets.classic import win
from rulesets.classic.intake import totals_of
from rulesets.classic.roles import ACTIONS, CLANS
from rulesets.classic.roles import Step as SeedStep
from rulesets.classic.state import apparent, clan_members, in_play, in_play_names

# The steps' members, read once: in Python 3.11 an enum class's attribute goes through its
# metaclass's __getattr__ hook, several times a global's cost, and every step asks.
_DISTRACT, _COVER, _ALL_AT_ONCE = SeedStep.DISTRACT, SeedStep.COVER, SeedStep.ALL_AT_ONCE


@dataclass
class Act:
    """One registered order during resolution."""

    player: str
    action: str
    target: str
    stopped: bool = False
    step: SeedStep = field(init=False)
    """The seed's step of the action (looked up once: every step of the turn asks it)."""

    def __post_init__(self) -> None:
        self.step = ACTIONS[self.action].step


@dataclass
class Turn(Resolution):
    """What the steps of one turn share."""

    acts: list[Act] = field(default_factory=list)
    prisoner: str | None = None
    clans_at_start: set[str] = field(default_factory=set)
    distracted: set[str] = field(default_factory=set)
    covered: set[str] = field(default_factory=set)
    attempts: dict[str, list[str]] = field(default_factory=dict)
    """Target → shot attempts' attackers (shots, hit team shots, vigilante enemies)."""
    missed: dict[str, list[str]] = field(default_factory=dict)
    """Target → members who named it in a team shot that missed."""
    attackers: dict[str, list[str]] = field(default_factory=dict)
    """Target → every attacker a peek may see (§5.4)."""
    deaths: dict[str, str] = field(default_factory=dict)
    partial: set[str] = field(default_factory=set)
    newly_poisoned: list[str] = field(default_factory=list)

    @property
    def turn(self) -> int:
        return self.inputs.phase.id.number

    def live(self, step: SeedStep | None = None) -> list[Act]:
        if step is None:
            return [a for a in self.acts if not a.stopped]
        return [a for a in self.acts if not a.stopped and a.step == step]

    def stop(self, act: Act, type: str) -> None:
        act.stopped = True
        if self.state.options["notify_blocked"]:
            self.emit(Event.private(act.player, type, action=act.action, target=act.target))

    def attack(self, target: str, attacker: str) -> None:
        self.attackers.setdefault(target, []).append(attacker)


def new_turn(state: GameState, inputs: PhaseInputs, rng: random.Random) -> Turn:
    orders = inputs.orders
    acts = [
        Act(o.player, o.action, o.target)
        for p in state.players
        if p.name in orders
        for o in orders[p.name].values()
        if o.action and o.target
    ]
    clans = {p.faction for p in state.players if p.faction in CLANS and in_play(p)}
    return Turn(state, inputs, rng, acts=acts, clans_at_start={c for c in clans if c})


# -- R1, step 6.1: the vote ---------------------------------------------------------------


def r1_vote(t: Turn) -> None:
    state = t.state
    cast = t.inputs.votes
    votes: dict[str, str] = {}  # current_votes() of the voters in play, in one pass
    for p in state.players:
        order = cast.get(p.name)
        if order is not None and order.targets:  # (order.target and in_play(p), written out)
            fields = p.fields
            if fields.get("alive", True) and fields.get("free", True):
                votes[p.name] = order.targets[0]
    totals = totals_of(state, votes)
    if state.options["publish_final_votes"]:
        t.emit(
            Event.public("vote_tally", turn=t.turn, votes=votes, totals=totals, no_votes=not votes)
        )
    if totals:
        top = max(totals.values())
        leaders = [n for n, count in totals.items() if count == top]  # seating order
        reason = "leader" if len(leaders) == 1 else "tie_break"
        prisoner = rngmod.choice(t.rng, leaders)
        count = top
    else:
        prisoner = rngmod.choice(t.rng, in_play_names(state))
        reason, count = "no_votes", 0
    p = state.player(prisoner)
    p.fields["free"] = False
    t.prisoner = prisoner
    t.emit(
        Event.public(
            "imprisonment",
            player=prisoner,
            role=p.role,
            faction=p.faction,
            reason=reason,
            votes=count,
        )
    )
    for act in t.live():
        if act.player == prisoner:
            t.stop(act, "action_blocked")
        elif act.target == prisoner:
            t.stop(act, "action_void")


# -- R2, step 6.2: distraction ------------------------------------------------------------


def r2_distract(t: Turn) -> None:
    t.distracted = {a.target for a in t.live(_DISTRACT)}
    if not t.distracted:
        return  # most turns: nobody to block
    for act in t.live():
        if act.player in t.distracted and act.action != "distract":
            t.stop(act, "action_blocked")


# -- R3, step 6.3: cover ------------------------------------------------------------------


def r3_cover(t: Turn) -> None:
    cover = t.live(_COVER)
    if not cover:
        return  # nobody covered, cured or blocked
    t.covered = {a.target for a in cover}
    healed = {a.target for a in cover if a.action == "heal" and a.target != a.player}
    for act in cover:
        if act.action == "heal":
            t.state.player(act.target).fields["poisoned"] = False
    if not healed:
        return
    for act in t.live(_ALL_AT_ONCE):
        if act.player in healed:
            t.stop(act, "action_blocked")


# -- R4, step 6.4: everything else at once ------------------------------------------------


def r4_team_shots(t: Turn) -> None:
    """R4.1: one collective shot per clan; different targets miss (§5.1)."""
    team = [a for a in t.live(_ALL_AT_ONCE) if a.action == "team_shot"]
    if not team:
        return
    for clan in CLANS:
        named = [a for a in team if t.state.player(a.player).faction == clan]
        targets = {a.target for a in named}
        for act in named:
            t.attack(act.target, act.player)
            bucket = t.attempts if len(targets) == 1 else t.missed
            bucket.setdefault(act.target, []).append(act.player)


def r4_shots(t: Turn) -> None:
    """R4.2: each shot is a shot attempt."""
    for act in t.live(_ALL_AT_ONCE):
        if act.action == "shot":
            t.attempts.setdefault(act.target, []).append(act.player)
            t.attack(act.target, act.player)


def r4_vigilante(t: Turn) -> None:
    """R4.3: a check by apparent faction, then a shot at an enemy (§5.2)."""
    for act in t.live(_ALL_AT_ONCE):
        if act.action != "vigilante":
            continue
        role, faction = apparent(t.state.player(act.target))
        if faction == t.state.player(act.player).faction:
            t.emit(
                Event.private(
                    act.player, "vigilante_result", target=act.target, result="own", role=role
                )
            )
        else:
            t.attempts.setdefault(act.target, []).append(act.player)
            t.attack(act.target, act.player)
            t.emit(Event.private(act.player, "vigilante_result", target=act.target, result="enemy"))


def r4_checks(t: Turn) -> None:
    """R4.4: checks see the apparent role and faction."""
    for act in t.live(_ALL_AT_ONCE):
        if act.action == "check":
            role, faction = apparent(t.state.player(act.target))
            t.emit(
                Event.private(
                    act.player, "check_result", target=act.target, role=role, faction=faction
                )
            )


def r4_shot_outcomes(t: Turn) -> None:
    """R4.5: a covered target survives (attempt_partial); otherwise it dies."""
    for name in t.state.in_seating_order(t.attempts):
        if name in t.covered:
            t.partial.add(name)
        else:
            t.deaths[name] = "killed"


def r4_poison_deaths(t: Turn) -> None:
    """R4.6: players still poisoned from an earlier turn die now."""
    for p in t.state.players:
        if p.fields.get("poisoned") and in_play(p) and p.name not in t.deaths:
            t.deaths[p.name] = "poison"


def r4_new_poison(t: Turn) -> None:
    """R4.7: new doses; the cough is reported once deaths are known (R5)."""
    for act in t.live(_ALL_AT_ONCE):
        if act.action == "poison":
            if act.target not in t.newly_poisoned:
                t.newly_poisoned.append(act.target)
            if t.state.options["peek_sees_poison"]:
                t.attack(act.target, act.player)


def r4_misses(t: Turn) -> None:
    """R4.8: targets that only had team-shot misses."""
    if not t.state.options["report_team_shot_miss"]:
        return
    for name in t.state.in_seating_order(t.missed):
        if name not in t.deaths and name not in t.partial:
            t.emit(Event.public("attempt_failed", target=name))


def r4_peeks(t: Turn) -> None:
    """R4.9: one attacker of the target, picked by the RNG when there are several."""
    for act in t.live(_ALL_AT_ONCE):
        if act.action != "peek":
            continue
        found = t.state.in_seating_order(t.attackers.get(act.target, []))
        attacker = rngmod.choice(t.rng, found) if found else None
        t.emit(Event.private(act.player, "peek_result", target=act.target, attacker=attacker))


# -- R5–R8 --------------------------------------------------------------------------------


def r5_apply(t: Turn) -> None:
    reveal = t.state.options["reveal_role_on_death"]
    for name in t.state.in_seating_order(t.deaths):
        p = t.state.player(name)
        p.fields["alive"] = False
        extra = {"role": p.role, "faction": p.faction} if reveal else {}
        t.emit(Event.public("death", player=name, cause=t.deaths[name], **extra))
    # One report per target, the most severe (D21): a covered target who dies of old poison
    # gets only his `death`.
    for name in t.state.in_seating_order(t.partial - t.deaths.keys()):
        t.emit(Event.public("attempt_partial", target=name))
    for name in t.state.in_seating_order(t.newly_poisoned):
        p = t.state.player(name)
        if in_play(p):
            p.fields["poisoned"] = True
            t.emit(Event.public("coughing", player=name))


def r6_outcast(t: Turn) -> None:
    """The outcast takes a perished clan's side (or the surviving clan's, by option)."""
    state = t.state
    outcasts = [p for p in state.players if p.role == "outcast" and p.faction not in CLANS]
    if not outcasts:
        return
    alive_clans = {p.faction for p in state.players if p.faction in CLANS and in_play(p)}
    perished = [c for c in CLANS if c in t.clans_at_start and c not in alive_clans]
    for outcast in outcasts:
        if not in_play(outcast):
            continue
        if state.options["outcast_joins"] == "perished_clan":
            if not perished:
                return
            clan = rngmod.choice(t.rng, perished)
            perished.remove(clan)
        else:
            survivors = [c for c in CLANS if c in alive_clans]
            if not perished or not survivors:
                return
            clan = survivors[0]
        outcast.faction = clan
        outcast.fields["joined"] = True
        members = clan_members(state, clan)
        told = [outcast.name] + [m.name for m in members if in_play(m) and m.name != outcast.name]
        t.emit(Event.private(told, "outcast_joined", player=outcast.name, faction=clan))
        roster = {m.name: m.role for m in members}
        t.emit(Event.private(outcast.name, "team_roster", faction=clan, members=roster))


def r7_end(t: Turn) -> None:
    winner = win.winner(t.state)
    if winner is None:
        return
    t.state.winner = winner
    t.state.finished = True
    t.emit(
        Event.public(
            "game_over",
            winner=winner,
            survivors=in_play_names(t.state),
            roles={p.name: p.role for p in t.state.players},
        )
    )


def r8_next_turn(t: Turn) -> None:
    if t.state.finished:
        return
    deadline: datetime | None = t.inputs.data.get("next_deadline")
    t.emit(
        Event.public(
            "turn_started", turn=t.turn + 1, deadline=deadline.isoformat() if deadline else None
        )
    )


STEPS: tuple[Step[Turn], ...] = (
    Step(
        "R1 vote", r1_vote, "tally PM votes, jail one player; block his orders, void orders on him"
    ),
    Step("R2 distraction", r2_distract, "mark distracted targets; block their non-distract orders"),
    Step("R3 cover", r3_cover, "protect/heal cover; heal cures poison and blocks 6.4 orders"),
    Step("R4.1 team shots", r4_team_shots, "one shot per clan, or a miss on different targets"),
    Step("R4.2 shots", r4_shots, "each shot is an attempt"),
    Step("R4.3 vigilante", r4_vigilante, "own: learn apparent role; enemy: a shot attempt"),
    Step("R4.4 checks", r4_checks, "apparent role and faction to the checker"),
    Step("R4.5 shot outcomes", r4_shot_outcomes, "covered: partial; otherwise killed"),
    Step("R4.6 poison deaths", r4_poison_deaths, "earlier poison kills whoever is still poisoned"),
    Step("R4.7 new poison", r4_new_poison, "mark this turn's poison targets"),
    Step("R4.8 misses", r4_misses, "attempt_failed for targets with only team-shot misses"),
    Step("R4.9 peeks", r4_peeks, "one attacker of the target, RNG among several"),
    Step("R5 apply", r5_apply, "deaths, partial attempts, coughing"),
    Step("R6 outcast", r6_outcast, "a perished clan's side for the outcast"),
    Step("R7 end", r7_end, "win, draw or certain outcome"),
    Step("R8 next turn", r8_next_turn, "open the next turn"),
)
