"""Pictomania word cards: our own lists, one JSON file per language.

Pure: reads ``games/pictomania/words/<lang>.json`` and checks it, so a broken
list is refused with one line naming the card before any round is dealt. How
the lists were built and how to add a language: ``games/pictomania/WORDS.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.base import BuzzerBoxError
from games.files import WORDS, FileRefused, json_fault, read_limited
from games.i18n import N_, Reason, _, reason_english, worded_text

WORDS_DIR = Path(__file__).parent / "words"
#: Deck 1 is the easiest (round 1), deck 4 the hardest (round 4).
DECKS: tuple[int, ...] = (1, 2, 3, 4)
WORDS_PER_CARD = 7
#: A round shows three cards (A, B, C) from one deck.
MIN_CARDS_PER_DECK = 3
MAX_WORD_CHARS = 30
#: a word list is a few kB of JSON
MAX_WORDS_BYTES = 4_000_000
_LANG_RE = re.compile(r"[a-z]{2,3}\Z")


class WordListError(BuzzerBoxError, ValueError):
    """A word list the game cannot deal from, in one line naming the file, the
    place (a line, or a deck and card) and the fix.

    The reason is a message id (marked ``N_``) with its ``arguments``, as
    ``FileRefused``'s, so ``str()`` says it in the current language; the
    place's words ("deck", "card", "line") too. The first argument is for
    logs: English.
    """

    def __init__(self, file: str | None, reason: Reason, *, line: int | None = None, deck: int | None = None,
                 card: int | None = None, theme: str | None = None, **arguments: Any) -> None:
        self.file = file
        self.place = (line, deck, card, theme)
        self.reason = reason
        self.arguments: dict[str, Any] = arguments
        super().__init__(self.said(str, lambda r: reason_english(r, arguments)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_error, (self.file, self.reason, self.place, self.arguments))

    def said(self, word: Callable[[str], str], reason: Callable[[Reason], str]) -> str:
        """Worded by ``word`` (``_`` for the reader, ``str`` for English), the reason by ``reason``."""
        line, deck, card, theme = self.place
        parts = [self.file] if self.file else []
        if line is not None:
            parts.append(word(N_("line {line}")).format(line=line))
        if deck is not None:
            parts.append(word(N_("deck {deck}")).format(deck=deck))
        if card is not None:
            parts.append(word(N_("card {card}")).format(card=card))
        if theme is not None:
            parts.append(f"({theme})")
        text = reason(self.reason)
        return f"{' '.join(parts)}: {text}" if parts else text

    def __str__(self) -> str:
        return self.said(_, lambda r: worded_text(str(r), self.arguments, WORDS))


def _error(file: str | None, reason: Reason, place: tuple[Any, ...], arguments: dict[str, Any]) -> WordListError:
    line, deck, card, theme = place
    return WordListError(file, reason, line=line, deck=deck, card=card, theme=theme, **arguments)


@dataclass(frozen=True)
class WordCard:
    """One card: a theme and its 7 words, numbered 1-7 in this order."""

    deck: int
    theme: str
    words: tuple[str, ...]

    def word(self, number: int) -> str:
        """The word a player with this number card draws (1-7, as printed)."""
        return self.words[number - 1]


def available_languages() -> list[str]:
    """The language codes that have a word list, sorted."""
    return sorted(p.stem for p in WORDS_DIR.glob("*.json") if _LANG_RE.match(p.stem))


def load_words(lang: str) -> dict[int, list[WordCard]]:
    """The checked cards of one language, by deck (1-4)."""
    if not isinstance(lang, str) or not _LANG_RE.match(lang):
        raise WordListError(None, N_("language {lang!r} is not a code like 'en' or 'cs'; use one of: {languages}"),
                            lang=lang, languages=", ".join(available_languages()))
    return load_words_file(WORDS_DIR / f"{lang}.json")


def load_words_file(path: Path) -> dict[int, list[WordCard]]:
    """The checked cards of one word-list file (also used for lists being written)."""
    name = path.name
    try:
        data = read_limited(path, MAX_WORDS_BYTES, N_("word list"))
    except FileRefused as e:
        if path.exists():
            raise WordListError(name, e.reason, **e.arguments) from None
        raise WordListError(None, N_("no word list {name} for language {lang!r}; use one of: {languages}, or add "
                                     "{name} (see games/pictomania/WORDS.md)"),
                            name=name, lang=path.stem, languages=", ".join(available_languages())) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WordListError(name, N_("byte {byte} is not UTF-8 text; save the word list as UTF-8 JSON"),
                            line=data.count(b"\n", 0, e.start) + 1, byte=e.start) from None
    try:
        document = json.loads(text.removeprefix("\ufeff"))  # a byte-order mark (Windows' Notepad writes one) is no fault
    except json.JSONDecodeError as e:
        line, column, reason = json_fault(e)
        raise WordListError(name, reason, line=line, column=column) from None
    except (ValueError, RecursionError):
        raise WordListError(name, N_("holds a number or nesting too large to read; keep to the word list format "
                                     "(see games/pictomania/WORDS.md)")) from None
    decks = document.get("decks") if isinstance(document, dict) else None
    if not isinstance(decks, dict):
        raise WordListError(name, N_("no \"decks\" object; write the decks as "
                                     "{\"decks\": {\"1\": [...], ..., \"4\": [...]}}"))
    if document.get("language") != path.stem:
        raise WordListError(name, N_("\"language\" is {found!r} but the file is named for {lang!r}; make them "
                                     "the same"), found=document.get("language"), lang=path.stem)
    extra = sorted(set(decks) - {str(d) for d in DECKS})
    if extra:
        raise WordListError(name, N_("unknown deck {key!r}; the decks are named 1, 2, 3 and 4"), key=extra[0])
    return {deck: _check_deck(name, deck, decks.get(str(deck))) for deck in DECKS}


def _check_deck(name: str, deck: int, cards: Any) -> list[WordCard]:
    if not isinstance(cards, list) or len(cards) < MIN_CARDS_PER_DECK:
        raise WordListError(name, N_("needs a list of at least {n} cards (a round shows three); add cards"),
                            deck=deck, n=MIN_CARDS_PER_DECK)
    out: list[WordCard] = []
    first_seen: dict[str, tuple[int, str]] = {}
    for index, raw in enumerate(cards, start=1):
        card = _check_card(name, deck, index, raw)
        for word in card.words:
            key = word.casefold()
            if key in first_seen:
                other, other_theme = first_seen[key]
                raise WordListError(name, N_("{word!r} is already on card {other} ({other_theme}); a word appears "
                                             "once per deck, so replace one of them"),
                                    deck=deck, card=index, theme=card.theme, word=word, other=other,
                                    other_theme=other_theme)
            first_seen[key] = (index, card.theme)
        out.append(card)
    return out


def _check_card(name: str, deck: int, index: int, raw: Any) -> WordCard:
    if not isinstance(raw, dict) or set(raw) != {"theme", "words"}:
        raise WordListError(name, N_("a card is an object with only \"theme\" and \"words\" (its 7 words); fix "
                                     "its keys"), deck=deck, card=index)
    theme = raw["theme"]
    if not _is_clean(theme):
        raise WordListError(name, N_("the theme must be a short printed text; fix it"), deck=deck, card=index)
    words = raw["words"]
    if not isinstance(words, list):
        raise WordListError(name, N_("\"words\" is not a list; a card holds a list of exactly {words} words"),
                            deck=deck, card=index, theme=theme, words=WORDS_PER_CARD)
    if len(words) != WORDS_PER_CARD:
        raise WordListError(name, N_("has {n} words; a card holds exactly {words}, so add or remove words"),
                            deck=deck, card=index, theme=theme, n=len(words), words=WORDS_PER_CARD)
    for word in words:
        if not _is_clean(word):
            raise WordListError(name, N_("word {word!r} is empty, too long or not plain text; write a word of at "
                                         "most {limit} letters"),
                                deck=deck, card=index, theme=theme, word=str(word)[:40], limit=MAX_WORD_CHARS)
    lowered = [w.casefold() for w in words]
    for i, key in enumerate(lowered):
        if key in lowered[:i]:
            raise WordListError(name, N_("{word!r} is on the card twice; the 7 words must differ, so replace one"),
                                deck=deck, card=index, theme=theme, word=words[i])
    return WordCard(deck=deck, theme=theme, words=tuple(words))


def _is_clean(text: Any) -> bool:
    return (isinstance(text, str) and 0 < len(text) <= MAX_WORD_CHARS and text.isprintable()
            and text == text.strip() and "  " not in text)
