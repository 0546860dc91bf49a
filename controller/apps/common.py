"""Small pieces every app shares: games by name, ``--option`` parsing, JSON out."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any

from games import registry
from games.base import BuzzerBoxError, GameSpec
from games.i18n import _


class UsageError(BuzzerBoxError):
    """A command line the box cannot act on (unknown game, malformed option)."""


def spec_named(name: str) -> GameSpec:
    """The game called ``name``; a typo is a usage error naming the closest game."""
    try:
        return registry.get(name)
    except LookupError as exc:
        raise UsageError(with_suggestion(str(exc).strip("'\""), name, registry.available())) from exc


def with_suggestion(message: str, given: str, names: Sequence[str]) -> str:
    """``message`` with "(did you mean quiz?)" when one name is close to ``given``."""
    close = difflib.get_close_matches(given, list(names), n=1, cutoff=0.6)
    return message + " " + _("(did you mean {name}?)").format(name=close[0]) if close and close[0] != given else message


def default_players(spec: GameSpec) -> int:
    """Four players, or as near as the game allows."""
    return max(spec.min_players, min(4, spec.max_players))


def options_from(pairs: Sequence[str]) -> dict[str, Any]:
    """--option key=value (value parsed as JSON when it can be)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(_("--option wants key=value, got {pair!r}: write it as --option questions=10").format(pair=pair))
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


#: the engines' texts number players from 0 ("player 0 knocked"); people count from 1
_PLAYER_NUMBER = re.compile(r"\b([Pp])layer (\d+)\b")
#: the JSON fields written for people to read (the rest are for programs: indexes stay 0-based)
PEOPLE_FIELDS = frozenset({"text", "why", "reason", "message"})


def for_people(text: str, names: Sequence[str] | None = None) -> str:
    """"player 1 knocked" -> "Red knocked": engines number players from 1 in
    their texts; where the stations have names, the names are used."""
    def name(match: re.Match[str]) -> str:
        index = int(match.group(2)) - 1
        if names is not None and 0 <= index < len(names):
            return names[index]
        return match.group(0)

    return _PLAYER_NUMBER.sub(name, text)


def people_json(data: Any, names: Sequence[str] | None = None) -> Any:
    """``data`` with every text meant for people numbered from 1 (or named)."""
    if isinstance(data, dict):
        return {k: for_people(v, names) if k in PEOPLE_FIELDS and isinstance(v, str) else people_json(v, names)
                for k, v in data.items()}
    if isinstance(data, list):
        return [people_json(v, names) for v in data]
    return data


def print_json(data: Any, names: Sequence[str] | None = None) -> None:
    """JSON on stdout; its texts for people name the players (indexes stay 0-based)."""
    print(json.dumps(people_json(data, names), indent=2, sort_keys=True))
