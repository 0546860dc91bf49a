"""Every text a player or host sees goes through here, so it can be shown in
English, Czech or Polish (issue: languages on every screen).

Standard library only (``gettext``), so the game contract, the engines'
messages, the scenes and the runtime can all use it. Mark a text with
``_("...")`` where it is shown, ``ngettext(singular, plural, n)`` where it
counts something, and ``N_("...")`` for a module-level text translated later,
when it is drawn. Numbers and times shown to people go through
``format_number`` so Czech and Polish get a decimal comma.

The catalogues are ``games/locale/<lang>/LC_MESSAGES/buzzerbox.po``, kept
with Babel (``make i18n``: extract, update, compile); the compiled ``.mo``
files ship in the package and are read here with the standard library, so
the box needs nothing beyond Python to speak three languages. The language
is one global switch: a game reads it at every frame, so changing it between
games needs no restart.

``xx`` is a pseudo-locale for tests and layout checks, not a shipped
language: every text comes back about 40 % longer, with Czech and Polish
accents on its letters, so a screen that fits it fits any real translation.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: the languages the box speaks (ISO 639-1), English first
LANGUAGES: tuple[str, ...] = ("en", "cs", "pl")
#: each language's name as its speakers write it (what the menu offers)
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "cs": "Čeština", "pl": "Polski"}
#: the pseudo-locale: longer, accented texts (tests and layout checks only)
PSEUDO = "xx"
#: the gettext domain: games/locale/<lang>/LC_MESSAGES/buzzerbox.mo
DOMAIN = "buzzerbox"
LOCALE_DIR = Path(__file__).with_name("locale")

_language = "en"
_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_loaded: dict[str, gettext.NullTranslations] = {}


def _(message: str) -> str:
    """The text in the current language."""
    if not message:  # gettext("") would answer with the catalogue's header
        return message
    if _language == PSEUDO:
        return pseudo(message)
    return _catalogue.gettext(message)


def N_(message: str) -> str:  # noqa: N802 (the conventional gettext marker name)
    """Mark a text for the catalogue without translating it yet."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the current language (Czech and Polish have
    three: 1 karta, 2 karty, 5 karet / 5 kart)."""
    if _language == PSEUDO:
        return pseudo(singular if n == 1 else plural)
    return _catalogue.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The text in the current language, for a word that English uses in two
    senses (``context`` tells the translator which one)."""
    if _language == PSEUDO:
        return pseudo(message)
    return _catalogue.pgettext(context, message)


def _load(language: str) -> gettext.NullTranslations:
    found = _loaded.get(language)
    if found is None:
        try:
            found = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[language])
        except OSError as exc:  # FileNotFoundError, or a damaged file
            from games.base import BuzzerBoxError

            raise BuzzerBoxError(
                f"the {language} catalogue {LOCALE_DIR / language / 'LC_MESSAGES' / (DOMAIN + '.mo')} "
                f"cannot be read ({exc.__class__.__name__}): reinstall the box or run `make i18n`"
            ) from None
        _loaded[language] = found
    return found


def set_language(language: str) -> None:
    """Switch every later text to ``language`` (one of ``LANGUAGES``, or the
    pseudo-locale ``xx``)."""
    global _language, _catalogue
    if language not in LANGUAGES and language != PSEUDO:
        from games.base import BuzzerBoxError

        raise BuzzerBoxError(f"no language {language!r}: choose one of {', '.join(LANGUAGES)}")
    _catalogue = gettext.NullTranslations() if language == PSEUDO else _load(language)
    _language = language


def current_language() -> str:
    return _language


# -- reasons: a message id and its arguments, worded by whoever shows them ---------------

#: a reason as an engine gives it: a message id, or (singular, plural) counted by its ``n`` argument
Reason = str | tuple[str, str]


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 (a marker, as N_)
    """Mark a counted text for the catalogue (with both English forms) without
    translating it yet: the viewer picks the form for its ``n``."""
    return singular, plural


def known(message: str) -> bool:
    """Whether ``message`` is a catalogue text, so an argument that is a word
    of the box (a phase, a colour) is translated and a name or a number is
    not. Asked of the English catalogue, which holds every marked text as
    written (``tools/i18n.py`` fills it): a new game's text not yet in Czech
    is still a text of the box."""
    return message in getattr(_load("en"), "_catalog", {})


def word(name: str) -> str:
    """An identifier that doubles as a word (an input "bell", a phase) in the
    current language when a game marked it for the catalogue, else as it is."""
    return _(name) if name and known(name) else name


def reason_english(reason: Reason, arguments: Mapping[str, Any] | None = None) -> str:
    """The reason as the engine wrote it, in English (logs, journals)."""
    if isinstance(reason, tuple):
        reason = reason[0] if (arguments or {}).get("n") == 1 else reason[1]
    if not arguments:
        return reason
    inner = {k: v.format(**arguments) if isinstance(v, str) and "{" in v and known(v) else v
             for k, v in arguments.items()}
    return reason.format(**inner)


