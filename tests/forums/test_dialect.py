"""Each engine's BBCode (forums/dialect.py): what a stock board lacks is written in what it has."""

from __future__ import annotations

from forums.dialect import Dialect, dialect_for


def test_stock_phpbb_and_mybb_get_a_spoiler_as_a_bold_title_over_a_quote() -> None:
    text = "[spoiler=История голосов]\nВася → Коля\n[/spoiler]\n[SPOILER]итог[/SPOILER]"
    for engine in ("phpbb", "mybb", "smf"):
        assert dialect_for(engine).adapt(text) == (
            "[b]История голосов[/b]\n[quote]\nВася → Коля\n[/quote]\n[quote]итог[/quote]"
        )


def test_xenforo_and_the_local_board_keep_their_spoilers() -> None:
    text = "[spoiler=История голосов]x[/spoiler]"
    assert dialect_for("xenforo").adapt(text) == text
    assert dialect_for("local").adapt(text) == text


def test_nesting_is_kept_and_a_long_text_costs_one_pass() -> None:
    nested = "[spoiler=a][spoiler=b]x[/spoiler][/spoiler]"
    out = Dialect(spoiler=False).adapt(nested)
    assert out == "[b]a[/b]\n[quote][b]b[/b]\n[quote]x[/quote][/quote]"
    unclosed = "[spoiler=" * 20_000  # no closing bracket anywhere: nothing to rewrite
    assert Dialect(spoiler=False).adapt(unclosed) == unclosed


def test_xenforo_writes_a_players_brackets_as_they_are_inside_plain() -> None:
    """Issue 24 §10: `Eve[/i]` was written `Eve［/i］` everywhere; XenForo has `[PLAIN]`."""
    text = "[b]Eve［/i］[/b] голосует за [b]［url=x］Bob[/b]\n[spoiler=Ход ［1］]x[/spoiler]"
    assert dialect_for("xenforo").adapt(text) == (
        "[b]Eve[PLAIN][[/PLAIN]/i[PLAIN]][/PLAIN][/b] голосует за "
        "[b][PLAIN][[/PLAIN]url=x[PLAIN]][/PLAIN]Bob[/b]\n[spoiler=Ход ［1］]x[/spoiler]"
    )
    # Engines without such a tag keep the full-width brackets no board parses.
    assert dialect_for("phpbb").adapt("Eve［/i］") == "Eve［/i］"
    assert dialect_for("mybb").adapt("Eve［/i］") == "Eve［/i］"


def test_a_long_run_of_brackets_and_tags_costs_one_pass() -> None:
    hostile = "[a［" * 30_000 + "\n" + "［a" * 30_000
    out = dialect_for("xenforo").adapt(hostile)
    assert out.count("[PLAIN]") == 60_000


def test_smf_writes_a_players_brackets_inside_nobbc() -> None:
    """SMF 2.1's `[nobbc]` shows its content as written (fixtures/smf/2.1.4/topic_p1_en.html:
    «[nobbc][b]не жирно[/b][/nobbc]» reads «[b]не жирно[/b]» on the real board)."""
    text = "[b]Eve［/i］[/b] голосует\n[spoiler=Ход ［1］]x[/spoiler]"
    assert dialect_for("smf").adapt(text) == (
        "[b]Eve[nobbc][[/nobbc]/i[nobbc]][/nobbc][/b] голосует\n"
        "[b]Ход ［1］[/b]\n[quote]x[/quote]"  # a tag's option keeps the full-width ones
    )


def test_discourse_keeps_its_spoilers_and_drops_sizes_and_colours() -> None:
    marker = "Итоги\n[size=1][color=#999999]fgm:0123456789abcdef01234567[/color][/size]"
    assert dialect_for("discourse").adapt(marker) == "Итоги\nfgm:0123456789abcdef01234567"
    text = "[spoiler=История голосов][SIZE=2]x[/SIZE][/spoiler]"
    assert dialect_for("discourse").adapt(text) == "[spoiler=История голосов]x[/spoiler]"
    assert dialect_for("phpbb").adapt(marker) == marker
