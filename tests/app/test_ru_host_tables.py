"""The rulesets' tables and progress lines for the host in the host's language: yakuza's HP,
minimafik's hands and its deck building lines, by the ruleset and in the examples' games on
`forumgm review` and the dashboard (ru, and en with --lang en). A ruleset may import no
language (it gets `lang` from engine/app, the language the command or page speaks); the
words are its texts.py, and English is what it always was."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import rulesets
from engine import i18n
from engine.core.model import GameState
from engine.core.orders import Order, OrderKind
from engine.core.ruleset import RulesError, Seat
from engine.session import GameSession
from tests.app.dashboard_client import client, log_in, make_dashboard, set_password
from tests.app.review_game import ReviewGame
from tests.app.test_dashboard_rulesets import _started as started
from tests.service.helpers import cli_game

START = datetime(2026, 12, 1, 16, 0, tzinfo=UTC)


def _yakuza_state() -> GameState:
    ruleset = rulesets.find("yakuza")
    seats = [
        Seat("Вася", "citizen", visible_role="authority"),
        Seat("Петя", "citizen", visible_role="lawyer"),
        Seat("Маша", "citizen", visible_role="stuntman"),
        Seat("Коля", "killer"),
        Seat("Оля", "citizen"),
    ]
    state, _ = ruleset.setup(seats, None, 1)
    state.player("Маша").fields.update(
        hp=40, status="hospital", public_status="hospital", mortally_wounded=True
    )
    state.player("Коля").fields.update(fake_hp=70)
    state.player("Петя").fields.update(hp=60, status="lightly_wounded", public_status="healthy")
    state.player("Оля").fields.update(hp=0, status="dead", public_status="dead", alive=False)
    return state


def test_yakuzas_hp_table_in_russian_names_roles_states_and_notes() -> None:
    [table] = rulesets.find("yakuza").host_tables(_yakuza_state(), None, "ru")
    assert table.title == "ХП"
    assert table.columns == ("игрок", "роль", "явная роль", "ХП", "состояние", "заметки")
    rows = {r[0]: r[1:] for r in table.rows}
    assert rows["Вася"] == ("Мирный житель", "Авторитет", "100/100", "без ранений", "")
    assert rows["Петя"][3:] == ("лёгкое ранение", "город видит: без ранений")
    assert rows["Маша"][3:] == ("тяжёлое ранение, в больнице", "смертельная рана (ХП не меняются)")
    assert rows["Коля"][:2] == ("Киллер", "без явной роли")
    assert rows["Коля"][4] == "дезинформация: всем видно 70 ХП"
    assert rows["Оля"][3] == "нет в живых"


def test_yakuzas_hp_table_in_english_is_as_it_was() -> None:
    [table] = rulesets.find("yakuza").host_tables(_yakuza_state(), None, "en")
    assert table == rulesets.find("yakuza").host_tables(_yakuza_state(), None)[0]
    assert table.title == "HP"
    assert table.columns == ("player", "role", "visible role", "HP", "status", "notes")
    rows = {r[0]: r[1:] for r in table.rows}
    assert rows["Петя"] == (
        "citizen",
        "lawyer",
        "60/100",
        "lightly_wounded",
        "the town sees: healthy",
    )
    assert rows["Маша"][4] == "mortally wounded (HP frozen)"
    assert rows["Коля"][1] == "none" and rows["Коля"][4] == "disinformed: shows 70 HP"


def _minimafik_draft() -> tuple[GameSession, str, str]:
    """A six-player minimafik game in its draft; a Law member who picked `law_picks` cards
    and the Boss (who builds a deck)."""
    ruleset = rulesets.find("minimafik")
    names = ["Аня", "Боря", "Вика", "Гена", "Даша", "Егор"]
    session = GameSession.new(ruleset, [Seat(n) for n in names], {}, 1)
    session.open_phase(START, START + timedelta(days=2))
    law = next(p.name for p in session.state.players if p.faction == "law")
    boss = next(p.name for p in session.state.players if p.role == "boss")
    return session, law, boss


def _picked(session: GameSession, law: str, picks: list[int | None]) -> list[str]:
    session.submit(Order(law, OrderKind.ORDER, "draft_pick", args={"picks": picks}, at=START))
    assert session.inputs is not None
    ruleset = rulesets.find("minimafik")
    lines = ruleset.progress(session.state, session.inputs, "ru")
    return [line for line in lines if line.startswith(f"{law}: ")]


def test_minimafiks_draft_lines_in_russian_count_the_cards_picked() -> None:
    session, law, boss = _minimafik_draft()
    assert session.inputs is not None
    ruleset = rulesets.find("minimafik")
    lines = ruleset.progress(session.state, session.inputs, "ru")
    assert f"{law}: сбор колоды: выбрано 0 карт из 10" in lines
    assert f"{boss}: сбор колоды: колода ещё не прислана" in lines
    assert _picked(session, law, [1]) == [f"{law}: сбор колоды: выбрана 1 карта из 10"]
    assert _picked(session, law, [1, 2, 1]) == [f"{law}: сбор колоды: выбраны 3 карты из 10"]
    five = [1, 2, 1, 2, 1]
    assert _picked(session, law, five) == [f"{law}: сбор колоды: выбрано 5 карт из 10"]
    english = ruleset.progress(session.state, session.inputs, "en")
    assert f"{law}: draft: 5/10 picks" in english
    assert english == ruleset.progress(session.state, session.inputs)


def test_minimafiks_hands_in_russian_and_in_english() -> None:
    ruleset = rulesets.find("minimafik")
    session, law, boss = _minimafik_draft()
    state = session.state
    state.player(law).fields.update(hand=["rot", "blank", "blank", "x"], points=3)
    state.player(boss).fields.update(alive=False, hand=[])
    state.data["leader"] = law
    [ru] = ruleset.host_tables(state, None, "ru")
    assert ru.title == "Карты на руках"
    assert ru.columns == (
        "персонаж", "роль", "в руке", "Гниль", "Пустышки", "в колоде", "баллы", "заметки"
    )  # fmt: skip
    rows = {r[0]: r[1:] for r in ru.rows}
    assert rows[law][:4] == ("Мирный житель", "4", "1", "2") and rows[law][-1] == "Лидер"
    assert rows[boss][0] == "Босс" and rows[boss][-1] == "нет в живых"
    [en] = ruleset.host_tables(state, None, "en")
    assert en.title == "Hands" and en.columns[:3] == ("character", "role", "hand")
    rows = {r[0]: r[1:] for r in en.rows}
    assert rows[law][0] == "citizen" and rows[law][-1] == "Leader"
    assert rows[boss][0] == "boss" and rows[boss][-1] == "dead"


# -- the examples' games on the local board: `forumgm review` and the dashboard -------------


def _page(g: ReviewGame, monkeypatch: pytest.MonkeyPatch, at: str, lang: str) -> str:
    """The game's page of the dashboard in `lang`, its markup unescaped."""
    set_password(g)
    c = client(make_dashboard(g, monkeypatch, at=at, lang=lang))
    log_in(c)
    page = c.get("/games/1")
    assert page.status_code == 200 and f'<html lang="{lang}">' in page.text
    return html.unescape(page.text)


