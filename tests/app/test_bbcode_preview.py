"""The dashboard's preview of a draft: BBCode → HTML that is safe whatever the text holds."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.app.dashboard.bbcode_html import bbcode_to_html, safe_link


def test_the_tags_our_templates_write() -> None:
    html = bbcode_to_html(
        "[b]Итоги[/b]\n[quote]текст[/quote][spoiler=История]A → B ([url=https://f.example/p1]#[/url])"
        "[/spoiler][u]Тема[/u][size=1][color=#999999]fgm:1[/color][/size]"
    )
    assert html == (
        "<strong>Итоги</strong><br>\n"
        '<blockquote class="bb-quote">текст</blockquote>'
        '<details class="bb-spoiler"><summary>История</summary>A → B ('
        '<a href="https://f.example/p1" rel="nofollow noopener noreferrer">#</a>)</details>'
        "<u>Тема</u>fgm:1"
    )


def test_player_text_cannot_become_html() -> None:
    html = bbcode_to_html(
        '[b]<script>alert(1)</script>[/b] [quote="<img src=x onerror=alert(2)>"]x[/quote]'
        '[spoiler="><svg onload=alert(3)>]y[/spoiler]'
    )
    assert "<script" not in html and "<img" not in html and "<svg" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '<div class="bb-cite">&lt;img src=x onerror=alert(2)&gt;:</div>' in html
    assert "<summary>&#34;&gt;&lt;svg onload=alert(3)&gt;</summary>" in html


def test_links_are_http_only_and_never_break_out_of_the_attribute() -> None:
    html = bbcode_to_html(
        '[url=javascript:alert(1)]a[/url][url=https://x.example/"onmouseover=1]b[/url]'
    )
    assert '<span class="bb-url">javascript:alert(1) a</span>' in html
    assert 'href="javascript' not in html
    assert '<a href="https://x.example/&#34;onmouseover=1"' in html
    assert safe_link("https://example.org/x") == "https://example.org/x"
    for bad in (
        "javascript:alert(1)",
        "data:text/html,x",
        "//evil.example",
        "http://",
        "local://pm/1",
    ):
        assert safe_link(bad) is None, bad


def test_broken_markup_is_closed_and_unknown_tags_stay_text() -> None:
    assert bbcode_to_html("[b]a[i]b") == "<strong>a<em>b</em></strong>"
    assert bbcode_to_html("a[/b]c") == "a[/b]c"
    assert bbcode_to_html("[b]a[i]b[/b]c[/i]") == "<strong>a<em>b</em></strong>c[/i]"
    assert bbcode_to_html("[marquee]x[/marquee]") == "[marquee]x[/marquee]"
    assert (
        bbcode_to_html("[code][b]x[/b][/code]")
        == '<pre class="bb-code"><code>[b]x[/b]</code></pre>'
    )
    assert bbcode_to_html("[*]x") == "[*]x"
    assert (
        bbcode_to_html("[list][*]a[*]b[/list]") == '<ul class="bb-list"><li>a</li><li>b</li></ul>'
    )


def test_deep_nesting_is_handled_in_one_pass() -> None:
    depth = 20_000
    html = bbcode_to_html("[quote]" * depth + "x" + "[/b]" * depth)
    assert html.count("<blockquote") == depth and html.count("</blockquote>") == depth
    assert html.count("[/b]") == depth


_TAGS = ("strong", "em", "u", "s", "blockquote", "details", "summary", "ul", "li", "a", "span")
_OURS = re.compile(rf"</?(?:{'|'.join(_TAGS)}|pre|code|div|br)\b[^<>]*>")


@given(st.text(alphabet=st.sampled_from(list("[]/=bisquoteurl*<>\"'&x \n")), max_size=80))
def test_any_text_gives_balanced_html_without_raw_markup(text: str) -> None:
    html = str(bbcode_to_html(text))
    for tag in _TAGS:
        opened = len(re.findall(rf"<{tag}[ >]", html))
        assert html.count(f"</{tag}>") == opened, (text, html)
    rest = _OURS.sub("", html)
    assert "<" not in rest and ">" not in rest, (text, html)


def test_source_links_go_only_to_the_games_own_board() -> None:
    from types import SimpleNamespace

    from engine.app.dashboard.pages import board_link, source_view
    from engine.core.orders import Channel, Source

    driver: Any = SimpleNamespace(config=SimpleNamespace(url="https://forum.example/phpBB3/"))
    post = "https://forum.example/phpBB3/viewtopic.php?p=12#p12"
    assert board_link(driver, post) == post
    assert board_link(driver, "https://FORUM.example/ucp.php?i=pm&mode=view&p=3") is not None
    for other in ("https://evil.example/x", "http://forum.example/x", "javascript:alert(1)"):
        assert board_link(driver, other) is None, other
    seen = source_view(driver, Source(Channel.PM, "8", "local://pm/8", 1, "лечу Васю"))
    assert seen is not None and (seen.label, seen.link, seen.text) == ("PM 8", None, "лечу Васю")
    seen = source_view(driver, Source(Channel.THREAD, "12", post, 1, "голосую"))
    assert seen is not None and (seen.label, seen.link) == ("post 12", post)
