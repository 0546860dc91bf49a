"""Team colours: one colour per team, from the Okabe–Ito palette, which people
with the common colour-vision deficiencies can still tell apart. A team keeps
its colour by its index, so the scoreboard and the podium agree all game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.base import RuleError
from games.i18n import N_, _

#: the longest team name: what a scoreboard row and the podium show whole
MAX_TEAM_NAME = 24


class TeamColour(NamedTuple):
    """A team's colour as RGB and its name (a catalogue key: shown translated)."""

    rgb: tuple[int, int, int]
    name: str


#: Okabe & Ito (2008), black left out (it is the screen's background)
OKABE_ITO: tuple[TeamColour, ...] = (
    TeamColour((230, 159, 0), N_("orange")),
    TeamColour((86, 180, 233), N_("sky blue")),
    TeamColour((0, 158, 115), N_("bluish green")),
    TeamColour((240, 228, 66), N_("yellow")),
    TeamColour((0, 114, 178), N_("blue")),
    TeamColour((213, 94, 0), N_("vermilion")),
    TeamColour((204, 121, 167), N_("reddish purple")),
)


def team_colour(team: int) -> TeamColour:
    """Team ``team``'s colour (0-based; the palette repeats after seven teams)."""
    return OKABE_ITO[team % len(OKABE_ITO)]


def team_colour_name(team: int) -> str:
    """The team colour's name in the current language."""
    return _(team_colour(team).name)


def team_name(team: int, names: Sequence[str] = ()) -> str:
    """A team's own name (the quiz's ``team_names``, or as renamed in the lobby), else "Team N"."""
    return str(names[team]) if 0 <= team < len(names) and names[team] else _("Team {n}").format(n=team + 1)


def checked_team_name(name: object) -> str:
    """A team's new name as shown (trimmed), or RuleError saying what to type:
    1 to ``MAX_TEAM_NAME`` printable characters, so no line break, escape or
    bidi override reaches the TV. The one check for a phone's and the host's names."""
    if not (isinstance(name, str) and 0 < len(name.strip()) <= MAX_TEAM_NAME and name.isprintable()):
        raise RuleError(N_("a team's name is 1 to {most} letters, digits or signs, with no line breaks: "
                           "type another name"), most=MAX_TEAM_NAME)
    return name.strip()


def teams_shown(teams: Sequence[int], team_count: int, lobby: bool) -> list[int]:
    """The teams a board lists, in team order: in the lobby every one (an empty
    team is one to join), after it only those with players (nobody can join
    an empty team any more, so it would only stand at the bottom on 0 points)."""
    return [t for t in range(team_count) if lobby or t in teams]


def team_members(teams: list[int], team: int) -> list[int]:
    """The stations of one team, in station order (empty: a team of nobody)."""
    return [s for s, t in enumerate(teams) if t == team]


def members_line(team: int, names: list[str]) -> str:
    """The line under a team: its colour and its players' names."""
    return _("{colour}: {members}").format(colour=team_colour_name(team), members=", ".join(names) or "-")
