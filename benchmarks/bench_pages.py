"""Page parsing: saved phpBB topic pages → posts with `PostBody`, against bs4 + lxml and
against a bare lexbor parse that only selects each post's content and takes its text."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bench_common import Row, cpu, cpu_side_by_side
from bs4_baseline import agreement, parse_topic
from selectolax.lexbor import LexborHTMLParser
from synthetic import FIXTURES

from forums.phpbb.topic import parse_topic_page

NOW = datetime(2026, 11, 30, tzinfo=UTC)
URL = "http://127.0.0.1:8081/viewtopic.php?t=2"


def _pages_33() -> list[str]:
    names = [f"{lang}/viewtopic_p{n}.html" for lang in ("ru", "en") for n in range(1, 8)]
    return [(FIXTURES / "3.3.10" / name).read_text(encoding="utf-8") for name in names]


def _ours(pages: list[str]) -> int:
    return sum(len(parse_topic_page(p, URL, tz=UTC, now=NOW).posts) for p in pages)


def _bs4(pages: list[str]) -> int:
    return sum(len(parse_topic(p)) for p in pages)


def _bare(pages: list[str]) -> int:
    count = 0
    for page in pages:
        for node in LexborHTMLParser(page).css("div.post"):
            content = node.css_first("div.content")
            if content is not None:
                content.text()
                count += 1
    return count


def _agreement(pages: list[str]) -> float:
    ours = [p.body for page in pages for p in parse_topic_page(page, URL, tz=UTC, now=NOW).posts]
    theirs = [p.body for page in pages for p in parse_topic(page)]
    return agreement(ours, theirs)


def _timed(pages: list[str], rounds: int, times: int) -> dict[str, float]:
    """CPU seconds of ours, bs4 and the bare parse on `pages`, taken in turns; ours and the
    bare parse are read `times` times a round (they take milliseconds)."""

    def many(read: Callable[[list[str]], int]) -> Callable[[], None]:
        return lambda: [read(pages) for _ in range(times)] and None

    best = cpu_side_by_side({"ours": many(_ours), "bare": many(_bare)}, rounds * 3)
    best["bs4"] = cpu_side_by_side({"bs4": lambda: _bs4(pages)}, rounds)["bs4"] * times
    return {name: seconds / times for name, seconds in best.items()}


def _hostile(page: str, shape: str, count: int) -> str:
    """`page` with its first post's content starting with `shape` `count` times, unclosed."""
    marker = '<div class="content">'
    at = page.index(marker) + len(marker)
    return page[:at] + shape * count + "<s>vote Bob</s> vote Ann" + page[at:]


def _deep_rows(quick: bool) -> list[Row]:
    """Issue 22 item 3: unclosed <div>s and nested quotes cost the parser its stack's depth
    per tag (32k divs took 1.2 s, 500k did not finish in 100 s)."""
    page = (FIXTURES / "3.3.10" / "en" / "viewtopic_p1.html").read_text(encoding="utf-8")
    shapes = {"unclosed <div>s": "<div>", "nested quotes": "<blockquote><cite>A wrote:</cite>"}
    small, large = 32_000, 128_000
    repeat = 1 if quick else 3
    out = []
    for name, shape in shapes.items():
        took = {}
        for count in (small, large):
            html = _hostile(page, shape, count)
            took[count] = cpu(
                lambda html=html: parse_topic_page(html, URL, tz=UTC, now=NOW), repeat
            )
        raw = {n: cpu(lambda m=shape * n: LexborHTMLParser(m), 1) for n in (8_000, 16_000)}
        growth = took[large] / took[small]
        out.append(
            Row(
                f"a phpBB page with {small // 1000}k / {large // 1000}k {name} in a post",
                f"{took[small]:.2f} s / {took[large]:.2f} s: 4× the markup, {growth:.1f}× the time",
                "linear: 4× the markup ≤ 6× the time",
                growth <= 6,
                f"the parser on the markup as sent: 8k {raw[8_000]:.2f} s, 16k "
                f"{raw[16_000]:.2f} s ({raw[16_000] / raw[8_000]:.1f}× for 2×); the issue's "
                "32k divs: 1.2 s",
                "page → posts with PostBody (forums.html.parse_html bounds the nesting the "
                "parser walks); the post still reads «vote Bob» struck",
                {"small_s": took[small], "large_s": took[large], "raw": raw},
            )
        )
    return out


