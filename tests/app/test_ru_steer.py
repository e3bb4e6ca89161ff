"""Issue 25 item 4: a Russian host steers and reviews a game in Russian — `forumgm steer`,
`forumgm host` and `forumgm review` (with `--lang ru`, or the game's language), and the same
commands from the dashboard: their results and refusals from the gettext catalogues, each
phase by its Russian name («ход 1», «среди предупреждений хода 1»), never its id."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from engine import i18n
from engine.app.cli import app
from engine.app.dashboard.web import Dashboard
from engine.app.service_cmd import driver_for
from engine.service.build import database_url
from engine.store import open_store
from tests.app.dashboard_client import (
    client,
    csrf_of,
    log_in,
    make_dashboard,
    set_password,
)
from tests.app.rehearsal import PASSWORD_ENV
from tests.app.review_game import ReviewGame, review_game, runner
from tests.app.steer_game import steer_game
from tests.service.helpers import GM_PASSWORD

__all__ = ["review_game"]

PASSWORD = "correct horse battery"


class RussianHost:
    """The rehearsal game of tests/app/steer_game.py, its commands run with `--lang ru`."""

    def __init__(self, tmp_path: Path) -> None:
        self.g = steer_game(tmp_path)

    def __call__(self, at: str, command: str, *args: str, code: int = 0) -> str:
        return self.g(
            at, "--lang", "ru", *command.split(), "GAME", *args, "--db", self.g.db, code=code
        )


@pytest.fixture
def host(tmp_path: Path) -> RussianHost:
    return RussianHost(tmp_path)


def test_a_removal_and_its_refusals_read_in_russian(host: RussianHost) -> None:
    said = host("2026-12-01T20:00+03:00", "steer remove", "петя", "--reveal")
    assert "Петя: выбывает из игры (фаза: ход 1)" in said
    assert "--- пост в тему (черновик)" in said
    assert "ждут одобрения: 1; forumgm review" in said and "--preview, затем --approve" in said
    assert "removed from play" not in said and "turn 1" not in said
    host("2026-12-01T20:01+03:00", "review", "--approve")
    again = host("2026-12-01T20:02+03:00", "steer remove", "Петя", code=2)
    assert again.strip() == "Петя уже не в игре"
    nobody = host("2026-12-01T20:03+03:00", "steer remove", "Ксюша", code=2)
    assert "'Ксюша' не играет в этой игре; игроки: Вася, Петя, Маша, Коля, Оля" in nobody
    # What the players read is the game's Russian, as it always was.
    host.g("2026-12-01T20:04+03:00", "run", "GAME", "--once", "--db", host.g.db)
    assert "Петя выбывает из игры по решению ведущего. Роль: Мафиози." in host.g.thread()


def test_deadlines_pause_and_resume_in_russian(host: RussianHost) -> None:
    said = host("2026-12-01T20:00+03:00", "steer deadline", "--extend", "1d", "--approve")
    assert said.splitlines()[0] == "ход 1 теперь заканчивается 2026-12-03 19:00 MSK"
    assert "--- пост в тему (одобрен)" in said and "ждут одобрения" not in said
    # A Russian host may write the length in Russian letters too.
    said = host("2026-12-01T20:01+03:00", "steer deadline", "--extend", "2ч", "--approve")
    assert "ход 1 теперь заканчивается 2026-12-03 21:00 MSK" in said
    said = host("2026-12-01T20:02+03:00", "steer deadline", "--shift", "1д", "--approve")
    assert "ход 1 теперь заканчивается 2026-12-04 21:00 MSK; все следующие дедлайны" in said
    bad = host("2026-12-01T20:03+03:00", "steer deadline", "--extend", "скоро", code=2)
    assert "'скоро': напишите срок, например 2h, 1d, 1d6h, 90m или 2ч, 1д6ч" in bad
    past = host("2026-12-01T20:04+03:00", "steer deadline", "--extend", "-5d", code=2)
    assert "дедлайн хода 1 пришёлся бы на 2026-11-29 21:00 MSK, а это время уже прошло" in past
    zero = host("2026-12-01T20:05+03:00", "steer deadline", "--extend", "0ч", code=2)
    assert "'0ч' — это нулевой срок" in zero
    none = host("2026-12-01T20:06+03:00", "steer deadline", code=2)
    assert "укажите что-то одно: новый дедлайн, --extend или --shift" in none
    said = host("2026-12-02T12:00+03:00", "steer pause", "--approve")
    assert "пауза: до продолжения игры ни один дедлайн не наступит" in said
    twice = host("2026-12-02T12:01+03:00", "steer pause", code=2)
    assert "игра уже на паузе: продолжить её — `forumgm steer resume`" in twice
    said = host("2026-12-02T20:00+03:00", "steer resume", "--approve")
    # Paused 8 hours: the deadline moves from 2026-12-04 21:00 to 2026-12-05 05:00.
    assert "игра продолжается после паузы (8 ч); ход 1 заканчивается 2026-12-05 05:00 MSK" in said
    again = host("2026-12-02T20:01+03:00", "steer resume", code=2)
    assert again.strip() == "игра не на паузе"


def test_the_hosts_words_the_end_and_what_is_left_to_steer_in_russian(host: RussianHost) -> None:
    empty = host("2026-12-01T20:00+03:00", "steer say", "  ", code=2)
    assert empty.strip() == "сообщение пустое"
    said = host("2026-12-01T20:01+03:00", "steer say", "Завтра рестарт.")
    assert "сообщение от ведущего в тему поставлено в очередь" in said
    said = host("2026-12-01T20:02+03:00", "steer say", "Вы тут?", "--to", "оля")
    assert "личное сообщение от ведущего поставлено в очередь (кому: Оля)" in said
    assert "--- ЛС (черновик), кому: Оля; тема: " in said
    none = host("2026-12-01T20:03+03:00", "steer grant", "Оля", "vest", code=2)
    assert none.strip() == "в играх classic ведущий ничего не даёт игрокам"
    wrong = host("2026-12-01T20:04+03:00", "steer end", "aliens", code=2)
    # Each outcome by its id, which the host types, and its name.
    assert (
        "'aliens': выберите одно из: town (честные жители), mafia (мафия), draw (ничья), "
        "abandoned (игра прекращена без победителя)"
    ) in wrong
    said = host("2026-12-01T20:05+03:00", "steer end", "draw")
    assert said.splitlines()[0] == "игра окончена: draw (ничья)"
    over = host("2026-12-01T20:06+03:00", "steer pause", code=2)
    assert over.strip() == "игра окончена: управлять больше нечем"


def test_the_audit_log_and_the_password_in_russian(
    host: RussianHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    host("2026-12-01T20:00+03:00", "steer pause")
    db = ["--db", host.g.db]
    # No --lang: the games' language (ru), once the host has not chosen his own.
    monkeypatch.delenv(i18n.ENV)
    log = host.g("2026-12-01T20:01+03:00", "host", "log", *db)
    assert "когда" in log and "действие" in log and "подробности" in log
    row = next(line for line in log.splitlines() if "пауза" in line)
    assert "ход 1" in row and "turn 1" not in row and "pause" not in row
    short = runner.invoke(
        app, ["--lang", "ru", "host", "set-password", *db, "--password-stdin"], input="short\n"
    )
    assert short.exit_code == 2
    assert short.output.strip() == "пароль ведущего должен быть не короче 8 символов"
    done = runner.invoke(
        app, ["--lang", "ru", "host", "set-password", *db, "--password-stdin"], input=PASSWORD
    )
    assert done.exit_code == 0 and done.output.strip() == "Пароль панели для host задан"


def test_a_phase_reads_in_the_hosts_language_in_the_case_a_text_needs() -> None:
    with i18n.use("ru"):
        assert i18n.phase_fields("night 2")["phase_gen"] == "ночи 2"
        assert i18n.phase_fields("day 1")["phase_acc"] == "день 1"
        assert i18n.phase_fields("draft") == {
            "phase": "сбор колод",
            "phase_nom": "сбор колод",
            "phase_gen": "сбора колод",
            "phase_dat": "сбору колод",
            "phase_acc": "сбор колод",
            "phase_ins": "сбором колод",
            "phase_loc": "сборе колод",
        }
        assert i18n.phase_name("turn") == "ход 0"  # twelve-rooms' placement turn
    with i18n.use("en"):
        assert i18n.phase_fields("night 2")["phase_gen"] == "night 2"
        assert i18n.phase_name("turn") == "turn"


def test_the_reviews_refusals_and_fixes_in_russian(review_game: ReviewGame) -> None:
    g = review_game
    listed = g.cli("--lang", "ru", "review", str(g.path), "--orders")
    assert "Маша: лечение: Вася 'лечу Васю'" in listed.output
    ids = dict(re.findall(r"! #(\d+) unknown_target (\S+)", listed.output))
    olya, vasya = (next(i for i, who in ids.items() if who == name) for name in ("Оля", "Вася"))
    refused = g.cli("--lang", "ru", "review", str(g.path), "--fix", "999=Петя")
    assert refused.exit_code == 2
    listed_ids = ", ".join(f"№{i}" for i in sorted(ids, key=int))
    assert f"среди предупреждений хода 1 нет №999 (есть: {listed_ids})" in refused.output
    refused = g.cli("--lang", "ru", "review", str(g.path), "--set", "999=Петя")
    assert refused.exit_code == 2
    assert "среди приказов хода 1 нет №999 (список: --orders)" in refused.output
    settled = g.cli(
        "--lang", "ru", "review", str(g.path), "--typed", f"{olya}=голосую за Колю", "--ignore",
        vasya,
    )  # fmt: skip
    assert settled.exit_code == 0, settled.output
    assert f"№{olya} решено так: Оля: голос: Коля" in settled.output
    assert " решено: текстом: голосую за Колю" in settled.output
    assert " решено: не в счёт" in settled.output
    assert "typed:" not in settled.output and "ignored" not in settled.output


def _russian_dashboard(g: ReviewGame, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.delenv(i18n.ENV)  # the game's language: ru
    set_password(g)
    c = client(make_dashboard(g, monkeypatch))
    log_in(c)
    return c


def test_the_dashboard_names_phases_in_russian(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _russian_dashboard(review_game, monkeypatch)
    page = c.get("/games/1").text
    assert "<strong>ход 1</strong> (итоги готовы)" in page
    assert "Активность, ход 1" in page and "turn 1" not in page
    assert "ход 1 (итоги готовы)" in c.get("/").text
    token = csrf_of(page)
    answer = c.post("/games/1/ignore", data={"csrf": token, "warning": "999", "back": "drafts"})
    assert "среди предупреждений хода 1 нет №999" in answer.text
    warning = re.search(r'id="w(\d+)"', page)
    assert warning is not None
    done = c.post(
        "/games/1/ignore", data={"csrf": token, "warning": warning.group(1), "back": "drafts"}
    )
    assert "решено: не в счёт" in done.text
    log = re.sub(r"<[^>]+>", " ", c.get("/games/1/log").text)
    assert "ход 1" in log and "turn 1" not in log


def _act(c: TestClient, action: str, **fields: str) -> str:
    """Post one of the game page's "steer" forms; the page it lands on, as text."""
    token = csrf_of(c.get("/games/1").text)
    r = c.post(f"/games/1/{action}", data={"csrf": token, "back": "steer", **fields})
    assert r.status_code == 200, r.text
    return re.sub(r"<[^>]+>", " ", r.text)


