"""Pictomania word cards: our own lists, one JSON file per language.

Pure: reads ``games/pictomania/words/<lang>.json`` and checks it, so a broken
list is refused with one line naming the card before any round is dealt. How
the lists were built and how to add a language: ``games/pictomania/WORDS.md``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.base import BuzzerBoxError
from games.files import FileRefused, read_limited
from games.i18n import N_

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
    """A word list the game cannot deal from; the message names the file and card."""


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
        raise WordListError(f"language {lang!r} is not a code like 'en' or 'cs'; "
                            f"use one of: {', '.join(available_languages())}")
    return load_words_file(WORDS_DIR / f"{lang}.json")


def load_words_file(path: Path) -> dict[int, list[WordCard]]:
    """The checked cards of one word-list file (also used for lists being written)."""
    name = path.name
    try:
        text = read_limited(path, MAX_WORDS_BYTES, N_("word list")).decode("utf-8")
    except FileRefused as e:
        if path.exists():
            raise WordListError(f"{name} {e.problem}") from None
        raise WordListError(
            f"no word list {name} for language {path.stem!r}; use one of: "
            f"{', '.join(available_languages())}, or add {name} (see games/pictomania/WORDS.md)"
        ) from None
    except UnicodeDecodeError as e:
        raise WordListError(f"{name} cannot be read ({e}); save it as UTF-8 JSON") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as e:
        raise WordListError(f"{name} line {e.lineno}: not valid JSON ({e.msg}); "
                            "fix the syntax there") from None
    except (ValueError, RecursionError):
        raise WordListError(f"{name}: not a word list; see games/pictomania/WORDS.md") from None
    decks = document.get("decks") if isinstance(document, dict) else None
    if not isinstance(decks, dict):
        raise WordListError(f"{name}: no \"decks\" object; write the decks as "
                            "{\"decks\": {\"1\": [...], ..., \"4\": [...]}}")
    if document.get("language") != path.stem:
        raise WordListError(f"{name}: \"language\" is {document.get('language')!r} but the file "
                            f"is named for {path.stem!r}; make them the same")
    extra = sorted(set(decks) - {str(d) for d in DECKS})
    if extra:
        raise WordListError(f"{name}: unknown deck {extra[0]!r}; the decks are named 1, 2, 3 and 4")
    return {deck: _check_deck(name, deck, decks.get(str(deck))) for deck in DECKS}


def _check_deck(name: str, deck: int, cards: Any) -> list[WordCard]:
    where = f"{name} deck {deck}"
    if not isinstance(cards, list) or len(cards) < MIN_CARDS_PER_DECK:
        raise WordListError(f"{where}: needs a list of at least {MIN_CARDS_PER_DECK} cards "
                            "(a round shows three); add cards")
    out: list[WordCard] = []
    first_seen: dict[str, str] = {}
    for index, raw in enumerate(cards, start=1):
        card = _check_card(f"{where} card {index}", deck, raw)
        label = f"card {index} ({card.theme})"
        for word in card.words:
            key = word.casefold()
            if key in first_seen:
                raise WordListError(
                    f"{where} {label}: {word!r} is already on {first_seen[key]}; a word appears "
                    "once per deck, so replace one of them"
                )
            first_seen[key] = label
        out.append(card)
    return out


def _check_card(where: str, deck: int, raw: Any) -> WordCard:
    if not isinstance(raw, dict) or set(raw) != {"theme", "words"}:
        raise WordListError(f"{where}: a card is {{\"theme\": ..., \"words\": [7 words]}} "
                            "with nothing else; fix its keys")
    theme = raw["theme"]
    if not _is_clean(theme):
        raise WordListError(f"{where}: the theme must be a short printed text; fix it")
    where = f"{where} ({theme})"
    words = raw["words"]
    if not isinstance(words, list) or len(words) != WORDS_PER_CARD:
        count = len(words) if isinstance(words, list) else "no list of"
        raise WordListError(f"{where}: has {count} words; a card holds exactly "
                            f"{WORDS_PER_CARD}, so add or remove words")
    for word in words:
        if not _is_clean(word):
            raise WordListError(f"{where}: word {str(word)[:40]!r} is empty, too long or not "
                                f"plain text; write a word of at most {MAX_WORD_CHARS} letters")
    lowered = [w.casefold() for w in words]
    for i, key in enumerate(lowered):
        if key in lowered[:i]:
            raise WordListError(f"{where}: {words[i]!r} is on the card twice; the 7 words "
                                "must differ, so replace one")
    return WordCard(deck=deck, theme=theme, words=tuple(words))


def _is_clean(text: Any) -> bool:
    return (isinstance(text, str) and 0 < len(text) <= MAX_WORD_CHARS and text.isprintable()
            and text == text.strip() and "  " not in text)
