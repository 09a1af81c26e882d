"""What a seat is told, for every audience that tells it: the floor under `rl` and `play`.

`narrate` tells one seat its observation and the events of a game, never what the
seat may not see; `shown` prints content as text, never as markup or a control
sequence; `why` writes the engine's answer to "why not?" with its content line;
`seen` says what a seat sees of a state as a value (two states it cannot tell
apart give equal ones), and `worlds` draws states it cannot tell from the real
one, for the search agent and OpenSpiel's `resample_from_infostate`.
The environments for AI researchers (`rl`), the terminal and the web table
(`play`) and every command that prints content read a game through it.
"""
