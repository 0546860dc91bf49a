"""Runs at power-up on the Pico: the buzzer board firmware (firmware/buzzer)."""

from buzzer.app import run

run()
