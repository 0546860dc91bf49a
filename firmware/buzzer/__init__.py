"""Buzzer box board firmware (MicroPython, RP2040). See firmware/README.md."""
