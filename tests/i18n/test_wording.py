"""One word for the host and the box, one way to address the reader, in
every text of a catalogue (the conventions of docs/i18n.md, "Translation
conventions"):

* Czech: the host is *moderátor* (never *hostitel* in any form, nor
  *spoluhostitel*), the box is *krabička* (never *box* or *krabice*), and the
  reader is addressed formally (vykání: "Stiskněte", "Zvolte", "vaše"): no
  informal imperative ("stiskni", "zvol"), no informal present ("máš",
  "jsi"), no "tvůj"/"tě".
* Polish: the host is *prowadzący* (never *gospodarz*, *host* or
  *moderator*), the box is *pudełko* (never *skrzynka*), and the reader is
  addressed with the informal imperative (ty: "Naciśnij", "Wybierz"), the
  big screen's calls to all players too ("Dzwoń!"): no plural imperative
  ("naciśnijcie"), no "wasz", no formal Pan/Pani/Państwo, no "proszę" with an
  infinitive.
* A question pack is *sada* (*sada otázek*) / *zestaw* (*zestaw pytań*): never
  *balíček* in Czech, nor *paczka* or *pakiet* in Polish. A deck of cards (the
  card games') is *balíček* / *talia*, never *sada* / *zestaw*. These
  rules read the English too (``TERM_RULES``): a text whose msgid speaks of a pack
  or a deck.

The lists hold the common words, not every word of the languages: a text
that slips through is added here when it is found. The .po files are read
(the source of truth; tests/i18n/test_catalogues.py holds the .mo to them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from games.i18n import DOMAIN, LOCALE_DIR

#: placeholders ({name}, %s, %(default)s, %.2f), paths and table names (/host, [host]): the code's, not words
NOT_WORDS = re.compile(r"\{[^{}]*\}|%(\([^)]*\))?[-#0+]*\d*(\.\d+)?[a-zA-Z%]|\S*/\S*|\[[^\]]*\]")
WORD = re.compile(r"[^\W\d_]+")

#: Czech informal imperatives: the common ones of the box's texts and their likely neighbours
CS_IMPERATIVES = {
    "stiskni", "zmáčkni", "zvol", "vyber", "zadej", "zkus", "počkej", "čekej", "klepni", "klepej", "ťukni", "zazvoň",
    "zvoň", "použij", "pošli", "posílej", "napiš", "piš", "spusť", "zkontroluj", "oprav", "přidej", "vynech",
    "nastav", "vezmi", "zahraj", "hraj", "polož", "vylož", "vykládej", "odhoď", "otoč", "vyměň", "zůstaň",
    "nakresli", "kresli", "hádej", "pojmenuj", "naskenuj", "nainstaluj", "vyzkoušej", "reaguj", "rozhodni",
    "odpověz", "odděl", "prohoď", "zvyš", "vyčisti", "doplň", "řaď", "veď", "táhni", "chňapni", "zaklepej",
    "házej", "hoď", "odevzdej", "vynes", "pusť", "zkruť", "ukaž", "dej", "jdi", "řekni", "vrať", "drž", "najdi",
    "sleduj", "otevři", "zavři", "ulož", "smaž", "vypni", "zapni", "připoj", "odpoj", "ukonči", "změň", "zapiš",
    "přečti", "podívej", "vydrž", "poslouchej", "odešli", "zruš", "potvrď", "přejmenuj", "vlož", "obnov",
}
#: Czech informal present and past forms (2nd person singular)
CS_SECOND_PERSON = {
    "jsi", "sis", "máš", "nemáš", "budeš", "nebudeš", "můžeš", "nemůžeš", "musíš", "nemusíš", "smíš", "nesmíš",
    "bereš", "vezmeš", "získáš", "vítězíš", "vyhráváš", "prohráváš", "přijdeš", "odhodíš", "táhneš", "vidíš",
    "zvoníš", "nezvoníš", "chceš", "víš", "hraješ", "stiskneš", "dostaneš",
}
#: Czech informal pronouns and possessives ("ti" is left out: it is also "those", ti hráči)
CS_PRONOUNS = {
    "tě", "tebe", "tobě", "tebou", "tvůj", "tvoje", "tvá", "tvé", "tvého", "tvému", "tvém", "tvým", "tvou", "tvých",
    "tvými", "tvoji",
}
#: Polish plural imperatives (wy): the reader is one person, addressed as ty
PL_PLURAL_IMPERATIVES = {
    "naciśnijcie", "wciśnijcie", "dzwońcie", "zadzwońcie", "czekajcie", "zaczekajcie", "poczekajcie",
    "przygotujcie", "słuchajcie", "patrzcie", "reagujcie", "grajcie", "zagrajcie", "sprawdźcie", "wybierzcie",
    "spróbujcie", "dotknijcie", "stuknijcie", "podajcie", "wpiszcie", "dodajcie", "użyjcie", "uruchomcie",
    "odpowiedzcie", "zgadujcie", "rysujcie", "pukajcie", "łapcie", "rzucajcie", "wykładajcie", "wyślijcie",
}
#: Polish plural and formal address
PL_OTHER_ADDRESS = {
    "wasz", "wasza", "wasze", "waszego", "waszej", "waszym", "waszą", "waszych", "wami", "wam",
    "pan", "pani", "pana", "panu", "panią", "panem", "państwo", "państwa", "państwu",
}

#: (language, what it forbids, a pattern over the lower-cased text without placeholders, what to write instead)
RULES: list[tuple[str, str, re.Pattern[str], str]] = [
    ("cs", "the host as hostitel", re.compile(r"\w*hostitel\w*"), "moderátor (moderátora, moderátorovi, moderátore)"),
    ("cs", "the box as box or krabice", re.compile(r"\b(box\w*|krabic\w*)"), "krabička (krabičky, krabičce)"),
    ("pl", "the host as gospodarz, host or moderator",
     re.compile(r"\b(gospodar\w*|gospodyni\w*|host|hosta|hostem|hostowi|moderator\w*)\b"), "prowadzący (prowadzącego)"),
    ("pl", "the box as skrzynka", re.compile(r"\bskrzyn\w*"), "pudełko (pudełka, pudełku)"),
    ("pl", "the formal proszę with an infinitive", re.compile(r"\bproszę \w+ć\b"), "the imperative: naciśnij"),
]
#: (language, what it forbids, the msgid's word it is about, a pattern over the translation, what to write instead):
#: one thing, one word, where two things share the other language's word (a pack of questions, a deck of cards)
PACK = re.compile(r"\bpacks?\b|\bpack's\b", re.IGNORECASE)
DECK = re.compile(r"\bdecks?\b", re.IGNORECASE)
TERM_RULES: list[tuple[str, str, re.Pattern[str], re.Pattern[str], str]] = [
    ("cs", "a question pack as balíček", PACK, re.compile(r"\bbalíč\w*"), "sada (sady, sadě, sadu, sadou), sada otázek"),
    ("cs", "a card deck as sada", DECK, re.compile(r"\bsad(a|y|ě|u|ou|ám|ách|ami)?\b"), "balíček (balíčku, balíčky)"),
    ("pl", "a question pack as paczka or pakiet", PACK, re.compile(r"\b(paczk\w*|paczek|pakiet\w*)"),
     "zestaw (zestawu, zestawie, zestawy), zestaw pytań"),
    ("pl", "a card deck as zestaw", DECK, re.compile(r"\bzestaw\w*"), "talia (talii, talie)"),
]
WORD_RULES: list[tuple[str, str, frozenset[str], str]] = [
    ("cs", "an informal imperative", frozenset(CS_IMPERATIVES), "the formal one: stiskněte, zvolte, vyberte"),
    ("cs", "an informal 2nd person", frozenset(CS_SECOND_PERSON), "the formal one: máte, jste, můžete"),
    ("cs", "an informal pronoun or possessive", frozenset(CS_PRONOUNS), "vás, vám, váš, vaše"),
    ("pl", "a plural imperative", frozenset(PL_PLURAL_IMPERATIVES), "the singular: naciśnij, dzwoń, przygotuj się"),
    ("pl", "a plural or formal address", frozenset(PL_OTHER_ADDRESS), "ty: twój, naciśnij"),
]


def translations(language: str) -> Iterator[tuple[str, str]]:
    """(msgid, each translated form without its placeholders, lower-cased) of ``language``'s catalogue."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for form in forms:
            yield msgid, NOT_WORDS.sub(" ", form or "").lower()


