"""Who may do what: one secret token per seat, the host's PIN, and the
addresses phones are given (the same builder makes the QR code).

A seat's token is its phone's session secret: never on the big screen. The
screen shows one join address (the seat picker); a phone that takes a free
seat is handed its token once and keeps it itself. A seat already handed
out is taken over only with the host's approval (a new token: the old
phone is dropped).

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
#: how long an address that ran out of PIN tries waits
PIN_LOCKOUT_S = 60.0
#: wrong PINs from all addresses together within PIN_LOCKOUT_S before every login waits: 40 addresses
#: of 5 tries each would otherwise try 200 PINs a minute (a logged-in host page stays logged in)
PIN_TRIES_ALL = 20


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
        self._pin_misses: dict[str, tuple[int, float]] = {}
        self._all_misses: list[float] = []  # when each wrong PIN of the last PIN_LOCKOUT_S came, any address

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
            self.count = count

    def token(self, seat: int) -> str:
        with self._lock:
            return self._tokens[seat]

    def generation(self, seat: int) -> int:
        """Bumped by every re-issue: a phone joined under an older one is dropped."""
        with self._lock:
            return self._generation[seat]

    def check(self, seat: object, token: object) -> bool:
        """True when ``token`` is this seat's current token (constant time)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str):
            return False
        with self._lock:
            if not 0 <= seat < len(self._tokens):
                return False
            current = self._tokens[seat]
        ok = hmac.compare_digest(current.encode(), token.encode("utf-8", "replace"))
        if ok:
            with self._lock:
                self._handed[seat] = True
        return ok

    def free(self, seat: int) -> bool:
        """No phone was given this seat's token (since its last re-issue)."""
        with self._lock:
            return not self._handed[seat]

    def take(self, seat: int) -> str | None:
        """A free seat's token for the phone that picked it, once; None when
        the seat is held already (taking it over needs the host)."""
        with self._lock:
            if not 0 <= seat < self.count or self._handed[seat]:
                return None
            self._handed[seat] = True
            return self._tokens[seat]

    def reissue(self, seat: int) -> str:
        """A new token: the old one stops working, and the seat is free again."""
        with self._lock:
            self._tokens[seat] = new_token()
            self._generation[seat] += 1
            self._handed[seat] = False
            return self._tokens[seat]

    def rotate_pin(self) -> str:
        """A new host PIN; the old one stops working (wrong-PIN counts start again)."""
        with self._lock:
            self.pin = new_pin()
            self._pin_misses.clear()
            self._all_misses.clear()
            return self.pin

    def pin_locked(self, address: str) -> bool:
        """True while ``address`` ran out of tries, or all addresses together did."""
        with self._lock:
            now = self.clock()
            self._all_misses = [t for t in self._all_misses if now - t < PIN_LOCKOUT_S]
            if len(self._all_misses) >= PIN_TRIES_ALL:
                return True
            misses, since = self._pin_misses.get(address, (0, 0.0))
            if misses >= PIN_TRIES and self.clock() - since < PIN_LOCKOUT_S:
                return True
            if misses >= PIN_TRIES:
                del self._pin_misses[address]
            return False

    def state(self) -> dict[str, Any]:
        """The seats' codes and the PIN as plain data, for the deciding process
        to keep across a screen's crash (its private channel, never a view)."""
        with self._lock:
            return {"count": self.count, "pin": self.pin, "tokens": list(self._tokens),
                    "generation": list(self._generation), "handed": list(self._handed)}

    @classmethod
    def restored(cls, state: Mapping[str, Any]) -> Seats:
        """The seats a crashed screen process had (``state``): the same codes, so its phones rejoin."""
        seats = cls(int(state["count"]), pin=str(state["pin"]))
        seats._tokens = [str(t) for t in state["tokens"]]
        seats._generation = [int(g) for g in state["generation"]]
        seats._handed = [bool(h) for h in state["handed"]]
        return seats

    def check_pin(self, address: str, pin: object) -> bool:
        """True for the right PIN; a wrong one counts against ``address``."""
        ok = isinstance(pin, str) and hmac.compare_digest(self.pin.encode(), pin.encode("utf-8", "replace"))
        with self._lock:
            if ok:
                self._pin_misses.pop(address, None)
            else:
                misses, _ = self._pin_misses.get(address, (0, 0.0))
                self._pin_misses[address] = (misses + 1, self.clock())
                self._all_misses.append(self.clock())
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
