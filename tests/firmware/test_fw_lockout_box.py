"""The board's lockout with the box deciding: firmware -> pty -> driver -> box ->
quiz / reaction duel -> ``BoardLockout`` -> the board's lamps, in virtual time.

The board lights the first lamp; the box's decision confirms it (nothing
journaled) or overrides it (the lamps follow the box, a ``lamp`` record in the
journal with both stamps). The faults of issue 37: the board reset mid-contest,
a lost ``L``, a lost confirmation, a host restart: no lamp left on that the box
does not light, no press lost.

Every test runs twice: the lamps lit by the firmware's CPU (``lockout.py``) and by
the PIO lockout (``pio_lockout.PioBells``: the bells' own lamp GPIOs, wired-OR with
their light channels, over ``firmware/rp2_model.py``)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.box.journal import JournalWriter
from controller.box.lights import LightDirector
from controller.box.runtime import Box, box_from_journal
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim
from firmware.buzzer import proto
from games import registry
from games.base import GameEvent
from tests.firmware.conftest import wait_until

CHANNELS = {0: (0, "bell"), 1: (1, "bell"), 2: (2, "bell")}
LAMPS = {(0, "bell"): 0, (1, "bell"): 1, (2, "bell"): 2}
#: the PIO lockout over the stock board: bells 0..2's lamps on GP8, GP9, GP14 (sharing light
#: channels 0..2), LOCKs on GP15 and GP21; those GPIOs are no inputs any more
PIO_LOCKOUT = {"lamps": {0: 8, 1: 9, 2: 14}, "lights": {0: 0, 1: 1, 2: 2}, "locks": (15, 21)}


def with_pio(pinmap: Any) -> Any:
    """``pinmap`` with the PIO lockout of bells 0..2 (PIO_LOCKOUT)."""
    from types import SimpleNamespace

    pm = SimpleNamespace(**{k: getattr(pinmap, k) for k in dir(pinmap) if k.isupper()})
    driven = {*PIO_LOCKOUT["lamps"].values(), *PIO_LOCKOUT["locks"]}
    pm.DIRECT = {ch: gp for ch, gp in pinmap.DIRECT.items() if gp not in driven}
    pm.PIO_LOCKOUT = PIO_LOCKOUT
    return pm


class Table:
    """A board, its driver and a box with the Pi's lamps (``LightDirector``), one
    host process; ``restart`` is a new host process on the same board."""

    def __init__(self, game: str, players: int, tmp: Path, lamp_by: str = "cpu", **sim_args: Any) -> None:
        if lamp_by == "pio":
            from firmware.buzzer import pinmap

            sim_args["pinmap"] = with_pio(sim_args.get("pinmap", pinmap))
        self.sim = BoardSim(**sim_args)
        assert (self.sim.board.pio is not None) == (lamp_by == "pio")
        #: µs past the CPU's glitch filter when the lamp shows: the PIO's count ends 32 ns
        #: after it (firmware/README.md), seen at the simulator's next µs
        self.lamp_us = 1 if lamp_by == "pio" else 0
        self.spec = registry.get(game)
        self.path = tmp / f"{game}.jsonl"
        box = Box(self.spec, self.spec.settings(players, seed=3))
        box.journal = JournalWriter.create(self.path, box.header(mode="play"))
        self._start(box)

    def _start(self, box: Box) -> None:
        self.box = box
        self.source = BoardSource(CHANNELS, LAMPS, port=lambda: self.sim.port, clock=self.sim.host_clock,
                                  clock_slack_us=0, reconnect_delay_s=0.02, sync_interval_us=200_000)
        box.latency_guard_us = self.source.report_delay_us(box.debouncer.config)
        self.director = LightDirector(self.source.lights())
        self.source.follow_lockout(box)
        self.source.start(box)
        self.events: list[GameEvent] = []
        # connected while the board's time stands still (its replies need none): pumped, a driver thread
        # a loaded machine started late found the board 3 s on, gone lockout box by itself (own contest 1)
        wait_until(lambda: self.source.connected, "the board connected")
        self.pump(300_000, lambda: self.source.connected, "the board connected")
        self.pump(0, self.clock_exact, "an exact clock sample")

    def clock_exact(self) -> bool:
        """The driver's board -> box mapping rests on a round trip of no virtual
        time (so it is exact: no drift, and the fit trusts only the tightest
        samples). A driver thread the scheduler kept waiting while the board's time
        went on widens a round trip, and a later, tighter sample would move the fit
        between two presses: the stamps would differ by that, not by the presses."""
        return self.source.session.clock.best_rtt_us() == 0

    def delivered(self) -> bool:
        """Every event the board made has reached the box's inbox (or the lockout hook)."""
        board = self.sim.board
        return self.source.session.expected == board.events.next or not self.source.connected

    def pump(self, us: int, until: Callable[[], bool] = lambda: True, what: str = "", step: int = 1000) -> None:
        """Board time passes a millisecond at a time; before each of the box's steps
        everything the board sent has been read (the horizon is never outrun), and
        time waits until the driver has read the replies to its clock requests (only
        while connected: a rebooting board answers none): a driver thread the loaded
        machine kept waiting must not widen a round trip by many steps of board time,
        or the clock's error grows past two presses' gap and the box calls them a tie
        (host_restart saw presses 500 µs apart tied, 1 run in 7 at load 20)."""
        start = self.sim.now_us
        deadline = time.monotonic() + 30  # a hang guard: every wait here is for readiness
        while True:
            wait_until(lambda: not self.source.session._requests or not self.source.connected,
                       "the driver reading its clock replies")
            self.sim.advance(step)
            wait_until(self.delivered, "the driver reading every event")
            with self.box.lock:
                self.events += self.box.step(self.sim.host_clock())
                self.director.update(self.box.statuses(), self.spec.status_light)
            wait_until(self.board_read_all, "the board reading the box's commands")
            if self.sim.now_us - start >= us and until():
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {what}; events {self.events}")

    def board_read_all(self) -> bool:
        """The board has taken every command the driver wrote (none left in the pty),
        so what it shows is what it was told, however late its thread ran."""
        return self.sim.unread_by_board() == 0

    def host(self, kind: str) -> None:
        with self.box.lock:
            self.events += self.box.host(self.box.host_kind(kind), self.sim.host_clock())
            self.director.update(self.box.statuses(), self.spec.status_light)
        wait_until(self.board_read_all, "the board reading the box's commands")

    def lit(self) -> set[int]:
        return {ch for ch, on in self.sim.lights().items() if on and ch < 3}

    def pi_lamps(self) -> set[int]:
        return {s for (s, _), mode in self.director.current.items() if mode == "on"}

    def agree(self) -> bool:
        """Every lamp shows the box's mode for it (on, off, blink): the board holds
        no contest over them and no lamp of its own."""
        board = self.sim.board
        shown = {i: ("off", "on", "blink")[board.light_mode[i]] for i in range(3)}
        wanted = {s: self.director.current.get((s, "bell"), "off") for s in range(3)}
        return board.lockout.id == 0 and shown == wanted and not self.sim.pio_lamps()

    def records(self, kind: str) -> list[dict[str, Any]]:
        self.box.journal.flush()
        lines = [json.loads(x) for x in self.path.read_text().splitlines()]
        return [r for r in lines if r.get("type") == kind]

    def restart(self) -> None:
        """The host process dies and a new one resumes the game from its journal."""
        self.source.stop()
        self.box.journal.close()
        from controller.box import journal

        old, writer = journal.resume(self.path, fsync=False)
        self._start(box_from_journal(old, writer))

    def close(self) -> None:
        self.source.stop()
        if self.box.journal is not None:
            self.box.journal.close()
        self.sim.close()


