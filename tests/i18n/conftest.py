"""Each test here may switch the language; every test starts and ends in English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.i18n import set_language


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")
