"""``python -m controller.display demo|diag|doctor|menu`` (what ``buzzerbox`` adds)."""

import argparse
import sys

from controller.display.commands import add_commands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="buzzerbox")
    sub = parser.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