def reason_text(reason: Reason | list[str], arguments: Mapping[str, Any] | None = None) -> str:
    """A reason an engine gave as a message id (``RuleError``) in the current
    language, its arguments put in; an argument that is itself a catalogue
    text is translated too (and takes the same arguments: "your hand at
    value <= {value}")."""
    if isinstance(reason, list):  # (singular, plural) as JSON carried it
        reason = (str(reason[0]), str(reason[-1]))
    arguments = arguments or {}
    if isinstance(reason, tuple):
        count = arguments.get("n")
        text = ngettext(reason[0], reason[1], count if isinstance(count, int) else 2)
    else:
        text = _(reason)
    if not arguments:
        return text
    worded = {k: _(v).format(**arguments) if isinstance(v, str) and v and known(v) else v for k, v in arguments.items()}
    try:
        return text.format(**worded)
    except (KeyError, IndexError, ValueError):  # a damaged translation: the English line, never a crash
        return reason_english(reason, arguments)


def worded_text(message: str, arguments: Mapping[str, Any], words: frozenset[str] = frozenset()) -> str:
    """``message`` in the current language with its arguments put in, of which
    only those named in ``words`` are texts of the box to translate (marked
    ``N_``): a name the person wrote (an option, a column of their file) stays
    as written even when it happens to be a word of the catalogue too."""
    if not arguments:  # a text without placeholders may hold braces of its own ({"question": ...})
        return _(message)
    inner = {k: _(v) if k in words and isinstance(v, str) else v for k, v in arguments.items()}
    try:
        return _(message).format(**inner)
    except (KeyError, IndexError, ValueError):  # a damaged translation: the English line, never a crash
        return reason_english(message, arguments)


def refusal_text(data: Mapping[str, Any]) -> str:
    """A ``rejected`` event's reason in the current language (an older
    journal's event has only the English ``why``)."""
    reason = data.get("why_id")
    if isinstance(reason, (str, list)) and reason:
        arguments = data.get("why_args")
        return reason_text(reason, arguments if isinstance(arguments, Mapping) else None)
    return str(data.get("why", ""))


# -- numbers ------------------------------------------------------------------------

#: (decimal mark, group separator, fewest integer digits that get grouped), per CLDR:
#: English writes 0.25 and 1,234; Czech and Polish write 0,25 and 12 345 (no-break
#: space); Polish leaves 1234 whole
_NUMBER_STYLE: dict[str, tuple[str, str, int]] = {
    "en": (".", ",", 4),
    "cs": (",", "\u00a0", 4),
    "pl": (",", "\u00a0", 5),
    PSEUDO: (",", "\u00a0", 4),
}


def decimal_separator() -> str:
    """The current language's decimal mark ("." or ","): a spreadsheet file in
    that language writes numbers with it (and then separates cells with ";")."""
    return _NUMBER_STYLE.get(_language, _NUMBER_STYLE["en"])[0]


def early_language(argv: Sequence[str]) -> str | None:
    """``--lang X`` (or ``--lang=X``) from a command line not parsed yet, if X
    is a language the box speaks (the parser's own help, a line said before
    the command line is read)."""
    for k, word in enumerate(argv):
        value = argv[k + 1] if word == "--lang" and k + 1 < len(argv) else word.removeprefix("--lang=") if word.startswith("--lang=") else None
        if value in LANGUAGES:
            return value
    return None


def format_number(value: float, decimals: int = 0) -> str:
    """A number as people of the current language write it: 0.25 / 0,25."""
    point, group, fewest = _NUMBER_STYLE.get(_language, _NUMBER_STYLE["en"])
    text = f"{value:.{decimals}f}"
    sign = "-" if text.startswith("-") else ""
    whole, _dot, fraction = text.lstrip("-").partition(".")
    if len(whole) >= fewest:
        head = len(whole) % 3 or 3
        whole = group.join([whole[:head]] + [whole[i:i + 3] for i in range(head, len(whole), 3)])
    return sign + whole + (point + fraction if fraction else "")


# -- the pseudo-locale --------------------------------------------------------------

_ACCENTED = str.maketrans(
    "acdeilnorstuyzACDEILNORSTUYZ",
    "áčďěíłńóřšťůýžÁČĎĚÍŁŃÓŘŠŤŮÝŽ",
)
#: what a text is lengthened with: wide Polish letters, so the width grows as much as the length
_FILLER = "ąęśćźżńłó"
#: placeholders a translation must keep as they are: {name}, {n:.3f}, %s, %(name)d
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")


def pseudo(message: str) -> str:
    """``message`` accented and about 40 % longer, placeholders untouched."""
    parts: list[str] = []
    letters = 0
    last = 0
    for match in _PLACEHOLDER.finditer(message):
        plain = message[last:match.start()]
        parts.append(plain.translate(_ACCENTED))
        letters += len(plain)
        parts.append(match.group())
        last = match.end()
    plain = message[last:]
    parts.append(plain.translate(_ACCENTED))
    letters += len(plain)
    if letters == 0:
        return message
    extra = math.ceil(0.4 * letters)
    filler = (_FILLER * (extra // len(_FILLER) + 1))[:extra]
    if extra > 4 and " " in message:  # a sentence grows by a word, as translations do
        filler = " " + filler[1:]
    return "".join(parts) + filler
