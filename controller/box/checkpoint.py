"""A restricted state codec: a game's state as JSON and back, for the journal's checkpoints.

A restarted deciding process restores the newest checkpoint and replays only
the records after it (``runtime.Box.restore``). A journal may come from
another box, so decoding must never run code: no pickle. The codec writes an
object graph as a flat table of nodes (ids in pre-order; shared references and
cycles kept; nesting stays shallow whatever the graph's depth, which the
journal's reader limits) and takes back only

- None, bool, int, str, float (non-finite ones as text);
- list, tuple, dict (any allowed keys, as pairs), set, frozenset, deque (with
  its maxlen);
- Enum members, ``random.Random`` (its state), ``pathlib`` paths;
- instances of classes defined in modules under ``games.``, under a game
  registered from elsewhere (``games.registry.register``: a new game run
  from its own folder) or in ``controller.box.press``, already imported:
  made with ``object.__new__`` (or ``tuple.__new__`` for a named tuple) and
  their attributes set, so none of their own code runs.

Anything else (a function, a method, another module's class) is a
``CheckpointError``: that game gets no checkpoint and resumes by full replay.
"""

from __future__ import annotations

import enum
import math
import pathlib
import random
import sys
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from games import registry

#: the codec's own version: a checkpoint of another version is not decoded (full replay instead)
CODEC_VERSION = 1
#: where the classes a checkpoint may instantiate live
ALLOWED_PREFIXES = ("games.",)
ALLOWED_MODULES = frozenset({"controller.box.press"})
#: the largest int written as a JSON number (the journal's reader refuses longer ones)
MAX_PLAIN_INT = 2**63 - 1
#: a checkpoint with more nodes than this is not decoded (a damaged or hostile one)
MAX_NODES = 5_000_000

_PATHS: dict[str, type[pathlib.PurePath]] = {
    "PurePosixPath": pathlib.PurePosixPath, "PureWindowsPath": pathlib.PureWindowsPath,
    "PosixPath": pathlib.PurePosixPath, "WindowsPath": pathlib.PureWindowsPath,
}
_DECODE_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError, OverflowError,
                  MemoryError)


class CheckpointError(ValueError):
    """A state the codec will not write, or a checkpoint it cannot take back (the message says which part)."""


def _allowed_module(module: str) -> bool:
    registered = registry.packages().values()
    return module in ALLOWED_MODULES or module.startswith(ALLOWED_PREFIXES) \
        or any(module == package or module.startswith(f"{package}.") for package in registered)


def _slots(cls: type) -> list[str]:
    names: list[str] = []
    for klass in cls.__mro__:
        slots = vars(klass).get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return names


class _Encoder:
    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self.ids: dict[int, int] = {}
        self.keep: list[Any] = []  # keeps every encoded object alive, so ids stay unique
        #: (module, qualname, attribute or key names), written once and referred to by index
        self.shapes: dict[tuple[str, str, tuple[str, ...]], int] = {}

    def shape(self, module: str, name: str, names: tuple[str, ...]) -> int:
        return self.shapes.setdefault((module, name, names), len(self.shapes))

    def value(self, x: Any) -> Any:
        if x is None or x is True or x is False or type(x) is str:
            return x
        if type(x) is int:
            return x if -MAX_PLAIN_INT <= x <= MAX_PLAIN_INT else {"i": str(x)}
        if type(x) is float:
            return x if math.isfinite(x) else {"f": repr(x)}
        known = self.ids.get(id(x))
        if known is not None:
            return [known]
        return [self.node(x)]

    def node(self, x: Any) -> int:
        index = len(self.nodes)
        self.ids[id(x)] = index
        self.keep.append(x)
        self.nodes.append(None)
        self.nodes[index] = self.describe(x)
        return index

    def many(self, items: Any) -> list[Any]:
        return [self.value(v) for v in items]

    def describe(self, x: Any) -> list[Any]:
        kind = type(x)
        if kind is list:
            return ["list", self.many(x)]
        if kind is tuple:
            return ["tuple", self.many(x)]
        if kind is dict and all(type(k) is str for k in x):
            return ["sdict", self.shape("", "", tuple(x)), self.many(x.values())]
        if kind is dict or kind is Counter:
            return ["dict" if kind is dict else "counter", [[self.value(_hashable(k)), self.value(v)] for k, v in x.items()]]
        if kind is set or kind is frozenset:
            return [kind.__name__, [self.value(_hashable(v)) for v in x]]
        if kind is deque:
            return ["deque", self.many(x), x.maxlen]
        if kind is random.Random:
            version, internal, gauss = x.getstate()
            return ["random", version, list(internal), gauss]
        if isinstance(x, pathlib.PurePath) and kind.__name__ in _PATHS:
            return ["path", kind.__name__, str(x)]
        return self.instance(x, kind)

    def instance(self, x: Any, kind: type) -> list[Any]:
        """An instance of a class of an allowed module (``describe``'s containers aside): an enum's
        member, a named tuple, or an object by its attributes and slots."""
        module, name = getattr(kind, "__module__", ""), getattr(kind, "__qualname__", "")
        if not isinstance(module, str) or not _allowed_module(module) or "<locals>" in name:
            raise CheckpointError(f"a {module}.{name} is not something a checkpoint holds")
        if isinstance(x, enum.Enum):
            return ["enum", module, name, x.name]
        if isinstance(x, tuple) and hasattr(kind, "_fields"):
            return ["ntuple", module, name, self.many(x)]
        if kind.__new__ is not object.__new__:
            raise CheckpointError(f"a {module}.{name} is made by its own __new__: not something a checkpoint holds")
        attrs = dict(vars(x)) if hasattr(x, "__dict__") else {}
        for slot in _slots(kind):
            if hasattr(x, slot):
                attrs[slot] = getattr(x, slot)
        return ["obj", self.shape(module, name, tuple(attrs)), self.many(attrs.values())]