def test_steering_from_the_dashboard_in_russian(
    host: RussianHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = host.g
    monkeypatch.delenv(i18n.ENV)  # the game's language: ru
    done = runner.invoke(
        app, ["host", "set-password", "--db", g.db, "--password-stdin"], input=PASSWORD + "\n"
    )
    assert done.exit_code == 0, done.output
    monkeypatch.setenv("FORUMGM_NOW", "2026-12-01T20:00+03:00")
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    store = open_store(database_url(g.db))
    c = client(Dashboard(store, [driver_for(g.game, g.db, store)]))
    log_in(c, PASSWORD)
    page = c.get("/games/1").text
    assert "<strong>ход 1</strong> (идёт)" in page and "Голоса, ход 1" in page
    said = _act(c, "steer-remove", player="Петя", reveal="yes")
    assert "Петя: выбывает из игры (фаза: ход 1); ниже ждут вашего одобрения сообщения: 1" in said
    # The post waits as a «черновик», counted so at the top; the game «идёт».
    page = c.get("/games/1").text
    assert '<span class="badge draft">черновик</span>' in page
    assert re.search(r"к отправке: черновик 1, отправлено \d+", re.sub(r"\s+", " ", page))
    assert "#1 · идёт" in c.get("/").text
    log = re.sub(r"<[^>]+>", " ", c.get("/games/1/log").text)
    assert "выбывание игрока" in log and " remove " not in log
    assert "Петя уже не в игре" in _act(c, "steer-remove", player="Петя")
    bad = _act(c, "steer-deadline", extend="скоро")
    assert "'скоро': напишите срок" in html.unescape(bad)
    assert "ход 1 теперь заканчивается 2026-12-03 19:00 MSK" in _act(
        c, "steer-deadline", extend="1д"
    )
    assert "пауза: до продолжения игры" in _act(c, "steer-pause")
    assert "игра уже на паузе" in _act(c, "steer-pause")
    said = _act(c, "steer-say", text="Вы тут?", to="Оля")
    assert "личное сообщение от ведущего поставлено в очередь (кому: Оля)" in said
    wrong = _act(c, "steer-end", outcome="aliens", confirm="yes")
    assert "'aliens': выберите одно из: town (честные жители), mafia (мафия)" in html.unescape(
        wrong
    )
    assert '<option value="town">честные жители</option>' in c.get("/games/1").text
    said = _act(c, "steer-end", outcome="town", confirm="yes")
    assert "игра окончена: town (честные жители)" in said
    assert "removed from play" not in said and "turn 1" not in said
