"""Helpers shared by the phone-page browser tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

#: BUZZERBOX_SCREENS=docs/screens saves the pictures where the docs show them; else a temporary folder
SCREENS = Path(os.environ.get("BUZZERBOX_SCREENS") or tempfile.mkdtemp(prefix="phone-screens-"))


def card_labels(page: Any) -> list[str]:
    """The hand on a phone, as the cards read (their first line)."""
    return [t.split("\n")[0] for t in page.locator(".w-hand .card").all_inner_texts()]
