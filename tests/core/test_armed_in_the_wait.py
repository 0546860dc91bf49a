"""The deciding thread's own loop (``Decider.run``) while it waits for a decision's moment,
in virtual time: deliveries that cannot change the lamp the moment lights wait in the inbox
(no step before the moment, the lamp armed and lit first); one that can (the winner's own
bounce, a phone's move) and a host's key are taken at once; nothing armed for one race
survives into the next. A GPIO reader parked while armed (``Pipe``) leaves what is written to
its pipe to the thread's own reads, and is not parked before its word covers the race."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.box.deciding import Decider, LampPath
from controller.box.press import Edge
from controller.box.runtime import HOLDING_ASKED_AT_US, Box
from games.base import Action, GameEvent
from tests.core.test_armed_lamp import LAG_US, Lamps, Ticking, quiz_box

#: a race's decision: station 2 pressed at 10 ms, confirmed by the glitch filter 1 ms later, the allowance after it
MOMENT = 10_000 + 1_000 + LAG_US

Deliver = Callable[["Played"], None]


class Scripted:
    """``box.arrived`` in virtual time: a wait lets time pass to its end, or to the next scripted
    delivery (which it makes); once the script is done and ``end_us`` passed, the thread stops."""

    def __init__(self, clock: Ticking, end_us: int) -> None:
        self.clock, self.end_us = clock, end_us
        self.script: list[tuple[int, Callable[[], None]]] = []
        self.flag = False
        self.decider: Decider | None = None
        self.waits = 0

    def is_set(self) -> bool:
        return self.flag

    def set(self) -> None:
        self.flag = True

    def clear(self) -> None:
        self.flag = False

    def wait(self, timeout: float) -> bool:
        assert self.decider is not None
        self.waits += 1
        if self.waits > 20_000:  # a loop in which no time passes: stop it, and say so
            self.decider._stopping.set()
            raise AssertionError(f"the deciding thread waits at {self.clock.now_us} µs and lets no time pass")
        if not self.flag:
            deadline = self.clock.now_us + round(timeout * 1e6)
            while self.script and self.script[0][0] <= deadline and not self.flag:  # (one written to a
                t, deliver = self.script.pop(0)  # parked reader's pipe wakes nobody: the wait goes on)
                self.clock.now_us = max(self.clock.now_us, t)
                deliver()
            if not self.flag:
                self.clock.now_us = max(self.clock.now_us, deadline)
                if not self.script and self.clock.now_us >= self.end_us:
                    self.decider._stopping.set()
                    self.flag = True
        return self.flag


class Played:
    """A quiz box played by its deciding thread's own loop over a script of deliveries."""

    def __init__(self, end_us: int = 40_000) -> None:
        self.clock = Ticking()
        self.box: Box
        self.lamps: Lamps
        self.box, self.lamps = quiz_box(self.clock)
        self.box.host("arm", 1_000)
        self.steps: list[int] = []
        step = self.box.step
        self.box.step = lambda t: (self.steps.append(t), step(t))[1]  # type: ignore[method-assign]
        self.arrived = Scripted(self.clock, end_us)
        self.box.arrived = self.arrived  # type: ignore[assignment]
        self.decider = Decider(self.box, self.clock, lambda: None, after=lambda events, t, stirred=True: None,
                               rehearse=lambda: None)
        self.arrived.decider = self.decider
        self.ran: list[int] = []  # when each host key ran

    def edge(self, t_us: int, station: int, level: int) -> tuple[int, Callable[[], None]]:
        return t_us, lambda: self.box.edge(Edge(station, "bell", level, t_us), 1)

    def host_key(self, t_us: int) -> tuple[int, Callable[[], None]]:
        def command() -> list[GameEvent]:
            self.ran.append(self.clock.now_us)
            return self.box.host_button("blank", self.clock.now_us)
        return t_us, lambda: self.decider.submit(command)

    def move(self, t_us: int, player: int) -> tuple[int, Callable[[], None]]:
        def deliver() -> None:
            self.box.deliver_action(Action("buzz", t_us, player))
            self.box.arrived.set()
        return t_us, deliver

    def play(self, *script: tuple[int, Callable[[], None]]) -> Played:
        self.arrived.script = sorted(script, key=lambda s: s[0])
        self.decider.run()
        assert self.decider.error is None, self.decider.error
        assert self.box.first_press_misses == 0
        return self

    def winners(self) -> list[int]:
        return [e.player for e in self.box.event_log if e.kind == "winner"]

    def paths(self) -> list[Any]:
        return [d["path"] for d in self.decider.detail if d["first_press"]]


