"""Lockout on the board: the first press of a contest lights its lamp from the
firmware, at hardware speed, and locks the other lamps (firmware/PROTOCOL.md,
"Lockout").

The host arms a contest (``L arm``): which input channels compete and the
lamp of each, a glitch filter, a tie window, a timeout. The first competing
press that has been stable active for the glitch filter lights its lamp at
once; a press confirmed later whose first edge is within the tie window of the
winner's lights too (a tie stays a tie); every other competing lamp is held
dark. The host stays the one that decides what a press wins: it confirms the
lamps or overrides them (``L end``), and the board drops the contest by
itself after the timeout or when the host goes away, so no lamp stays on.

Pure and allocation-free after ``arm`` (preallocated arrays, index
arithmetic), so the same module runs under MicroPython on the board and under
CPython in the simulator and the benchmark.
"""

from array import array

from .debounce import ticks_diff

NONE = 255  # lamp_of[ch]: the channel does not compete
# what became of a competing channel in this contest
WAITING = 0
LIT = 1  # its lamp is on: the first press, or tied with it
LOCKED = 2  # confirmed after the winner, outside the tie window: its lamp stays dark
FIRST = 0
TIE = 1
DROP_HOST = 0
DROP_TIMEOUT = 1
DROP_LINK = 2
DROP_REARM = 3


class Lockout:
    """One contest at a time. ``check`` is called from the main loop (and its
    spin while a press is about to be confirmed); it returns the channels it
    lit, and the board writes the lamps at once."""

    def __init__(self, channels, lamps):
        self.lamp_of = bytearray([NONE] * channels)
        self.state = bytearray(channels)
        self.chs = []  # competing channels of the armed contest
        self.id = 0  # the armed contest (0: none)
        self.own = False  # the board's own contest (lockout box mode, no host), not a host's
        self.glitch = 1000
        self.tie = 0
        self.timeout = 10000000
        self.start = 0  # presses whose first edge is before this never count
        self.winner_t0 = 0
        self.lit_at = 0  # ticks of the first lamp (the timeout runs from it)
        self.has_winner = False
        self.due_ch = 0
        self.lamps = lamps
        self.owned = bytearray(lamps)  # lamps of the competing channels
        self.lit = bytearray(lamps)
        self.worst_us = 0  # longest confirmation -> lamp latch measured since boot
        self.contests = 0
        self.dropped = array("I", [0, 0, 0, 0])  # contests dropped, by DROP_* reason

    def arm(self, cid, pairs, glitch, tie, timeout, start):
        """A new contest ``cid`` (the old one, if any, is dropped first by the
        caller). ``pairs``: (input channel, lamp) of every competitor."""
        self.clear()
        for ch, lamp in pairs:
            if not 0 <= ch < len(self.lamp_of):
                raise ValueError("input channel %d does not exist" % ch)
            if not 0 <= lamp < self.lamps:
                raise ValueError("lamp %d does not exist (0..%d)" % (lamp, self.lamps - 1))
            if lamp == NONE:
                raise ValueError("lamp %d is reserved" % lamp)
        for ch, lamp in pairs:
            self.lamp_of[ch] = lamp
            self.state[ch] = WAITING
            self.owned[lamp] = 1
            self.chs.append(ch)
        self.id = cid
        self.glitch = glitch
        self.tie = tie
        self.timeout = timeout
        self.start = start
        self.contests += 1

    def update(self, pairs):
        """The same contest again (a repeated ``L arm``): competitors added,
        nothing already lit or locked undone."""
        for ch, lamp in pairs:
            if 0 <= ch < len(self.lamp_of) and 0 <= lamp < self.lamps and self.lamp_of[ch] == NONE:
                self.lamp_of[ch] = lamp
                self.state[ch] = WAITING
                self.owned[lamp] = 1
                self.chs.append(ch)

    def clear(self):
        for ch in self.chs:
            self.lamp_of[ch] = NONE
        self.chs = []
        for i in range(self.lamps):
            self.owned[i] = 0
            self.lit[i] = 0
        self.id = 0
        self.own = False
        self.has_winner = False

    def drop(self, reason):
        """The contest ends on the board: its lamps go back to the host's modes."""
        if self.id:
            self.dropped[reason] += 1
        self.clear()

    def shows(self, lamp):
        """What the contest makes of a lamp: -1 the host's mode, else 0/1."""
        if not self.has_winner or not self.owned[lamp]:
            return -1
        return self.lit[lamp]

    def check(self, deb, active, now, out):
        """Light what the glitch filter confirmed by ``now``; the channels lit
        are appended to ``out`` (kept by the caller), in the order confirmed,
        each followed by FIRST or TIE."""
        for ch in self.chs:
            self.consider(deb, active, ch, now, out)

    def consider(self, deb, active, ch, now, out):
        """``check`` for one channel (the spin knows which press is due)."""
        if self.confirmed(deb, active, ch, now):
            self.decide(ch, deb.t0[ch], now, out)

    def confirmed(self, deb, active, ch, now):
        """A competitor still waiting whose press the glitch filter has confirmed by ``now``."""
        if self.state[ch] != WAITING:
            return False
        ph = deb.phase[ch]
        if (ph != 1 and ph != 2) or deb.level[ch] != active:  # pending or pressed, and held now
            return False
        if ticks_diff(deb.t0[ch], self.start) < 0:
            return False  # began before the contest: it never counts (released and pressed again, it may)
        return ticks_diff(now, deb.last[ch]) >= self.glitch

    def lock_confirmed(self, deb, active, now):
        """After the PIO's winner (pio_lockout.py): a competitor confirmed since found its
        LOCK high and stayed dark; so it is here."""
        for ch in self.chs:
            if self.confirmed(deb, active, ch, now):
                self.state[ch] = LOCKED

    def decide(self, ch, t0, now, out, lit=False):
        """A competing press (first edge ``t0``) confirmed at ``now``: the first,
        tied with it, or locked out. The spin calls this directly for the press
        it waited for (``next_due`` checked the rest, and no edge came since).
        ``lit``: the PIO lit it already, so it is the first or a tie, whatever its stamp."""
        if not self.has_winner:
            self.has_winner = True
            self.winner_t0 = t0
            self.lit_at = now
            kind = FIRST
        elif lit or -self.tie <= ticks_diff(t0, self.winner_t0) <= self.tie:
            kind = TIE
        else:
            self.state[ch] = LOCKED
            return
        self.state[ch] = LIT
        self.lit[self.lamp_of[ch]] = 1
        out.append(ch)
        out.append(kind)

    def next_due(self, deb, active, now):
        """µs until the next competing press is confirmed (-1: none pending);
        that press's channel in ``due_ch``."""
        best = -1
        phase, level, last, t0s = deb.phase, deb.level, deb.last, deb.t0
        for ch in self.chs:
            if self.state[ch] != WAITING:
                continue
            ph = phase[ch]
            if (ph != 1 and ph != 2) or level[ch] != active or ticks_diff(t0s[ch], self.start) < 0:
                continue
            due = self.glitch - ticks_diff(now, last[ch])
            if due < 0:
                due = 0
            if best < 0 or due < best:
                best = due
                self.due_ch = ch
        return best

    def confirmed_at(self, deb, ch):
        """The ticks at which the glitch filter confirmed ``ch``'s press."""
        return (deb.last[ch] + self.glitch) & ((1 << 30) - 1)

    def timed_out(self, now):
        return self.id and self.has_winner and ticks_diff(now, self.lit_at) >= self.timeout
