"""The public results post and the other public posts."""

from __future__ import annotations

import re

import pytest

from engine.core.events import Audience, Event, public_events
from engine.render import LeakError, Renderer, RenderError

PLAYERS = ["Вася", "Маша", "Коля", "Оля", "Петя", "Гена", "Law", "Уставший Скиталец"]
DEADLINE = "2026-09-05T16:00:00+00:00"
DEADLINE_TEXT = {"ru": "05.09.2026 19:00 МСК", "en": "5 Sep 2026 19:00 MSK"}


def anon_sent(sender: str, recipient: str) -> Event:
    # The event's own field is called `to`, which Event.private() takes for the recipients.
    return Event("anon_sent", {"to": recipient}, Audience.PRIVATE, (sender,))


def results(r: Renderer, *events: Event, phase: str = "turn 3") -> str:
    return r.render_public(list(events), phase=phase, context={"players": PLAYERS})


def test_heading(renderer: Renderer) -> None:
    text = results(renderer, Event.public("turn_started", turn=4, deadline=DEADLINE))
    heading = {"ru": "[b]Итоги хода 3[/b]", "en": "[b]Results of turn 3[/b]"}[renderer.lang]
    assert text.splitlines()[0] == heading


def test_vote_tally_lists_votes_and_totals(renderer: Renderer) -> None:
    tally = Event.public(
        "vote_tally",
        turn=3,
        votes={"Вася": "Коля", "Маша": "Коля", "Коля": "Оля"},
        totals={"Оля": 1, "Коля": 2},
        no_votes=False,
    )
    text = results(renderer, tally)
    for voter, target in [("Вася", "Коля"), ("Маша", "Коля"), ("Коля", "Оля")]:
        assert f"{voter} → {target}" in text
    if renderer.lang == "ru":
        assert "[b]Коля[/b] — 2 голоса, [b]Оля[/b] — 1 голос." in text
    else:
        assert "[b]Коля[/b] — 2 votes, [b]Оля[/b] — 1 vote." in text


def test_vote_tally_with_no_votes(renderer: Renderer) -> None:
    tally = Event.public("vote_tally", turn=3, votes={}, totals={}, no_votes=True)
    text = results(renderer, tally)
    assert {"ru": "не поступило", "en": "Nobody voted"}[renderer.lang] in text


@pytest.mark.parametrize("reason", ["leader", "tie_break", "no_votes"])
def test_imprisonment_shows_role_faction_and_reason(renderer: Renderer, reason: str) -> None:
    votes = 0 if reason == "no_votes" else 5
    jail = Event.public(
        "imprisonment", player="Коля", role="lawyer", faction="mafia", reason=reason, votes=votes
    )
    text = results(renderer, jail)
    assert "[b]Коля[/b]" in text or "[b]Колю[/b]" in text  # «жребий отправляет … Колю»
    assert renderer.role_name("lawyer") in text
    assert renderer.faction_name("mafia") in text
    marker = {
        ("ru", "leader"): "Лидер голосования [b]Коля[/b] (5 голосов)",
        ("ru", "tie_break"): "поровну",
        ("ru", "no_votes"): "никто не голосовал",
        ("en", "leader"): "led the vote with 5 votes",
        ("en", "tie_break"): "tied",
        ("en", "no_votes"): "nobody voted",
    }[(renderer.lang, reason)]
    assert marker in text


def test_imprisonment_plural(ru: Renderer) -> None:
    for votes, words in [(1, "1 голос)"), (3, "3 голоса)"), (11, "11 голосов)"), (21, "21 голос)")]:
        jail = Event.public(
            "imprisonment",
            player="Коля",
            role="citizen",
            faction="town",
            reason="leader",
            votes=votes,
        )
        assert words in results(ru, jail)


def test_death_with_and_without_role(renderer: Renderer) -> None:
    shown = Event.public("death", player="Петя", cause="killed", role="commissar", faction="town")
    hidden = Event.public("death", player="Гена", cause="poison")
    text = results(renderer, shown, hidden)
    assert "[b]Петя[/b]" in text and "[b]Гена[/b]" in text
    assert renderer.role_name("commissar") in text
    assert renderer.faction_name("town") in text
    assert renderer.term("killed", "causes") in text
    assert renderer.term("poison", "causes") in text
    gena_line = next(line for line in text.splitlines() if "Гена" in line)
    assert {"ru": "Роль", "en": "Role"}[renderer.lang] not in gena_line


