"""The quiz's phone page: in a team quiz's lobby, your team and the others to
join (each with its colour and players); in an all-play question, the
choices to answer with. Built from ``PhoneTable`` only (the public view and
this seat's moves), so nothing of another seat can reach it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.i18n import _
from games.panels import (
    TYPED,
    Buttons,
    Chosen,
    Heading,
    Note,
    PanelButton,
    PanelMove,
    PhonePanel,
    PhoneTable,
    TextEntry,
    Widget,
)
from games.quiz.engine import MAX_TEAM_NAME, TEAM_MOVE
from games.quiz.teams import members_line, team_members, team_name


def panel(t: PhoneTable) -> PhonePanel:
    widgets: list[Widget] = []
    teams = [int(k) for k in t.public.get("teams") or ()]
    names = [str(n) for n in t.public.get("team_names") or ()]

    def about(team: int) -> str:
        return members_line(team, [t.name(s) for s in team_members(teams, team)])

    signing_up = [m for m in t.moves if m.get("kind") == TEAM_MOVE]
    joins = [m for m in signing_up if "name" not in m["args"]]
    naming = [m for m in signing_up if m["args"].get("name") == TYPED]
    if signing_up and 0 <= t.seat < len(teams):
        mine = teams[t.seat]
        widgets.append(Heading(_("Your team: {team}").format(team=team_name(mine, names)), about(mine)))
        for m in naming:
            widgets.append(TextEntry(_("Name your team"), PanelMove(TEAM_MOVE, dict(m["args"])), "name", _("Save"),
                                     MAX_TEAM_NAME, names[mine] if mine < len(names) else ""))
        if joins:
            widgets.append(Buttons(_("Join another team"), tuple(
                PanelButton(_("Join {team}").format(team=team_name(int(m["args"]["team"]), names)),
                            PanelMove(TEAM_MOVE, dict(m["args"])), about(int(m["args"]["team"])), "quiet")
                for m in joins)))
    answers = [m for m in t.moves if m.get("kind") == "answer"]
    if answers:
        widgets.append(Buttons(_("Your answer"), tuple(
            PanelButton(_choice_label(m), PanelMove("answer", dict(m["args"]))) for m in answers)))
    locked = t.private.get("locked")  # this seat's all-play answer, locked in: its own phones show it
    if isinstance(locked, int) and not isinstance(locked, bool):
        shown = list((t.public.get("ask") or {}).get("choices") or ())
        widgets.append(Chosen(_("{title}: locked in").format(title=_("Your answer")),
                              choice_label(locked, str(shown[locked]) if 0 <= locked < len(shown) else "")))
    if not widgets:
        widgets.append(Note(_("Nothing to do right now: wait for your turn.")))
    return PhonePanel(tuple(widgets))


def _choice_label(move: Mapping[str, Any]) -> str:
    """"B: Paris": the choice's letter and its text (the letter alone without one)."""
    choice = int(move["args"]["choice"])
    preview = dict(move.get("preview") or {})
    return choice_label(choice, str(preview.get(chr(ord("A") + choice), "")))


def choice_label(choice: int, text: str) -> str:
    """"B: Paris": a choice's letter and its text (the letter alone without one), as its button says it."""
    letter = chr(ord("A") + choice)
    return f"{letter}: {text}" if text else letter
