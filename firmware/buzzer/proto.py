"""The wire format (firmware/PROTOCOL.md): one ASCII line per message,
``<body>*<CRC4HEX>\\n``, CRC-16/CCITT-FALSE over the body.

Pure and shared by the board, the simulator and the host driver, so both ends
cannot disagree on framing. Why CRC-16 and not XOR: an XOR byte misses any
two flips in the same bit column and every swapped pair of digits ("t=12" vs
"t=21"); CRC-16/CCITT catches all 1- and 2-bit errors, all odd counts and
every burst up to 16 bits, and with a 256-entry table it costs one lookup per
byte on the board.
"""

from array import array

PROTOCOL_VERSION = 3
MAX_LINE = 512  # longest line either end accepts (the hello is the longest)


def _table():
    t = array("H", [0] * 256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_T = _table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): b"123456789" -> 0x29B1."""
    t = _T
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


def frame(body):
    """``body`` (str) -> the bytes of one framed line."""
    raw = body.encode()
    return raw + b"*%04X\n" % crc16(raw)


def unframe(line):
    """One received line (bytes, with or without the newline) -> body str.

    Raises ValueError naming what is wrong, so each end can log it."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    star = line.rfind(b"*")
    if star < 0:
        raise ValueError("no checksum (missing '*XXXX'; truncated or garbage line)")
    body = line[:star]
    tail = line[star + 1:]
    if len(tail) != 4:
        raise ValueError("checksum field must be 4 hex digits, got %r" % (tail,))
    try:
        want = int(tail, 16)
    except ValueError:
        raise ValueError("checksum field is not hex: %r" % (tail,)) from None
    got = crc16(body)
    if got != want:
        raise ValueError("bad checksum: line says %04X, content gives %04X" % (want, got))
    try:
        return body.decode()
    except UnicodeError:
        raise ValueError("line is not ASCII") from None


def fields(parts):
    """['c=3', 't=17'] -> {'c': '3', 't': '17'}; a bare word maps to ''."""
    out = {}
    for p in parts:
        eq = p.find("=")
        if eq < 0:
            out[p] = ""
        else:
            out[p[:eq]] = p[eq + 1:]
    return out