def rows(quick: bool) -> list[Row]:
    rounds = 3 if quick else 7
    pages = _pages_33()
    posts = _ours(pages)
    t = _timed(pages, rounds, 5)
    ours, bs4, bare = t["ours"], t["bs4"], t["bare"]
    faster, slower = bs4 / ours, ours / bare
    out = [
        Row(
            "phpBB 3.3 pages → posts with PostBody",
            f"{faster:.1f}× faster than bs4+lxml; {slower:.2f}× the bare parse "
            f"({posts / ours:.0f} posts/s)",
            "≥ 20× bs4, ≤ 2× the bare parse",
            faster >= 20 and slower <= 2,
            f"bs4+lxml {posts / bs4:.0f} posts/s; bare lexbor {posts / bare:.0f} posts/s",
            f"14 saved 3.3.10 topic pages, {posts} posts; bs4 reads the same text for "
            f"{_agreement(pages):.0%} of them",
            {"ours_s": ours, "bs4_s": bs4, "bare_s": bare, "posts": posts},
        )
    ]
    page30 = [(FIXTURES / "real" / "phpBB.html").read_text(encoding="utf-8")]
    posts30 = _ours(page30)
    t30 = _timed(page30, rounds * 2, 20)
    ours30, bs430, bare30 = t30["ours"], t30["bs4"], t30["bare"]
    out.append(
        Row(
            "phpBB 3.0 prosilver page with long posts",
            f"{bs430 / ours30:.1f}× faster than bs4+lxml ({posts30 / ours30:.0f} posts/s); "
            f"{ours30 / bare30:.2f}× the bare parse",
            "≥ 20× bs4",
            bs430 / ours30 >= 20,
            f"bs4+lxml {posts30 / bs430:.0f} posts/s; bare lexbor {posts30 / bare30:.0f} posts/s",
            f"real/phpBB.html, {posts30} posts; bs4 reads the same text for "
            f"{_agreement(page30):.0%} of them",
            {"ours_s": ours30, "bs4_s": bs430, "bare_s": bare30, "posts": posts30},
        )
    )
    # The structural reading (issue 26) is the fallback for styles the selectors miss: the
    # same pages with every class renamed, read by the posts' marks alone.
    restyled = [_restyle(page) for page in pages]
    renamed_posts = _ours(restyled)
    tr = cpu_side_by_side(
        {
            "selectors": lambda: [_ours(pages) for _ in range(3)] and None,
            "marks": lambda: [_ours(restyled) for _ in range(3)] and None,
        },
        rounds * 2,
    )
    marks, selectors = tr["marks"] / 3, tr["selectors"] / 3
    out.append(
        Row(
            "phpBB 3.3 pages with every class renamed (read by the posts' marks)",
            f"{bs4 / marks:.1f}× faster than bs4+lxml ({renamed_posts / marks:.0f} posts/s); "
            f"{marks / selectors:.2f}× the selectors' reading",
            "≥ 5× bs4 (a fallback); the same posts as the selectors read",
            bs4 / marks >= 5 and renamed_posts == posts,
            f"the selectors' reading of the served pages: {posts / selectors:.0f} posts/s",
            f"the 14 pages above, {renamed_posts} posts; the fast path pays nothing for it "
            "(it is tried only when no selector finds the posts)",
            {"marks_s": marks, "selectors_s": selectors, "posts": renamed_posts},
        )
    )
    return out + _deep_rows(quick)


def _restyle(page: str) -> str:
    """The page with each class name replaced by a meaningless one (tests/forums/restyle.py
    does the same for the tests)."""
    import hashlib
    import re

    def swap(match: re.Match[str]) -> str:
        names = " ".join(
            "s" + hashlib.sha1(n.encode()).hexdigest()[:8] for n in match.group(3).split()
        )
        return f"{match.group(1)}{match.group(2)}{names}{match.group(2)}"

    return re.sub(r"""(\sclass\s*=\s*)(["'])(.*?)\2""", swap, page, flags=re.I | re.S)
