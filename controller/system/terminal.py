"""What the box's processes write on the stderr they share: whole lines.

``play``'s process, its deciding process and a screen that process starts
write to one stderr (a terminal, a pipe, the journal of a service).
Python writes a non-interactive stderr through, each ``write`` call on its
own: ``print`` is two of them, the text and then its newline, so another
process's line could land between them and two lines became one ("... Ctrl+C
or Esc to stopdeciding process 1234: ..."): a host reads nonsense, and a
script (or a test) waiting for a line that starts so never sees it. Line
buffering makes each line one write, which a pipe keeps whole."""

from __future__ import annotations

import io
import sys

#: the command this process runs (``play``, ``menu``, ``demo`` ...), as its one-line messages name it
#: (``buzzerbox play: ...``): set by the command line before the command runs
command = "play"


def whole_lines() -> None:
    """This process's stderr written a line at a time, each line in one write."""
    stream = sys.stderr
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(line_buffering=True, write_through=False)
