"""The buzzer box runtime: input sources, debounce, journal, outputs, the live game, the apps
(docs/architecture.md shows the layers)."""

import os

__version__ = "0.1.0"

# pygame greets on import; the commands' output (JSON summaries) must stay ours
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
