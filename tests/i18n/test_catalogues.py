"""The catalogues are complete and current: every text the code marks is in
each language's .po, translated (every plural form), never fuzzy or obsolete,
with the code's placeholders, and the shipped .mo says what its .po says.

Run ``make i18n`` to update them (tools/i18n.py); these tests read the files
with Babel's .po reader and the standard library's .mo reader, and take from
the tool only which game owns a text: a game not yet translated into a
language (``GameSpec.translated``) may leave its own texts empty there, and
they are listed as a warning in the test report, not a failure.
"""

from __future__ import annotations

import functools
import gettext
import importlib.util
import io
import re
import warnings
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from games import registry
from games.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
Key = tuple[str | None, str | tuple[str, ...]]


#: a package no game can have (not a Python name): a new game registered from it does not import, even
#: when someone has put the worked example (tests/toy/hot_potato) into games/ under its own name
NO_PACKAGE = "games.no such package"
#: the games the box ships: complete in every language, and kept so
SHIPPED = {"quiz", "reaction", "schicki-micki", "viva-topo", "piepmatz", "fiki-miki", "pictomania"}


def i18n_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("buzzerbox_i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache  # the code does not change while the tests run: extracted once for every language
def marked_in_code() -> frozenset[Key]:
    found: set[Key] = set()
    for source in ("controller", "games"):
        for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT / source), method_map=[("**.py", "python")], keywords=i18n_tool().KEYWORDS
        ):
            found.add((context, message))
    return frozenset(found)


@functools.cache  # as marked_in_code; ``to_translate`` only reads it
def code_template() -> Catalog:
    """The tool's template: every marked text in the code, with where it is marked."""
    return i18n_tool().template()


def catalogue(language: str) -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=language)


def key(m: Message) -> Key:
    return (m.context, m.id if isinstance(m.id, str) else tuple(m.id))


def forms(m: Message) -> list[str]:
    return [m.string] if isinstance(m.string, str) else list(m.string)


