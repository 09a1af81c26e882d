"""The results of a simulated run as data: per-game facts recorded while the games are
played (`record`), written as tables to DuckDB or Parquet (`store`), and the figures read
from them: what each card does (`cards`) and how balanced the game is (`balance`).

See docs/designers.md for the tables and how to query them.
"""
