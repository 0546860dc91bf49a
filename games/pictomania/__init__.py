"""Pictomania on the box: everyone draws on paper at once, guesses arrive from
phones, the bell takes the bonus tokens (rules: issue #19).

The engine is coming; for now this package holds our own word lists
(``games.pictomania.words``). It registers no game SPEC yet.
"""