def test_attempts_and_coughing(renderer: Renderer) -> None:
    text = results(
        renderer,
        Event.public("attempt_partial", target="Маша"),
        Event.public("attempt_failed", target="Оля"),
        Event.public("coughing", player="Гена"),
    )
    if renderer.lang == "ru":
        assert "На [b]Машу[/b] совершено частично удачное покушение." in text
        assert "На [b]Олю[/b] совершено неудачное покушение." in text
        assert "[b]Гена[/b] кашляет." in text
    else:
        assert "partly successful attempt on [b]Маша[/b]" in text
        assert "failed attempt on [b]Оля[/b]" in text
        assert "[b]Гена[/b] is coughing." in text


def test_turn_started_with_deadline(renderer: Renderer) -> None:
    text = results(renderer, Event.public("turn_started", turn=4, deadline=DEADLINE))
    assert DEADLINE_TEXT[renderer.lang] in text
    assert {"ru": "Начинается ход 4", "en": "Turn 4 begins"}[renderer.lang] in text
    # The deadline ends its line; the reminder about PMs is a line of its own.
    lines = text.splitlines()
    assert any(line.endswith(f"{DEADLINE_TEXT[renderer.lang]}[/b].") for line in lines)
    assert lines[-1].startswith({"ru": "Голоса", "en": "Votes"}[renderer.lang])


@pytest.mark.parametrize("winner", ["town", "mafia", "mafia_b", "loner", "draw"])
def test_game_over(renderer: Renderer, winner: str) -> None:
    roles = {
        "Вася": "citizen",
        "Маша": "doctor",
        "Коля": "mafioso",
        "Оля": "maniac",
    }
    survivors = {"town": ["Вася", "Маша"], "mafia": ["Коля"], "mafia_b": ["Коля"]}.get(winner, [])
    if winner == "loner":
        survivors = ["Оля"]
    text = results(
        renderer, Event.public("game_over", winner=winner, survivors=survivors, roles=roles)
    )
    assert renderer.term(winner, "winners") in text
    for player, role in roles.items():
        assert f"[b]{player}[/b] — {renderer.role_name(role)}" in text
    for player in survivors:
        assert f"[b]{player}[/b]," in text or f"[b]{player}[/b]." in text


def test_results_follow_rulebook_order_whatever_the_input_order(renderer: Renderer) -> None:
    events = [
        Event.public("turn_started", turn=4, deadline=DEADLINE),
        Event.public("coughing", player="Law"),
        Event.public("attempt_failed", target="Уставший Скиталец"),
        Event.public("death", player="Гена", cause="killed", role="doctor", faction="town"),
        Event.public("attempt_partial", target="Маша"),
        Event.public("death", player="Вася", cause="poison", role="citizen", faction="town"),
        Event.public(
            "imprisonment", player="Коля", role="mafioso", faction="mafia", reason="leader", votes=2
        ),
        Event.public(
            "vote_tally",
            turn=3,
            votes={"Оля": "Коля", "Петя": "Коля"},
            totals={"Коля": 2},
            no_votes=False,
        ),
    ]
    text = results(renderer, *events)
    lines = text.splitlines()

    def at(fragment: str) -> int:
        return next(i for i, line in enumerate(lines) if fragment in line)

    order = [
        at("Оля → Коля"),  # vote tally
        at("[b]Коля[/b] (" if renderer.lang == "ru" else "[b]Коля[/b] led"),  # imprisonment
        at("[b]Вася[/b]"),  # deaths in seating order: Вася sits before Гена
        at("[b]Гена[/b]"),
        at("[b]Машу[/b]" if renderer.lang == "ru" else "[b]Маша[/b]"),  # attempts in seating
        at("Уставш"),  # order: Маша before Уставший Скиталец
        at("[b]Law[/b]"),  # coughing
        at(DEADLINE_TEXT[renderer.lang]),  # next turn
    ]
    assert order == sorted(order)
    # Shuffling the input changes nothing.
    assert results(renderer, *reversed(events)) == text


def test_without_seating_the_given_order_is_kept_within_a_group(ru: Renderer) -> None:
    text = ru.render_public(
        [
            Event.public("death", player="Гена", cause="killed"),
            Event.public("death", player="Вася", cause="killed"),
        ],
        phase="turn 2",
    )
    assert text.index("Гена") < text.index("Вася")


