"""What every input source provides, and where it delivers."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from controller.press import Edge, InputNotice, Press


class InputSink(Protocol):
    """Where sources deliver. Implementations must be thread-safe and fast:
    they are called from pin callback threads and serial reader threads."""

    def edge(self, edge: Edge, precision_us: int) -> None:
        """A raw level change, still to be debounced on the host."""
        ...

    def press(self, press: Press) -> None:
        """A press already debounced where it was captured (firmware board)."""
        ...

    def notice(self, notice: InputNotice) -> None:
        """Stuck, released, glitch, disconnected, reconnected ..."""
        ...


class Source(ABC):
    """An input source. ``precision_us`` is how finely it stamps edges."""

    name: str = "source"
    precision_us: int = 1

    @abstractmethod
    def start(self, sink: InputSink) -> None:
        """Begin delivering to ``sink`` (returns at once)."""

    @abstractmethod
    def stop(self) -> None:
        """Stop delivering and release the hardware."""

    def levels(self) -> dict[tuple[int, str], int]:
        """Each host-debounced input's level at rest, keyed (station, input);
        sources that debounce where they capture return nothing."""
        return {}

    def describe(self) -> str:
        return f"{self.name} (stamps to {self.precision_us} µs)"
