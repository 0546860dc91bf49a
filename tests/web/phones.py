"""Helpers shared by the phone-page browser tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

#: where the browser tests save what they see: BUZZERBOX_SCREENS=docs/screens where the docs show them;
#: else one folder in the temporary directory, written over by each run (a new folder per test
#: process left ~100 behind on a developer's machine in a day)
SCREENS = Path(os.environ.get("BUZZERBOX_SCREENS") or Path(tempfile.gettempdir()) / "buzzerbox-screens")
SCREENS.mkdir(parents=True, exist_ok=True)


def card_labels(page: Any) -> list[str]:
    """The hand on a phone, as the cards read (their first line)."""
    return [t.split("\n")[0] for t in page.locator(".w-hand .card").all_inner_texts()]