def test_a_runner_ups_bounces_wait_beside_the_armed_lamp_and_no_step_runs_before_the_moment() -> None:
    game = Played()
    game.play(game.edge(10_000, 2, 0), game.edge(10_400, 1, 0), game.edge(10_450, 1, 1), game.edge(10_480, 1, 0))
    assert game.lamps.lit[0][:2] == (2, "first") and MOMENT <= game.lamps.lit[0][2] <= MOMENT + 40
    assert [t for t in game.steps if 10_400 <= t < MOMENT] == []  # the bounces waited for the moment's step
    assert game.paths() == [LampPath.ARMED] and game.winners() == [2] and game.box.drained()


def test_the_winners_own_bounce_in_the_wait_is_stepped_at_once() -> None:
    game = Played()
    game.play(game.edge(10_000, 2, 0), game.edge(10_400, 2, 1), game.edge(10_420, 2, 0))
    assert [t for t in game.steps if 10_400 <= t <= 10_500]  # its line opened again: the moment moved
    assert game.lamps.lit[0][:2] == (2, "first") and game.lamps.lit[0][2] >= 10_420 + 1_000 + LAG_US
    assert game.winners() == [2]


def test_a_host_key_in_the_wait_runs_at_once_even_with_bounces_waiting_beside_the_lamp() -> None:
    game = Played()
    game.play(game.edge(10_000, 2, 0), game.edge(10_400, 1, 0), game.edge(10_450, 1, 1), game.host_key(10_500))
    assert game.ran and game.ran[0] <= 10_600
    assert game.box.host_paused and game.lamps.lit == []  # paused before the moment: nobody lit


def test_a_phones_move_in_the_wait_is_stepped_at_once() -> None:
    game = Played()
    game.play(game.edge(10_000, 2, 0), game.move(10_300, 1))
    assert [t for t in game.steps if 10_300 <= t <= 10_400]
    assert game.winners() == [2]  # stamped after station 2's press


def test_nothing_armed_for_one_race_is_lit_in_the_next() -> None:
    game = Played(end_us=60_000)
    game.play(game.edge(10_000, 2, 0), game.edge(10_400, 1, 0), game.edge(10_450, 1, 1), game.edge(10_480, 1, 0),
              game.edge(30_000, 2, 1), game.edge(30_200, 1, 1))
    assert game.winners() == [2] and [lit[:2] for lit in game.lamps.lit] == [(2, "first")]


class Reader:
    """An edge reader as the deciding thread parks it (``PipeReader.park``): when, and which way."""

    def __init__(self, clock: Ticking) -> None:
        self.clock = clock
        self.parks: list[tuple[int, bool]] = []

    def park(self, parked: bool) -> None:
        self.parks.append((self.clock.now_us, parked))


def test_the_edge_readers_rest_from_the_press_s_step_until_its_lamp_and_bounces_do_not_stir_them() -> None:
    """Armed for the race's moment, the thread parks the readers (a runner-up's bounce then waits in
    the pipe for its own reads, and no reader takes the interpreter in its spin) and lets them go on
    once the moment's step is done, once: the bounces beside the lamp neither unpark nor park again."""
    game = Played()
    reader = Reader(game.clock)
    game.box.edge_readers.append(reader)
    game.play(game.edge(10_000, 2, 0), game.edge(10_400, 1, 0), game.edge(10_450, 1, 1), game.edge(10_480, 1, 0))
    assert game.paths() == [LampPath.ARMED] and game.winners() == [2]
    (parked_at, parked), (resumed_at, resumed) = reader.parks
    assert parked and 10_000 <= parked_at < 10_400  # in the step that took the press
    assert not resumed and resumed_at >= game.lamps.lit[0][2] >= MOMENT  # after its lamp


def test_a_reader_busy_with_a_chunk_in_the_spin_is_let_go_on_and_waited_for() -> None:
    """A reader still handing a chunk over when the spin looks (``Box.sources_holding``) holds an
    edge the decision waits for: the readers are unparked before the thread waits for its delivery
    (parked, it would wait for nothing), and the lamp is still the race's."""
    game = Played()
    reader = Reader(game.clock)
    game.box.edge_readers.append(reader)
    mark = game.box.marks["gpio"]
    busy = [True]

    def probe(now_us: int) -> int | None:
        if now_us == HOLDING_ASKED_AT_US and busy[0] and reader.parks and reader.parks[-1][1]:
            busy[0] = False
            return None  # busy, it cannot say yet
        return now_us - LAG_US

    mark.probe = probe
    game.play(game.edge(10_000, 2, 0))
    assert not busy[0]  # the spin looked while the reader was busy
    assert [parked for _t, parked in reader.parks] == [True, False]
    assert reader.parks[1][0] < MOMENT  # let go in the spin, before the moment
    assert game.winners() == [2] and game.lamps.lit[0][:2] == (2, "first")