def _review(g: ReviewGame, at: str, lang: str) -> str:
    result = g.cli("--lang", lang, "review", str(g.path), at=at)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_yakuza_games_hp_table_in_the_hosts_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, opened = started(tmp_path, "yakuza", monkeypatch)
    ru, en = _review(g, opened, "ru"), _review(g, opened, "en")
    assert "ХП" in ru and "явная роль" in ru and "состояние" in ru and "без ранений" in ru
    assert "visible role" not in ru and "healthy" not in ru
    assert "visible role" in en and "healthy" in en and "явная роль" not in en
    page = _page(g, monkeypatch, opened, "ru")
    assert "<h2>ХП</h2>" in page and "<th>явная роль</th>" in page
    assert "<td>без ранений</td>" in page and "<td>Мирный житель</td>" in page
    page = _page(g, monkeypatch, opened, "en")
    assert "<h2>HP</h2>" in page and "<th>visible role</th>" in page
    assert "<td>healthy</td>" in page and "явная роль" not in page


def test_a_minimafik_drafts_lines_and_hands_in_the_hosts_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, opened = started(tmp_path, "minimafik", monkeypatch)
    ru, en = _review(g, opened, "ru"), _review(g, opened, "en")
    assert "Карты на руках" in ru and "персонаж" in ru and "Пустышки" in ru
    assert "сбор колоды: выбрано 0 карт из" in ru or "колода ещё не прислана" in ru
    assert "Hands" not in ru and "draft:" not in ru
    assert "Hands" in en and "draft:" in en and "сбор колоды" not in en
    page = _page(g, monkeypatch, opened, "ru")
    assert "<h2>Карты на руках</h2>" in page and "<th>Пустышки</th>" in page
    lines = re.findall(r"<li>(.*?)</li>", page.split('id="progress"')[1].split("</section>")[0])
    assert lines and all("сбор колоды: " in line for line in lines), lines
    page = _page(g, monkeypatch, opened, "en")
    assert "<h2>Hands</h2>" in page and "<th>Blank</th>" in page
    assert "draft: " in page and "сбор колоды" not in page


