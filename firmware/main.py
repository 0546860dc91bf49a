"""Runs at power-up on the Pico: the buzzer board firmware (firmware/buzzer).

The protocol owns the USB serial (Ctrl-C disabled, watchdog on). The way back
to the REPL for maintenance: ``buzzerbox firmware repl`` sends ``M repl``; the
board writes the flag file below and resets, and this boot leaves the REPL
free (one boot only; the next power-up runs the firmware again)."""

import os

try:
    os.remove("maintenance")
    print("buzzer board: maintenance boot, REPL free (reset to run the firmware)")
except OSError:
    from buzzer.app import run

    run()
