"""Stage 6: running a game.

`values` are the run-time values, `state` the plain-data state, `machine`
runs compiled code (frames, decisions, events, actions), `library` is the
run-time library the compiled code calls, `game` the step API. Around them:
`observe` (what a seat may see), `serial` (the JSON form of a state),
`saved` and `savefile` (a saved state checked before it is restored),
`fingerprint` (of a game's content and of the engine), `invariants` (what
every state of every game must keep).
"""
