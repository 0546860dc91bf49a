"""The RP2040 input board over USB serial (firmware/PROTOCOL.md).

The board stamps and debounces; this driver checks every line (CRC, sequence,
the range of every field), places the board's stamps on 64-bit board time,
maps board time onto the box timeline from clock requests, and hands
``Press``/``InputNotice`` objects to the sink. It reconnects by itself: after
an unplug, a board reboot or a silence it tells the sink ``disconnected`` (the
game pauses), and once the board is back and the clock re-synced,
``connected`` (the game resumes), followed by the presses the board held
meanwhile, with their original stamps.

Three jobs, three modules:

* ``clock``: board µs from (wraps, ticks); the board -> box mapping and its
  honest error (``ClockMap``).
* ``session``: the protocol, sans-I/O (lines and box time in, outputs and
  commands out: the benchmark and tests drive it directly), the board's
  lockout contests among them (``Arm``, ``LampLit``).
* ``serial_io``: the serial port and the reader thread (``BoardSource``).
"""

from controller.box.sources.board.clock import (
    TICKS_HALF,
    TICKS_PERIOD,
    ClockMap,
    ClockSample,
    TickExtender,
)
from controller.box.sources.board.serial_io import (
    BOARD_PIDS,
    BOARD_VID,
    LIGHT_MODES,
    BoardLights,
    BoardSource,
    find_board_port,
)
from controller.box.sources.board.session import (
    BOARD_INPUT,
    BOARD_STATION,
    Arm,
    BoardInfo,
    BoardSession,
    ChannelMap,
    LampLit,
    Output,
    parse_ranges,
)

__all__ = [
    "BOARD_INPUT", "BOARD_PIDS", "BOARD_STATION", "BOARD_VID", "LIGHT_MODES", "TICKS_HALF", "TICKS_PERIOD",
    "Arm", "BoardInfo", "BoardLights", "BoardSession", "BoardSource", "ChannelMap", "ClockMap", "ClockSample",
    "LampLit", "Output", "TickExtender", "find_board_port", "parse_ranges",
]