def encode(root: Any) -> dict[str, Any]:
    """``root`` as JSON-ready data, or a CheckpointError naming what cannot be written."""
    encoder = _Encoder()
    try:
        top = encoder.value(root)
    except RecursionError:
        raise CheckpointError("the state is nested too deep to write") from None
    shapes = [[module, name, list(names)] for module, name, names in encoder.shapes]
    return {"codec": CODEC_VERSION, "root": top, "nodes": encoder.nodes, "shapes": shapes}


_PLAIN_KEYS = (type(None), bool, int, float, str, pathlib.PurePosixPath, pathlib.PureWindowsPath)


def _hashable(key: Any) -> Any:
    """``key`` if hashing it runs none of a game's code: plain values, Enum members,
    paths, and tuples and frozensets of them (a game object as a key would hash by
    its own ``__hash__``)."""
    if type(key) in _PLAIN_KEYS:
        return key
    pending = [key]
    while pending:
        item = pending.pop()
        if type(item) in (tuple, frozenset):
            pending.extend(item)
        elif type(item) not in _PLAIN_KEYS and not (isinstance(item, enum.Enum) and type(item).__hash__ is enum.Enum.__hash__):
            raise CheckpointError(f"a {type(item).__qualname__} as a dict key or set member is not something a checkpoint holds")
    return key


#: what a node's value is as it stands (``_Decoder.value``'s first case, inlined where it counts)
_PLAIN = frozenset({int, str, float, bool, type(None)})


#: the order a checkpoint's shells are filled in: objects (deepest first), then lists, then what hashes its items
_FILL_ORDER: dict[str, int] = {"obj": 0, "list": 1, "deque": 1, "sdict": 1, "dict": 2, "counter": 2, "set": 2}


