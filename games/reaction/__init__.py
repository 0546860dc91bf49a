"""Reaction duel: the box's own wait-for-GO game."""

from collections.abc import Mapping
from typing import Any

from games.base import GameSpec, LampContest
from games.i18n import LANGUAGES, N_
from games.reaction.bots import new_bots, new_host
from games.reaction.buttons import BUTTONS
from games.reaction.engine import ReactionEngine
from games.reaction.options import OPTIONS
from games.reaction.strip import worded_strip


def lamp_contest(view: Mapping[str, Any]) -> LampContest | None:
    """GO on the screen opens the race for the first lamp (a false start does not
    compete); the round's result decides it."""
    key = f"r{view.get('round')}"
    start = view.get("t_show_us")
    if view.get("phase") == "go" and start is not None:
        early = set(view.get("false_starts", ()))
        return LampContest(key, tuple(s for s in range(len(view.get("status", []))) if s not in early), start)
    last = view.get("last") or {}
    if view.get("phase") in ("result", "over") and last.get("round") == view.get("round") and start is not None:
        if last.get("void"):
            return LampContest(key, (), start, ())
        order, ties = last.get("order") or [], last.get("ties") or []
        if last.get("winner") is not None:
            winners: tuple[int, ...] = (last["winner"],)
        elif ties and order and ties[0][0] == order[0]:
            winners = tuple(ties[0])
        else:
            winners = ()
        return LampContest(key, (), start, winners)
    return None


SPEC = GameSpec(
    name="reaction",
    title=N_("Reaction duel"),
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=2,
    max_players=16,
    new_engine=ReactionEngine,
    buttons=BUTTONS,
    new_bots=new_bots,
    new_host=new_host,
    scene="games.reaction.scene:ReactionScene",
    strip_wording=worded_strip,  # games/reaction/strip.py: the scene's strip, and the phones' pages'
    options=OPTIONS,
    demo_options={"rounds": 8, "decoy_chance": 0.2},
    host_aliases={"arm": ("arm", "start"), "reset": ("reset", "stop")},
    host_buttons=("arm", "reset"),  # start and stop a round: no answer to judge, no question to move to
    # the host remote says its phases in words (docs/companion.md)
    phase_labels={"ready": N_("Ready"), "wait": N_("Wait for it"), "decoy": N_("Wait for it"), "go": N_("GO"),
                  "result": N_("Result")},
    status_lights={"winner": "on", "reacted": "blink"},
    lamp_contest=lamp_contest,
    summary=N_("Wait for GO, then press: the fastest wins the round. "
                "Press before GO, or on a decoy, and you sit the round out."),
)
