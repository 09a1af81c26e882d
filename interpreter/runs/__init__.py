"""Many games by bots and what came of them: for designers weighing a game's balance.

`simulate` plays them (on a Dask cluster with `cluster`), `compare` sets a changed
game against the game, `profile` says where a game's time goes; `results/` keeps
each game's facts as data, `report_text` prints a run's figures and `report_html/`
makes them a page (`regles simulate`, `compare`, `profile`, `report`).
"""
