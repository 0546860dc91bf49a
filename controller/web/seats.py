"""Who may do what: one secret token per seat, the host's PIN, and the
addresses phones are given (the same builder makes the QR code).

A seat's token is its phone's session secret: never on the big screen. The
screen shows one join address (the seat picker); a phone that takes a free
seat is handed its token once and keeps it itself, and the seat is its own
only once that phone says hello with it within ``TAKE_HELLO_S``: a take
nobody joins with lapses (a new token, the seat free again), so a script
that grabs seats without joining holds them for seconds, not the evening.
A seat already handed out, or one the host gave a new code, changes hands
only by the host's choice (a new token: the old phone is dropped).

Tokens come from ``secrets`` and are compared with ``hmac.compare_digest``;
a log line only ever shows their first characters. Re-issuing a seat makes
a new token: the old one stops working at once (the server also drops the
phone that held it).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: how many wrong PINs one address may try before it waits
PIN_TRIES = 5
#: how long an address that ran out of PIN tries waits the first time; each further time it runs
#: out the wait doubles (up to PIN_LOCKOUT_MAX_S): a guesser's address slows to a few tries an hour
#: while every other address (the real host's) is never kept out (no lockout over all addresses)
PIN_LOCKOUT_S = 60.0
#: the longest an address waits between rounds of PIN tries
PIN_LOCKOUT_MAX_S = 3600.0
#: how long a phone given a seat's token has to say hello with it before the seat is free again
TAKE_HELLO_S = 5.0


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_pin() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"


def shown(token: str) -> str:
    """A token as the log may show it: never in full."""
    return token[:4] + "…"


@dataclass
class Seats:
    """The seats' tokens, the host PIN and the wrong-PIN counts per address.
    Thread-safe: the server thread checks, the host page re-issues, the
    overlay on the loop thread reads the URLs."""

    count: int
    pin: str = field(default_factory=new_pin)
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens = [new_token() for _ in range(self.count)]
        self._generation = [0] * self.count
        self._handed = [False] * self.count  # whether a phone was given the seat's token
        #: seats whose token went to the picker and whose phone has not said hello: until when it may
        self._pending: dict[int, float] = {}
        self._just_lapsed: list[int] = []  # lapsed since the server last asked (``lapsed``)
        #: seats the host gave a new code while a phone held them: they go to a phone only by the host's choice
        self._reserved = [False] * self.count
        #: address -> (wrong PINs in this round, when the last came, rounds it ran out of tries)
        self._pin_misses: dict[str, tuple[int, float, int]] = {}

    @property
    def capacity(self) -> int:
        """Seats with a code: the most players any game of this session had."""
        with self._lock:
            return len(self._tokens)

    def resize(self, count: int) -> None:
        """The menu's next game has ``count`` players: new seats get codes;
        the codes of seats it does not use are kept (those phones stay
        joined and sit this game out)."""
        with self._lock:
            for _seat in range(len(self._tokens), count):
                self._tokens.append(new_token())
                self._generation.append(0)
                self._handed.append(False)
                self._reserved.append(False)
            self.count = count

    def token(self, seat: int) -> str:
        with self._lock:
            return self._tokens[seat]

    def generation(self, seat: int) -> int:
        """Bumped by every re-issue: a phone joined under an older one is dropped."""
        with self._lock:
            return self._generation[seat]

    def check(self, seat: object, token: object) -> bool:
        """True when ``token`` is this seat's current token (constant time):
        the phone's hello, which makes a taken seat its own."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str):
            return False
        with self._lock:
            self._lapse()
            if not 0 <= seat < len(self._tokens):
                return False
            current = self._tokens[seat]
        ok = hmac.compare_digest(current.encode(), token.encode("utf-8", "replace"))
        if ok:
            with self._lock:
                self._handed[seat] = True
                self._reserved[seat] = False
                self._pending.pop(seat, None)
        return ok

    def _lapse(self) -> list[int]:
        """Takes whose phone never said hello in time: a new token (the one
        handed out stops working) and the seat free again. Under the lock."""
        now = self.clock()
        gone = [seat for seat, until in self._pending.items() if now >= until]
        self._just_lapsed += gone
        for seat in gone:
            del self._pending[seat]
            self._tokens[seat] = new_token()
            self._generation[seat] += 1
            self._handed[seat] = False
        return gone

    def lapsed(self) -> list[int]:
        """The seats whose take lapsed (see ``_lapse``) since the last call: the server tells the
        pickers and makes the address that took each wait."""
        with self._lock:
            self._lapse()
            gone, self._just_lapsed = self._just_lapsed, []
            return gone

    def next_lapse(self) -> float | None:
        """When (on ``clock``) the next pending take lapses; None when none waits."""
        with self._lock:
            return min(self._pending.values(), default=None)

    def free(self, seat: int) -> bool:
        """A phone may take this seat at a tap: no phone was given its token
        (or its take lapsed), and the host did not keep it for their choice."""
        with self._lock:
            self._lapse()
            return not self._handed[seat] and not self._reserved[seat]

    def pending(self, seat: int) -> bool:
        """The seat's token went to a phone that has not said hello yet."""
        with self._lock:
            self._lapse()
            return seat in self._pending

    def take(self, seat: int, hello_s: float = TAKE_HELLO_S) -> str | None:
        """A free seat's token for the phone that picked it, once; None when
        the seat is held already (taking it over needs the host). The seat
        is the phone's once it says hello within ``hello_s``, else free again."""
        with self._lock:
            self._lapse()
            if not 0 <= seat < self.count or self._handed[seat] or self._reserved[seat]:
                return None
            self._handed[seat] = True
            self._pending[seat] = self.clock() + hello_s
            return self._tokens[seat]

    def give(self, seat: int, hello_s: float = TAKE_HELLO_S) -> str:
        """The host's choice: a new token for the phone the host named (the
        old one stops working); it must say hello in time as a take must."""
        with self._lock:
            self._tokens[seat] = new_token()
            self._generation[seat] += 1
            self._handed[seat] = True
            self._reserved[seat] = False
            self._pending[seat] = self.clock() + hello_s
            return self._tokens[seat]

    def reissue(self, seat: int) -> str:
        """A new token: the old one stops working. A seat a phone held is
        then kept for the host's choice (a script on the picker would take it
        before a person could tap); one nobody held stays free."""
        with self._lock:
            self._lapse()
            self._tokens[seat] = new_token()
            self._generation[seat] += 1
            self._reserved[seat] = self._handed[seat] or self._reserved[seat]
            self._handed[seat] = False
            self._pending.pop(seat, None)
            return self._tokens[seat]

    def rotate_pin(self) -> str:
        """A new host PIN; the old one stops working (wrong-PIN counts start again)."""
        with self._lock:
            self.pin = new_pin()
            self._pin_misses.clear()
            return self.pin

    def forgive(self) -> None:
        """Every address may try PINs again: a person at the box asked for the PIN (its own key)."""
        with self._lock:
            self._pin_misses.clear()

    def _wait_of(self, address: str, now: float) -> float:
        """How many seconds ``address`` still waits before its next PIN try (0: it may try). Under the lock."""
        misses, since, rounds = self._pin_misses.get(address, (0, 0.0, 0))
        if misses < PIN_TRIES:
            return 0.0
        wait = since + min(PIN_LOCKOUT_MAX_S, PIN_LOCKOUT_S * 2 ** max(0, rounds - 1)) - now
        if wait > 0:
            return wait
        self._pin_misses[address] = (0, since, rounds)  # a new round of tries; the next wait is longer
        return 0.0

    def pin_locked(self, address: str) -> bool:
        """True while ``address`` ran out of tries (only that address waits)."""
        with self._lock:
            return self._wait_of(address, self.clock()) > 0

    def pin_lockouts(self) -> dict[str, int]:
        """The addresses that wait now, with the seconds left: for the host page and the log."""
        with self._lock:
            now = self.clock()
            waits = {address: self._wait_of(address, now) for address in list(self._pin_misses)}
            return {address: int(wait + 0.999) for address, wait in sorted(waits.items()) if wait > 0}

    def state(self) -> dict[str, Any]:
        """The seats' codes and the PIN as plain data, for the deciding process
        to keep across a screen's crash (its private channel, never a view)."""
        with self._lock:
            return {"count": self.count, "pin": self.pin, "tokens": list(self._tokens),
                    "generation": list(self._generation), "handed": list(self._handed),
                    "reserved": list(self._reserved), "pending": sorted(self._pending)}

    @classmethod
    def restored(cls, state: Mapping[str, Any]) -> Seats:
        """The seats a crashed screen process had (``state``): the same codes, so its phones rejoin."""
        seats = cls(int(state["count"]), pin=str(state["pin"]))
        seats._tokens = [str(t) for t in state["tokens"]]
        seats._generation = [int(g) for g in state["generation"]]
        seats._handed = [bool(h) for h in state["handed"]]
        seats._reserved = [bool(r) for r in state.get("reserved", [False] * len(seats._tokens))]
        seats._reserved += [False] * (len(seats._tokens) - len(seats._reserved))
        for seat in state.get("pending", ()):  # a take caught by the crash: its phone has its time again to join
            seats._pending[int(seat)] = seats.clock() + TAKE_HELLO_S
        return seats

    def check_pin(self, address: str, pin: object) -> bool:
        """True for the right PIN; a wrong one counts against ``address``
        (its fifth in a round starts its wait: ``pin_locked``)."""
        ok = isinstance(pin, str) and hmac.compare_digest(self.pin.encode(), pin.encode("utf-8", "replace"))
        with self._lock:
            if ok:
                self._pin_misses.pop(address, None)
            else:
                misses, _, rounds = self._pin_misses.get(address, (0, 0.0, 0))
                misses += 1
                self._pin_misses[address] = (misses, self.clock(), rounds + (misses == PIN_TRIES))
        return ok


def seat_url(base: str, seat: int, token: str) -> str:
    """A seat's own address, for a phone of the box's own (tests, a kiosk
    tablet), never on the big screen. The token rides in the fragment (after
    ``#``): browsers never send it in requests, so no access log or proxy
    sees it; the page stores it, drops it from the address bar and sends it
    over the WebSocket."""
    return f"{base}/play#seat={seat}&token={token}"


def join_url(base: str) -> str:
    """What the big screen's QR code holds: the seat picker, no secret."""
    return f"{base}/play"


def host_url(base: str) -> str:
    return f"{base}/host"


def board_url(base: str) -> str:
    return f"{base}/board"
