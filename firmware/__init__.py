"""Board firmware as a Python package, so the simulator can run the same code.

Only ``firmware/buzzer/`` and ``firmware/main.py`` go onto the Pico.
"""
