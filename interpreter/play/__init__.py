"""Playing games: for players at a table and the bots that sit with them.

`agents` are the seats' players (random, greedy, the search agent of `mcts`, a
person), `revisits` keeps a bot that keeps the turn from going round in circles,
`terminal` lets a person play at the terminal (`regles play`), and `web/` is the
table in the browser (`regles serve`). A seat sees only what `view` tells it.
"""