def test_the_readers_go_on_when_the_thread_stops_in_a_wait() -> None:
    """A game closed while the thread waits for an armed lamp leaves no reader parked (the
    source's stop drains its pipe with it)."""
    game = Played(end_us=10_500)
    reader = Reader(game.clock)
    game.box.edge_readers.append(reader)
    game.arrived.script = [game.edge(10_000, 2, 0)]
    game.arrived.end_us = 10_500
    game.decider.run()
    assert [parked for _t, parked in reader.parks] == [True, False]


class Pipe:
    """A GPIO source's pipe and its reader as the deciding thread sees them: an edge written while
    the reader is parked waits in the pipe until the thread reads it itself (the source's probe,
    ``PipeReader.take_waiting``) or lets the reader go on; otherwise the reader hands it over at once."""

    def __init__(self, game: Played, lag_us: int = LAG_US) -> None:
        self.game = game
        self.parked = False
        self.waiting: list[Edge] = []
        self.parks: list[tuple[int, bool]] = []
        game.box.edge_readers.append(self)
        mark = game.box.marks["gpio"]
        mark.probe, mark.probe_lag_us, mark.stated_lag_us = self.take_waiting, lag_us, lag_us
        self.lag_us = lag_us

    def write(self, stamp_us: int, station: int, level: int, at_us: int) -> tuple[int, Callable[[], None]]:
        def written() -> None:
            self.waiting.append(Edge(station, "bell", level, stamp_us))
            if not self.parked:
                self.hand_over()
        return at_us, written

    def park(self, parked: bool) -> None:
        self.parks.append((self.game.clock.now_us, parked))
        self.parked = parked
        if not parked:
            self.hand_over()

    def hand_over(self) -> None:
        for edge in self.waiting:
            self.game.box.edge(edge, 1)
        if self.waiting:
            self.game.box.arrived.set()
        self.waiting = []

    def take_waiting(self, now_us: int) -> int:
        self.hand_over()
        return now_us - self.lag_us


def test_an_earlier_press_still_on_its_way_when_the_lamp_is_armed_is_taken_at_once() -> None:
    """A reader that may deliver an edge up to 600 µs after its stamp (its allowance): station 2's
    press is armed, then station 1's, stamped 500 µs earlier, reaches the pipe. The readers are not
    parked before their word covers the race, so it is handed over at once and its own lamp is lit
    at its moment, not when the spin for station 2's moment would have read it (300 µs late)."""
    game = Played()
    pipe = Pipe(game, lag_us=600)
    game.play(pipe.write(10_000, 2, 0, at_us=10_000), pipe.write(9_500, 1, 0, at_us=10_050))
    rivals_moment = 9_500 + 1_000 + 600
    assert game.winners() == [1]
    assert game.lamps.lit[0][:2] == (1, "first") and rivals_moment <= game.lamps.lit[0][2] <= rivals_moment + 40
    assert pipe.parks and pipe.parks[0][0] >= 10_050  # not parked before station 1's press was handed over


def test_the_winners_own_bounce_waits_in_a_parked_pipe_for_the_spin_and_the_lamp_is_its_new_moment() -> None:
    """Parked, the winner's own bounce is not handed over when written: the spin's first look reads
    it (it can change the lamp: the thread steps at once), and the lamp is lit at the moment its
    line settled for the glitch filter, as when the reader had handed it over at once."""
    game = Played()
    pipe = Pipe(game)
    game.play(pipe.write(10_000, 2, 0, at_us=10_000), pipe.write(10_400, 2, 1, at_us=10_400),
              pipe.write(10_420, 2, 0, at_us=10_420))
    assert not [t for t in game.steps if 10_400 <= t < MOMENT - 300]  # it waited in the pipe
    settled = 10_420 + 1_000 + LAG_US
    assert game.lamps.lit[0][:2] == (2, "first") and settled <= game.lamps.lit[0][2] <= settled + 40
    assert game.winners() == [2]
