"""The channel's protocol number goes up whenever a message changes: each
message's tag, its fields' names and types in order (and those of the value
objects a message holds, which go on the wire as their fields) are pinned
here to ``PROTOCOL``. Two installs of the box speaking different messages
under one number would misread each other instead of saying so in one line.

When this fails it prints the ``PINNED`` to paste below, the protocol
number already bumped (merging branches that each changed messages: bump
once, then paste what the test prints)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from controller import protocol as p

#: PROTOCOL and each message's (and value object's) shape digest, as pinned
PINNED = (12, {
    "view": "86159e4b659fdc7c",
    "opened": "ba0d07c49b303389",
    "refused": "5b54cdd3ff165e0a",
    "rollcall": "25f0b8f3321aa512",
    "ended": "5d1a0e1e9f8deb14",
    "between": "fb85fd43936790dc",
    "diag": "5a04504f04f30e4f",
    "start": "30507e602a2ef56e",
    "play": "a7188306b72ea857",
    "edge": "1ea5381b3da43db4",
    "press": "2140243c62ef794a",
    "notice": "daf3d675476f4b41",
    "action": "0a2be54ebcaccbde",
    "watermark": "dedbddb6cd9a1d7a",
    "host": "6fd0269bd2a1b896",
    "shown": "e16c98caff91fed1",
    "stop": "0351ca0e0f6c22fd",
    "presslamps": "9699a310d0be6a96",
    "seats": "daf8d1fb5fa5300e",
    "hello": "fb3883986ad72454",
    "peerline": "d60fa28148766110",
    "names": "80038a3007ecb80e",
    "setup": "114c3254ef2ea148",
    "pack": "86b98e256833a8c5",
    "answered": "caceea40c575e1e5",
    "panel": "7dd77256389b88ce",
    "showpin": "e69e14a8de3af269",
    "serving": "dbc80b83c9e8d950",
    "listening": "f21ffb76d85764fc",
    "nextgame": "a17d70095f6c3b30",
    "startnext": "ec3d3d1b4c1f7904",
    "setoption": "ea59ea881f3c7ce3",
    "hostrenamed": "c262d6abaef332a6",
    "language": "07b751228f0829d1",
    "value GameEvent": "1864651ba404c97d",
    "value Action": "8e9610b1ef4ca904",
    "value Press": "d6114d7c45e67483",
    "value Edge": "56c46ffb4c038acc",
    "value InputNotice": "6ce8cf2875a0214b",
    "value Watermark": "b98bd53b1efb827d",
    "value Played": "59c4f7887d6adf2d",
    "value PhonesPanel": "4453b460aca43593",
    "value Bots": "7b2e09fe7b263d93",
    "value NewGame": "b2af6463d9382ddc",
})


def shape(cls: type[Any]) -> list[Any]:
    """A class's wire shape: its fields' names and declared types, in order."""
    return [[f.name, f.type if isinstance(f.type, str) else repr(f.type)] for f in dataclasses.fields(cls)]


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def shapes(messages: tuple[type[Any], ...], values: tuple[type[Any], ...]) -> dict[str, str]:
    """Each message's digest by its tag, each value object's by its name (``value Name``)."""
    out = {cls.TAG: digest([cls.TAG, shape(cls)]) for cls in messages}
    out.update({f"value {cls.__name__}": digest([cls.__name__, shape(cls)]) for cls in values})
    return out


def pinned_block(protocol: int, now: dict[str, str]) -> str:
    """The ``PINNED`` that pins ``now`` to ``protocol``, as it is written here."""
    return "PINNED = ({}, {{\n{}}})".format(protocol, "".join(f'    "{k}": "{v}",\n' for k, v in now.items()))


def pin_problem(protocol: int, now: dict[str, str], pinned: tuple[int, dict[str, str]]) -> str | None:
    """What to do when the messages and the pinned number disagree (None: they agree)."""
    number, then = pinned
    if (protocol, now) == (number, then):
        return None
    changed = ([f"{k} (changed)" for k in now if k in then and now[k] != then[k]]
               + [f"{k} (new)" for k in now if k not in then] + [f"{k} (gone)" for k in then if k not in now])
    bumped = protocol if protocol > number else number + 1
    block = pinned_block(bumped, now)
    if protocol == number:
        what = (f"the channel's messages changed ({', '.join(changed)}) but PROTOCOL is still {protocol}: "
                f"set PROTOCOL = {bumped} in controller/protocol.py")
    else:
        what = (f"PROTOCOL is {protocol} but {number} is pinned" + (f" (changed: {', '.join(changed)})" if changed else "")
                + (f": set PROTOCOL = {bumped} in controller/protocol.py" if protocol < number else ""))
    return (f"{what}, and replace PINNED in tests/core/test_protocol_pin.py with (printed plain by "
            f"`.venv/bin/python -m tests.core.test_protocol_pin`):\n\n{block}")


def current() -> dict[str, str]:
    return shapes(p.MESSAGES, tuple(cls for cls in p.CODECS if dataclasses.is_dataclass(cls)))


def test_the_protocol_number_is_pinned_to_the_messages_it_names() -> None:
    problem = pin_problem(p.PROTOCOL, current(), PINNED)
    assert problem is None, problem


def test_a_message_changed_without_a_bump_is_caught_and_the_fix_printed() -> None:
    @dataclasses.dataclass(frozen=True)
    class Shown:  # the real one with one more field
        TAG = "shown"
        t_us: int
        frame: int = 0

    messages = tuple(Shown if cls is p.Shown else cls for cls in p.MESSAGES)
    values = tuple(cls for cls in p.CODECS if dataclasses.is_dataclass(cls))
    now = shapes(messages, values)
    problem = pin_problem(PINNED[0], now, PINNED)
    assert problem is not None
    assert problem.startswith(f"the channel's messages changed (shown (changed)) but PROTOCOL is still {PINNED[0]}: "
                              f"set PROTOCOL = {PINNED[0] + 1} in controller/protocol.py")
    assert f'PINNED = ({PINNED[0] + 1}, {{\n    "view": "{now["view"]}",' in problem
    assert f'"shown": "{now["shown"]}"' in problem and now["shown"] != PINNED[1]["shown"]
    # bumped and pasted: it holds again; a bump alone asks for the pin only
    assert pin_problem(PINNED[0] + 1, now, (PINNED[0] + 1, now)) is None
    bumped_only = pin_problem(PINNED[0] + 1, current(), PINNED)
    assert bumped_only is not None and bumped_only.startswith(f"PROTOCOL is {PINNED[0] + 1} but {PINNED[0]} is pinned, ")
    assert f"PINNED = ({PINNED[0] + 1}, {{" in bumped_only


if __name__ == "__main__":  # the PINNED for the messages as they are (PROTOCOL as it is: bump it first)
    print(pinned_block(p.PROTOCOL, current()))
