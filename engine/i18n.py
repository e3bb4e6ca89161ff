"""The host's language: the dashboard's pages, the CLI's messages and the parse warnings in
Russian or English, from gettext catalogues.

The sources are the `.po` files under `engine/locale/<lang>/LC_MESSAGES/`: `forumgm.po` for
what the dashboard and the CLI say (marked `_()` / `ngettext()` in the code, `_()` in the
templates), `warnings.po` for the parse warnings' templates (marked `N_()` where a warning is
made). Babel reads a `.po` and compiles it in memory the first time a language is needed, so
a fresh clone works after `pip install -e .` with no build step, and the compiled catalogue
can never be older than its source. English is the code's own text: no catalogue is read.

The language is a context variable: `use("ru")` for a block (a dashboard request, a CLI
command); `_()` reads it.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import overload

from engine.core.warnings import N_
from forums.errors import BoardError

LANGUAGES = ("en", "ru")
DEFAULT = "en"
ENV = "FORUMGM_LANG"
"""The host's language for every command (as `--lang`), e.g. FORUMGM_LANG=ru."""
LOCALE_DIR = Path(__file__).parent / "locale"

_current: ContextVar[str] = ContextVar("forumgm_lang", default=DEFAULT)


class UnknownLanguage(ValueError):
    pass


def checked(lang: str) -> str:
    """`lang` ("ru", "en", "ru-RU", "EN") as one of LANGUAGES, or UnknownLanguage."""
    short = lang.strip().lower().replace("_", "-").split("-")[0]
    if short not in LANGUAGES:
        raise UnknownLanguage(f"language {lang!r}: one of {', '.join(LANGUAGES)}")
    return short


def from_env() -> str | None:
    """FORUMGM_LANG when set (a wrong value is an UnknownLanguage)."""
    value = os.environ.get(ENV, "").strip()
    return checked(value) if value else None


def from_accept_language(header: str | None) -> str | None:
    """The first language of LANGUAGES a browser's Accept-Language asks for (by its q-values,
    then its order), or None."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        try:
            lang = checked(tag)
        except UnknownLanguage:
            continue
        if q > 0:
            ranked.append((-q, index, lang))
    return min(ranked)[2] if ranked else None


def current() -> str:
    return _current.get()


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Speak `lang` in this block (this task and what it starts)."""
    token = _current.set(checked(lang))
    try:
        yield current()
    finally:
        _current.reset(token)


_chosen: list[str] = []
"""The language the host chose for this process (`forumgm --lang`, FORUMGM_LANG), if any."""
_given: list[str] = []
"""The language the host named on this command line (`forumgm --lang`), if he did."""


def choose(lang: str | None) -> None:
    """The host's own choice for this process (`--lang`; None: FORUMGM_LANG, if set): it
    wins over a game's language (`for_game`). Without one a command starts in English, not
    in the language an earlier command of the same process (a test's) left behind."""
    picked = checked(lang) if lang else from_env()
    _chosen[:] = [picked] if picked else []
    _given[:] = [picked] if lang and picked else []
    _current.set(picked or DEFAULT)


def forget() -> None:
    """No language chosen in this process and English spoken, as when it started: a test
    suite runs many commands in one process, and one command's language must not reach the
    next test (FORUMGM_LANG still counts: `chosen` reads it)."""
    _chosen.clear()
    _given.clear()
    _current.set(DEFAULT)


def chosen() -> str | None:
    """The host's own choice for this process, if he made one (`choose`, else FORUMGM_LANG)."""
    return _chosen[0] if _chosen else from_env()


def given() -> str | None:
    """The language the host named on this command line (`forumgm --lang`), FORUMGM_LANG
    aside: what a page made for the game's players (a report, a map) follows over the
    game's language, where the host's standing choice for his terminal does not."""
    return _given[0] if _given else None


def for_game(language: str) -> str:
    """Speak the game's `language` from here on, unless the host chose his own; the
    language spoken."""
    lang = chosen() or checked(language)
    _current.set(lang)
    return lang


@cache
def catalogue(lang: str, domain: str = "forumgm") -> gettext.NullTranslations:
    """The compiled catalogue of `lang` (English: none, the code's text)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as source:
        parsed = read_po(source, locale=lang, domain=domain)
    compiled = BytesIO()
    write_mo(compiled, parsed)  # fuzzy entries are left out: they fall back to English
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _(message: str) -> str:
    """`message` in the current language."""
    lang = current()
    return message if lang == DEFAULT else catalogue(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n` in the current language (Russian has three)."""
    lang = current()
    if lang == DEFAULT:
        return singular if n == 1 else plural
    return catalogue(lang).ngettext(singular, plural, n)


