"""Where the files the box ships beside its code are: the wiring profiles and
the kiosk's unit (``wiring/``), the guides (``docs/``). In a checkout (and an
editable install) they are the repository's own; an installed wheel carries
copies in ``controller/_shipped/`` (setup.py puts them there), so ``pipx
install buzzerbox`` gives every command its files without a checkout."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent.parent  # the controller package
#: the copies an installed wheel carries (absent in a checkout)
INSTALLED = _HERE / "_shipped"
#: the repository, when this is a checkout
CHECKOUT = _HERE.parent


def shipped(folder: str) -> Path:
    """``wiring`` or ``docs``: the wheel's copy where there is one, else the checkout's."""
    installed = INSTALLED / folder
    return installed if installed.is_dir() else CHECKOUT / folder