@pytest.fixture(params=["cpu", "pio"])
def table(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(game: str = "quiz", players: int = 3, **sim_args: Any) -> Table:
        t = Table(game, players, tmp_path, request.param, **sim_args)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def won(t: Table) -> Callable[[], bool]:
    return lambda: any(e.kind == "winner" for e in t.events)


def test_quiz_the_board_lights_the_first_press_and_the_box_confirms_it(table) -> None:
    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    at = t.sim.press(2)
    t.sim.press(0, at_us=at + 400)
    t.pump(at + 1650 + t.lamp_us - t.sim.now_us, step=1)  # to the very µs the glitch filter confirms station 2
    assert t.lit() == {2}  # the board's lamp, long before the box decides
    assert t.sim.pio_lamps() == ({2} if t.lamp_us else set())  # with the PIO lockout: its lamp GPIO
    assert t.pi_lamps() == set()
    t.pump(20_000, won(t), "the winner")
    assert t.box.summary()["winner"] == 2
    assert t.pi_lamps() == {2} and t.agree()  # confirmed: the same lamp, now the Pi's
    assert t.records("lamp") == []
    assert t.source._follower.referee.agreed == 1


def test_quiz_the_box_overrides_a_lamp_its_ranking_does_not_give(table) -> None:
    """Station 0 pressed 100 µs first but bounced 0.9 ms: station 1's clean press is
    confirmed first on the board, so the board lights 1; the box ranks by the first
    edge and gives 0 the turn: lamp 1 goes dark, lamp 0 on, both stamps journaled."""
    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    at = t.sim.now_us + 1000
    t.sim.press(0, at_us=at, bounce=(100, 300, 900))
    t.sim.press(1, at_us=at + 100, bounce=())
    t.pump(at + 1500 - t.sim.now_us)  # 1 confirmed at +1.1 ms, 0 not before +1.9 ms
    assert t.lit() == {1}
    t.pump(20_000, won(t), "the winner")
    assert t.box.summary()["winner"] == 0
    t.pump(2_000)
    assert t.pi_lamps() == {0} and t.agree()
    (rec,) = t.records("lamp")
    stamp = {p.station: p.t_us for p in t.box.press_log}  # on the box timeline, through the same clock fit
    assert [b["station"] for b in rec["board"]] == [1] and rec["board"][0]["press_us"] == stamp[1]
    assert rec["pi"] == [{"station": 0, "press_us": stamp[0]}] and rec["late"] is False
    assert stamp[1] - stamp[0] == 100  # the board's winner pressed 100 µs after the box's
    from controller.box import journal

    kept = journal.read(t.path)  # the record is kept, not replayed, and no reader calls it unknown
    assert box_from_journal(kept).summary()["winner"] == 0 and not any("lamp" in n for n in kept.notes())


def test_reaction_duel_first_press_wins_the_lamp(table) -> None:
    t = table("reaction", 2)
    t.host("arm")
    t.pump(10_000, lambda: t.box.engine.phase == "go", "GO")
    with t.box.lock:
        t.events += t.box.shown(t.sim.host_clock())
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed at GO")
    at = t.sim.press(1)
    t.sim.press(0, at_us=at + 3_000)
    t.pump(at + 1650 + t.lamp_us - t.sim.now_us, step=1)
    assert t.lit() == {1}
    t.pump(30_000, won(t), "the round's winner")
    assert t.pi_lamps() == {1} and t.agree() and t.records("lamp") == []


def test_a_v2_board_has_no_lockout_and_the_box_lights_as_before(table, monkeypatch) -> None:
    monkeypatch.setattr(proto, "PROTOCOL_VERSION", 2)
    t = table()
    assert t.source.session.info.version == 2 and not t.source.lockout
    t.host("arm")
    at = t.sim.press(1)
    t.pump(at + 1650 - t.sim.now_us + 1000)
    assert t.lit() == set() and t.sim.board.lockout.contests == 0  # nobody armed the board
    t.pump(20_000, won(t), "the winner")
    assert t.pi_lamps() == {1} and t.agree()  # the box's lamp, as before


# -- faults -----------------------------------------------------------------------------


def test_fault_board_reset_mid_contest(table) -> None:
    """Reset after the lamp lit, before the box decided: the lamps go dark with the
    board, the press it had sent still decides, and the box's lamp comes back."""
    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    at = t.sim.press(1)
    t.pump(at + 2000 - t.sim.now_us)
    assert t.lit() == {1}
    t.sim.reboot()
    assert t.lit() == set()
    t.pump(20_000, lambda: won(t)() and t.source.connected, "the winner after the reboot")
    assert t.box.summary()["winner"] == 1  # nothing lost: the press came before the reset
    t.pump(5_000)
    assert t.pi_lamps() == {1} and t.agree() and t.sim.board.lockout.id == 0


def test_fault_board_reset_before_any_press_arms_it_again(table) -> None:
    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    t.sim.reboot()
    t.pump(10_000, lambda: t.source.connected and t.sim.board.lockout.id != 0, "armed again after the reset")
    at = t.sim.press(0)
    t.pump(at + 1650 + t.lamp_us - t.sim.now_us, step=1)
    assert t.lit() == {0}
    t.pump(20_000, won(t), "the winner")
    assert t.pi_lamps() == {0} and t.agree()


def test_fault_a_lost_arm_is_sent_again(table, caplog) -> None:
    caplog.set_level(logging.INFO, "controller.box.sources.board")
    t = table()
    t.sim.lose_commands(b"L arm")  # the L arm never arrives
    t.host("arm")
    t.pump(1000)
    t.pump(400_000, lambda: t.sim.board.lockout.id != 0, "the arm sent again after a heartbeat")
    assert "its arm was lost?" in caplog.text
    at = t.sim.press(2)
    t.pump(at + 1650 + t.lamp_us - t.sim.now_us, step=1)
    assert t.lit() == {2}
    t.pump(20_000, won(t), "the winner")
    assert t.pi_lamps() == {2} and t.agree()


def test_fault_a_lost_arm_before_the_press_leaves_the_lamps_to_the_box(table) -> None:
    """The arm never reaches the board before the press: no board lamp, the box's
    own lamp at its decision (journaled: the board lit none), nothing lost."""
    t = table()
    t.sim.lose_commands(b"L arm", 1_000)  # every arm lost
    t.host("arm")
    t.sim.press(0)
    t.pump(5_000)
    assert t.lit() == set()
    t.pump(20_000, won(t), "the winner")
    assert t.box.summary()["winner"] == 0
    t.pump(300_000)
    assert t.pi_lamps() == {0} and t.agree() and t.sim.board.lockout.id == 0
    assert [r["board"] for r in t.records("lamp")] == [[]]


def test_fault_a_lost_confirmation_is_sent_again(table) -> None:
    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    at = t.sim.press(1)
    t.pump(at + 2000 - t.sim.now_us)
    t.sim.lose_commands(b"L end")  # the box's L end never arrives
    t.pump(20_000, won(t), "the winner")
    t.pump(400_000, lambda: t.sim.board.lockout.id == 0, "the end sent again after a heartbeat")
    assert t.pi_lamps() == {1} and t.agree()
    t.host("correct")  # the host judges: every lamp the box's
    t.pump(5_000)
    assert t.agree()


def test_fault_host_restart_mid_contest(table) -> None:
    """The host process dies after its box decided but before its end reached the
    board (the lamp still the board's, the contest still held): the new host ends
    the dead host's contest at the board's hello, the box resumed from the journal
    has the press and the winner, and the lamps are the box's."""
    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    held = t.sim.board.lockout.id
    t.sim.lose_commands(b"L end", 1_000)  # the dying host's ends never arrive
    at = t.sim.press(2)
    t.sim.press(0, at_us=at + 500)
    t.pump(20_000, won(t), "the winner")
    assert t.sim.board.lockout.id == held and t.lit() == {2}
    t.restart()
    t.sim.deliver_commands()
    t.pump(300_000, lambda: t.sim.board.lockout.id == 0, "the dead host's contest ended")
    assert t.box.summary()["winner"] == 2 and t.box.presses_total == 2  # nothing lost
    t.pump(5_000, t.agree, "the lamps the box's")  # the new driver's lamps read by the board
    assert t.pi_lamps() == {2} and t.agree()


def test_lockout_box_mode_without_the_host_and_the_host_journals_what_it_missed(table) -> None:
    """The host process dies; 3 s later the board is a lockout box by itself: a bell lights
    its lamp and the buzzer, a later bell stays dark. A new host process reads those lamps
    with their stamps and journals them as the board's own contest (``lockout_box``), not
    as a contest of the game; the board's own contest ends and the lamps follow the box."""
    from types import SimpleNamespace

    from firmware.buzzer import pinmap as stock

    pm = SimpleNamespace(**{k: getattr(stock, k) for k in dir(stock) if k.isupper()})
    pm.STANDALONE = {"bells": {0: 0, 1: 1, 2: 2}, "reset": 3, "buzzer": 7, "buzz_ms": 300}
    t = table(pinmap=pm)
    t.source.stop()  # the host is gone (the board does not know yet)
    t.sim.advance(3_200_000, step_us=1000)
    board = t.sim.board
    assert board._host_away and board.lockout.own and board.lockout.id == 1
    at = t.sim.press(1)
    t.sim.press(0, at_us=at + 300)
    t.sim.advance(5_000)
    lights = t.sim.lights()
    assert lights[1] and not lights[0] and lights[7]  # bell 1's lamp and the buzzer; bell 0 locked out
    t.restart()  # a new host process on the same board
    t.pump(50_000, lambda: bool(t.records("lockout_box")), "the board's own contest journaled")
    (rec,) = t.records("lockout_box")
    stamp = {p.station: p.t_us for p in t.box.press_log}
    assert rec["contest"] == 1 and [b["station"] for b in rec["board"]] == [1]
    assert rec["board"][0]["press_us"] == stamp[1]  # the press's own stamp, through the new host's clock fit
    assert t.records("lamp") == []
    t.pump(20_000, t.agree, "the lamps follow the box again")


def test_the_shipped_lockout_box_pin_map_is_a_lockout_box_on_the_stock_board() -> None:
    """``buzzerbox firmware install --lockout-box`` (firmware/buzzer/pinmap_lockout.py) on the
    stock board with no host ever: the stock layout's bells light their lamps (74HC595 #7)
    and the buzzer, a later bell stays dark, the reset button on GP7 darkens them and arms
    the next contest, where another bell wins."""
    from firmware.buzzer import pinmap_lockout

    sim = BoardSim(pinmap=pinmap_lockout)
    try:
        sim.advance(3_200_000, step_us=1000)
        board = sim.board
        assert board.lockout.own and board.lockout.id == 1
        at = sim.press(3)
        sim.press(5, at_us=at + 300)
        sim.advance(5_000)
        lit = {ch for ch, on in sim.lights().items() if on}
        assert lit == {59, 63}  # bell 3's lamp and the buzzer; bell 5 locked out
        sim.press(7)  # the moderator's reset button
        sim.advance(600_000)  # the buzzer sounds for its 500 ms
        assert {ch for ch, on in sim.lights().items() if on} == set() and board.lockout.id == 2
        sim.press(5)
        sim.advance(5_000)
        assert {ch for ch, on in sim.lights().items() if on} == {61, 63}
    finally:
        sim.close()


def test_an_evenings_game_ended_mid_contest_leaves_the_board_holding_none(table) -> None:
    """The menu's evening keeps the board open from one game to the next
    (``process.DecidingGame.close`` with ``keep_inputs``): a game ended while
    its contest was armed (the host's Esc at an armed question) must end it on
    the board, or between games the board lights a pressed station's lamp by
    itself and leaves it on (the lamps went off at the close)."""
    from controller.box.process import DecidingGame

    t = table()
    t.host("arm")
    t.pump(1000, lambda: t.sim.board.lockout.id != 0, "the contest armed")
    game = DecidingGame(t.box, t.source, t.director, until_us=None, results_s=0, screen_args=[])
    game.close("menu", keep_inputs=True)
    wait_until(t.board_read_all, "the board reading the box's commands")
    assert t.sim.board.lockout.id == 0  # the ended game's contest is no longer the board's
    at = t.sim.press(1)  # a station's press in the menu, the board kept for the next game
    t.sim.advance(at + 20_000 - t.sim.now_us)
    wait_until(t.board_read_all, "the board reading the box's commands")
    assert t.lit() == set()  # no lamp of the board's own between games
