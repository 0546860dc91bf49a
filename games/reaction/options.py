"""The reaction duel's options, declared once: type, default and range. The
spec and the start menu read this table; the engine checks its settings
against it (``games.base.checked_options``)."""

from __future__ import annotations

from games.base import TIE_WINDOW, Option, tie_window_option
from games.i18n import N_

OPTIONS: dict[str, Option] = {
    "min_delay_us": Option(1_500_000, int, low=1, high=60_000_000),
    "max_delay_us": Option(4_500_000, int, low=1, high=60_000_000),
    # chance of a "not yet!" screen that looks like GO
    "decoy_chance": Option(0.0, float, low=0.0, high=1.0, label=N_("Decoys"), choices=((0.0, N_("off")), (0.25, N_("on")))),
    # 0: play until the host stops
    "rounds": Option(0, int, low=0, label=N_("Rounds"),
                     choices=((10, "10"), (5, "5"), (20, "20"), (0, N_("until stopped")))),
    # after the first press, others may still press to get a time
    "answer_window_us": Option(1_000_000, int, low=0, high=60_000_000),
    # nobody pressed: the round ends
    "go_timeout_us": Option(3_000_000, int, low=0, high=600_000_000),
    # results stay up this long, then the next round starts
    "result_hold_us": Option(2_500_000, int, low=0, high=600_000_000),
    "auto_next": Option(True, bool),
    "settle_us": Option(2_000, int, low=0, high=1_000_000),
    TIE_WINDOW: tie_window_option(),
}
