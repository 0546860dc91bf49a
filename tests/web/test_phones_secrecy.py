"""The phone panels keep each seat's secrets: across many random games of
Fiki Miki, Piepmatz and Pictomania, what the box publishes for a seat (its
panel and everything else in its snapshot) never holds another seat's hand
or secret word, and every move a panel can send is one the engine offers
that seat now (or that move held for the station to confirm), never one a
station's button stands for. The scoreboard (``/ws/board``, no login) and
the host page (``/ws/host``) hold no seat's secret in any phase, nor an
event not yet public (Pictomania's "I drew the wrong word")."""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

import pytest

from controller.box.runtime import Box
from controller.box.views import Publisher, move_key, moves_of, station_kinds
from games import registry
from games.base import Action, GameEvent, RuleError
from games.piepmatz.phone import bird_label

GAMES = 6  # per game and variant; a few seconds in all
STEPS = 120


def _random_step(engine: Any, rng: random.Random, t_us: int, players: int) -> list[GameEvent]:
    """One random move of any seat (or of Pictomania's host, who deals and reveals)."""
    engine.tick(t_us)
    host = engine.legal_moves(None) if engine.__class__.__name__ == "PictomaniaEngine" else []
    choices: list[tuple[int | None, dict[str, Any]]] = [(None, m) for m in host]
    for seat in range(players):
        choices += [(seat, m) for m in moves_of(engine, seat) or ()]
    quiet = [c for c in choices if c[1]["kind"] != "ring"]
    if quiet and rng.random() < 0.8:  # Fiki Miki: every seat may ring at any time; play cards too
        choices = quiet
    if not choices:
        return []
    seat, move = rng.choice(choices)
    with contextlib.suppress(RuleError):  # e.g. a ring the bell window just closed on: not what this test is about
        return list(engine.handle(Action(move["kind"], t_us, seat, move["args"])))
    return []


def _secrets(name: str, engine: Any, seat: int) -> list[str]:
    """Texts that would give away another seat's secret if a seat's snapshot held them."""
    if name == "piepmatz":
        return [bird_label(b.to_json()) for p, hand in enumerate(engine.hands) if p != seat for b in hand] + \
               [b.id for p, hand in enumerate(engine.hands) if p != seat for b in hand]
    if name == "pictomania":
        if engine.phase.value not in ("drawing", "review"):
            return []
        mine = engine.private_view(seat)["secret"]["word"]
        return [v["secret"]["word"] for p in range(engine.players) if p != seat
                for v in [engine.private_view(p)] if v["secret"]["word"] != mine]
    return []


def _texts(value: Any) -> Any:
    """Every text a page could show: the string values, however deep (not the keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def _everyones_secrets(name: str, engine: Any) -> list[str]:
    """Every seat's secret texts: none may reach the scoreboard or the host page."""
    if name == "pictomania":
        if engine.phase.value not in ("drawing", "review"):
            return []
        return [engine.private_view(p)["secret"]["word"] for p in range(engine.players)]
    if name == "piepmatz":  # by id: a bird's label also names the same kind of bird in public on a perch
        return [b.id for hand in engine.hands for b in hand]
    return []


def _check_shared(name: str, engine: Any, board: dict[str, Any], host: dict[str, Any]) -> None:
    for stream, published in (("/ws/board", board), ("/ws/host", host)):
        shown = list(_texts(published))
        for secret in _everyones_secrets(name, engine):
            found = re.compile(r"(?<!\w)" + re.escape(secret) + r"(?!\w)")
            assert not any(found.search(t) for t in shown), f"{stream} shows the secret {secret!r}"
    if name == "pictomania" and engine.phase.value == "drawing":
        assert not [e for e in board["events"] if e["kind"] == "admitted"], "/ws/board says who admitted"


def _check(name: str, box: Box, publisher: Publisher, events: list[GameEvent]) -> None:
    engine = box.engine
    snap = publisher.publish(events)
    _check_shared(name, engine, json.loads(snap.board), json.loads(snap.host))
    barred = station_kinds(box.spec)
    for seat in range(box.settings.players):
        published = json.loads(snap.seats[seat])
        panel = published["panel"]
        assert panel is not None
        shown = list(_texts(published))
        for secret in _secrets(name, engine, seat):
            found = re.compile(r"(?<!\w)" + re.escape(secret) + r"(?!\w)")
            assert not any(found.search(t) for t in shown), f"seat {seat + 1}'s phone shows another seat's {secret!r}"
        legal = {move_key(m["kind"], m["args"]) for m in moves_of(engine, seat) or ()}
        sent = [b["move"] for w in panel["widgets"] for b in w.get("buttons", ())] + \
               [a["move"] for w in panel["widgets"] for c in w.get("cards", ()) for a in c["actions"]] + \
               [c["move"] for w in panel["widgets"] for r in w.get("rows", ()) if isinstance(r, dict)
                for c in r["choices"] if c["move"]]
        assert not [m for m in published["moves"] if m["kind"] in barred], "a phone is offered a station's button"
        for move in sent:
            assert move["kind"] not in barred, (seat, move)
            assert move_key(move["kind"], move["args"]) in legal, (seat, move)
            if panel["hold"]:
                held = move_key(panel["hold"], {"move": move})
                assert held in snap.offered[seat]
        if name == "fiki-miki":
            own = {c.id for c in engine.state.hands[seat]}
            hands = [w for w in panel["widgets"] if w["type"] == "hand"]
            assert len(hands[0]["cards"]) == len(own)
            assert {m["args"]["card"] for m in sent} <= own  # a phone plays only its own cards


CASES = [("fiki-miki", 3, {"variant": "I"}), ("fiki-miki", 4, {"variant": "IIA"}),
         ("fiki-miki", 3, {"variant": "IIB"}), ("piepmatz", 3, {}), ("pictomania", 4, {})]


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=[f"{c[0]}-{c[2] or ''}" for c in CASES])
def test_no_panel_ever_shows_another_seats_secret_and_every_tap_is_a_move_offered_now(
        name: str, players: int, options: dict[str, Any]) -> None:
    spec = registry.get(name)
    for game in range(GAMES):
        box = Box(spec, spec.settings(players, seed=1000 + game, **options))
        publisher = Publisher(box)
        rng = random.Random(game)
        t_us = 0
        for _step in range(STEPS):
            if box.engine.finished:
                break
            t_us += rng.choice((1_000, 400_000, 3_000_000))
            _check(name, box, publisher, _random_step(box.engine, rng, t_us, players))
