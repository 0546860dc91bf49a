"""The language switch as a player sees it: texts, plural forms, numbers."""

from __future__ import annotations

import gettext
import re

import pytest

import games.i18n as i18n
from games.base import BuzzerBoxError
from games.i18n import (
    DOMAIN,
    LOCALE_DIR,
    N_,
    _,
    current_language,
    format_number,
    ngettext,
    pseudo,
    set_language,
)


def test_texts_follow_the_language_and_switch_back_without_a_restart() -> None:
    label = N_("Answer timer")
    assert _(label) == "Answer timer"
    set_language("cs")
    assert _(label) == "Čas na odpověď"
    set_language("pl")
    assert _(label) == "Czas na odpowiedź"
    set_language("en")
    assert _(label) == "Answer timer" and current_language() == "en"


def test_an_empty_text_stays_empty_not_the_catalogue_header() -> None:
    set_language("cs")
    assert _("") == ""


def test_an_unknown_language_is_one_line_naming_the_choices() -> None:
    with pytest.raises(BuzzerBoxError, match=r"^no language 'de': choose one of en, cs, pl$"):
        set_language("de")
    assert current_language() == "en"


def test_a_missing_catalogue_is_one_line_saying_how_to_fix_it(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_loaded", {})
    with pytest.raises(BuzzerBoxError, match=r"cs catalogue .* cannot be read .*make i18n") as caught:
        set_language("cs")
    assert "\n" not in str(caught.value)
    assert current_language() == "en"


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        # 1 karta, 2 karty, 5 karet; 22 karty, 25 karet; 112 karet
        ("cs", {1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 11: 2, 12: 2, 22: 2, 25: 2, 0: 2}),
        # 1 karta, 2 karty, 5 kart; 12 kart but 22 karty; 25 kart; 0 kart
        ("pl", {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 14: 2, 22: 1, 24: 1, 25: 2, 112: 2, 0: 2}),
        ("en", {1: 0, 2: 1, 5: 1, 0: 1}),
    ],
)
def test_each_shipped_catalogue_picks_the_language_s_plural_form(language: str, forms: dict[int, int]) -> None:
    """The rule in the shipped .mo, as the box reads it (stdlib gettext)."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    assert {n: mo.plural(n) for n in forms} == forms  # type: ignore[attr-defined]


def test_english_plural_without_a_catalogue_entry() -> None:
    assert ngettext("{n} thing", "{n} things", 1) == "{n} thing"
    assert ngettext("{n} thing", "{n} things", 3) == "{n} things"


@pytest.mark.parametrize(
    ("language", "value", "decimals", "shown"),
    [
        ("en", 0.25, 2, "0.25"),
        ("cs", 0.25, 2, "0,25"),
        ("pl", 0.25, 2, "0,25"),
        ("cs", 231.4567, 3, "231,457"),
        ("pl", 1.5, 1, "1,5"),
        ("en", 12345.6, 1, "12,345.6"),
        ("en", 1234.56789, 6, "1,234.567890"),  # replay --disputes past 1000 s
        ("cs", 12345.6, 1, "12\u00a0345,6"),
        ("cs", 1234, 0, "1\u00a0234"),
        ("pl", 1234, 0, "1234"),  # Polish groups from five digits on
        ("pl", 12345, 0, "12\u00a0345"),
        ("pl", 1234567, 0, "1\u00a0234\u00a0567"),
        ("cs", -1234.5, 1, "-1\u00a0234,5"),
        ("en", 7, 0, "7"),
    ],
)
def test_numbers_as_each_language_writes_them(language: str, value: float, decimals: int, shown: str) -> None:
    set_language(language)
    assert format_number(value, decimals) == shown


def test_the_pseudo_locale_is_longer_accented_and_keeps_placeholders() -> None:
    text = "answers · {margin} ahead of {name}"
    out = pseudo(text)
    assert "{margin}" in out and "{name}" in out
    plain, plain_out = re.sub(r"\{\w+\}", "", text), re.sub(r"\{\w+\}", "", out)
    assert len(plain_out) >= 1.4 * len(plain)
    assert set(plain_out) & set("ěščřžýáíéůúďťňąćęłńóśźż")
    assert out.format(margin="1 ms", name="Anna").count("Anna") == 1
    assert pseudo("%(default)s") == "%(default)s"


def test_the_pseudo_locale_is_a_switch_not_a_shipped_language() -> None:
    set_language("xx")
    assert _("Answer timer") == pseudo("Answer timer") != "Answer timer"
    assert ngettext("{n} card", "{n} cards", 2).startswith("{n} čářď")
    assert "xx" not in i18n.LANGUAGES
