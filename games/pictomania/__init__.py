"""Pictomania on the box: everyone draws on paper at once, guesses arrive from
phones, the bell takes the bonus tokens (rules: issue #19, README.md here).

``engine`` is the pure rules core (the word cards are passed in), ``bots`` the
simulated players, ``words`` our own word lists. It registers no game SPEC yet:
the scene, registry line and phone pages come with the contract restructuring.
"""
