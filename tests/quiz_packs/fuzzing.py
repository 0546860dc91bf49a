"""Random damage to a text file, for the seeded fuzz tests of the files the
box reads (question packs, word lists): byte edits and cell/value swaps."""

from __future__ import annotations

import random

SPICE = [b",", b'"', b"|", b"\n", b"\r", b"\x00", b"#", b"{", b"}", b"[", b"]", b":",
         b"\xff", b"\xc5", b"\\u0000", b"\\ud800", b"99999999999", b"-1", b"&amp;", "\ufeff".encode()]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """A few random byte edits, or a field-level change (a cell or value swapped)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if not out:
            out.extend(rng.choice(SPICE))
            continue
        i = rng.randrange(len(out))
        op = rng.randrange(6)
        if op == 0:
            out[i] = rng.randrange(256)
        elif op == 1:
            del out[i: i + rng.randint(1, 20)]
        elif op == 2:
            out[i:i] = rng.choice(SPICE)
        elif op == 3:
            j = rng.randrange(len(out))
            out[i:i] = out[j: j + rng.randint(1, 40)]  # duplicate a chunk (cells, rows)
        elif op == 4:
            out[i:] = out[i: i + rng.randint(0, 30)]  # truncate
        else:
            field = rng.choice([b"", b"0", b"abc", b"x" * 400, b"a|b|c|d|e|f|g", b"img.png",
                                b"../x.png", b"true", b"null", b"[]"])
            k = out.find(b",", i)
            if k != -1:
                out[i:k] = field
    return bytes(out)
