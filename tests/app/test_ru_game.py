"""`forumgm game …` in the host's language: `--lang` (FORUMGM_LANG), else the game file's own
`language`, read before the rest of the file is checked; each problem `validate` finds is
made in that language, with Russian's plural forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from engine import i18n
from engine.app.cli import app
from tests.engine.test_config import GOOD

NOW = "2026-11-30T12:00+03:00"
runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture(autouse=True)
def _no_language_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """No FORUMGM_LANG (tests/conftest.py sets en): the game file's language speaks."""
    monkeypatch.delenv(i18n.ENV, raising=False)


def _validate(path: Path, *lang: str, now: str = NOW) -> Result:
    return runner.invoke(app, [*lang, "game", "validate", str(path)], env={"FORUMGM_NOW": now})


def _lines(result: Result) -> str:
    return " ".join(result.output.split())


BROKEN = (
    GOOD.replace('timezone = "Europe/Moscow"', 'timezone = "Europe/Mosow"')
    .replace('deadlines = "every day 19:00"', 'deadlines = "every blue moon"')
    .replace('"Лена"]', '"Лена", "петя"]')
    .replace("seed = 7", 'seed = 7\nlanguag = "ru"')
)


def test_a_russian_files_problems_are_said_in_russian_each_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(BROKEN, encoding="utf-8")  # no `language`: a game is Russian by default
    said = _validate(path)
    assert said.exit_code == 1, said.output
    text = _lines(said)
    assert f"{path}: 4 проблемы" in text
    assert "строка 4: неизвестный ключ `languag` в [game] (известные: hosts, language," in text
    assert (
        "строка 14: [schedule] timezone: неизвестный часовой пояс 'Europe/Mosow' "
        "(пример: Europe/Moscow)"
    ) in text
    # A wrong zone hides no wrong deadlines: both, each in Russian.
    assert (
        "строка 15: [schedule] deadlines: не удаётся прочитать расписание 'every blue moon': "
        "напишите, например, 'каждый день 19:00', 'каждые 2 дня 21:30' или 'каждые 12 часов'"
    ) in text
    assert "строка 19: [players] 'петя' указан дважды" in text
    assert "unknown" not in text and "line " not in text


def test_the_hosts_lang_wins_over_the_files_language(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(BROKEN, encoding="utf-8")
    said = _validate(path, "--lang", "en")
    assert said.exit_code == 1 and f"{path}: 4 problem(s)" in said.output
    assert "line 19: [players] 'петя' is listed twice" in said.output
    english = tmp_path / "english.toml"
    english.write_text(BROKEN.replace("seed = 7", 'seed = 7\nlanguage = "en"'), encoding="utf-8")
    assert "line 20: [players] 'петя' is listed twice" in _validate(english).output
    russian = _validate(english, "--lang", "ru")
    assert "строка 20: [players] 'петя' указан дважды" in russian.output, russian.output


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (7, "для yakuza нужно не меньше 18 игроков, а в файле их 7 (опция min_players)"),
        (1, "для yakuza нужно не меньше 18 игроков, а в файле их 1 (опция min_players)"),
    ],
)
def test_a_ruleset_minimum_is_counted_in_russian(tmp_path: Path, players: int, said: str) -> None:
    names = ", ".join(f'"Игрок{n}"' for n in range(players))
    text = GOOD.replace('ruleset = "classic"', 'ruleset = "yakuza"').split("[deal]")[0]
    text = text.replace('dead = ["Гена"]\naliases = {"Вася" = ["Васек"]}\n', "")
    path = tmp_path / "yakuza.toml"
    path.write_text(
        text.replace('["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена"]', f"[{names}]"),
        encoding="utf-8",
    )
    result = _validate(path)
    assert result.exit_code == 1 and said in _lines(result), result.output


