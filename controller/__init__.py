"""The buzzer box runtime: input sources, debounce, arbitration, journal, outputs, CLI."""

__version__ = "0.1.0"
