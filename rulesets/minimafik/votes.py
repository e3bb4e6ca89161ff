"""The phase's votes: the mafia kill (§7.3), the Вече (§9) and the Leader election (§10)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from rulesets.minimafik.context import Turn
from rulesets.minimafik.roles import BEATING, ROLES
from rulesets.minimafik.state import alive, leader


def kill_target(turn: Turn) -> None:
    """E3: the target with the greatest total weight; none on no votes or a tie (D-15)."""
    if not turn.night:
        return
    weights: dict[str, Fraction] = {}
    for name in turn.alive0:
        order = turn.orders.get(name, {}).get("mafia_vote")
        if not order or not order["targets"]:
            continue
        option = ROLES[turn.p(name).role or "citizen"].vote_weight_option
        weight = Fraction(str(turn.state.options[option])) if option else Fraction(1)
        target = order["targets"][0]
        weights[target] = weights.get(target, Fraction(0)) + weight
    if not weights:
        return
    top = max(weights.values())
    leaders = [t for t, v in weights.items() if v == top]
    if len(leaders) == 1:
        turn.kill_target = leaders[0]


def night_damage(turn: Turn) -> None:
    """E7 (night): the kill's 3 + ΣX damage and the citizens' armour; the mafia learns the kill."""
    if turn.kill_target is not None:
        extra = sum(
            int(o["mafia_vote"].get("extra", 0))
            for n, o in turn.orders.items()
            if "mafia_vote" in o and o["mafia_vote"].get("paid", True)
        )
        turn.kill_damage = int(turn.state.options["mafia_kill_damage"]) + extra
        turn.damage[turn.kill_target] += turn.kill_damage
    for name in turn.alive0:
        if turn.p(name).faction == "mafia":
            turn.tell(name, "mafia_kill_result", target=turn.kill_target, damage=turn.kill_damage)
    for name in turn.alive0:
        armor = turn.orders.get(name, {}).get("armor")
        if armor and armor.get("paid", True):
            turn.armor[armor["targets"][0]] += 1


def vece(turn: Turn) -> None:
    """E7 (day): the Вече tally, the Leader's tie-break and punishment (§9.2)."""
    chief = leader(turn.state)
    counts: Counter[str] = Counter()
    counted: dict[str, str] = {}
    for voter in turn.alive0:
        target = turn.votes.get(voter)
        if target is None or target in turn.immune:
            continue  # votes for a character with vece_immunity are void
        counted[voter] = target
        counts[target] += 1 + turn.extra_votes.get(voter, 0)
    tally = {n: counts[n] for n in turn.state.names if counts.get(n, 0) > 0}
    turn.announce("vote_tally", counts=tally)
    target = reason = None
    if not tally:
        reason = "no_votes"
    else:
        top = max(tally.values())
        tied = [n for n, v in tally.items() if v == top]
        if len(tied) == 1:
            target, reason = tied[0], "majority"
        elif chief is not None and counted.get(chief) in tied:
            target, reason = counted[chief], "leader_tiebreak"
        else:
            reason = "tie"
    choice = None
    if target is not None:
        wanted = turn.orders.get(chief or "", {}).get("punishment") if chief else None
        choice = wanted["choice"] if wanted else turn.state.options["default_punishment"]
    damage = 0
    if target is not None and choice is not None:
        key = "beating_damage" if choice == BEATING else "execution_damage"
        damage = int(turn.state.options[key])
        turn.damage[target] += damage
        if choice == BEATING:
            turn.beaten_target = target
    turn.announce("vece_result", target=target, punishment=choice, damage=damage, reason=reason)


def elect_leader(turn: Turn) -> None:
    """E13 (night): the election's result replaces the Leader (one_cycle, D-19, D-20)."""
    counts: Counter[str] = Counter(t for voter, t in turn.votes.items() if voter in turn.alive0)
    current = leader(turn.state)
    keep = turn.state.options["leader_term"] == "until_replaced"
    winner = None
    if not counts:
        reason = "no_votes"
    else:
        top = max(counts.values())
        tied = [n for n in turn.state.names if counts.get(n) == top]
        if len(tied) > 1:
            reason = "tie"
        elif not alive(turn.p(tied[0])):
            reason = "winner_died"
        else:
            winner, reason = tied[0], ""
    if winner is not None:
        turn.state.data["leader"] = winner
        turn.announce("leader_elected", player=winner)
    else:
        turn.state.data["leader"] = current if keep and current is not None else None
        turn.announce("leader_none", reason=reason)


def beaten_reveal(turn: Turn) -> None:
    """E13 (night): the colours a beaten character chose this night, then `beaten` clears (D-18)."""
    for p in turn.state.players:
        if not p.fields.get("beaten"):
            continue
        colours = [turn.coll.colour_of(c) for c in turn.chosen.get(p.name, [])]
        turn.announce("beaten_reveal", player=p.name, colours=colours)
        p.fields["beaten"] = False


def mark_beaten(turn: Turn) -> None:
    """E13 (day): the beaten character, if alive, has its next night's colours revealed."""
    target = turn.beaten_target
    if target is not None and alive(turn.p(target)):
        turn.p(target).fields["beaten"] = True
