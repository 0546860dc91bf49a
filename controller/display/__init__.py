"""What players look at: pygame scenes over the station strip, the menu, the
results and diagnostics screens, and the loop that drives them."""
