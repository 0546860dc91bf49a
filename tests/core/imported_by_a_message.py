"""Not a game: a package a peer's message names (``test_evening``). Imported, it says so on stderr, so a
process that imports whatever a message names is caught doing it."""

import sys

#: the line it says as it is imported
MARK = "imported by a message: a peer made this process run its code"

print(MARK, file=sys.stderr, flush=True)
