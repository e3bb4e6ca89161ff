"""Which forum engine served a page: phpBB, MyBB, XenForo, FluxBB, PunBB, SMF 2.1 or
Discourse — or which one we do not support.

Each engine leaves marks in every page it serves (a body id, a form key in the page's
script, template comments, a "Powered by" line, the shape of its links). `SIGNATURES` lists
them as data with a weight: a page is an engine's when its marks add up to at least
`ENOUGH` and outweigh every other engine's. Engines forumgm does not support (phpBB 2 and
its forks such as TorrentPier, Invision, the mybb.ru hosts, uCoz, NodeBB) are recognised
too, so the host hears "TorrentPier is not supported" rather than
"phpBB" (a phpBB 2 fork shares phpBB 3's viewtopic.php and posting.php) or "unknown".
PunBB 1.2 (its layout is FluxBB's) is read as FluxBB, PunBB 1.3 and later (#brd-wrap) as
`punbb`; the mybb.ru family of free Russian hosts (a PunBB fork of their own, not MyBB) is
named and not supported, with why (`WHY_NOT`). Pure: the caller fetches the page.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from forums.errors import N_

__all__ = [
    "ENOUGH",
    "SIGNATURES",
    "SUPPORTED",
    "WHY_NOT",
    "Detection",
    "Signature",
    "detect_engine",
]


@dataclass(frozen=True)
class Signature:
    product: str
    """The engine's name as people know it ("MyBB", "vBulletin")."""
    engine: str | None
    """forumgm's engine name, None for an engine forumgm does not support."""
    pattern: re.Pattern[str]
    weight: int
    label: str
    """What the host is told was seen; `{0}` is the pattern's first group."""


def _sig(product: str, engine: str | None, pattern: str, weight: int, label: str) -> Signature:
    return Signature(product, engine, re.compile(pattern), weight, label)