def test_separate_posts_are_left_out_of_results(ru: Renderer) -> None:
    rating = Event.public("vote_rating", turn=3, votes={"Вася": "Коля"}, totals={"Коля": 1})
    text = results(ru, rating, Event.public("coughing", player="Гена"))
    assert "Вася" not in text


def test_unknown_public_event_is_an_error(ru: Renderer) -> None:
    with pytest.raises(RenderError):
        results(ru, Event.public("fireworks", player="Гена"))


def test_turn_number_comes_from_the_phase(ru: Renderer) -> None:
    assert ru.render_public([], phase="turn 12").startswith("[b]Итоги хода 12[/b]")
    with pytest.raises(RenderError):
        ru.render_public([], phase="setup")


@pytest.mark.parametrize(
    "event",
    [
        Event.private("Вася", "check_result", target="Коля", role="mafioso", faction="mafia"),
        Event.private("Вася", "role_assigned", role="commissar", faction="town"),
        Event.host("anonymous_sender", sender="Вася", to="Маша"),
    ],
)
def test_public_post_refuses_non_public_events(renderer: Renderer, event: Event) -> None:
    with pytest.raises(LeakError):
        results(renderer, Event.public("coughing", player="Гена"), event)


def realistic_turn() -> tuple[dict[str, str], list[Event]]:
    """Turn 3 of an 8-player game: every kind of event a resolution and intake may emit."""
    roles = {
        "Вася": "citizen",
        "Маша": "doctor",
        "Коля": "mafioso",
        "Оля": "commissar",
        "Петя": "witness",
        "Гена": "sheriff",
        "Law": "lawyer",
        "Уставший Скиталец": "sorcerer",
    }
    events = [
        Event.private("Коля", "vote_accepted", target="Петя"),
        anon_sent("Маша", "Оля"),
        Event.host("anonymous_message_sent", sender="Маша", to="Оля", text="Коля врёт"),
        Event.private("Оля", "anonymous_message", text="Коля врёт"),
        Event.private("Коля", "target_list", faction="mafia", team_shot={"Коля": "Вася"}, shots={}),
        Event.public(
            "vote_tally",
            turn=3,
            votes={"Вася": "Коля", "Оля": "Коля", "Коля": "Петя", "Law": "Петя", "Петя": "Коля"},
            totals={"Коля": 3, "Петя": 2},
            no_votes=False,
        ),
        Event.public(
            "imprisonment", player="Коля", role="mafioso", faction="mafia", reason="leader", votes=3
        ),
        Event.private("Коля", "action_blocked", action="team_shot", target="Вася"),
        Event.private("Оля", "check_result", target="Law", role="citizen", faction="town"),
        Event.private("Гена", "vigilante_result", target="Уставший Скиталец", result="enemy"),
        Event.private("Петя", "peek_result", target="Вася", attacker="Уставший Скиталец"),
        Event.public("death", player="Вася", cause="poison", role="citizen", faction="town"),
        Event.public("attempt_partial", target="Уставший Скиталец"),
        Event.public("coughing", player="Петя"),
        Event.public("turn_started", turn=4, deadline=DEADLINE),
    ]
    return roles, events


def test_realistic_turn_leaks_no_role_and_no_anonymous_sender(renderer: Renderer) -> None:
    roles, events = realistic_turn()
    text = results(renderer, *public_events(events))
    revealed = {"Коля", "Вася"}  # jailed and dead: the rules publish their roles
    for player, role in roles.items():
        if player not in revealed:
            assert renderer.role_name(role) not in text, f"{player}'s role leaked"
    for player in revealed:
        assert renderer.role_name(roles[player]) in text
    # The anonymous sender (Маша) takes no public part this turn and must not be named.
    assert "Маша" not in text
    assert "Коля врёт" not in text


def test_game_started_post(renderer: Renderer) -> None:
    started = Event.public(
        "game_started",
        players=PLAYERS,
        roles={"citizen": 3, "mafioso": 2, "commissar": 1, "doctor": 1, "lawyer": 1},
        clans=1,
        deadline=DEADLINE,
    )
    text = renderer.render_event_post(started)
    for player in PLAYERS:
        assert f"[b]{player}[/b]" in text
    assert f"{renderer.role_name('mafioso')} — 2" in text
    assert f"{renderer.role_name('citizen')} — 3" in text
    # Catalogue order: town roles first.
    assert text.index(renderer.role_name("citizen")) < text.index(renderer.role_name("mafioso"))
    assert DEADLINE_TEXT[renderer.lang] in text
    # Never who has which role: no nickname shares a line with a role name.
    names = [renderer.role_name(r) for r in ("citizen", "mafioso", "commissar", "doctor", "lawyer")]
    for line in text.splitlines():
        if any(f"[b]{p}[/b]" in line for p in PLAYERS):
            assert not any(name in line for name in names)
    if renderer.lang == "ru":
        assert "1 клан мафии" in text


