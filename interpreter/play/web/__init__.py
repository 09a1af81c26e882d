"""The table in the browser (`regles serve`): any game, shipped or modded, played, watched
and replayed in a web page, from the same content and with nothing written per game.

    layout.py     where zones go and how boards are drawn (declarations and `table:` hints)
    views.py      what one seat is sent of a state, as JSON (masked as observation masks)
    tables.py     the games in progress: seats, keys, narrators, saving and restoring
    replays.py    traces stepped event by event, with each event's cause, and forks
    catalogue.py  what the start page offers: games, expansions, scenarios, options
    app.py        the Starlette application: pages, JSON, errors, what is kept and its bounds
    guard.py      who may ask and how: host names, other sites' pages, JSON bodies, slow clients
    serve.py      the command: checks, then uvicorn
    static/       the pages and their scripts (content is set as text, never as markup)
"""
