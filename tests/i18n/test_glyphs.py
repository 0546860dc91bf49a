"""The shipped font draws every letter the catalogues use: each is its own
glyph, not the missing-glyph box (the Czech and Polish accented letters
first among them)."""

from __future__ import annotations

import unicodedata

import pygame
import pytest
from babel.messages.pofile import read_po

from games.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from games.toolkit.theme import TEXT

CZECH_POLISH = "ěščřžýáíéůúďťňąćęłńóśźżĚŠČŘŽÝÁÍÉŮÚĎŤŇĄĆĘŁŃÓŚŹŻ"


@pytest.fixture(autouse=True)
def _fonts() -> None:
    pygame.font.init()


def ink(ch: str) -> bytes:
    """The pixels of ``ch`` drawn white on black."""
    return pygame.image.tobytes(TEXT.font(48).render(ch, True, (255, 255, 255), (0, 0, 0)), "RGB")


def letters_in_catalogues() -> set[str]:
    used: set[str] = set()
    for language in LANGUAGES:
        with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
            for m in read_po(f):
                if m.id:
                    used.update(*([m.string] if isinstance(m.string, str) else m.string))
    return {ch for ch in used if not ch.isspace()}


def test_every_letter_the_catalogues_use_has_a_glyph() -> None:
    missing_box = {ink(ch) for ch in ("\ue123", "\u4e00")}  # a private-use and a CJK character: the box
    used = letters_in_catalogues()
    assert set("ěřůąęłż") <= used  # the catalogues are Czech and Polish
    boxes = sorted(ch for ch in used | set(CZECH_POLISH) if ink(ch) in missing_box)
    assert not boxes, f"drawn as the missing-glyph box: {' '.join(boxes)}"
    bare = sorted(ch for ch in used | set(CZECH_POLISH) if ch.isalpha() and ink(ch) == ink(base_letter(ch))
                  and base_letter(ch) != ch)
    assert not bare, f"drawn without their accents: {' '.join(bare)}"


def base_letter(ch: str) -> str:
    """'ě' -> 'e', 'ł' -> 'l' (ł has no decomposition)."""
    return {"ł": "l", "Ł": "L"}.get(ch) or unicodedata.normalize("NFD", ch)[0]