def test_game_started_clans_plural(ru: Renderer) -> None:
    text = ru.render_post(
        "game_started", players=PLAYERS, roles={"citizen": 8}, clans=2, deadline=DEADLINE
    )
    assert "2 клана мафии" in text


def test_vote_rating_post(renderer: Renderer) -> None:
    text = renderer.render_post(
        "vote_rating",
        turn=2,
        votes={"Вася": "Коля", "Маша": "Коля", "Оля": "Вася"},
        totals={"Коля": 2, "Вася": 1},
    )
    assert "Вася → Коля" in text and "Маша → Коля" in text and "Оля → Вася" in text
    votes2 = {"ru": "2 голоса", "en": "2 votes"}[renderer.lang]
    votes1 = {"ru": "1 голос", "en": "1 vote"}[renderer.lang]
    assert f"[b]Коля[/b] — {votes2}" in text
    assert f"[b]Вася[/b] — {votes1}" in text
    empty = renderer.render_post("vote_rating", turn=2, votes={}, totals={})
    assert {"ru": "никто не проголосовал", "en": "Nobody has voted"}[renderer.lang] in empty


def test_turn_started_and_closed_posts(renderer: Renderer) -> None:
    text = renderer.render_event_post(Event.public("turn_started", turn=5, deadline=DEADLINE))
    assert DEADLINE_TEXT[renderer.lang] in text and "5" in text.splitlines()[0]
    closed = renderer.render_event_post(Event.public("turn_closed", turn=5))
    assert "5" in closed


def test_event_post_refuses_private_events(ru: Renderer) -> None:
    with pytest.raises(LeakError):
        ru.render_event_post(Event.private("Вася", "vote_rating", turn=1, votes={}, totals={}))


def test_missing_field_is_an_error(ru: Renderer) -> None:
    with pytest.raises(RenderError):
        results(ru, Event.public("attempt_failed"))


def test_nicknames_cannot_inject_bbcode_into_results(renderer: Renderer) -> None:
    evil = "[/b][color=red]Ведущий[/color]"
    text = results(
        renderer,
        Event.public(
            "vote_tally", turn=3, votes={evil: "Вася"}, totals={"Вася": 1}, no_votes=False
        ),
        Event.public("coughing", player=evil),
    )
    assert "[color" not in text and "[/color]" not in text
    assert text.count("[b]") == text.count("[/b]")


def test_missing_deadline_still_renders(renderer: Renderer) -> None:
    text = results(renderer, Event.public("turn_started", turn=2, deadline=None))
    assert {"ru": "Начинается ход 2", "en": "Turn 2 begins"}[renderer.lang] in text
    opening = renderer.render_post(
        "game_started", players=PLAYERS, roles={"citizen": 8}, clans=1, deadline=None
    )
    assert {"ru": "Ход 1 начался", "en": "Turn 1 has begun"}[renderer.lang] in opening


def test_game_started_with_start_time(ru: Renderer) -> None:
    text = ru.render_post(
        "game_started",
        players=PLAYERS,
        roles={"citizen": 8},
        clans=1,
        start="2026-09-04T16:00:00+00:00",
        deadline=DEADLINE,
    )
    assert (
        "Ход 1 начинается [b]04.09.2026 19:00 МСК[/b] и заканчивается [b]05.09.2026 19:00 МСК[/b]"
        in text
    )


def test_sentences_are_never_glued_together(renderer: Renderer) -> None:
    _, events = realistic_turn()
    posts = [
        results(renderer, *public_events(events)),
        renderer.render_post(
            "game_started", players=PLAYERS, roles={"citizen": 8}, clans=1, deadline=DEADLINE
        ),
        renderer.render_post("vote_rating", turn=3, votes={"Вася": "Коля"}, totals={"Коля": 1}),
        renderer.render_post("turn_started", turn=3, deadline=DEADLINE),
    ]
    posts += [text for p in PLAYERS if (text := renderer.render_private(events, p))]
    for text in posts:
        assert not re.search(r"[.!?][A-ZА-ЯЁ]|\[/b\][A-Za-zА-Яа-яЁё]", text), text
        assert "  " not in text
