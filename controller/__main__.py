"""``python -m controller COMMAND``: the same as ``buzzerbox COMMAND``."""

import sys

from controller.cli import main

if __name__ == "__main__":
    sys.exit(main())