class Said(str):
    """A line for the host made from a marked English template (`L_`, `Ln_`): its value
    is the English text, and `in_(lang)` says it again in `lang`.

    What the service tells the host as it runs (`forumgm run`'s lines, its log) is made this
    way, because one line has several readers: the terminal shows it in the host's language,
    the log file and the store keep the English (one text to grep and to quote in a bug report,
    whatever the host reads), and a notice to the hosts says it in the game's language. Being a
    `str`, it goes wherever a line went before."""

    _template: str | None = None
    """None: a plain line (made as `Said(text)`, or unpickled): shown as it is."""
    _plural: str | None = None
    _n: int = 0
    _fields: Mapping[str, object] = {}

    @classmethod
    def made(
        cls,
        template: str,
        fields: Mapping[str, object],
        plural: str | None = None,
        count: int | None = None,
    ) -> Said:
        """The line `template` (or `plural`, by `count`) says with `fields`, in English."""
        english = template if plural is None or count == 1 else plural
        self = cls(english.format(**fields) if fields else english)
        self._template, self._plural, self._n, self._fields = template, plural, count or 0, fields
        return self

    def field(self, name: str) -> object | None:
        """One of the fields the line was made with (None: it has no such field)."""
        return self._fields.get(name)

    def in_(self, lang: str | None = None) -> str:
        """This line in `lang` (the current language by default); its fields that are lines
        of their own are said in `lang` too."""
        lang = current() if lang is None else checked(lang)
        if lang == DEFAULT or self._template is None:
            return str.__str__(self)
        texts = catalogue(lang)
        if self._plural is None:
            template = texts.gettext(self._template)
        else:
            template = texts.ngettext(self._template, self._plural, self._n)
        if not self._fields:
            return template
        return template.format(**{k: shown(v, lang) for k, v in self._fields.items()})


def L_(template: str, **fields: object) -> Said:
    """A line for the host (`Said`): English now, any language when shown (`shown`). Marked
    for the `forumgm` catalogue like `_()`."""
    return Said.made(template, fields)


def Ln_(singular: str, plural: str, n: int, **fields: object) -> Said:
    """A counted line for the host (`Said`), its form chosen by `n` (which fills `{n}`)."""
    return Said.made(singular, {"n": n, **fields}, plural, n)


def joined(parts: Iterable[str], separator: str = "; ") -> Said:
    """Lines said one after another (`L_` lines keep their translation)."""
    fields = {f"p{i}": part for i, part in enumerate(parts)}
    return Said.made(separator.join(f"{{{key}}}" for key in fields), fields)


class PhaseWord(Said):
    """A phase id in a line: "turn 1" in English (the game file's and the log's), «ход 1»
    when shown in Russian (`phase_name`)."""

    def in_(self, lang: str | None = None) -> str:
        with use(current() if lang is None else lang):
            return phase_name(str.__str__(self))


class WarningText(Said):
    """A text of the warnings catalogue (a rule's or the core's, made from an `N_` template)
    inside a line: English like any `Said`, shown in the host's language by `warning_text`."""

    def in_(self, lang: str | None = None) -> str:
        return warning_text(str.__str__(self), lang)


class BoardText(Said):
    """What a board adapter said (a `BoardError`'s English text, made from a template marked
    `forums.errors.N_`): kept in English like any `Said`, shown in the host's language by
    `board_text`."""

    def in_(self, lang: str | None = None) -> str:
        return board_text(str.__str__(self), lang)


