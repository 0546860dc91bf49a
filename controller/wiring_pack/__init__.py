"""The wiring pack: diagrams, multimeter tables and a guided hardware test,
all generated from a wiring profile so they never disagree with the software."""
