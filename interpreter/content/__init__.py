"""Stages 1 and 2: content files read and validated, a pack gathered.

`source` reads YAML safely, every value keeping its file, line and column;
`validate` checks each file against the JSON Schema of its kind; `folders`
finds game folders and their files; `pack` gathers a pack's files into the
definitions of `model` (`declarations` reads a game or expansion file), and
`layers` lays expansions, mods and a scenario over it; every rules text is
parsed next (stage 3, by `language`).
"""