def said_of(exc: BaseException) -> str:
    """What an error says: the line it was raised with when that is a `Said` (it keeps its
    translation), a board's error as one `BoardText` line, else its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    if isinstance(first, Said):
        return first
    if isinstance(exc, BoardError):
        return BoardText(" ".join(str(exc).split()))
    return str(exc)


def error_line(exc: BaseException) -> str:
    """An error as one line for the host, its kind and its message ("NotFound: no thread
    '9'"): a board's error is a `Said` whose message is shown in the host's language."""
    said = said_of(exc)
    text = said if isinstance(said, Said) else " ".join(said.split())
    name = type(exc).__name__
    if not text:
        return name
    return Said.made("{error}: {text}", {"error": name, "text": text})


@overload
def shown(text: str, lang: str | None = None) -> str: ...
@overload
def shown(text: object, lang: str | None = None) -> object: ...
def shown(text: object, lang: str | None = None) -> object:
    """`text` as the host reads it in `lang` (the current language by default): a `Said` line
    translated, anything else as it is."""
    return text.in_(lang) if isinstance(text, Said) else text


# -- phases ------------------------------------------------------------------------------------


def phase_name(phase: object, case: str = "nom") -> str:
    """A phase id ("turn 1") as the host reads it in the current language: «ход 1», in a
    case «ходе 1»; in English the id itself, as the game file and the audit log write it."""
    lang = current()
    if lang == DEFAULT:
        return str(phase)
    from engine.wording import phase_words

    kind, _, number = str(phase).partition(" ")
    if kind == "turn" and not number:
        phase = "turn 0"  # twelve-rooms' placement turn, as the report writes it
    return phase_words(phase, case, lang)


def phase_fields(phase: object, key: str = "phase") -> dict[str, str]:
    """A phase as a text's named fields: `{phase}` and each case the translation may need
    (`{phase_gen}`, `{phase_loc}`, …): «в {phase_loc} нет предупреждения №3» is «в ходе 1»;
    an English text uses `{phase}` and leaves the others unused."""
    from engine.wording import CASES

    fields = {f"{key}_{case}": phase_name(phase, case) for case in CASES}
    fields[key] = fields[f"{key}_nom"]
    return fields


# -- parse warnings and board errors ------------------------------------------------------------

_FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")
"""A named field of a template, with its conversion and format spec ("{thread!r}",
"{seconds:.0f}"): the English was made with them, the translation is filled with the text
the English showed."""


_Plural = tuple[str, str]
"""A counted template's English forms (`Nn_`): its translation is chosen by its `{n}`."""

_Patterns = tuple[tuple[re.Pattern[str], str | _Plural], ...]


@cache
def _templates(lang: str, domain: str = "warnings") -> tuple[dict[str, str], _Patterns]:
    """The templates catalogue `domain` of `lang` (the parse warnings', the boards'): its
    plain templates (an action's name, a ruleset's fixed message) by their English text, and
    its templates with fields as patterns of their English text, with their translations.
    The patterns are ordered by their own words, most first, so that a template is tried
    before a shorter one whose fields could swallow its words ("{action}: «{written}» is not
    a player" before a bare "{names}: …")."""
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as source:
        parsed = read_po(source, locale=lang, domain=domain)
    plain: dict[str, str] = {}
    found: list[tuple[int, re.Pattern[str], str | _Plural]] = []
    for message in parsed:
        string = message.string
        forms = [string] if isinstance(string, str) else list(string or ())
        if not message.id or not forms or not all(forms) or message.fuzzy:
            continue
        if isinstance(message.id, str):
            template, translated = str(message.id), str(message.string)
            if not _FIELD.search(template):
                plain[template] = translated
                continue
            found.append(_pattern(template, _bare(translated)))
        else:  # each English form of a counted template reads as the same entry
            english = (str(message.id[0]), str(message.id[1]))
            found.extend(_pattern(form, english) for form in dict.fromkeys(english))
    # A warning's template that holds another marked text ({said}) first: its own words
    # are few (`_warning_said`).
    nested = domain == "warnings"
    found.sort(key=lambda p: (nested and "said" not in p[1].groupindex, -p[0]))
    return plain, tuple((pattern, translated) for _, pattern, translated in found)


def _bare(template: str) -> str:
    """A translation's fields without their conversions and specs: they are filled with the
    text the English showed ("'99'", not "99")."""
    return _FIELD.sub(lambda f: "{" + f.group(1) + "}", template)


def _pattern(
    template: str, translated: str | _Plural
) -> tuple[int, re.Pattern[str], str | _Plural]:
    """An English template as a pattern of the messages made from it, and the count of its
    own characters (more is tried first). A field named twice shows the same text twice."""
    pattern, at, named = [], 0, set()
    for field in _FIELD.finditer(template):
        name = field.group(1)
        pattern.append(re.escape(template[at : field.start()]))
        pattern.append(f"(?P={name})" if name in named else f"(?P<{name}>.+?)")
        named.add(name)
        at = field.end()
    pattern.append(re.escape(template[at:]))
    words = len(_FIELD.sub("", template))
    return words, re.compile("".join(pattern), re.DOTALL), translated


def _matched(
    message: str, patterns: _Patterns, lang: str, domain: str
) -> tuple[str, dict[str, str]] | None:
    """The translation of the first template `message` was made from (a counted one's form
    by its `{n}`), and the texts its fields showed."""
    return next(_matches(message, patterns, lang, domain), None)


def _matches(
    message: str, patterns: _Patterns, lang: str, domain: str
) -> Iterator[tuple[str, dict[str, str]]]:
    """Each template `message` may have been made from, in the order they are tried."""
    for pattern, translated in patterns:
        match = pattern.fullmatch(message)
        if match is not None:
            fields = match.groupdict()
            if not isinstance(translated, str):
                count = fields.get("n", "")
                n = int(count) if count.isdigit() else 0
                translated = _bare(catalogue(lang, domain).ngettext(*translated, n))
            yield translated, fields


def warning_text(message: str, lang: str | None = None) -> str:
    """A stored warning's English `message` in `lang` (the current language by default): the
    template it was made from, translated, with the same names; a message made from no
    known template is shown as it is.

    A plain template is the whole message or nothing (a ruleset's "the ability is spent" is
    never read inside another text); of the fields, only `{action}` is a word the catalogue
    translates («vote» → «голос»): a name, a count or a player's words stay as written, even
    one that reads like a command ("check", a player's nickname)."""
    lang = current() if lang is None else checked(lang)
    if lang == DEFAULT:
        return message
    said = _warning_said(message, lang)
    return message if said is None else said


def _warning_said(message: str, lang: str) -> str | None:
    """`warning_text`'s translation, None for a message made from no known template.

    A `{said}` field holds another marked text (a card file's error inside "option
    collection: {said}"): a template with one is tried first, and matches only if its
    `{said}` is made from a template too. A `{what}` field (what the inner text is about:
    «карта 'strike', поле colour») is translated when it is one, else kept as written."""
    plain, patterns = _templates(lang)
    if message in plain:
        return plain[message]
    for translated, fields in _matches(message, patterns, lang, "warnings"):
        if "said" in fields:
            inner = _warning_said(fields["said"], lang)
            if inner is None:
                continue
            fields["said"] = inner
        if "what" in fields:
            fields["what"] = _warning_said(fields["what"], lang) or fields["what"]
        if "action" in fields:
            fields["action"] = plain.get(fields["action"], fields["action"])
        return translated.format(**fields)
    return None


def board_text(message: str, lang: str | None = None) -> str:
    """What a board adapter said (a `BoardError`'s English text) in `lang` (the current
    language by default): the template of the `boards` catalogue it was made from
    (`forums.errors.N_`), translated; a text made from no known template is shown as it is
    (the board's own words, an adapter's text not yet marked).

    A field may hold another adapter's text (a login refusal inside «the step failed»), so
    each is said again the same way; a name or the board's words match no template and stay
    as written."""
    return _said_again(message, lang, "boards")


def frame_text(message: str, lang: str | None = None) -> str:
    """What the command line parser said (its English `message`, `engine.app.frames`) in
    `lang` (the current language by default), from the `frames` catalogue's templates; a
    message made from none (forumgm's own text inside «Invalid value for …: {message}»,
    already in the host's language) is kept as it is."""
    return _said_again(message, lang, "frames")


def _said_again(message: str, lang: str | None, domain: str) -> str:
    """`message` in `lang` from the templates of `domain` (`board_text`, `frame_text`): each
    field said again the same way (a text may hold another); a message no template made, or
    a translation naming a field the text lacks, is kept as written."""
    lang = current() if lang is None else checked(lang)
    if lang == DEFAULT:
        return message
    plain, patterns = _templates(lang, domain)
    if message in plain:
        return plain[message]
    found = _matched(message, patterns, lang, domain)
    if found is None:
        return message
    translated, fields = found
    try:
        return translated.format(**{k: _said_again(v, lang, domain) for k, v in fields.items()})
    except (KeyError, IndexError, ValueError):
        return message


def languages_of(names: Iterable[str]) -> str | None:
    """The one language `names` share, or None (none given, or several)."""
    found = set(names)
    return found.pop() if len(found) == 1 else None


ACTION_WORDS = (
    N_("vote"),
    N_("unvote"),
    N_("no_lynch"),
    N_("order"),
    N_("cancel"),
    N_("request"),
    N_("check"),
    N_("heal"),
    N_("protect"),
    N_("shot"),
    N_("team_shot"),
    N_("vigilante"),
    N_("poison"),
    N_("peek"),
    N_("distract"),
)
"""The command names a warning starts with (its `{action}`) that the warnings catalogue
translates as words of their own; a ruleset's other action ids are shown as they are."""
