"""``python -m controller COMMAND``: the same as ``buzzerbox COMMAND`` (whose
entry point is ``run`` here). The stopping signals are handled before the
command line's modules are imported: a SIGTERM, SIGHUP or Ctrl+C during
start-up ends in one line and the documented exit status, not a traceback
or a kill (controller/system/signals.py)."""

import sys

from controller.system import signals, terminal


def run() -> int:
    terminal.whole_lines()
    signals.install()
    try:
        from controller.cli import main

        return main()
    except KeyboardInterrupt:  # stopped while the program was loaded or its command line read: nothing began
        from games.i18n import _, early_language, set_language

        asked = early_language(sys.argv[1:])  # stopped before the command line set it: said in --lang's language
        if asked:
            set_language(asked)
        print(_("buzzerbox: stopped before it started"), file=sys.stderr)
        status = signals.exit_status()
        return 130 if status is None else status
    finally:
        signals.hold_to_exit()  # a signal now is too late to stop anything: the exit status stands


if __name__ == "__main__":
    sys.exit(run())
