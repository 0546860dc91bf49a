"""Lockout box mode: with no host, the board is a complete lockout system.

Quiz-bowl rules want a lockout that works without a computer. When no host
has spoken for ``LINK_AWAY_US`` (the Pi off, unplugged, crashed) the board
arms its own contest over the bells of the pin map's ``STANDALONE`` entry
and runs it with the very lockout the host's contests use (``lockout.py``:
glitch filter, first press lit, ties lit together, the others locked out):

* the first confirmed bell lights its lamp, a tie lights all of them;
* the buzzer (a light channel: a buzzer on a ULN2803 output like a lamp)
  sounds for ``buzz_ms`` when a contest is won;
* the reset input (the moderator's button, an input channel the board
  debounces like any other) ends the contest, lamps dark, and arms the next;
* a lit contest that nobody resets is dropped after ``hold_s`` (lamps dark,
  the next one armed).

Every lamp is an ``F`` event with ``own=1`` and the board's own contest id
(counting from 1 at boot), held in the event ring like any press until a host
acknowledges it: a host that comes back reads the contests it missed, with
their stamps. A host's first ``L arm`` replaces the board's contest.

``STANDALONE`` (pin map): ``{"bells": {input channel: lamp}, "reset": input
channel, "buzzer": light channel, "buzz_ms": 500, "tie_us": 20, "hold_s": 60}``.
"""

from .debounce import ticks_diff

_PRESSED = 2  # the debouncer's phase of an accepted press


class Standalone:
    def __init__(self, cfg, glitch_us):
        self.pairs = ",".join("%d:%d" % (ch, lamp) for ch, lamp in sorted(cfg["bells"].items()))
        self.reset = cfg["reset"]
        self.buzzer = cfg["buzzer"]
        self.buzz_us = cfg.get("buzz_ms", 500) * 1000
        self.args = ["c=" + self.pairs, "g=%d" % glitch_us, "w=%d" % cfg.get("tie_us", 20),
                     "to=%d" % (cfg.get("hold_s", 60) * 1000000)]
        self.contests = 0  # the board's own contests since boot (their ids)
        self.buzz_at = -1  # ticks the buzzer went on (-1: off)
        self.reset_was = 0  # the reset input's phase at the last step
        self.buzzed = 0  # the contest the buzzer last sounded for

    def step(self, board, now):
        """Called every main-loop pass; does nothing while a host is there."""
        lk = board.lockout
        if self.buzz_at >= 0 and ticks_diff(now, self.buzz_at) >= self.buzz_us:
            self._buzz(board, 0, now)
        if not board._host_away:
            return
        ph = board.deb.phase[self.reset]
        pressed = ph == _PRESSED and self.reset_was != _PRESSED
        self.reset_was = ph
        if pressed and lk.id and lk.own:
            board._end(["L", "end", str(lk.id)])
        if not lk.id:
            self.contests = self.contests % 65535 + 1
            board._arm(["L", "arm", str(self.contests)] + self.args, now)
            lk.own = True
        elif lk.own and lk.has_winner and self.buzzed != lk.id:
            self.buzzed = lk.id
            self._buzz(board, 1, now)

    def _buzz(self, board, on, now):
        board.light_mode[self.buzzer] = on
        board._lights_dirty = True
        self.buzz_at = now if on else -1
