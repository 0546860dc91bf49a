"""Every text a player or host sees goes through here, so it can be shown in
English, Czech or Polish (issue: languages on every screen).

Standard library only (``gettext``), so the game contract, the engines'
messages, the scenes and the runtime can all use it. Mark a text with
``_("...")`` where it is shown, ``ngettext(singular, plural, n)`` where it
counts something, and ``N_("...")`` for a module-level text translated later,
when it is drawn. Numbers and times shown to people go through
``format_number`` so Czech and Polish get a decimal comma.

This first version is English only: the catalogues, the language switch and
locale formatting arrive with the languages work; the names stay.
"""

from __future__ import annotations

#: the languages the box speaks (ISO 639-1), English first
LANGUAGES: tuple[str, ...] = ("en",)

_language = "en"


def _(message: str) -> str:
    """The text in the current language."""
    return message


def N_(message: str) -> str:  # noqa: N802 (the conventional gettext marker name)
    """Mark a text for the catalogue without translating it yet."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language."""
    return singular if n == 1 else plural


def set_language(language: str) -> None:
    """Switch every later text to ``language`` (one of ``LANGUAGES``)."""
    global _language
    if language not in LANGUAGES:
        from games.base import BuzzerBoxError

        raise BuzzerBoxError(f"no language {language!r}: choose one of {', '.join(LANGUAGES)}")
    _language = language


def current_language() -> str:
    return _language


def format_number(value: float, decimals: int = 0) -> str:
    """A number as people of the current language write it."""
    return f"{value:,.{decimals}f}".replace(",", "\u202f")
