"""Reaction duel: GO, false starts, reaction times from the shown frame."""

from __future__ import annotations

from games import registry
from games.base import HOST_SHOWN, Action


def duel(players: int = 3, **options):
    spec = registry.get("reaction")
    return spec.new_engine(spec.settings(players, seed=5, **options))


def go_time(e, start=0):
    e.handle(Action("start", start))
    assert e.public_view()["phase"] == "wait"
    assert e.public_view()["go_shown"] is False
    return e.next_deadline_us()


def test_first_press_after_go_wins_with_reaction_time_from_the_flip():
    e = duel()
    go = go_time(e)
    events = e.tick(go)
    assert any(ev.kind == "show" and ev.data["what"] == "go" for ev in events)
    e.handle(Action(HOST_SHOWN, go + 16_000))  # the frame reached the screen a frame later
    e.handle(Action("press", go + 250_000, 1))
    e.handle(Action("press", go + 260_000, 0))
    e.handle(Action("press", go + 300_000, 2))
    last = e.public_view()["last"]
    assert last["winner"] == 1
    assert last["reaction_us"]["1"] == 234_000
    assert last["margins_us"] == [10_000, 50_000]


def test_false_start_loses_the_round():
    e = duel()
    go = go_time(e)
    e.handle(Action("press", go - 100_000, 0))
    e.tick(go)
    e.handle(Action("press", go + 400_000, 0))  # ignored: already out
    e.handle(Action("press", go + 300_000, 2))
    e.tick(go + 2_000_000)
    last = e.public_view()["last"]
    assert last["false_starts"] == [0]
    assert last["winner"] == 2
    assert e.records[0].false_starts == 1


def test_everyone_false_starting_ends_the_round_without_winner():
    e = duel(2)
    go = go_time(e)
    e.handle(Action("press", go - 10, 0))
    e.handle(Action("press", go - 5, 1))
    assert e.public_view()["phase"] == "result"
    assert e.public_view()["last"]["winner"] is None


def test_decoy_screen_press_is_a_false_start():
    e = duel(2, decoy_chance=1.0)
    e.handle(Action("start", 0))
    decoy = e.next_deadline_us()
    events = e.tick(decoy)
    assert events[0].data["what"] == "decoy"
    e.handle(Action("press", decoy + 200_000, 0))
    assert e.records[0].false_starts == 1


def test_rounds_then_game_over_and_leaderboard():
    e = duel(2, rounds=2)
    t = 0
    e.handle(Action("start", t))
    for _ in range(2):
        go = e.next_deadline_us()
        e.tick(go)
        e.handle(Action("press", go + 200_000, 0))
        e.handle(Action("press", go + 300_000, 1))
        t = e.next_deadline_us()
        e.tick(t)
    assert e.finished
    board = e.leaderboard()
    assert board[0]["player"] == 0 and board[0]["wins"] == 2 and board[0]["best_us"] == 200_000


def test_press_before_the_go_frame_reached_the_screen_is_a_false_start():
    e = duel(2)
    go = go_time(e)
    e.tick(go)
    e.handle(Action("press", go + 500, 0))  # GO scheduled, but the frame is not up yet
    e.handle(Action(HOST_SHOWN, go + 16_000))
    e.handle(Action("press", go + 250_000, 1))
    last = e.public_view()["last"]
    assert last["winner"] == 1 and last["false_starts"] == [0]
    assert all(t >= 0 for t in last["reaction_us"].values())


def test_ticks_that_change_nothing_do_not_change_the_game():
    quiet, busy = duel(2), duel(2)
    for e in (quiet, busy):
        go = go_time(e)
        e.tick(go)
    busy.tick(go + 90_000)  # a tick that emits nothing
    for e in (quiet, busy):
        e.handle(Action("press", go + 40_000, 0))
        e.handle(Action("press", go + 50_000, 1))
    assert quiet.public_view() == busy.public_view()
    assert quiet.next_deadline_us() == busy.next_deadline_us()
