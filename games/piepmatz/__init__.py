"""Piepmatz (little songbirds at the feeder) for the buzzer box: the pure rules core.

This round holds the engine, the deck as data and the bots. The registry
``SPEC`` (and with it the scenario steps and button map) arrives together with
the scene and the phone pages, once the game contract and the registry have
settled.
"""
