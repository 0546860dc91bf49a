"""Input sources: one module per way a press can reach the box.

Every source stamps at the point of capture, reports its precision, and hands
edges or presses to a thread-safe sink; nothing slow runs on its callbacks.
"""
