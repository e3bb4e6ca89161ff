"""What the host read in English in a Russian game after the catalogues came (issue 25 item 4):
`game replace` / `game sub` refusals, `activity`'s quiet column, `review --preview`'s item
lines, `game start`'s board check, the sign-up service's lines, the hosts' notice line and the
audit log's details — each driven through the CLI (and the dashboard) as a host does, with
no language named but the game's."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from engine import i18n
from tests.service.helpers import CliGame, cli_game

AT = "2026-12-01T18:00+03:00"
LATER = "2026-12-01T20:00+03:00"
NAMES = ["Вася", "Петя", "Маша", "Коля", "Оля"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}


@pytest.fixture(autouse=True)
def _no_language_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """No FORUMGM_LANG (tests/conftest.py sets en): the game file's language speaks."""
    monkeypatch.delenv(i18n.ENV, raising=False)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _started(tmp_path: Path) -> CliGame:
    """A Russian game on the local board, started; `Bася` (a Latin B) has an account too."""
    g = cli_game(tmp_path, NAMES, others=["Лёша", "Bася"], roles={**ROLES, "Оля": "citizen"})
    g.cli("game", "start", str(g.path), at=AT)
    return g


def test_the_preview_names_each_item_in_russian(tmp_path: Path) -> None:
    g = _started(tmp_path)
    preview = g.cli("review", str(g.path), "--preview", at=AT)
    assert "--- пост в тему (одобрен)\n" in preview, preview  # no subject: no «: »
    assert "--- ЛС (одобрено), кому: Вася; тема: Ваша роль" in preview
    assert "для тема" not in preview and "approved" not in preview
    english = g.cli("--lang", "en", "review", str(g.path), "--preview", at=AT)
    assert "--- approved post to thread\n" in english
    assert "--- approved pm to Вася: Ваша роль" in english


def test_replace_and_sub_refuse_in_russian(tmp_path: Path) -> None:
    g = _started(tmp_path)
    g.cli("review", str(g.path), "--approve", at=AT)
    taken = g.cli("game", "replace", str(g.path), "Оля", "Вася", at=LATER, code=1)
    assert _one_line(taken) == "'Вася' уже играет в этой игре", taken
    nobody = g.cli("game", "replace", str(g.path), "Лёша", "Вася", at=LATER, code=1)
    assert "'Лёша' не занимает места в этой игре (места: Вася, Петя," in _one_line(nobody)
    alike = _one_line(g.cli("game", "replace", str(g.path), "Оля", "Bася", at=LATER, code=1))
    assert alike.startswith(
        "'Bася' для читателей выглядит так же, как 'Вася' из игроков этой игры ('B' — это "
    ), alike
    assert "голос за одного незаметно засчитался бы другому; заменяющему нужно другое имя" in alike
    assert "looks" not in alike and " is " not in alike
    english = g.cli("--lang", "en", "game", "replace", str(g.path), "Оля", "Bася", at=LATER, code=1)
    assert "'Bася' looks the same to readers as 'Вася', who plays in this game" in english
    empty = _one_line(g.cli("game", "sub", str(g.path), "Петя", at=LATER, code=1))
    assert empty.startswith("в запасе не осталось никого, кому предложить место"), empty
    stranger = _one_line(g.cli("game", "sub", str(g.path), "Лёша", at=LATER, code=1))
    assert stranger.startswith("'Лёша' не занимает места в этой игре"), stranger


def test_activity_says_why_a_seat_is_quiet_in_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.service.test_activity import START, quiet_game

    host = quiet_game(tmp_path, monkeypatch)
    at = (START + timedelta(days=1) - timedelta(hours=5)).isoformat()
    table = host.cli("activity", str(host.path), at=at)
    assert "0 сообщений за фазу, меньше 1" in table, table
    assert "post(s)" not in table
    english = host.cli("--lang", "en", "activity", str(host.path), at=at)
    assert "0 post(s) this phase, fewer than 1" in english
    as_json = host.cli("activity", str(host.path), "--json", at=at)
    assert "0 post(s) this phase, fewer than 1" in as_json  # the JSON keeps the core's words


def test_game_start_says_what_it_found_on_the_board_in_russian(tmp_path: Path) -> None:
    from tests.service.helpers import GM

    g = cli_game(tmp_path, NAMES, roles={**ROLES, "Оля": "citizen"})
    checked = g.cli("game", "validate", "--online", str(g.path), at=AT, db=False)
    found = f"вход на форум выполнен как {GM}; тема {g.thread} на месте; у 5 игроков есть учётные"
    assert found in _one_line(checked), checked
    started = _one_line(g.cli("game", "start", str(g.path), at=AT))
    assert f"{found} записи на форуме" in started, started
    assert "logged in" not in started and "accounts" not in started
    english = g.cli("--lang", "en", "game", "validate", "--online", str(g.path), at=AT, db=False)
    assert f"logged in to the board as {GM}; thread {g.thread} is there; the 5 players'" in english


