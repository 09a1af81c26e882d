"""Cards on paper: for designers printing a game to play it before it is made.

`faces` says what a card face shows, `cardlayout` fits its shapes to 63 x 88 mm,
and `sheets` draws the print-and-play sheets as PDF or SVG (`regles sheets`).
"""
