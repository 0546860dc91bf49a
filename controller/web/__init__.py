"""The companion pages: private hands on players' phones, a host remote and a
live scoreboard, served from the box on the LAN (``--web``).

The server is an input source like the buttons: it puts what phones send
into the box's inbox, stamped on the box clock when it arrives, and reads
only the views the loop publishes after each step. It never touches the
engine. See docs/companion.md.
"""
