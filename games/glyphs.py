"""Which characters the box's screen can draw, read from its typeface's own
character map (the TrueType ``cmap``) in plain Python: the one rule for a
name, asked where no pygame is loaded (the deciding side loading a profile)
and where it is (the menu's names editor, the host page). pygame's font is
no judge of it: it measures a missing character as the empty box it draws."""

from __future__ import annotations

import struct
from bisect import bisect_right
from functools import cache
from pathlib import Path

#: the box's one typeface (``games.toolkit.theme`` draws every text with it)
FONT_FILE = Path(__file__).parent / "toolkit" / "fonts" / "DejaVuSans-Bold.ttf"


def _format4(data: bytes, at: int) -> set[int]:
    segs = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
    range_at = at + 16 + 6 * segs
    offsets = struct.unpack_from(f">{segs}H", data, range_at)
    found = set()
    for k in range(segs):
        for cp in range(starts[k], ends[k] + 1):
            if cp == 0xFFFF:
                continue
            if offsets[k] == 0:
                glyph = (cp + deltas[k]) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", data, range_at + 2 * k + offsets[k] + 2 * (cp - starts[k]))[0]
                glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(cp)
    return found


def _format12(data: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    found: set[int] = set()
    for k in range(groups):
        first, last, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * k)
        found.update(range(first, last + 1))
    return found


@cache
def _ranges() -> tuple[list[int], list[int]]:
    """The font's characters as sorted runs: their firsts and their lasts."""
    data = FONT_FILE.read_bytes()
    tables = {data[12 + 16 * k: 16 + 16 * k]: struct.unpack_from(">I", data, 20 + 16 * k)[0]
              for k in range(struct.unpack_from(">H", data, 4)[0])}
    cmap = tables[b"cmap"]
    records = {struct.unpack_from(">HH", data, cmap + 4 + 8 * k): cmap + struct.unpack_from(">I", data, cmap + 8 + 8 * k)[0]
               for k in range(struct.unpack_from(">H", data, cmap + 2)[0])}
    found: set[int] = set()
    for at in records.values():
        fmt = struct.unpack_from(">H", data, at)[0]
        found |= _format4(data, at) if fmt == 4 else _format12(data, at) if fmt == 12 else set()
    firsts: list[int] = []
    lasts: list[int] = []
    for cp in sorted(found):
        if lasts and cp == lasts[-1] + 1:
            lasts[-1] = cp
        else:
            firsts.append(cp)
            lasts.append(cp)
    return firsts, lasts


def drawable(ch: str) -> bool:
    """The typeface has ``ch`` (spaces always pass: they draw as nothing)."""
    if ch.isspace():
        return True
    firsts, lasts = _ranges()
    k = bisect_right(firsts, ord(ch)) - 1
    return k >= 0 and ord(ch) <= lasts[k]


def undrawable(text: str) -> str:
    """The characters of ``text`` the screen would draw as an empty box (an
    emoji, Chinese, a symbol outside DejaVu), each once, in order."""
    return "".join(dict.fromkeys(ch for ch in text if not drawable(ch)))


def undrawable_line(chars: str) -> str:
    """The one line that says ``chars`` of a name were refused, and why."""
    from games.i18n import _

    return _("{chars}: the big screen cannot draw these; letters, digits and punctuation only").format(chars=chars)


def name_refusal(name: str) -> str | None:
    """Why a name cannot be shown on the big screen (None: it can): the one
    check every way a name is entered shares (the menu's names editor, the
    host page's rename, a profile's station names)."""
    missing = undrawable(name)
    return undrawable_line(missing) if missing else None
