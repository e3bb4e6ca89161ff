"""Private messages: results, setup messages and acknowledgements."""

from __future__ import annotations

import pytest

from engine.core.events import Audience, Event
from engine.render import Renderer, RenderError
from rulesets.classic import texts


def anon_sent(sender: str, recipient: str) -> Event:
    # The event's own field is called `to`, which Event.private() takes for the recipients.
    return Event("anon_sent", {"to": recipient}, Audience.PRIVATE, (sender,))


def pm(r: Renderer, *events: Event, to: str = "Вася") -> str:
    text = r.render_private(list(events), to)
    assert text is not None
    return text


def test_no_private_events_gives_none(renderer: Renderer) -> None:
    events = [
        Event.public("coughing", player="Вася"),
        Event.private("Маша", "vote_accepted", target="Коля"),
        Event.host("anonymous_message_sent", sender="Вася", to="Маша", text="hi"),
    ]
    assert renderer.render_private(events, "Вася") is None


def test_only_the_players_own_events(renderer: Renderer) -> None:
    text = pm(
        renderer,
        Event.private("Вася", "vote_accepted", target="Коля"),
        Event.private("Маша", "check_result", target="Петя", role="mafioso", faction="mafia"),
        Event.private(["Вася", "Маша"], "outcast_joined", player="Гена", faction="mafia"),
    )
    assert {"ru": "за [b]Колю[/b]", "en": "for [b]Коля[/b]"}[renderer.lang] in text
    assert "Петя" not in text
    assert "[b]Гена[/b]" in text


@pytest.mark.parametrize("role", texts.ROLE_ORDER)
def test_role_assigned(renderer: Renderer, role: str) -> None:
    faction = "mafia" if role in {"mafioso", "lawyer", "killer", "thief"} else "town"
    text = pm(renderer, Event.private("Вася", "role_assigned", role=role, faction=faction))
    assert f"[b]{renderer.role_name(role)}[/b]" in text
    assert renderer.faction_name(faction) in text
    assert renderer.term(role, "role_hints") in text


def test_team_roster_and_outcast_known(renderer: Renderer) -> None:
    text = pm(
        renderer,
        Event.private(
            "Вася", "team_roster", faction="mafia_b", members={"Вася": "mafioso", "Коля": "killer"}
        ),
        Event.private("Вася", "outcast_known", player="Гена"),
    )
    assert renderer.faction_name("mafia_b") in text
    assert f"[b]Коля[/b] — {renderer.role_name('killer')}" in text
    assert f"[b]Вася[/b] — {renderer.role_name('mafioso')}" in text
    assert "[b]Гена[/b]" in text
    assert text.index("[b]Коля[/b]") < text.index("[b]Гена[/b]")


def test_check_result(renderer: Renderer) -> None:
    text = pm(
        renderer,
        Event.private("Вася", "check_result", target="Law", role="citizen", faction="town"),
    )
    assert "[b]Law[/b]" in text
    assert renderer.role_name("citizen") in text
    assert renderer.faction_name("town") in text


def test_vigilante_result(renderer: Renderer) -> None:
    own = pm(
        renderer,
        Event.private("Вася", "vigilante_result", target="Маша", result="own", role="doctor"),
    )
    target = {"ru": "над [b]Машей[/b]", "en": "[b]Маша[/b]"}[renderer.lang]
    assert target in own and renderer.role_name("doctor") in own
    enemy = pm(renderer, Event.private("Вася", "vigilante_result", target="Коля", result="enemy"))
    assert {"ru": "над [b]Колей[/b]", "en": "[b]Коля[/b]"}[renderer.lang] in enemy
    assert {"ru": "враг", "en": "enemy"}[renderer.lang] in enemy
    for role in texts.ROLE_ORDER:
        assert renderer.role_name(role) not in enemy


def test_peek_result(renderer: Renderer) -> None:
    seen = pm(renderer, Event.private("Вася", "peek_result", target="Маша", attacker="Коля"))
    target = {"ru": "за [b]Машей[/b]", "en": "[b]Маша[/b]"}[renderer.lang]
    assert target in seen and "[b]Коля[/b]" in seen
    if renderer.lang == "ru":
        assert "покушение совершил [b]Коля[/b]" in seen  # the verb agrees, no «игрок»
    nobody = pm(renderer, Event.private("Вася", "peek_result", target="Маша", attacker=None))
    assert target in nobody
    assert {"ru": "никто не покушался", "en": "nobody made an attempt"}[renderer.lang] in nobody