def test_a_valid_russian_file_and_its_warnings_read_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(GOOD.replace('"every day 19:00"', '"every 2 days 21:00"'), encoding="utf-8")
    said = _validate(path, now="2026-12-01T21:30+03:00")  # the start is past: refused
    assert said.exit_code == 1
    assert (
        "[schedule] начало 2026-12-01 19:00 MSK уже прошло (сейчас 2026-12-01 21:30 MSK): "
        "первая фаза будет короче задуманного; перенесите его или добавьте --allow-past"
    ) in _lines(said), said.output
    allowed = runner.invoke(
        app,
        ["game", "validate", "--allow-past", str(path)],
        env={"FORUMGM_NOW": "2026-12-01T21:30+03:00"},
    )
    assert allowed.exit_code == 0, allowed.output
    text = _lines(allowed)
    assert f"OK {path}: classic, игроков: 7, дедлайны каждые 2 дня 21:00 Europe/Moscow" in text
    assert "строка 10: предупреждение: [board] password: переменная окружения " in text
    assert "(разрешено через --allow-past)" in text


NEW_ANSWERS = [
    "{language}", "classic", "Мафия", "local", "", "", "Ведущий", "", "", "", "not a date",
    "2026-11-01 19:00", "2026-12-05 19:00", "Вася", "Вася, Петя, вася", "Вася, Петя, Маша, Коля, Оля",
    "mafioso=2, commissar=1", "", "",
]  # fmt: skip


def _new(path: Path, *lang: str, language: str = "ru") -> Result:
    answers = "\n".join(NEW_ANSWERS).replace("{language}", language) + "\n"
    return runner.invoke(
        app, [*lang, "game", "new", str(path)], input=answers, env={"FORUMGM_NOW": NOW}
    )


def test_game_new_asks_checks_and_answers_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    said = _new(path, "--lang", "ru")
    assert said.exit_code == 0, said.output
    text = _lines(said)
    for question in (
        "Правила (classic,",
        "Название [Мафия]:",
        "Движок форума (discourse, fluxbb, local,",
        "Локальный форум — форум для репетиций: его создаёт `forumgm board local init`.",
        "Адрес форума [sqlite:///rehearsal-board.sqlite]:",
        "Часовой пояс [Europe/Moscow]:",
        "Дедлайны [каждый день 19:00]:",
        "Первая фаза открывается (ГГГГ-ММ-ДД ЧЧ:ММ):",
        "Роли для раздачи, например mafioso=2, commissar=1 (остальные места: citizen;",
        "Язык игры (ru, en) [ru]:",
        "Проверка ведущим (always, warnings, auto) [warnings]:",
    ):
        assert question in text, question
    assert "'not a date': напишите ГГГГ-ММ-ДД ЧЧ:ММ, например 2026-12-05 19:00" in text
    assert "2026-11-01 19:00 уже прошло: укажите время, которое ещё не наступило" in text
    assert "в игре нужны хотя бы два игрока, через запятую" in text
    assert "'Вася' и 'вася': имя указано дважды (у каждого игрока одно имя)" in text
    assert "Остальные места раздаются как citizen: всего 2." in text
    assert f"Файл {path} записан." in text and "Файл в порядке." in text
    # The file is checked as `validate` checks it: its warning in Russian too.
    assert "предупреждение: [board] password: переменная окружения FORUMGM_GM_PASSWORD" in text
    assert "Ruleset" not in text and "It is valid" not in text
    written = path.read_text(encoding="utf-8")
    assert 'deadlines = "каждый день 19:00"' in written and 'language = "ru"' in written
    checked = _validate(path)
    assert checked.exit_code == 0 and "дедлайны каждый день 19:00 Europe/Moscow" in _lines(checked)


