"""``python -m controller.display demo|diag|doctor|menu``: the same as ``buzzerbox``."""

import sys

from controller.cli import main

if __name__ == "__main__":
    sys.exit(main())