def test_the_sign_up_service_says_what_it_did_in_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game file names no language (a game is Russian by default); the players' posts go
    through the English rehearsal board commands the helper reads."""
    from tests.service.test_signups import Host, at

    monkeypatch.setenv(i18n.ENV, "en")
    host = Host(tmp_path)
    host.post("Вася", "+", at(28, 10))
    host.post("Петя", "в игре!", at(28, 10, 5))
    monkeypatch.delenv(i18n.ENV)
    said = host.cli(at(28, 11), "signup", "run", "--once")
    assert "прочитано 2 новых или изменённых сообщения" in said, said
    assert "даны ответы на 2 заявки или отказа" in said
    assert "в теме набора опубликовано 1 сообщение" in said
    assert "post(s)" not in said and "answered" not in said
    with monkeypatch.context() as english:
        english.setenv(i18n.ENV, "en")
        host.post("Маша", "+", at(30, 20))
    closed = host.cli(at(30, 21), "signup", "close")
    assert "дан ответ на 1 заявку или отказ" in closed, closed
    assert "в теме набора опубликовано 2 сообщения" in closed
    assert "набор закрыт" in closed and "итоговый список поставлен в очередь" in closed
    assert "the sign-ups are closed" not in closed


def test_run_names_what_the_hosts_were_told_of_in_words(tmp_path: Path) -> None:
    """The log line keeps the cause's id (review, missed…); the host's terminal reads it."""
    from tests.service.test_notify_hosts import notified_game

    g = notified_game(tmp_path, smtp=False)
    said = _one_line(g.host("2026-12-02T19:01+03:00", "--lang ru run", "--once"))
    assert "игра 1: ход 1: ведущим отправлено уведомление: итоги ждут проверки" in said, said
    missed = _one_line(g.host("2026-12-03T19:05+03:00", "--lang ru run", "--once"))
    told = "ведущим отправлено уведомление: дедлайн прошёл, пока итоги ждали проверки"
    assert told in missed, missed
    assert "hosts are told" not in said + missed


def test_the_audit_logs_details_read_in_the_hosts_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`host log` and the dashboard's audit log name each stored key and phase in Russian;
    the store keeps its keys, and English shows them as stored."""
    import re

    from engine.app.dashboard.web import Dashboard
    from engine.app.service_cmd import driver_for
    from engine.service.build import database_url
    from engine.store import open_store
    from tests.app.dashboard_client import client, log_in, set_password
    from tests.app.rehearsal import PASSWORD_ENV
    from tests.app.steer_game import steer_game
    from tests.service.helpers import GM_PASSWORD

    g = steer_game(tmp_path)
    db = ["--db", g.db]
    g("2026-12-01T20:00+03:00", "steer", "remove", "GAME", "Петя", "--reveal", *db)
    g("2026-12-01T20:01+03:00", "steer", "say", "GAME", "Вы тут?", *db)
    g("2026-12-01T20:01+03:00", "steer", "deadline", "GAME", "--extend", "1d", *db)
    g("2026-12-01T20:01+03:00", "steer", "pause", "GAME", *db)
    g("2026-12-01T22:01+03:00", "steer", "resume", "GAME", *db)
    log = g("2026-12-01T22:02+03:00", "host", "log", *db)
    assert "длительность паузы: 2 ч" in log, log
    assert "фаза: ход 1; дедлайн: 2026-12-03 19:00 MSK" in log  # stored in UTC, read in MSK
    removed = _one_line(next(line for line in log.splitlines() if "выбывание" in line))
    assert "игрок: Петя; в счёт фазы: ход 1; роль раскрыта: да" in removed, log
    said = _one_line(next(line for line in log.splitlines() if "адресат" in line))
    assert "адресат: тема игры; знаков: 7" in said, log
    assert "counts_for" not in log and "turn 1" not in log and "=" not in log
    english = g("2026-12-01T22:02+03:00", "--lang", "en", "host", "log", *db)
    assert "player=Петя, counts_for=turn 1, reveal=True" in english
    assert "to=thread, chars=7" in english and "paused_for=7200" in english
    store = open_store(database_url(g.db))
    stored = {e.action: e.detail for e in store.host_actions(1)}
    assert stored["remove"] == {"player": "Петя", "counts_for": "turn 1", "reveal": True}

    set_password(g)  # type: ignore[arg-type]  # a rehearsal has the store's --db too
    monkeypatch.setenv("FORUMGM_NOW", "2026-12-01T22:04+03:00")
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    c = client(Dashboard(store, [driver_for(g.game, g.db, store)]))
    log_in(c)
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c.get("/games/1/log").text))
    assert "игрок: Петя; в счёт фазы: ход 1; роль раскрыта: да" in page, page
    assert "адресат: тема игры; знаков: 7" in page and "длительность паузы: 2 ч" in page
    assert "counts_for" not in page and "reveal=" not in page