def test_game_new_asks_the_games_language_first_then_speaks_it(tmp_path: Path) -> None:
    """No language of the host's own: the game's language is asked first (in English,
    Russian by default), then every question is the game's language (the file's check
    speaks it, so the lines around it do too); --lang wins."""
    said = _new(tmp_path / "ru.toml")
    assert said.exit_code == 0, said.output
    assert said.output.startswith("Language (ru, en) [ru]:"), said.output
    text = _lines(said)
    assert "Правила (classic," in text and "Ruleset" not in text
    assert "'Вася' и 'вася': имя указано дважды (у каждого игрока одно имя)" in text
    assert "Проверка ведущим (always, warnings, auto) [warnings]:" in text
    assert "Файл в порядке." in text and "It is valid." not in text
    english = _lines(_new(tmp_path / "en.toml", language="en"))
    assert "Ruleset (classic," in english and "Review (always, warnings, auto)" in english
    assert "It is valid." in english
    assert "line 19: warning: [board] password: the environment variable" in english
    chosen = _lines(_new(tmp_path / "chosen.toml", "--lang", "en"))  # the game's is ru
    assert chosen.startswith("Language (ru, en) [en]:")  # the host's own by default
    assert "Review (always, warnings, auto)" in chosen and "It is valid." in chosen
    assert 'language = "ru"' in (tmp_path / "chosen.toml").read_text(encoding="utf-8")
    assert "line 19: warning: [board] password: the environment variable" in chosen


def test_game_new_refuses_a_missing_folder_in_russian_before_asking(tmp_path: Path) -> None:
    said = _new(tmp_path / "none" / "new.toml", "--lang", "ru")
    assert said.exit_code == 2
    assert f"папки {tmp_path / 'none'} нет: сначала создайте её" in said.output
    assert "Правила" not in said.output


def test_game_start_replace_and_sub_answer_a_russian_game_in_russian(tmp_path: Path) -> None:
    from tests.service.helpers import cli_game

    names = ["Вася", "Петя", "Маша", "Коля", "Оля"]
    roles = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
    g = cli_game(tmp_path, names, others=["Лёша", "Дима"], roles={**roles, "Оля": "citizen"})
    text = g.path.read_text(encoding="utf-8")
    g.path.write_text(text.replace("[players]\n", '[players]\nreserve = ["Дима"]\n'), "utf-8")
    at = "2026-12-01T18:00+03:00"
    started = " ".join(g.cli("game", "start", str(g.path), at=at).split())
    assert "игра 1 начата: в очереди постов и ЛС: 6" in started, started
    assert "game 1 started" not in started
    again = g.cli("game", "start", str(g.path), at=at, code=1)
    assert "игра 1 уже начата" in again
    g.cli("review", str(g.path), "--approve", at=at)
    g.cli("run", str(g.path), "--once", at="2026-12-01T19:01+03:00")
    later = "2026-12-01T20:00+03:00"
    refused = g.cli("game", "replace", str(g.path), "Оля", "Новенький", at=later, code=1)
    assert "нет аккаунта 'Новенький'" in refused and "место не изменилось" in refused, refused
    replaced = " ".join(g.cli("game", "replace", str(g.path), "Оля", "Лёша", at=later).split())
    assert "Лёша теперь играет на месте Оли" in replaced, replaced
    assert "Лёша получит ЛС с ролью и историю места" in replaced
    assert "в [players] replacements теперь записано, что Лёша заменяет Олю" in replaced
    offered = " ".join(g.cli("game", "sub", str(g.path), "Петя", at=later).split())
    assert "место Пети (сейчас играет Петя) предложено Диме до 2026-12-02 20:00 MSK" in offered
    assert "ЛС отправит и ответ примет forumgm run" in offered, offered


def test_signup_and_activity_problems_are_russian_on_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    tables = (
        '\n[signup]\nthread = "7"\ncap = 1\napprove = "да"\nwhen = 1\n'
        "\n[activity]\nprod = true\noffer_hours = 0\n"
    )
    path.write_text(GOOD.replace("\n[deal]", tables + "\n[deal]"), encoding="utf-8")
    said = _lines(_validate(path))
    assert "строка 24: [signup] `cap`: число игроков, не меньше 2, а указано 1" in said, said
    assert "строка 25: [signup] `approve`: true или false, а указано 'да'" in said
    assert "строка 26: [signup] неизвестный ключ `when` (известные: approve, cap," in said
    assert "строка 30: [activity] `offer_hours`: часы, за которые можно принять" in said
    assert "строка 29: [activity] для `prod` и `substitute` нужен `min_posts` или" in said