def test_no_text_is_marked_inside_an_f_string() -> None:
    """Babel cannot see ``_("...")`` inside an f-string's braces: such a text
    would never reach the catalogues and stay English on every screen."""
    inside = re.compile(r"""\bf(["'])[^"'\n]*\{[^}\n]*\b(?:_|N_|ngettext)\(""")
    found = [f"{path.relative_to(ROOT)}:{n}" for source in ("controller", "games") for path in (ROOT / source).rglob("*.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if inside.search(line)]
    assert not found, f"marked inside an f-string (use .format after _()): {found}"


def test_the_code_marks_texts_for_translation() -> None:
    """The extraction finds the spec texts (so an empty catalogue cannot pass)."""
    assert (None, "Answer timer") in marked_in_code()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_text_is_in_the_catalogue_and_nothing_else(language: str) -> None:
    code = marked_in_code()
    po = {key(m) for m in catalogue(language) if m.id}
    assert not code - po, f"missing from {language} (run make i18n, then translate): {sorted(map(str, code - po))[:10]}"
    assert not po - code, f"stale in {language} (run make i18n): {sorted(map(str, po - code))[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_translated_never_fuzzy_or_obsolete(language: str) -> None:
    cat = catalogue(language)
    assert not cat.obsolete, f"obsolete entries in {language}: {list(cat.obsolete)[:5]}"
    fuzzy = [m.id for m in cat if m.id and m.fuzzy]
    assert not fuzzy, f"fuzzy entries in {language}: {fuzzy[:5]}"
    tool = i18n_tool()
    missing, fallback = tool.to_translate(cat, code_template(), language)
    assert not missing, f"{language}: not translated (run make i18n, then translate): {missing[:10]}"
    for game, texts in sorted(fallback.items()):
        warnings.warn(f"{language}: {game} is not translated yet; {len(texts)} texts fall back to English: "
                      + "; ".join(map(repr, texts)), UserWarning, stacklevel=1)
    for m in cat:
        if m.id and m.pluralizable and all(forms(m)):
            got = forms(m)
            assert len(got) == cat.num_plurals, f"{language} {m.id!r}: {len(got)} forms, the language has {cat.num_plurals}"


def test_the_shipped_games_stay_translated_into_every_language() -> None:
    assert set(registry.available()) >= SHIPPED
    for name in SHIPPED:
        assert set(registry.get(name).translated) == set(LANGUAGES), f"{name} must stay complete in {LANGUAGES}"


def test_a_new_game_s_untranslated_texts_fall_back_to_english_and_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a contributor who speaks neither Czech nor Polish gets: the new
    game's texts are listed, not failed; the box's own are still required;
    and the compiled catalogue shows the English text."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    tool = i18n_tool()
    tmpl = Catalog(locale="en")
    tmpl.add("pass the potato", locations=[(f"{NO_PACKAGE.replace('.', '/')}/engine.py", 3)])
    tmpl.add("the box's own text", locations=[("controller/box/session.py", 9)])
    tmpl.add("said by both", locations=[(f"{NO_PACKAGE.replace('.', '/')}/scene.py", 5), ("games/toolkit/scene.py", 7)])
    cs = Catalog(locale="cs")
    for m in tmpl:
        if m.id:
            cs.add(m.id, "")
    with registry.register("hot-potato", NO_PACKAGE):
        missing, fallback = tool.to_translate(cs, tmpl, "cs")
    assert sorted(missing) == ["pass the potato", "said by both", "the box's own text"]
    assert fallback == {}, "a game that does not import is held to every language"

    class NewGame:
        translated = ("en",)

    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda name: NewGame() if name == "hot-potato" else real_get(name))
    with registry.register("hot-potato", NO_PACKAGE):
        missing, fallback = tool.to_translate(cs, tmpl, "cs")
    assert sorted(missing) == ["said by both", "the box's own text"]
    assert fallback == {"hot-potato": ["pass the potato"]}
    buffer = io.BytesIO()
    write_mo(buffer, cs)
    buffer.seek(0)
    assert gettext.GNUTranslations(buffer).gettext("pass the potato") == "pass the potato"


def placeholder_problems(cat: Catalog) -> list[str]:
    """Each translated form whose placeholders differ from the code's. An
    empty form is untranslated (English shows; the test above lists a new
    game's and fails the box's own), not a form that lost its placeholders."""
    found = []
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        want = set(PLACEHOLDER.findall(ids[-1]))
        found += [f"{cat.locale} {m.id!r}: {form!r} has other placeholders"
                  for form in forms(m) if form and set(PLACEHOLDER.findall(form)) != want]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_code_s_placeholders(language: str) -> None:
    """A translation that drops or renames {n} would crash or lie on screen."""
    problems = placeholder_problems(catalogue(language))
    assert not problems, problems[:5]


def test_a_new_game_s_empty_translation_is_no_placeholder_problem() -> None:
    """A text of an English-only game, untranslated, has no Czech form to
    check (it failed here, so such a game could not land); a wrong one still fails."""
    cs = Catalog(locale="cs")
    cs.add("{n} potatoes left", "")
    cs.add(("{n} potato", "{n} potatoes"), ("", "", ""))
    assert placeholder_problems(cs) == []
    cs.add("{holder} holds it", "{drzitel} ji drží")
    assert len(placeholder_problems(cs)) == 1


def test_a_new_game_s_untranslated_template_argument_is_still_filled_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """``known`` asked the Czech catalogue: a new game's text not yet in it
    (an argument that is itself a template, "{n} ms") stayed "{n} ms" on a
    Czech screen. The English catalogue holds every marked text."""
    from games import i18n

    set_language = i18n.set_language
    set_language("cs")
    try:
        czech = i18n._load("cs")
        catalog = dict(czech._catalog)  # type: ignore[attr-defined]
        catalog.pop("{n} ms", None)  # as if a new game marked it and nobody translated it yet
        monkeypatch.setattr(czech, "_catalog", catalog)
        assert i18n.known("{n} ms")
        assert i18n.reason_text("waited {time}", {"time": "{n} ms", "n": 3}) == "waited 3 ms"
    finally:
        set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shipped_mo_says_what_its_po_says(language: str) -> None:
    """A .po edited without recompiling (make i18n) fails here."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    cat = catalogue(language)
    for m in cat:
        if not m.id:
            continue
        if m.pluralizable:
            singular, plural = m.id[0], m.id[1]
            for n in range(0, 120):
                index = mo.plural(n)  # type: ignore[attr-defined]
                got = mo.npgettext(m.context, singular, plural, n) if m.context else mo.ngettext(singular, plural, n)
                want = forms(m)[index] or (singular if n == 1 else plural)  # untranslated: gettext's fallback
                assert got == want, f"{language} .mo is stale: {m.id!r} for {n}"
        else:
            got = mo.pgettext(m.context, m.id) if m.context else mo.gettext(m.id)
            assert got == (m.string or m.id), f"{language} .mo is stale: {m.id!r} -> {got!r}, the .po says {m.string!r}"
    po_plural = gettext.c2py(cat.plural_expr)  # type: ignore[attr-defined]
    assert [mo.plural(n) for n in range(200)] == [po_plural(n) for n in range(200)], f"{language} .mo: other plural rule"  # type: ignore[attr-defined]