def test_review_says_what_is_wrong_with_each_warning_in_the_hosts_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the player's words, the rules' reason: the line a host needs to pick a fix."""
    g, opened = started(tmp_path, "yakuza", monkeypatch)
    sent = datetime.fromisoformat(opened) + timedelta(hours=1)
    g.board.post_as("Петя", g.thread, "проверяю Васю", at=sent)
    now = (sent + timedelta(minutes=5)).isoformat()
    polled = g.cli("run", str(g.path), "--once", at=now)
    assert polled.exit_code == 0, polled.output
    ru, en = _review(g, now, "ru"), _review(g, now, "en")
    said = "thread_order_ignored Петя 'проверяю Васю'"
    assert f"{said}\n    ночные приказы засчитываются только в ЛС\n" in ru
    assert f"{said}\n    night orders count only by PM\n" in en


# -- the host's grants: what each means and why the rules refuse one ------------------------


def test_what_the_host_may_grant_reads_in_russian_and_a_bad_value_is_refused_not_raised() -> None:
    twelve = rulesets.find("twelve-rooms")
    for grants in (twelve.host_grants, rulesets.find("votecount").host_grants):
        for meaning in grants.values():
            assert re.search("[а-яё]", i18n.warning_text(meaning, "ru")), meaning
            assert i18n.warning_text(meaning, "en") == meaning
    seats = [Seat("Вася", "manager"), Seat("Петя", "citizen"), Seat("Маша", "citizen")]
    state, _ = twelve.setup(seats, None, 1)
    for grant, value in (("vest", "два"), ("vest", "0"), ("immunity", "-1"), ("immunity", "x")):
        with pytest.raises(RulesError) as refused:
            twelve.grant(state, None, "Петя", grant, value)
        assert re.search("[а-яё]", i18n.warning_text(str(refused.value), "ru")), refused.value
    twelve.grant(state, None, "Петя", "vest", "２")  # a whole number in any digits
    assert state.player("Петя").fields["vests"] == 2


def test_steer_grant_refuses_and_lists_the_grants_in_the_hosts_language(tmp_path: Path) -> None:
    names = ["Вася", "Петя", "Маша", "Коля", "Оля"]
    g = cli_game(tmp_path, names, ruleset="votecount", review="auto")
    g.opened()
    at = "2026-12-01T21:00+03:00"
    words = ("steer", "grant", str(g.path), "Оля")
    wrong = g.cli("--lang", "ru", *words, "weight", "много", at=at, code=2)
    assert "вес голоса: целое число, 0 или больше, а не «много»" in wrong
    unknown = g.cli("--lang", "ru", *words, "vest", at=at, code=2)
    assert "weight: сколько отныне весит голос игрока" in unknown
    assert "cannot_vote: да: его голоса больше не считаются" in unknown
    english = g.cli("--lang", "en", *words, "weight", "lots", at=at, code=2)
    assert "weight: a whole number 0 or more, not «lots»" in english
