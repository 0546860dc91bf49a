"""``python -m controller COMMAND``: the same as ``buzzerbox COMMAND`` (whose
entry point is ``run`` here). The stopping signals are handled before the
command line's modules are imported: a SIGTERM, SIGHUP or Ctrl+C during
start-up ends in one line and the documented exit status, not a traceback
or a kill (controller/signals.py)."""

import sys

from controller import signals


def run() -> int:
    signals.install()
    try:
        from controller.cli import main
    except KeyboardInterrupt:  # stopped while the program was still being loaded: nothing began
        print("buzzerbox: stopped before it started", file=sys.stderr)
        return signals.exit_status() or 130
    try:
        return main()
    finally:
        signals.hold_to_exit()  # a signal now is too late to stop anything: the exit status stands


if __name__ == "__main__":
    sys.exit(run())
