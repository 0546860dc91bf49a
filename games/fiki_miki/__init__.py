"""Fiki Miki (Alexander) on the box: four stacks and a bell (variant I), follow
the picture (II A) and follow the picture with the bell (II B).

For now this package is the pure rules core: engine, deck, options and bots.
The registry ``SPEC`` (scene, station map, phone pages) arrives with the scene,
once the game contract and the registry have settled.
"""
