"""A finished game's end in words, without pygame: who placed where
(``ranking``) and the strip as the results screen draws it (``results_strip``).

A finished game whose scene draws no end screen of its own (``own_results``)
is drawn by the HDMI screen's ``ResultsScene`` (games/toolkit/results.py),
which words its strip with ``results_strip``. The phones' server and the
league's follower, which load no pygame and so no scene, word a game's strip
with ``drawn_strip``: the game's own wording while it runs, this one at its
end by the same rule (``results_drawn``), so the three say the same."""

from __future__ import annotations

from collections.abc import Callable

from games.base import best_of
from games.i18n import _
from games.toolkit.strip_words import COMMON_STATUS_WORDS, Strip, View

#: the input layer's faults: a finished game's strip keeps them (the host must still see a stuck bell)
FAULTS = ("stuck", "disconnected")


def ranking(view: View) -> list[tuple[int, list[int], int]]:
    """(place, stations, score), best first; equal scores share a place.
    With teams, one row per team (its stations together)."""
    scores = list(view.get("scores", ()))
    teams = list(view.get("teams", ()))
    team_count = int(view.get("team_count", len(teams)))
    if teams and team_count < len(teams):
        groups: dict[int, list[int]] = {}
        for s, t in enumerate(teams):
            groups.setdefault(int(t), []).append(s)
        rows = [(members, int(scores[members[0]])) for _t, members in sorted(groups.items())]
    else:
        rows = [([s], int(score)) for s, score in enumerate(scores)]
    board = {int(r["player"]): k for k, r in enumerate(view.get("leaderboard", ()))}
    rows.sort(key=lambda r: (-r[1], board.get(r[0][0], 0)))
    out: list[tuple[int, list[int], int]] = []
    for k, (members, score) in enumerate(rows):
        place = out[-1][0] if out and out[-1][2] == score and not board else k + 1
        out.append((place, members, score))
    return out


def won_stations(rows: list[tuple[int, list[int], int]]) -> set[int]:
    """The stations that won, of ``ranking``'s rows: the first place's, unless nobody
    scored (the games' one rule, ``games.base.best_of``: a top of nothing is no win)."""
    if not best_of([score for _place, _members, score in rows]):
        return set()
    return {s for place, members, _score in rows if place == 1 for s in members}


def results_drawn(finished: bool, own_results: bool) -> bool:
    """Whether the HDMI screen draws the results screen: the game is over and
    its scene draws no end screen of its own (``Scene.own_results``, ``GameSpec.own_results``)."""
    return finished and not own_results


def results_strip(view: View, strip: Strip) -> Strip:
    """The strip under the results screen: the winners' cells say "WON" (and
    flash on the screen), the rest keep only faults (stuck, offline); no
    game's own word (a reaction time, "EARLY") outlives the game, and a press
    now does nothing, so none shows. Each cell's ``label`` is its word, so the
    pages say it whatever the game calls its own statuses."""
    winners = won_stations(ranking(view))

    def cell(i: int, status: str) -> dict[str, object]:
        if status in FAULTS:  # worded by the strip's fault words (``status_label``), never by a label
            return {"status": status, "label": None}
        if i in winners:
            return {"status": "won", "label": _(COMMON_STATUS_WORDS["won"])}
        return {"status": "idle", "label": ""}

    return [{**c, **cell(i, str(c.get("status"))), "pressed": False} for i, c in enumerate(strip)]


def drawn_strip(adjust: Callable[[View, Strip], Strip], own_results: bool, view: View, strip: Strip,
                finished: bool) -> Strip:
    """The strip as the HDMI screen draws it: the results screen's at a finished
    game's end (``results_drawn``), else the game's own wording (``adjust``: its
    scene's ``adjust_strip``, or its spec's standing in for the scene)."""
    return results_strip(view, strip) if results_drawn(finished, own_results) else adjust(view, strip)
