"""Schicki Micki's options, declared once: type, default (what the box plays)
and range. The engine takes its defaults from here, the spec and the start
menu read the same table."""

from __future__ import annotations

from games.base import TIE_WINDOW, Option, tie_window_option
from games.i18n import N_

OPTIONS: dict[str, Option] = {
    "turn_interval_us": Option(3_000_000, int, low=0, nullable=True, label=N_("Next card"),
                               choices=((3_000_000, N_("every 3 s")), (4_000_000, N_("every 4 s")),
                                        (2_000_000, N_("every 2 s")), (None, N_("host turns")))),
    "interval_shrink": Option(0.98, float, low=0.0, high=1.0, label=N_("Getting faster"),
                              choices=((0.98, N_("yes")), (1.0, N_("no")))),
    "min_turn_interval_us": Option(1_200_000, int, low=0),
    "start_us": Option(0, int, low=0),
    "reaction_window_us": Option(1_500_000, int, low=0),
    "final_window_us": Option(3_000_000, int, low=0),
    TIE_WINDOW: tie_window_option(),
    # a scenario's own deck, top card first, and each player's won cards at the start
    "deck": Option(None, list),
    "won": Option(None, list),
}