@pytest.mark.parametrize("kind", ["action_blocked", "action_void"])
def test_failed_orders_give_no_reason(renderer: Renderer, kind: str) -> None:
    text = pm(renderer, Event.private("Вася", kind, action="check", target="Маша"))
    assert {"ru": "«Проверка»", "en": "order to check"}[renderer.lang] in text
    assert "[b]Маша[/b]" in text
    words = {
        "ru": ["отвлек", "вылеч", "посад", "решётк", "тюрьм"],
        "en": ["distract", "heal", "jail", "prison"],
    }[renderer.lang]
    assert not any(w in text.lower() for w in words)


def test_outcast_joined_for_outcast_and_clan(renderer: Renderer) -> None:
    event = Event.private(["Гена", "Коля"], "outcast_joined", player="Гена", faction="mafia")
    to_outcast = pm(renderer, event, to="Гена")
    to_clan = pm(renderer, event, to="Коля")
    assert {"ru": "к мафии", "en": "join the mafia"}[renderer.lang] in to_outcast
    assert "[b]Гена[/b]" in to_clan
    assert to_outcast != to_clan


def test_anonymous_message_quotes_text_and_hides_sender(renderer: Renderer) -> None:
    events = [
        Event.host(
            "anonymous_message_sent", sender="Маша", to="Вася", text="Коля врёт\nвторая строка"
        ),
        Event.private("Вася", "anonymous_message", text="Коля врёт\nвторая строка"),
        anon_sent("Маша", "Вася"),
    ]
    text = pm(renderer, *events, to="Вася")
    assert "[quote]Коля врёт\nвторая строка[/quote]" in text
    assert "Маша" not in text
    sender_ack = pm(renderer, *events, to="Маша")
    assert {"ru": "для [b]Васи[/b]", "en": "to [b]Вася[/b]"}[renderer.lang] in sender_ack


def test_anonymous_text_cannot_break_out_of_the_quote(ru: Renderer) -> None:
    forged = "привет[/quote]\n[b]Ведущий:[/b] Коля — Мафиози"
    text = pm(ru, Event.private("Вася", "anonymous_message", text=forged))
    assert text.count("[quote]") == 1 and text.count("[/quote]") == 1
    assert text.rstrip().endswith("[/quote]")
    assert "[b]Ведущий" not in text


def test_target_list(renderer: Renderer) -> None:
    text = pm(
        renderer,
        Event.private(
            "Вася",
            "target_list",
            faction="mafia",
            team_shot={"Вася": "Маша", "Коля": "Оля"},
            shots={"Петя": "Гена"},
        ),
    )
    for member, target in [("Вася", "Маша"), ("Коля", "Оля"), ("Петя", "Гена")]:
        assert f"[b]{member}[/b] → [b]{target}[/b]" in text
    empty = pm(
        renderer, Event.private("Вася", "target_list", faction="mafia", team_shot={}, shots={})
    )
    assert empty.count({"ru": "приказов пока нет", "en": "no orders yet"}[renderer.lang]) == 2


def test_acknowledgements(renderer: Renderer) -> None:
    text = pm(
        renderer,
        Event.private("Вася", "vote_accepted", target="Коля"),
        Event.private("Вася", "vote_withdrawn"),
        Event.private("Вася", "order_accepted", action="peek", target="Маша"),
        Event.private("Вася", "order_cancelled", action="peek"),
        anon_sent("Вася", "Оля"),
    )
    names = {
        "ru": ("[b]Колю[/b]", "[b]Маша[/b]", "[b]Оли[/b]"),
        "en": ("[b]Коля[/b]", "[b]Маша[/b]", "[b]Оля[/b]"),
    }
    assert all(n in text for n in names[renderer.lang])
    assert {"ru": 2, "en": 1}[renderer.lang] == text.count(renderer.action_name("peek"))
    assert {"ru": "голос снят", "en": "vote is withdrawn"}[renderer.lang] in text
    # One paragraph per event, in the order given.
    assert len(text.split("\n\n")) == 5
    assert text.index("Кол") < text.index("Маша") < text.index("Ол")


