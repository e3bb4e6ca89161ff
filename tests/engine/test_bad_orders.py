"""Bad orders become warnings or rule-level rejections, never exceptions or silent drops."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import Seat
from engine.session import GameSession
from forums.bbcode import parse_bbcode

OPEN = datetime(2026, 12, 1, 19, 0, tzinfo=ZoneInfo("Europe/Moscow"))
ROLES = {
    "Вася": "citizen",
    "Петя": "commissar",
    "Коля": "mafioso",
    "Маша": "doctor",
    "Оля": "citizen",
}


def session(dead: str | None = None) -> GameSession:
    seats = [Seat(n, r, state={"alive": False} if n == dead else {}) for n, r in ROLES.items()]
    s = GameSession.new(rulesets.find("classic"), seats, None, 3)
    s.open_phase(OPEN, OPEN + timedelta(days=1))
    return s


def pm(
    s: GameSession, player: str, text: str, at: datetime | None = None
) -> tuple[list[str], list[str]]:
    events, warnings = s.submit_post(
        player, parse_bbcode(text), Channel.PM, at=at or OPEN + timedelta(hours=1)
    )
    return [e.type for e in events], [w.code for w in warnings]


def test_unknown_player_is_a_warning_with_suggestions() -> None:
    s = session()
    events, codes = pm(s, "Петя", "проверка Кольки")
    assert codes == ["unknown_target"] and events == ["order_rejected"]
    warning = s.log.warnings[-1]  # type: ignore[union-attr]
    assert warning.player == "Петя" and "Коля" in warning.choices


def test_dead_target_is_rejected_and_the_sender_told() -> None:
    s = session(dead="Оля")
    events, codes = pm(s, "Петя", "проверка Оли")
    assert codes == ["target_not_in_play"]
    assert events == ["order_rejected"]
    assert s.inputs.orders == {}  # type: ignore[union-attr]


def test_action_the_role_lacks_is_rejected() -> None:
    s = session()
    events, codes = pm(s, "Вася", "стреляю в Колю")
    assert codes == ["action_not_available"] and events == ["order_rejected"]


def test_a_pm_of_chatter_gets_the_help_reply() -> None:
    s = session()
    events, codes = pm(s, "Маша", "Привет, мастер! Как дела?")
    assert codes == ["unknown_command"] and events == ["order_rejected"]
    fields = s.log.events[-1].fields  # type: ignore[union-attr]
    assert (fields["action"], fields["reason"]) == ("order", "unknown_command")
    assert fields["orders"]  # the reply lists the orders of her role (issue 23)
    assert pm(s, "Маша", "я думаю, Коля мафия")[0] == ["order_rejected"]
    thread_events, thread_codes = s.submit_post("Маша", parse_bbcode("болтовня"), Channel.THREAD)
    assert thread_events == [] and thread_codes == []


def test_non_player_and_late_commands() -> None:
    s = session()
    assert pm(s, "Незнакомец", "голосую за Колю")[1] == ["sender_not_in_play"]
    late = OPEN + timedelta(days=1, minutes=5)
    assert pm(s, "Вася", "голосую за Колю", at=late)[1] == ["late"]
    assert s.inputs.votes == {}  # type: ignore[union-attr]


def test_structured_orders_are_validated_like_parsed_ones() -> None:
    s = session(dead="Оля")
    bad = [
        Order("Петя", OrderKind.ORDER, "check", ("Нет такого",)),
        Order("Петя", OrderKind.ORDER, "check", ("Оля",)),
        Order("Вася", OrderKind.ORDER, "shot", ("Коля",)),
        Order("Маша", OrderKind.ORDER, "heal", ()),
        Order("Коля", OrderKind.NO_LYNCH),
    ]
    codes = [w.code for order in bad for w in s.submit(order)[1]]
    assert codes == [
        "unknown_target",
        "target_not_in_play",
        "action_not_available",
        "unknown_target",
        "invalid_target",
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.text(max_size=200),
    st.sampled_from(list(ROLES)),
    st.sampled_from([Channel.PM, Channel.THREAD]),
)
def test_any_text_parses_without_raising(text: str, player: str, channel: Channel) -> None:
    s = session()
    s.submit_post(player, parse_bbcode(text), channel, at=OPEN + timedelta(hours=2))
    s.resolve()
