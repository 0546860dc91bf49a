"""No text on any screen escapes the catalogue (issue 31): every screen the
project pictures and a frame of every phase of every registered game are
drawn in the pseudo-locale, where every catalogue text comes back accented;
a plain English word left on the screen did not go through ``_()``.

Allowed as they are: what the players and the host bring (station names, a
quiz pack's questions, Pictomania's word cards, the stand-in texts the
picture script writes), key names, and a game variant's name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from games.i18n import set_language
from games.toolkit import theme
from tests.i18n.test_layout import SHOTS, _screenshots

ROOT = Path(__file__).resolve().parents[2]
#: files whose texts are content, not the box's words
CONTENT = [ROOT / "tools" / "screenshots.py", *sorted((ROOT / "games" / "quiz" / "packs").glob("en-*.csv")),
           *sorted((ROOT / "games" / "pictomania" / "words").glob("en.json"))]
#: key names as the keyboard prints them, the names of variants and the stations' names
NAMES = {"space", "escape", "IIA", "IIB", *_screenshots().NAMES}
#: a word as a regex sees one, in any script
WORD = re.compile(r"[^\W\d_]{3,}")
#: the letters the pseudo-locale accents: a word of plain ASCII with one of them was not translated
ACCENTED = set("acdeilnorstuyzACDEILNORSTUYZ")
#: the pseudo-locale's lengthening, and the separators a composed text puts between its parts
FILLER = "ąęśćźżńłó "
PARTS = re.compile(r": | · |, |\n")


#: fonts up, and after each test the draw record off and English back (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def content() -> str:
    """The content files as one text, a string literal continued on the next line joined up."""
    return re.sub(r'"\s*\n\s*"', "", "\n".join(path.read_text(encoding="utf-8") for path in CONTENT))


def english_words(text: str, brought: str) -> list[str]:
    """The plain English words of a drawn text that are not content."""
    if text.strip().rstrip("…") in brought:  # a line of a wrapped question, say
        return []
    found = []
    for part in PARTS.split(text.strip().rstrip("…")):
        part = part.rstrip(FILLER)
        if not part or part in brought:
            continue
        found += [w for w in WORD.findall(part) if w.isascii() and set(w) & ACCENTED and w not in NAMES]
    return found


def test_the_check_finds_an_english_word_and_lets_content_through() -> None:
    brought = content()
    assert english_words("the last card's final window closed", brought) == ["the", "last", "card", "final", "window",
                                                                            "closed"]
    assert english_words("Áńšwěř: Marsąęść", brought) == []
    assert english_words("Łucja ďřěw B6: wardrobeąęść", brought) == []


@pytest.mark.parametrize(("name", "draw"), SHOTS, ids=[n for n, _ in SHOTS])
def test_every_text_on_every_screen_went_through_the_catalogue(name: str, draw: object) -> None:
    brought = content()
    set_language("xx")
    theme.DRAWN = []
    try:
        draw(pygame.Surface((1920, 1080)))  # type: ignore[operator]
        drawn = [asked for asked, *_rest in theme.DRAWN]
    finally:
        theme.DRAWN = None
    assert drawn, f"{name}: nothing drawn"
    left = {text: words for text in drawn if (words := english_words(text, brought))}
    assert not left, f"{name}: English on a pseudo-locale screen (not through _()): {list(left.items())[:6]}"
