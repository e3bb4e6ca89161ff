"""The golden dump of `PostBody` records: every saved page and a fixed set of BBCode texts.

`tests/forums/golden_bodies.json` holds, for each record, the sha256 of its canonical JSON
(every field of every run that differs from its default, and the links), so a change to
`forums/phpbb/html.py` or `forums/bbcode.py` that changes any record shows up by name.
A new `TextRun` flag that is off by default changes no record. After an intended change:

    .venv/bin/python -m tests.forums.golden_bodies --update

and say in the commit which records changed and why (`--diff` lists them first).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from selectolax.lexbor import LexborHTMLParser

from forums.bbcode import parse_bbcode
from forums.errors import LayoutChanged
from forums.phpbb.html import html_to_postbody
from forums.phpbb.topic import parse_topic_page
from forums.records import PostBody, TextRun

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "fixtures" / "phpbb"
GOLDEN = Path(__file__).with_name("golden_bodies.json")
BASE_URL = "http://board.example/viewtopic.php?t=1"
NODES = "div.content, div.signature, div.postbody, blockquote, dd, li"
"""Post parts parsed on their own besides the whole page (each is a `html_to_postbody` root)."""
_DEFAULTS = {f.name: f.default for f in fields(TextRun) if f.name != "text"}


def canonical(body: PostBody) -> str:
    runs = [
        {"text": r.text, **{k: getattr(r, k) for k, d in _DEFAULTS.items() if getattr(r, k) != d}}
        for r in body.runs
    ]
    links = [[link.url, link.text] for link in body.links]
    return json.dumps({"runs": runs, "links": links}, ensure_ascii=False, sort_keys=True)


def digest(body: PostBody) -> str:
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()[:20]


def html_records() -> Iterator[tuple[str, PostBody]]:
    """Every saved phpBB page whole, each post part of it, its topic posts, the real game."""
    for path in sorted(PAGES.rglob("*.html")):
        name = path.relative_to(PAGES).as_posix()
        html = path.read_text(encoding="utf-8", errors="replace")
        yield f"page:{name}", html_to_postbody(html, base_url=BASE_URL)
        tree = LexborHTMLParser(html)
        for i, node in enumerate(tree.css(NODES)):
            yield f"node:{name}:{i}", html_to_postbody(node, base_url=BASE_URL)
        try:
            topic = parse_topic_page(html, BASE_URL, tz=UTC, now=datetime(2030, 1, 1, tzinfo=UTC))
        except LayoutChanged:
            continue
        for post in topic.posts:
            yield f"post:{name}:{post.id}", post.body
    for line in (PAGES / "real" / "17378.jsonl").read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        yield f"jsonl:17378:{doc['id']}", html_to_postbody(doc["content"])


_PIECES = [
    "[quote]", "[/quote]", '[quote="Вася"]', "[quote=Петя post_id=5 time=1]", "[s]", "[/s]",
    "[b]", "[/b]", "[spoiler]", "[/spoiler]", "[code]", "[/code]", "[url=http://x.example/a]",
    "[url]", "[/url]", "[vote]", "[/vote]", "[unvote]", "[/unvote]", "[list]", "[*]",
    "[/list]", "[color=red]", "[/color]", "[size=1]", "[/size]", "[img]", "[/img]", "[i think]",
    "[unknown]", "голосую за Васю", "vote Petya", " ", "\n", "\r\n", "слово", "[", "]", "=",
    "проверка Коли.", "  ", "[/b][b]", "[quote][quote=Коля]вложенная", "[/QUOTE]", "[S]",
]  # fmt: skip


def generated_bbcode(count: int = 400, seed: int = 12) -> list[str]:
    """Seeded random BBCode: nesting, stray and unclosed tags, line breaks of every kind."""
    rng = random.Random(seed)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40))) for _ in range(count)]


def project_bbcode() -> list[str]:
    """The texts of the labelled corpus and of the scenario files, as they are today."""
    texts: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("text", "signature") and isinstance(value, str):
                    texts.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    files = [*(ROOT / "fixtures" / "parsing").glob("*.yaml"), *(ROOT / "tests").rglob("*.yaml")]
    for path in sorted(files):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            walk(doc)
    return texts


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def records(bbcode_inputs: list[str]) -> dict[str, str]:
    out = {key: digest(body) for key, body in html_records()}
    for i, text in enumerate([*bbcode_inputs, *generated_bbcode()]):
        out[f"bbcode:{i}"] = digest(parse_bbcode(text))
    return out


def main(argv: list[str]) -> int:
    if "--update" in argv:
        inputs = load()["bbcode_inputs"] if GOLDEN.exists() else project_bbcode()
        data = {"bbcode_inputs": inputs, "records": records(inputs)}
        GOLDEN.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(f"{len(data['records'])} records written to {GOLDEN}")
        return 0
    golden = load()
    now = records(golden["bbcode_inputs"])
    changed = sorted(k for k in golden["records"] if now.get(k) != golden["records"][k])
    print("\n".join(changed) or "no record changed")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