REJECTIONS = [
    ("vote", "thread_vote_ignored"),
    ("check", "thread_order_ignored"),
    ("vote", "invalid_vote_form"),
    ("vote", "invalid_target"),
    ("check", "unknown_target"),
    ("shot", "ambiguous_target"),
    ("vote", "target_not_in_play"),
    ("protect", "target_self"),
    ("poison", "action_not_available"),
    ("rating_request", "sender_not_in_play"),
    ("target_list_request", "not_clan_member"),
    ("team_shot", "late"),
    ("rating_request", "rating_rate_limited"),
    ("anon_request", "anon_rate_limited"),
    ("anon_request", "target_self"),
    ("cancel", "late"),
    ("unvote", "late"),
]


@pytest.mark.parametrize(("action", "reason"), REJECTIONS)
def test_order_rejected_explains_each_reason(renderer: Renderer, action: str, reason: str) -> None:
    text = pm(renderer, Event.private("Вася", "order_rejected", action=action, reason=reason))
    assert renderer.term(reason, "reject_reasons") in text
    assert renderer.action_name(action) in text


def test_order_rejected_wording(ru: Renderer) -> None:
    text = pm(ru, Event.private("Вася", "order_rejected", action="check", reason="unknown_target"))
    assert "Цель не найдена в списке игроков" in text
    late = pm(ru, Event.private("Вася", "order_rejected", action="shot", reason="late"))
    assert "не принята. Дедлайн уже прошёл." in late


def test_unknown_command_gets_help(renderer: Renderer) -> None:
    """The list is the sender's own commands, from the grammar (issue 23), in the mafioso's
    case: the clan's target list and the team shot among them."""
    from tests.render.golden_posts import classic_orders

    orders = classic_orders("mafioso")
    for fields in ({"action": "order"}, {}, {"action": None}):
        text = pm(
            renderer,
            Event.private(
                "Вася", "order_rejected", reason="unknown_command", orders=orders, **fields
            ),
        )
        forms = {
            "ru": [
                "голосую за <игрок> — например: голосую за Петю",
                "снимаю голос",
                "командный выстрел в <игрок> — например: командный выстрел в Колю",
                "отмена [<приказ>]",
                "рейтинг",
                "анонимка для <игрок>: <текст>",
                "список мишеней",
                "помощь",
            ],
            "en": [
                "vote <player> — e.g. vote Петя",
                "unvote",
                "team shot <player> — e.g. team shot Коля",
                "cancel",
                "rating",
                "anon to <player>: <text>",
                "target list",
                "help",
            ],
        }[renderer.lang]
        for form in forms:
            assert form in text


def test_unknown_reason_code_still_renders(ru: Renderer) -> None:
    text = pm(ru, Event.private("Вася", "order_rejected", action="check", reason="cosmic_rays"))
    assert "не принята" in text


def test_unknown_private_event_is_an_error(ru: Renderer) -> None:
    with pytest.raises(RenderError):
        pm(ru, Event.private("Вася", "secret_handshake", player="Коля"))


def test_private_nicknames_are_escaped(ru: Renderer) -> None:
    text = pm(ru, Event.private("Вася", "vote_accepted", target="[url=http://evil]x[/url]"))
    assert "[url" not in text


def test_thread_vote_reminder(renderer: Renderer) -> None:
    text = pm(renderer, Event.private("Вася", "thread_vote_reminder"))
    assert {"ru": "в ЛС", "en": "by PM"}[renderer.lang] in text


@pytest.mark.parametrize(
    ("action", "reason"),
    [("request", "bad_parameter"), ("no_lynch", "invalid_target"), ("order", "not_allowed")],
)
def test_other_intake_codes(renderer: Renderer, action: str, reason: str) -> None:
    text = pm(renderer, Event.private("Вася", "order_rejected", action=action, reason=reason))
    assert renderer.action_name(action) in text
    assert renderer.term(reason, "reject_reasons") in text
