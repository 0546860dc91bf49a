"""Fiki Miki's phone page fits a 360×740 phone in each of the box's
languages, in every phase a phone shows, in each of its variants: the
cases of test_phone_widths.py (which says how they are played and
measured) for Fiki Miki, in a file of their own so that the suite's
workers (``--dist loadfile``) share these long cases."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_phone_widths import FIKI_MIKI, LANGUAGES, fits_in_every_phase


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", FIKI_MIKI)
def test_the_phone_page_fits_a_small_phone_in_every_phase(served: Any, phone: Any, game: str, language: str) -> None:
    fits_in_every_phase(served, phone, game, language)