class _Decoder:
    """Shells first (lists, dicts, sets, deques, objects), immutable nodes when
    first needed; objects are filled before the dicts and sets that may hash them.
    What a node refers to again (a shape, a class, its slots) is checked once and
    kept: a long quiz's state has tens of thousands of objects of a few shapes."""

    def __init__(self, nodes: list[Any], shapes: list[Any]) -> None:
        if not isinstance(nodes, list) or len(nodes) > MAX_NODES or not isinstance(shapes, list):
            raise CheckpointError("the checkpoint's node table is not a list of nodes")
        self.nodes = nodes
        self.shapes = shapes
        self.made: dict[int, Any] = {}
        self.resolving: set[int] = set()
        self._shapes: dict[int, tuple[str, str, list[str]]] = {}  # shapes checked, by index
        self._classes: dict[tuple[str, str], type] = {}  # classes found and checked, by module and name
        self._slots: dict[type, frozenset[str]] = {}

    def value(self, v: Any) -> Any:
        kind = type(v)
        if kind is int or kind is str or kind is float or kind is bool or v is None:
            return v
        if kind is dict and len(v) == 1:
            if "i" in v and type(v["i"]) is str and len(v["i"]) <= 4000:
                return int(v["i"])
            if "f" in v and v["f"] in ("nan", "inf", "-inf"):
                return float(v["f"])
        if type(v) is list and len(v) == 1 and type(v[0]) is int:
            return self.ref(v[0])
        raise CheckpointError(f"the checkpoint holds {str(v)[:40]!r}, which is no value")

    def ref(self, index: int) -> Any:
        if index in self.made:
            return self.made[index]
        if not 0 <= index < len(self.nodes):
            raise CheckpointError(f"the checkpoint refers to node {index}, which it does not have")
        if index in self.resolving:
            raise CheckpointError(f"node {index} contains itself through values that cannot")
        self.resolving.add(index)
        made = self.immutable(index, self.node(index))
        self.resolving.discard(index)
        self.made[index] = made
        return made

    def node(self, index: int) -> list[Any]:
        node = self.nodes[index]
        if type(node) is not list or not node or type(node[0]) is not str:
            raise CheckpointError(f"node {index} is not a node")
        return node

    def items(self, node: list[Any], at: int = 1) -> list[Any]:
        if len(node) <= at or type(node[at]) is not list:
            raise CheckpointError(f"a {node[0]} node without its items")
        return node[at]

    def shape(self, node: list[Any]) -> tuple[str, str, list[str], list[Any]]:
        """An ``obj`` or ``sdict`` node's module, class, names and values."""
        if len(node) != 3 or type(node[1]) is not int or not 0 <= node[1] < len(self.shapes) or type(node[2]) is not list:
            raise CheckpointError(f"a {node[0]} node without its shape")
        checked = self._shapes.get(node[1])
        if checked is None:
            shape = self.shapes[node[1]]
            if (type(shape) is not list or len(shape) != 3 or type(shape[0]) is not str or type(shape[1]) is not str
                    or type(shape[2]) is not list or not all(type(n) is str for n in shape[2])):
                raise CheckpointError(f"shape {node[1]} is not names for its values")
            checked = self._shapes[node[1]] = (shape[0], shape[1], shape[2])
        if len(checked[2]) != len(node[2]):
            raise CheckpointError(f"shape {node[1]} is not names for its values")
        return checked[0], checked[1], checked[2], node[2]

    def cls(self, node: list[Any]) -> type:
        """The class a node names: already imported, defined where it says, in an allowed module."""
        if len(node) < 3 or type(node[1]) is not str or type(node[2]) is not str:
            raise CheckpointError(f"a {node[0]} node without its class")
        module_name, qualname = node[1], node[2]
        known = self._classes.get((module_name, qualname))
        if known is not None:
            return known
        if not _allowed_module(module_name):
            raise CheckpointError(f"{module_name}.{qualname} is not a class a checkpoint may make")
        module = sys.modules.get(module_name)
        if module is None:
            raise CheckpointError(f"{module_name} is not loaded: {qualname} cannot be made")
        found: Any = module
        for part in qualname.split("."):
            found = vars(found).get(part) if hasattr(found, "__dict__") else None
        if (not isinstance(found, type) or vars(found).get("__module__") != module_name
                or found.__qualname__ != qualname):
            raise CheckpointError(f"{module_name}.{qualname} is not a class defined there")
        self._classes[module_name, qualname] = found
        return found

    def immutable(self, index: int, node: list[Any]) -> Any:
        kind = node[0]
        if kind == "tuple":
            return tuple(self.value(v) for v in self.items(node))
        if kind == "frozenset":
            return frozenset(_hashable(self.value(v)) for v in self.items(node))
        if kind == "random":
            if len(node) != 4 or type(node[1]) is not int or type(node[2]) is not list or len(node[2]) != 625:
                raise CheckpointError("a random generator's state is not one")
            if not all(type(n) is int and 0 <= n < 2**32 for n in node[2]) or not (node[3] is None or type(node[3]) is float):
                raise CheckpointError("a random generator's state is not one")
            rng = random.Random()
            rng.setstate((node[1], tuple(node[2]), node[3]))
            return rng
        if kind == "path":
            if len(node) != 3 or node[1] not in _PATHS or type(node[2]) is not str:
                raise CheckpointError("a path node is not one")
            return _PATHS[node[1]](node[2])
        if kind == "enum":
            cls = self.cls(node)
            members = vars(cls).get("_member_map_")
            if not issubclass(cls, enum.Enum) or not isinstance(members, dict) or node[3] not in members:
                raise CheckpointError(f"{node[2]} has no member {str(node[3])[:40]}")
            return members[node[3]]
        if kind == "ntuple":
            cls = self.cls(node)
            if not issubclass(cls, tuple) or "_fields" not in dir(cls):
                raise CheckpointError(f"{node[2]} is not a named tuple")
            return tuple.__new__(cls, [self.value(v) for v in self.items(node, 3)])
        raise CheckpointError(f"node {index} is a {kind[:20]!r}, which a checkpoint does not hold")

    def decode(self, root: Any) -> Any:
        """Every container and object made empty first (``shell``: a cycle refers to one before it is
        filled), then each filled (``fill``): objects deepest first, then lists, then what hashes its items."""
        fills: list[tuple[int, list[Any], Any]] = []
        for index, node in enumerate(self.nodes):
            if type(node) is not list or not node:
                raise CheckpointError(f"node {index} is not a node")
            shell = self.shell(node)
            if shell is None:
                continue  # an immutable: made where it is first used (``immutable``)
            self.made[index] = shell
            fills.append((index, node, shell))
        fills.sort(key=lambda f: (_FILL_ORDER[f[1][0]], -f[0]))
        for _index, node, shell in fills:
            self.fill(node, shell)
        return self.value(root)

    def shell(self, node: list[Any]) -> Any:
        """The empty container or object a node is filled into; None for an immutable node."""
        kind = node[0]
        if kind == "list":
            return []
        if kind == "dict" or kind == "sdict":
            return {}
        if kind == "counter":
            return Counter()
        if kind == "set":
            return set()
        if kind == "deque":
            if len(node) != 3 or not (node[2] is None or (type(node[2]) is int and 0 <= node[2] <= 10**7)):
                raise CheckpointError("a deque node without its length limit")
            return deque(maxlen=node[2])
        if kind == "obj":
            module, name, _names, _values = self.shape(node)
            cls = self.cls([kind, module, name])
            if cls.__new__ is not object.__new__ or issubclass(cls, BaseException | enum.Enum):
                raise CheckpointError(f"{node[2]} is not a class a checkpoint may make")
            return object.__new__(cls)
        return None

    def fill(self, node: list[Any], shell: Any) -> None:
        """A shell filled with its node's values (plain ones as they are, the rest decoded)."""
        kind, value, plain = node[0], self.value, _PLAIN
        if kind == "obj":
            _module, _name, names, values = self.shape(node)
            self.fill_object(shell, names, values)
        elif kind == "sdict":
            _module, _name, names, values = self.shape(node)
            shell.update(zip(names, [v if type(v) in plain else value(v) for v in values], strict=True))
        elif kind == "list" or kind == "deque":
            shell.extend([v if type(v) in plain else value(v) for v in self.items(node)])
        elif kind == "set":
            shell.update(_hashable(value(v)) for v in self.items(node))
        else:
            for pair in self.items(node):
                if type(pair) is not list or len(pair) != 2:
                    raise CheckpointError("a dict entry is not a key and a value")
                shell[_hashable(value(pair[0]))] = value(pair[1])

    def fill_object(self, shell: Any, names: list[str], values: list[Any]) -> None:
        cls = type(shell)
        slots = self._slots.get(cls)
        if slots is None:
            slots = self._slots[cls] = frozenset(_slots(cls))
        for name, raw in zip(names, values, strict=True):
            value = self.value(raw)
            if name in slots:
                object.__setattr__(shell, name, value)  # a slot's descriptor is the interpreter's own
            elif hasattr(shell, "__dict__"):
                vars(shell)[name] = value
            else:
                raise CheckpointError(f"{type(shell).__qualname__} has no attribute {name[:40]!r}")


def decode(data: Any, check: Callable[[Any], bool] | None = None) -> Any:
    """The state ``encode`` wrote; a CheckpointError (never anything else) for one it cannot take back.
    ``check``: the decoded root must pass it (the right engine class, say)."""
    if type(data) is not dict or data.get("codec") != CODEC_VERSION or "root" not in data or "nodes" not in data:
        raise CheckpointError("not a checkpoint this box can read (another codec version?)")
    try:
        root = _Decoder(data["nodes"], data.get("shapes", [])).decode(data["root"])
    except CheckpointError:
        raise
    except _DECODE_ERRORS as exc:
        raise CheckpointError(f"the checkpoint does not decode ({type(exc).__name__}: {str(exc)[:80]})") from None
    if check is not None and not check(root):
        raise CheckpointError("the checkpoint does not hold the state it should")
    return root