SIGNATURES: tuple[Signature, ...] = (
    _sig("phpBB", "phpbb", r'<body[^>]*\bid="phpbb"', 3, 'body id="phpbb"'),
    _sig(
        "phpBB",
        "phpbb",
        r'Powered by <a href="https?://www\.phpbb\.com/?"',
        3,
        "“Powered by phpBB”",
    ),
    _sig("phpBB", "phpbb", r"styles/prosilver/", 2, "the prosilver style"),
    _sig(
        "phpBB",
        "phpbb",
        r"memberlist\.php\?[^\"'<>]*mode=viewprofile",
        2,
        "memberlist.php profiles",
    ),
    _sig(
        "phpBB",
        "phpbb",
        r"posting\.php\?[^\"'<>]*mode=(?:reply|post|quote)",
        2,
        "posting.php forms",
    ),
    _sig("phpBB", "phpbb", r"\bucp\.php\?[^\"'<>]*mode=", 1, "ucp.php links"),
    _sig("phpBB", "phpbb", r"\bviewtopic\.php\?[^\"'<>]*\b[tp]=\d", 1, "viewtopic.php links"),
    _sig(
        "MyBB",
        "mybb",
        r"<!-- start: (?:header|footer|headerinclude|postbit|redirect|index)\b",
        3,
        "MyBB template comments",
    ),
    _sig("MyBB", "mybb", r"var my_post_key = \"[0-9a-f]+\"", 3, "my_post_key"),
    _sig(
        "MyBB", "mybb", r'Powered By <a href="https?://(?:www\.)?mybb\.com', 3, "“Powered By MyBB”"
    ),
    _sig(
        "MyBB",
        "mybb",
        r"member\.php\?action=profile&(?:amp;)?uid=\d",
        2,
        "member.php?action=profile links",
    ),
    _sig("MyBB", "mybb", r"jscripts/general\.js", 1, "jscripts/general.js"),
    _sig("MyBB", "mybb", r"showthread\.php\?tid=\d", 1, "showthread.php?tid= links"),
    _sig("XenForo 2", "xenforo", r'<html[^>]*\bid="XF"', 3, 'html id="XF"'),
    _sig("XenForo 2", "xenforo", r"\bdata-xf-init=", 2, "data-xf-init attributes"),
    _sig("XenForo 1", "xenforo", r'<html[^>]*\bid="XenForo"', 3, 'html id="XenForo"'),
    _sig("XenForo 1", "xenforo", r"\bXenForo\.[A-Z][A-Za-z]+", 2, "XenForo scripts"),
    _sig("XenForo", "xenforo", r"name=\"_xfToken\"", 2, "_xfToken"),
    _sig("XenForo", "xenforo", r"Forum software by XenForo", 3, "“Forum software by XenForo”"),
    # vBulletin 3 and 4 are one engine, vBulletin 5 (its `node` pages and AJAX forms)
    # another: its marks outweigh the scripts every version shares.
    _sig(
        "vBulletin",
        "vbulletin",
        r'<meta name="generator" content="(vBulletin [34][^"]*)"',
        3,
        "generator “{0}”",
    ),
    _sig("vBulletin", "vbulletin", r"vbulletin[_a-z]*\.js", 2, "vBulletin scripts"),
    _sig(
        "vBulletin",
        "vbulletin",
        r'Powered by <a href="https?://www\.vbulletin\.com',
        2,
        "“Powered by vBulletin”",
    ),
    _sig("vBulletin", "vbulletin", r"\bSECURITYTOKEN\b", 1, "SECURITYTOKEN"),
    _sig(
        "vBulletin 5",
        "vbulletin5",
        r'<meta name="generator" content="(vBulletin [56][^"]*)"',
        9,
        "generator “{0}”",
    ),
    _sig(
        "vBulletin 5", "vbulletin5", r"\bdata-node-id=|\bpageData\s*=", 2, "vBulletin 5 node pages"
    ),
    _sig(
        "Discourse",
        "discourse",
        r'<meta name="generator" content="(Discourse[^"]*)"',
        3,
        "generator “{0}”",
    ),
    _sig("Discourse", "discourse", r"data-discourse-setup|discourse-cdn", 2, "Discourse setup"),
    _sig("Invision Community", None, r"\bipsQuote\b|\bips4\b|ipb\.vars", 2, "Invision markup"),
    _sig(
        "Invision Community",
        None,
        r"Powered by (?:<a[^>]*>)?\s*(Invision (?:Community|Power Board)|IP\.Board)",
        3,
        "“Powered by {0}”",
    ),
    _sig("Invision Community", None, r"<body[^>]*class=['\"][^'\"]*\bipsApp\b", 3, "ipsApp page"),
    _sig("Invision Power Board", None, r"\bipb_var_|index\.php\?showtopic=\d", 2, "IPB links"),
    _sig("SMF 2.1", "smf", r"smf_scripturl|Powered by SMF", 3, "SMF scripts"),
    _sig("SMF 2.1", "smf", r">(SMF 2\.1[.\d]*) &copy;", 3, "“{0}” in the footer"),
    # SMF 1 and 2.0 print other markup than 2.1's Curve2 (forums/smf reads 2.1's).
    _sig("SMF", None, r"\b(SMF (?:1\.\d|2\.0)[.\d]*)", 4, "“{0}”"),
    _sig("NodeBB", None, r"\bnodebb\b", 2, "NodeBB config"),
    _sig("NodeBB", None, r"/assets/nodebb(?:\.min)?\.js|\"relative_path\"", 2, "NodeBB scripts"),
    # phpBB 2 and its forks: phpBB 2's profile and PM scripts (phpBB 3 has memberlist.php and
    # ucp.php), its subSilver markup and its own copyright line (3.0's begins with 2000).
    _sig(
        "phpBB 2",
        None,
        r"phpBB</a>\s*&copy;\s*2001,\s*200\d\s*phpBB Group",
        4,
        "phpBB 2's “© 2001, 2005 phpBB Group”",
    ),
    _sig(
        "phpBB 2", None, r"\bprofile\.php[?@](?:amp;)?mode=viewprofile", 2, "profile.php profiles"
    ),
    _sig("phpBB 2", None, r"\bprivmsg\.php\b", 1, "privmsg.php"),
    _sig("phpBB 2", None, r'class="forumline"', 1, "subSilver tables"),
    _sig("TorrentPier", None, r"\bwindow\.BB\s*=\s*\{|\bBB_ROOT\b", 4, "TorrentPier's BB script"),
    _sig(
        "TorrentPier", None, r"Powered by (?:<a[^>]*>)?\s*TorrentPier|torrentpier", 3, "TorrentPier"
    ),
    _sig("TorrentPier", None, r"\btracker\.php\b|\bdl\.php\?t=\d", 1, "tracker.php links"),
    # FluxBB 1.x ("Powered by", «Работает на» in the Russian pack) and its PunBB 1.2 markup
    # (#punwrap, #brdmenu, class "pun"), which FluxBB kept. PunBB 1.2 itself says so in its
    # footer (in English whatever the language pack: «Powered by PunBB», a link to
    # punbb.org), and its thread pages read as FluxBB's (fixtures/punbb/1.2.50).
    _sig(
        "FluxBB",
        "fluxbb",
        r"(?:Powered by|Работает на) (?:<a[^>]*>)?\s*(FluxBB)",
        3,
        "“Powered by {0}”",
    ),
    _sig(
        "PunBB 1.2",
        "fluxbb",
        r'Powered by <a href="https?://(?:www\.)?punbb\.org/?">PunBB</a>',
        1,
        "“Powered by PunBB” (punbb.org)",
    ),
    _sig(
        "FluxBB",
        "fluxbb",
        r'<div id="(?:punwrap|brdfooter|brdmenu)"|class="pun\b',
        3,
        "PunBB markup",
    ),
    # PunBB 1.3 and later print other pages (#brd-wrap, div.post with span.post-byline,
    # fixtures/punbb/1.4.4), read by forums/punbb, and link to punbb.informer.com ("Форум
    # работает на" in Russian).
    _sig("PunBB 1.3+", "punbb", r'<div id="brd-wrap" class="brd', 3, "the #brd-wrap layout"),
    _sig(
        "PunBB 1.3+",
        "punbb",
        r'(?:Powered by|работает на)(?:&nbsp;|\s)(?:<a href="https?://punbb\.informer\.com/?">)'
        r"PunBB</a>",
        1,
        "“Powered by PunBB” (punbb.informer.com)",
    ),
    # The free Russian hosts of the mybb.ru family (mybb.ru, rusff, bbcity, …) run their
    # own fork of PunBB — not MyBB: #pun, #pun-main and .punbb blocks, posts as div.post
    # with li.pa-author (facts from public scripts written for those boards; no saved page).
    _sig("MyBB.ru (a PunBB fork)", None, r'<div id="pun-main"|class="punbb\b', 3, "#pun-main"),
    _sig("MyBB.ru (a PunBB fork)", None, r'class="pa-author"', 2, "li.pa-author posts"),
    _sig(
        "uCoz", None, r"//s\d+\.ucoz\.(?:net|ru)/|\bucoz\.(?:ru|net|com)\b|\bvar uCoz\b", 3, "uCoz"
    ),
)
ENOUGH = 3
WHY_NOT = {
    "MyBB.ru (a PunBB fork)": N_(
        "the mybb.ru hosts run a PunBB fork of their own (not MyBB), whose pages forumgm "
        "does not read yet"
    ),
}
"""Why an engine that looks close to a supported one is not supported, for the host."""
SUPPORTED = (
    "discourse",
    "fluxbb",
    "mybb",
    "phpbb",
    "punbb",
    "smf",
    "vbulletin",
    "vbulletin5",
    "xenforo",
)