def offences(language: str) -> list[str]:
    """Every text of ``language`` that breaks a rule: what it says, the rule, and the fix."""
    found: list[str] = []
    for msgid, text in translations(language):
        for lang, what, pattern, instead in RULES:
            if lang == language and (hit := pattern.search(text)):
                found.append(f"{msgid!r}: {hit.group(0)!r} is {what}; write {instead}")
        for lang, what, about, pattern, instead in TERM_RULES:
            if lang == language and about.search(NOT_WORDS.sub(" ", msgid)) and (hit := pattern.search(text)):
                found.append(f"{msgid!r}: {hit.group(0)!r} is {what}; write {instead}")
        words = set(WORD.findall(text))
        for lang, what, forbidden, instead in WORD_RULES:
            if lang == language:
                found.extend(f"{msgid!r}: {word!r} is {what}; write {instead}" for word in sorted(words & forbidden))
    return found


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_one_word_for_the_host_and_the_box_and_one_way_to_address_the_reader(language: str) -> None:
    found = offences(language)
    assert not found, f"{language}: {len(found)} words against docs/i18n.md's conventions:\n" + "\n".join(found)


def test_the_lists_find_what_they_are_for() -> None:
    """The rules read words as the catalogue writes them: placeholders, paths and tables are not words."""
    cs = NOT_WORDS.sub(" ", "Stiskni {key} a zeptej se hostitele; tvůj tým, [host], /host").lower()
    assert {"stiskni", "tvůj"} <= set(WORD.findall(cs)) and "hostitele" in cs and "host" not in WORD.findall(cs)
    pl = NOT_WORDS.sub(" ", "strona {host}: %(default)s naciśnijcie, proszę nacisnąć").lower()
    assert "naciśnijcie" in WORD.findall(pl) and "host" not in pl and re.search(r"\bproszę \w+ć\b", pl)
    # a pack is read from the English: "unpacks" and a placeholder are none, "Pack saved" and "the pack's folder" are
    assert [bool(PACK.search(NOT_WORDS.sub(" ", text))) for text in ("unpacks to {n} bytes", "use {pack}", "Pack saved",
                                                                      "the pack's folder", "split into packs")] \
        == [False, False, True, True, True]
