"""The `regles` command and what it runs.

`cli` is the command; `check` runs stages 1-4 over paths; `simulate` plays
many games with `agents`; `play` lets a person play at the terminal, told by
`narrate`; `trace` saves and replays games; `ruletest` runs executable
rulings; `explain` shows how the engine reads a card.
"""