_DISCOURSE_JSON = ("post_stream", "topic_list", "latest_posts", "user_badges", "private_message")
_DISCOURSE_POST = frozenset({"cooked", "avatar_template", "post_number", "topic_slug"})
"""The fields of one Discourse post object (`/posts/N.json`, a reply's answer)."""
_TITLE = re.compile(r"<title[^>]*>\s*([^<]{1,120}?)\s*</title>", re.IGNORECASE)


@dataclass(frozen=True)
class Detection:
    engine: str | None
    """forumgm's engine name when supported, else None."""
    product: str | None
    """What served the page ("MyBB", "XenForo 2", "vBulletin 4.2.3"), None when unknown."""
    seen: tuple[str, ...]
    """The marks found, for the host."""

    def describe(self) -> str:
        marks = ", ".join(self.seen)
        if self.engine is not None:
            return f"{self.product} ({marks})"
        supported = ", ".join(SUPPORTED)
        if self.product is not None and self.product in WHY_NOT:
            return N_(
                "{product} — not a supported engine: {why} (saw {marks}); forumgm supports "
                "{supported}"
            ).format(
                product=self.product, why=WHY_NOT[self.product], marks=marks, supported=supported
            )
        if self.product is not None:
            return N_(
                "{product} — not a supported engine (saw {marks}); forumgm supports {supported}"
            ).format(product=self.product, marks=marks, supported=supported)
        return N_("not a supported engine: {marks}; forumgm supports {supported}").format(
            marks=marks, supported=supported
        )


