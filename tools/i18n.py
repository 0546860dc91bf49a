"""The catalogues, kept with Babel: ``make i18n`` runs this.

    python tools/i18n.py            # extract, update every .po, compile every .mo

1. extract every ``_``/``N_``/``ngettext``/``pgettext`` text from
   ``controller/`` and ``games/`` (the template is kept in memory: the .po
   files are the source of truth, and a template file would only churn);
2. update ``games/locale/<lang>/LC_MESSAGES/buzzerbox.po`` for every shipped
   language: new texts added empty (never guessed from a similar one: no
   fuzzy matching), texts gone from the code dropped (no obsolete entries);
   English is filled in as written in the code;
3. compile each .po to the .mo the box reads (standard-library gettext).

Then translate the empty entries in cs and pl and run it again: the test
``tests/i18n/test_catalogues.py`` fails while any is empty, fuzzy, obsolete,
or compiled from an older .po. One exception: a game whose spec does not list
a language in ``GameSpec.translated`` (a new game, written by someone who
speaks neither Czech nor Polish) may leave its own texts empty there; they
fall back to English on screen, and this tool and the test report list them.
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.i18n import DOMAIN, LANGUAGES, LOCALE_DIR  # noqa: E402

#: where texts are taken from (tests and tools are not shown to players)
SOURCES = ("controller", "games")
#: the markers: gettext's, and ``Nn_`` (games/i18n.py) for a counted reason given now, worded later
KEYWORDS = {**DEFAULT_KEYWORDS, "Nn_": (1, 2)}
#: a fixed date for new catalogues' headers, so rerunning changes nothing
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
HEADER = """\
# The buzzer box's texts in {language}: written for the box, MIT like the box.
# Kept by tools/i18n.py (make i18n); translate the empty entries and run it again.
#"""


def template() -> Catalog:
    """Every marked text in the code, in one catalogue."""
    cat = Catalog(domain=DOMAIN, project="buzzerbox", creation_date=EPOCH, fuzzy=False)
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT / source), method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
        ):
            cat.add(message, locations=[(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    return cat


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def update(language: str, tmpl: Catalog) -> Catalog:
    path = po_path(language)
    if path.exists():
        with path.open("rb") as f:
            cat = read_po(f, locale=language, domain=DOMAIN)
    else:
        cat = Catalog(locale=language, domain=DOMAIN, project="buzzerbox", version="0.1",
                      header_comment=HEADER.format(language=language), copyright_holder="the buzzer box",
                      msgid_bugs_address="", last_translator="the buzzer box <https://localhost/>",
                      language_team=f"{language} <https://localhost/>",
                      creation_date=EPOCH, revision_date=EPOCH, fuzzy=False)
    cat.update(tmpl, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
    cat.obsolete.clear()
    if language == "en":  # the code is written in English: its catalogue says what the code says
        for message in cat:
            if message.id and empty(message):
                message.string = message.id
    for message in cat:
        message.flags.discard("fuzzy")  # never guessed, so never fuzzy (a header flag is no translation)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, width=100, no_location=True, sort_output=True, ignore_obsolete=True,
                 include_previous=False)
    with path.with_suffix(".mo").open("wb") as f:
        write_mo(f, cat)
    return cat


def empty(message: Message) -> bool:
    """Not translated yet (a plural entry: any of its forms)."""
    s = message.string
    return not s if isinstance(s, str) or s is None else not all(s)


#: who owns a text that is not a game's own: the box (every language, always complete)
BOX = "the box"


def owners(locations: list[tuple[str, int | None]]) -> set[str]:
    """The games (by name) or the box whose files mark a text."""
    folders = {package.replace(".", "/") + "/": name for name, package in registry.packages().items()}
    found: set[str] = set()
    for filename, _line in locations:
        found.add(next((name for folder, name in folders.items() if filename.startswith(folder)), BOX))
    return found


def may_fall_back(owner: str, language: str) -> bool:
    """Whether ``owner``'s texts may still be English in ``language``."""
    if owner == BOX:
        return False
    try:
        return language not in registry.get(owner).translated
    except LookupError:  # a game that does not import: its texts are held to every language
        return False


def to_translate(cat: Catalog, tmpl: Catalog, language: str) -> tuple[list[str], dict[str, list[str]]]:
    """(texts that must be translated and are not, {game: its texts that fall
    back to English for now}) of one language's catalogue."""
    missing: list[str] = []
    fallback: dict[str, list[str]] = {}
    for message in cat:
        if not message.id or not empty(message):
            continue
        text = message.id if isinstance(message.id, str) else message.id[0]
        marked = tmpl.get(message.id, context=message.context)
        who = owners(list(marked.locations)) if marked is not None else {BOX}
        if all(may_fall_back(owner, language) for owner in who):
            for owner in sorted(who):
                fallback.setdefault(owner, []).append(text)
        else:
            missing.append(text)
    return missing, fallback


def main() -> int:
    for language in LANGUAGES:
        cat = update(language, template())  # a fresh template each: update() adopts its entries
        missing, fallback = to_translate(cat, template(), language)
        print(f"{language}: {sum(1 for m in cat if m.id)} messages, {len(missing)} to translate")
        for game, texts in sorted(fallback.items()):
            print(f"{language}: {game} is not translated yet, {len(texts)} texts fall back to English: "
                  + "; ".join(repr(s) for s in texts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
