"""A language server for content files: `regles lsp`.

While a modder types a card or keyword file, the editor shows the errors of
`regles check` (the pack checked with the unsaved texts), completes the names
the game declares, shows a card or keyword on hover and goes to where a
keyword, procedure, function or card is defined. The modules: `analysis`
(a document checked), `packs` (one check shared by the documents of a pack),
`schedule` (when checks run), `place` (where the cursor is), `completion`,
`hover`, `definition`, `columns` (positions in the editor's units), `frames`
(the editor's messages, read so that a malformed one is dropped), and
`server`, which speaks the protocol (with pygls, imported only when the server
starts, so that the rest of regles never needs it).
"""
