"""The board's companion page: a small web server on the board itself.

It shows the board as the referee knows it (an SVG drawing with the printed
sheet's geometry, the lamps lit right now and what they mean, the move list),
pushes every change to open pages as server-sent events, and takes the same
actions as the board's buttons (hint, undo, new, mode) plus level and variant,
each carried out on the board's own loop through the referee. Viewing is open;
every action needs the pairing token kept beside the journal.

Nothing here listens unless the ``[web]`` config section or ``--web PORT`` asks.
"""