def test_a_players_file_tally_cannot_read_is_said_in_russian(tmp_path: Path) -> None:
    posts = tmp_path / "posts.jsonl"
    posts.write_text("", encoding="utf-8")
    missing = tmp_path / "players.yaml"
    words = ["tally", "--posts", str(posts), "--players", str(missing)]
    said = runner.invoke(app, ["--lang", "ru", *words])
    assert said.exit_code == 2
    assert f"{missing}: такого файла нет; напишите его с именами игроков" in _lines(said)
    missing.write_text("players: [Вася, Петя]\naliases: {Оля: [Оленька]}\n", encoding="utf-8")
    said = runner.invoke(app, ["--lang", "ru", *words])
    assert f"{missing}: aliases: Оля — не игрок" in _lines(said), said.output


def test_a_plain_http_board_and_a_gender_nobody_writes_are_refused_in_russian(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.toml"
    text = GOOD.replace("https://forum.example.org", "http://forum.example.org")
    path.write_text(text.replace('dead = ["Гена"]', 'gender = { "Лена" = "she" }'), "utf-8")
    said = _lines(_validate(path))
    assert (
        "строка 7: http://forum.example.org: на форум по http:// пароль ведущего уйдёт "
        "незашифрованным; используйте https://"
    ) in said, said
    assert "строка 19: [players] gender: 'Лена': 'she': напишите m или f (м или ж)" in said


def test_game_start_of_a_broken_russian_file_lists_its_problems_in_russian(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.toml"
    path.write_text(BROKEN, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    said = runner.invoke(app, ["game", "start", str(path), "--db", db], env={"FORUMGM_NOW": NOW})
    assert said.exit_code == 2, said.output
    text = _lines(said)
    assert f"{path}: строка 14: [schedule] timezone: неизвестный часовой пояс" in text
    assert f"{path}: строка 19: [players] 'петя' указан дважды" in text
    assert not (tmp_path / "store.sqlite").exists()  # nothing made before the file is right


def test_an_option_the_ruleset_lacks_is_refused_on_its_line_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(GOOD.replace("[deal]", "[options]\nnight_kil = 1\n\n[deal]"), "utf-8")
    said = _lines(_validate(path))
    assert "строка 23: [options] неизвестная опция 'night_kil' в правилах classic (известные:" in (
        said
    ), said
    english = _lines(_validate(path, "--lang", "en"))
    assert "line 23: [options] unknown option 'night_kil' for ruleset classic (known:" in english


@pytest.mark.parametrize(
    ("replacements", "said"),
    [
        (
            '"Лёша" = "Петя", "Новичок" = "Петя"',
            "[players] replacements: Петя — замена указана дважды: Лёша и Новичок",
        ),
        (
            '"Лёша" = "Петя", "Петя" = "Вася"',
            "[players] replacements: Вася и Петя — одно место (Лёша (вместо Пети, вместо "
            "Васи)): укажите только одно из имён",
        ),
        (
            '"Лёша" = "Дима", "Дима" = "Лёша"',
            "[players] замены идут по кругу: Лёша заменяет Диму → Дима заменяет Лёшу",
        ),
    ],
)
def test_substitutes_that_cannot_be_are_refused_in_russian(
    tmp_path: Path, replacements: str, said: str
) -> None:
    """The core makes these in English (it speaks no language of the host's); the host
    reads them in his."""
    path = tmp_path / "game.toml"
    text = GOOD.replace('dead = ["Гена"]', f"replacements = {{ {replacements} }}")
    path.write_text(text, encoding="utf-8")
    result = _validate(path)
    assert result.exit_code == 1 and said in _lines(result), result.output


def test_names_that_look_the_same_are_told_apart_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(GOOD.replace('"Лена"]', '"Лена", "Bася"]'), encoding="utf-8")  # Latin B
    said = _lines(_validate(path))
    assert (
        "[players] 'Вася' и 'Bася' для читателей выглядят одинаково ('В' — это CYRILLIC CAPITAL "
        "LETTER VE, 'B' — это LATIN CAPITAL LETTER B): одному из них нужно другое имя"
    ) in said, said
