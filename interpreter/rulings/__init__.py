"""What the rules say and what the engine did: for modders and rules lawyers.

`check` runs stages 1-4 over paths (`regles check`), `ruletest` runs a game's
executable rulings (`regles test`), `explain` shows a card with its rules, its
rulings and how the engine reads it (`regles explain`), and `trace` saves games
as traces and replays them (`regles replay`, `why`). The table (`play`) and the
runs (`runs`) save their traces and explain cards through it.
"""