def detect_engine(body: str, content_type: str = "") -> Detection:
    """The engine that served `body` (the page as text), from its markup alone."""
    text = body.lstrip("\ufeff")
    if "json" in content_type.lower() or text.lstrip()[:1] in ("{", "["):
        return _json(text)
    scores: dict[str, int] = {}
    seen: dict[str, list[str]] = {}
    products: dict[str, str] = {}
    for sig in SIGNATURES:
        found = sig.pattern.search(text)
        if found is None:
            continue
        key = sig.engine or sig.product
        scores[key] = scores.get(key, 0) + sig.weight
        seen.setdefault(key, []).append(sig.label.format(*found.groups()))
        named = found.group(1) if found.groups() else sig.product
        # The most specific name wins: "XenForo 2" over "XenForo", a generator's version.
        if len(named) > len(products.get(key, "")):
            products[key] = named
    ranked = sorted(scores, key=lambda k: scores[k], reverse=True)
    if ranked and scores[ranked[0]] >= ENOUGH:
        best = ranked[0]
        if len(ranked) == 1 or scores[ranked[1]] < scores[best]:
            engine = best if best in SUPPORTED else None
            return Detection(engine, products[best], tuple(seen[best]))
    return Detection(None, None, (_what_page(text, content_type, seen),))


def _what_page(text: str, content_type: str, seen: dict[str, list[str]]) -> str:
    if not text.strip():
        return N_("an empty answer")
    kind = content_type.split(";")[0].strip()
    if kind:
        page = N_("a {kind} page").format(kind=kind)
    else:
        page = N_("an HTML page") if "<html" in text[:4000].lower() else N_("a page")
    if len(text) >= 1024:
        size = N_("{n} KB").format(n=len(text) // 1024)
    else:
        size = N_("{n} bytes").format(n=len(text))
    title = _TITLE.search(text)
    marks = ", ".join(m for found in seen.values() for m in found)
    if title and marks:
        said = N_("{page} of {size} titled “{title}” with only {marks}")
    elif title:
        said = N_("{page} of {size} titled “{title}” with no forum engine's marks")
    elif marks:
        said = N_("{page} of {size} with only {marks}")
    else:
        said = N_("{page} of {size} with no forum engine's marks")
    return said.format(page=page, size=size, title=title.group(1) if title else "", marks=marks)


def _json(text: str) -> Detection:
    try:
        data = json.loads(text)
    except ValueError:
        return Detection(None, None, (N_("a JSON answer that does not parse"),))
    keys = set(data) if isinstance(data, dict) else set()
    if isinstance(data, list) and data and isinstance(data[0], dict):
        keys = set(data[0])
    found = sorted(keys & set(_DISCOURSE_JSON))
    if found:
        return Detection(
            "discourse", "Discourse", (f"a Discourse API answer ({', '.join(found)})",)
        )
    if keys >= _DISCOURSE_POST:
        fields = ", ".join(sorted(_DISCOURSE_POST))
        return Detection("discourse", "Discourse", (f"a Discourse post object ({fields})",))
    sample = ", ".join(sorted(keys)[:6]) or "no keys"
    said = N_("a JSON answer ({sample}), not a forum page").format(sample=sample)
    return Detection(None, None, (said,))
