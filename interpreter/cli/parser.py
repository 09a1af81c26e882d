"""The `regles` command line: its subcommands and their options (argparse)."""
from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..language.prose import LANGS
from ..printing import sheets


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: status 2, as argparse does, but never a traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class _Intermixed(_Parser):
    """A command whose positional arguments may come before, between or after its options
    (`regles test GAME -x solo my.yaml`): parsed as argparse's intermixed parsing does."""
    _mixing = False

    def parse_known_args(self, args=None, namespace=None):
        if self._mixing:  # the passes of the intermixed parsing itself
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="regles", description="regles: a rules-as-data interpreter for tabletop games.")
    parser.add_argument("--version", action="version", version=f"regles {__version__}")
    parser.add_argument("--traceback", action="store_true",
                        help="when regles itself fails, print the Python traceback (also REGLES_TRACEBACK=1)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    check = sub.add_parser("check", help="check content files or game folders and report every error",
                           description="Check content: YAML, schema, rules-language syntax, names and types. "
                                       "Exit status 0 when clean, 1 on content errors, 2 on usage errors.")
    check.add_argument("paths", nargs="*", metavar="PATH", help="game folders or content files (default: the shipped content)")
    check.add_argument("--format", choices=["text", "json"], default="text", help="how to print the report")
    check.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.set_defaults(subparser=check)
    _add_play_commands(sub)
    lsp = sub.add_parser("lsp", help="run the language server editors talk to (needs regles[lsp])",
                         description="A language server for content files: check-as-you-type diagnostics, "
                                     "completion, hover and go to definition. It speaks over the standard input "
                                     "and output, or over TCP with --tcp. Needs pygls: pip install 'regles[lsp]'.")
    lsp.add_argument("--tcp", type=int, metavar="PORT", default=None, help="listen on this TCP port instead of stdio")
    lsp.add_argument("--host", default="127.0.0.1", help="the address --tcp listens on (default 127.0.0.1)")
    lsp.set_defaults(subparser=lsp)
    rpt = sub.add_parser("report", help="make an HTML page of charts from the results of simulate (needs regles[report])",
                         description="Write one self-contained HTML page of charts from a results file of "
                                     "simulate --results (a .duckdb file, or the .parquet of a Parquet set): "
                                     "win rates by seat, scores, game length, balance figures, cards and seat "
                                     "labels. Needs DuckDB and matplotlib: pip install 'regles[report]'.")
    rpt.add_argument("results", metavar="RESULTS", help="a results file: NAME.duckdb or NAME.parquet")
    rpt.add_argument("--run", metavar="RUN_ID", default=None, help="the run to report (default: the latest)")
    rpt.add_argument("--out", "-o", metavar="FILE", default=None,
                     help="the page to write (default: RESULTS with the suffix .html)")
    rpt.add_argument("--top", type=int, default=10, metavar="N",
                     help="how many cards of each end the card charts show (default 10)")
    rpt.add_argument("--min-plays", type=int, default=30, metavar="N",
                     help="compare a card when at least N seats played it and N did not (default 30)")
    rpt.set_defaults(subparser=rpt)
    return parser


def _add_play_commands(sub) -> None:
    """The subcommands that run games: simulate, play, replay."""
    def game_args(p):
        p.add_argument("game", metavar="GAME", help="a shipped game id, or a game folder")
        p.add_argument("--players", "-n", type=int, default=None, help="number of players (default: the fewest)")
        p.add_argument("--seed", "-s", type=int, default=1, help="the seed (default 1)")
        p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                       help="a game option; may be repeated")
        layer_args(p)
        p.add_argument("--set", action="append", default=[], dest="settings", metavar="CARD.ATTRIBUTE=VALUE",
                       help="play with this card's attribute set to VALUE, as if printed so; may be repeated "
                            "(tune: one of them is the range searched, CARD.ATTRIBUTE=LO..HI)")
        p.add_argument("--scenario", metavar="NAME", default=None,
                       help="play this scenario (its expansion is laid with it)")
        p.add_argument("--solo", metavar="LEVEL", default=None,
                       help="the game's solo mode at this level: one player against the automaton of the "
                            "expansion that declares solo:")
        p.add_argument("--power", action="append", default=[], metavar="SEAT=NAME",
                       help="give seat SEAT (from 1) the personal power NAME; may be repeated "
                            "('--power random' in simulate: a power per seat, drawn for each game)")

    def cluster_arg(p):
        p.add_argument("--cluster", metavar="ADDRESS", default=None,
                       help="play the games on a Dask cluster: a scheduler's address (tcp://HOST:8786), or "
                            "'local' for one of --workers processes on this machine (needs regles[cluster])")

    def run_args(p, json_help: str, quiet_help: str):
        """--workers, --json, --max-decisions and --quiet of a command that plays a run."""
        p.add_argument("--workers", "-w", type=int, default=1, help="processes to spread the games over")
        p.add_argument("--json", metavar="FILE", help=json_help)
        p.add_argument("--max-decisions", type=int, default=20_000, metavar="N",
                       help="a game with more decisions did not end: an error (default 20000)")
        p.add_argument("--quiet", "-q", action="store_true", help=quiet_help)

    def layer_args(p):
        p.add_argument("--expansion", "-x", action="append", default=[], metavar="NAME[,NAME]",
                       help="lay these expansions of the game over it; may be repeated")
        p.add_argument("--with", action="append", default=[], dest="mods", metavar="PATH",
                       help="lay a mod over the game: an expansion folder, or a folder or file of cards")

    sim = sub.add_parser("simulate", help="play many games with bots and report win rates, scores and speed",
                         description="Play many games with bots. Game i uses seed seed_for(SEED, i), so a run "
                                     "gives the same results whatever the number of workers. A game that "
                                     "raises is an error: reported with its seed, its trace saved. Exit "
                                     "status 1 when any game failed.")
    game_args(sim)
    sim.add_argument("--games", "-k", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--agents", "-a", default="random",
                     help="bots, one per seat or one for all: random, greedy, mcts:N (N iterations a decision, or mcts:0.5s; options after colons: mcts:100:reuse:depth=10) (default random)")
    sim.add_argument("--check", action="store_true", help="check the generic invariants after every step")
    sim.add_argument("--json", metavar="FILE", help="write the results as a JSON object")
    sim.add_argument("--results", metavar="FILE",
                     help="append a row per game, per seat and per card a seat took, played, scored with or "
                          "held to FILE (.duckdb, or .parquet: four files); needs pip install 'regles[data]'")
    sim.add_argument("--cards", action="store_true",
                     help="report what each card does (win rate of the seats that played it, when held, "
                          "when taken, its average pick) and the balance measures (also with --results)")
    sim.add_argument("--workers", "-w", type=int, default=1, help="processes to spread the games over")
    cluster_arg(sim)
    sim.add_argument("--trace-dir", default="traces", metavar="DIR",
                     help="where the traces of failed games go (default ./traces)")
    sim.add_argument("--max-decisions", type=int, default=20_000, metavar="N",
                     help="a game with more decisions did not end: an error (default 20000)")
    sim.add_argument("--backend", choices=["auto", "native", "python"], default="auto",
                     help="what plays the games: native (the rules compiled to C; random agents only, needs "
                          "regles[native] and a C compiler), python, or auto (native when it can; the same "
                          "results either way; the report says which played) (default auto)")
    sim.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sim.add_argument("--by", action="append", default=[], metavar="ATTRIBUTE",
                     help="report the points cards brought their owners by this attribute (default: the game's report_by)")
    sim.set_defaults(subparser=sim)

    cmp_ = sub.add_parser("compare", help="play the same games with and without a change and report the differences",
                          description="A controlled comparison: the same seeds played by the same bots on the game "
                                      "as it is and on the game changed (cards left out with --without, a mod "
                                      "laid with --variant, or a value set with --change). Reports, per seat, the difference in win rate "
                                      "(Newcombe's interval for paired proportions) and mean score, and the "
                                      "difference in game length (normal approximation on the paired per-game "
                                      "differences). With --until-decided, plays pairs in batches until a "
                                      "sequential test says whether a seat's win rate moves by --points. Exit "
                                      "status 1 when a game failed.")
    game_args(cmp_)
    change = cmp_.add_mutually_exclusive_group(required=True)
    change.add_argument("--without", action="append", default=[], metavar="CARD[,CARD]",
                        help="leave these cards out of the game (every copy); may be repeated")
    change.add_argument("--variant", metavar="PATH", default=None,
                        help="lay this mod (a file or folder, as --with) over the game")
    change.add_argument("--change", action="append", default=[], metavar="CARD.ATTRIBUTE=VALUE",
                        help="play the changed arm with this card's attribute set to VALUE (a value regles tune "
                             "chose, say); may be repeated")
    cmp_.add_argument("--games", "-k", type=int, default=200, help="how many games in each arm (default 200)")
    cmp_.add_argument("--agents", "-a", default="random",
                      help="bots, one per seat or one for all: random, greedy, mcts:N (N iterations a decision, or mcts:0.5s; options after colons: mcts:100:reuse:depth=10) (default random)")
    cmp_.add_argument("--json", metavar="FILE", help="write the figures as a JSON object")
    cmp_.add_argument("--workers", "-w", type=int, default=1, help="processes to spread the games over")
    cluster_arg(cmp_)
    cmp_.add_argument("--trace-dir", default="traces", metavar="DIR",
                      help="where the traces of failed games go, in base/ and changed/ (default ./traces)")
    cmp_.add_argument("--max-decisions", type=int, default=20_000, metavar="N",
                      help="a game with more decisions did not end: an error (default 20000)")
    cmp_.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    seq = cmp_.add_argument_group("until decided", "a sequential test (the generalized SPRT) on each seat's win rate")
    seq.add_argument("--until-decided", action="store_true",
                     help="play pairs in batches and stop when the test decides (--games is then ignored)")
    size = seq.add_mutually_exclusive_group()
    size.add_argument("--points", type=float, default=None, metavar="D",
                      help="the smallest change of a seat's win rate that matters, in points (default 5)")
    size.add_argument("--elo", type=float, default=None, metavar="E",
                      help="the same in Elo, for a game of two players (a win rate from 50%%)")
    seq.add_argument("--alpha", type=float, default=0.05,
                     help="the chance of calling a change that does nothing a change, over all seats (default 0.05)")
    seq.add_argument("--beta", type=float, default=0.05,
                     help="the chance of missing a change of D in a seat (default 0.05)")
    seq.add_argument("--max-games", type=int, default=10_000, metavar="N",
                     help="stop undecided after N pairs (default 10000)")
    seq.add_argument("--batch", type=int, default=100, metavar="N",
                     help="pairs played between two looks at the test (default 100)")
    seq.add_argument("--html", metavar="FILE", help="write a page of the decision and the test's path (needs matplotlib)")
    cmp_.set_defaults(subparser=cmp_)

    bal = sub.add_parser("balance", help="a balance gate for CI: today's content against a saved baseline of figures",
                         description="With --write-baseline FILE, play a run and save, game by game, who won and "
                                     "how long it took, and the effects of the cards given with --card. With "
                                     "--baseline FILE, play the same run again (the baseline's players, seed, "
                                     "games, bots and options) on the content as it is now and compare each seat's "
                                     "and seat label's win rate, the game length and each flagged card's effect, "
                                     "pair of games by pair of games. Exit status 1 when a figure moved beyond its "
                                     "interval (corrected for the number of figures), 0 when none did.")
    game_args(bal)
    which = bal.add_mutually_exclusive_group(required=True)
    which.add_argument("--baseline", metavar="FILE", help="compare with this baseline")
    which.add_argument("--write-baseline", metavar="FILE", help="play a run and write its baseline")
    bal.add_argument("--games", "-k", type=int, default=500, help="how many games, writing a baseline (default 500)")
    bal.add_argument("--agents", "-a", default="random",
                     help="bots, writing a baseline: random, greedy, mcts:N (default random)")
    bal.add_argument("--card", action="append", default=[], metavar="CARD",
                     help="flag a card whose effect on its seats' win rate is kept and compared; may be repeated")
    run_args(bal, "write the figures compared as a JSON object", "no progress bar")
    bal.set_defaults(subparser=bal)

    tun = sub.add_parser("tune", help="search the value of a card's attribute that meets a balance target",
                         description="Play the same games (the same seeds and bots) with each value tried of one "
                                     "card's attribute, given as --set CARD.ATTRIBUTE=LO..HI, and search by a noisy "
                                     "bisection the value whose games meet --target: 'seat win rates within D "
                                     "points of even', 'LABEL win rates within D points of even' (the game's seat "
                                     "label, or 'power' with --power random), 'card effect within [A, B]' (the "
                                     "tuned card's effect on its seats' win rate, in points; or 'effect of CARD "
                                     "within [A, B]'), or 'mean length A to B decisions'. Reports each value tried "
                                     "with its 95% interval and the one chosen. Exit status 0 when the chosen value "
                                     "meets the target, 1 when none tried does or a game failed.")
    game_args(tun)
    tun.add_argument("--target", "-t", required=True, metavar="TARGET", help="what the games should show (see above)")
    tun.add_argument("--games", "-k", type=int, default=300, help="how many games per value tried (default 300)")
    tun.add_argument("--agents", "-a", default="random",
                     help="bots, one per seat or one for all: random, greedy, mcts:N (default random)")
    run_args(tun, "write the values tried and the one chosen as a JSON object", "no progress lines")
    tun.set_defaults(subparser=tun)

    prof = sub.add_parser("profile", help="say which content lines and game functions take a game's time",
                          description="Play games with bots twice, with the same seeds: as they are, for the "
                                      "time per decision, and with every statement and game function of the "
                                      "content timed. Lists the content lines (with the statements run after "
                                      "them up to a pause) and the game functions that take the most time, with "
                                      "their calls per decision. Exit status 1 when a game failed.")
    game_args(prof)
    prof.add_argument("--games", "-k", type=int, default=50, help="how many games (default 50)")
    prof.add_argument("--agents", "-a", default="random",
                      help="bots, one per seat or one for all: random, greedy, mcts:N (N iterations a decision, or mcts:0.5s; options after colons: mcts:100:reuse:depth=10) (default random)")
    prof.add_argument("--top", type=int, default=15, metavar="N",
                      help="how many lines and functions to list (default 15)")
    prof.add_argument("--json", metavar="FILE", help="write every line and function timed as a JSON object")
    prof.set_defaults(subparser=prof)

    srv = sub.add_parser("serve", help="open a table for any game in the browser (needs regles[web])",
                         description="Serve a web table on this machine: a start page to choose the game, its "
                                     "expansions, scenario, solo level, options and who sits where (people or "
                                     "bots); tables where each seat sees only what it may see; and replays of "
                                     "traces, event by event, with each event's cause. Needs Starlette and "
                                     "uvicorn: pip install 'regles[web]'.")
    srv.add_argument("game", metavar="GAME", nargs="?", default=None,
                     help="serve only this game: a shipped game id, or a game folder (default: every shipped game)")
    srv.add_argument("--with", action="append", default=[], dest="mods", metavar="PATH",
                     help="lay a mod over the game: an expansion folder, or a folder or file of cards")
    srv.add_argument("--port", "-p", type=int, default=8000, help="the port to listen on (default 8000)")
    srv.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: the network)")
    srv.add_argument("--allow-host", action="append", default=[], dest="allow_hosts", metavar="NAME",
                     help="also answer requests made to this name (a name the machine is reached by, say "
                          "through a proxy); may be repeated; '*' answers to any name")
    srv.add_argument("--data", default="regles-tables", metavar="DIR",
                     help="where tables and traces are kept, to survive a restart (default ./regles-tables)")
    srv.add_argument("--bot-delay", type=float, default=0.4, metavar="SECONDS",
                     help="a pause before each bot's decision, to follow the game (default 0.4)")
    srv.set_defaults(subparser=srv)

    play = sub.add_parser("play", help="play a game at the terminal against bots",
                          description="Play seat 1 (or --seat) at the terminal against bots; every event is "
                                      "told as it happens, showing only what your seat may see. "
                                      "Type the number of an option; q quits; why MOVE says why a move "
                                      "is not offered, naming the condition and its line.")
    game_args(play)
    play.add_argument("--agents", "-a", default="greedy",
                      help="the bots of the other seats, one for all or one per other seat (default greedy)")
    play.add_argument("--seat", type=int, default=1, help="the seat you play, from 1 (default 1)")
    play.add_argument("--save", metavar="TRACE", help="write the game's trace to this file")
    play.add_argument("--lang", choices=LANGS, default="en",
                      help="the language the whole game is shown in: what happens, the names of zones and counters "
                           "(the game's vocabulary:), the cards shown on request ('? N') and what options do "
                           "(default en)")
    play.add_argument("--all", action="store_true", dest="show_all",
                      help="show the rules' bookkeeping too (the counters the game declares internal)")
    play.set_defaults(subparser=play)

    rep = sub.add_parser("replay", help="play a saved trace again and check every event is the same",
                         description="Re-play a trace from its game, seed, options and choices; exit status 1 "
                                     "at the first event that differs.")
    rep.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines)")
    rep.set_defaults(subparser=rep)

    test = sub.add_parser("test", help="run a game's rules tests (its executable rulings)",
                          description="Run the rules tests (kind: rules-test) of a game; exit status 1 when one fails.")
    test.__class__ = _Intermixed  # RULINGS may follow the options: regles test GAME -x solo my.yaml
    test.add_argument("game", metavar="GAME", help="a shipped game id, a game folder, or an expansion folder")
    test.add_argument("files", nargs="*", metavar="RULINGS",
                      help="rules-test files kept outside the game's folder: run only their tests, with the game")
    layer_args(test)
    test.add_argument("--rule", "-r", action="append", default=[], metavar="ID", help="only tests naming this rule ID")
    test.add_argument("-k", metavar="TEXT", default=None, help="only tests whose name contains this text")
    test.add_argument("--verbose", "-v", action="store_true",
                      help="show every question each test asked: who, the options, the answer and what gave it")
    test.set_defaults(subparser=test)

    why = sub.add_parser("why", help="say why a move is not possible at a point of a saved trace",
                         description="Replay a trace up to event EVENT and say whether MOVE is possible at the "
                                     "decision asked then: if not, the condition that excludes it, its file and "
                                     "line, and the values it read. MOVE is an option's label (or the start of "
                                     "it), a candidate's name, 'use CARD', 'CARD: LABEL' or an action's label. "
                                     "Exit status 0 with the answer, 1 when the trace's game cannot be loaded, "
                                     "2 on usage errors.")
    why.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines), from play --save or simulate")
    why.add_argument("move", metavar="MOVE", help="the move, quoted when it has spaces")
    why.add_argument("--at", type=int, required=True, metavar="EVENT",
                     help="the event number (the trace's n): the decision a choice event answers, "
                          "else the first asked after the event")
    why.add_argument("--seat", type=int, default=None,
                     help="ask as this seat (from 1): nothing it may not see is told")
    why.add_argument("--lang", choices=LANGS, default="en",
                     help="the language of the answer; MOVE may name an option as it is shown in it "
                          "(default: en)")
    why.set_defaults(subparser=why)

    wb = sub.add_parser("why-bot", help="show what a bot weighed at a decision of a saved trace",
                        description="Replay a trace up to event EVENT and let the bot of the seat deciding there "
                                    "(the trace's, or --agent) weigh the options again: greedy gives each option's "
                                    "outcome and the game's heuristic (or score) for its seat after it; a search "
                                    "agent (mcts:N) the visits and mean value of each option. Says which option "
                                    "the trace took and which the bot picks now. Exit status 0 with the answer, 1 "
                                    "when the trace's game cannot be loaded, 2 on usage errors.")
    wb.add_argument("trace", metavar="TRACE", help="a trace file (JSON lines), from play --save or simulate")
    wb.add_argument("--at", type=int, required=True, metavar="EVENT",
                    help="the event number (the trace's n): the decision a choice event answers, "
                         "else the first asked after the event")
    wb.add_argument("--agent", default=None, metavar="AGENT",
                    help="the bot to ask: greedy or mcts:N (default: the trace's bot of that seat, else greedy)")
    wb.set_defaults(subparser=wb)

    exp = sub.add_parser("explain", help="show how the engine reads a card, or a scenario's sheets",
                         description="Show a card as it would be printed (its abilities written as prose), then "
                                     "its attributes and classes, and for each ability the keyword it matches and "
                                     "what the engine does with it. Given a scenario's id instead of a card: its "
                                     "common sheet, then the sheet of each character.")
    exp.add_argument("game", metavar="GAME", help="a shipped game id, or a game folder")
    exp.add_argument("card", metavar="CARD", nargs="?", default=None,
                     help="the card's id or title, or a scenario's id")
    exp.add_argument("--observation", action="store_true",
                     help="instead of a card: the layout of the game's observation vector and action space, "
                          "as the environments for AI researchers give them (needs regles[rl])")
    exp.add_argument("--players", "-n", type=int, default=None,
                     help="with --observation: the number of players (default: the fewest)")
    exp.add_argument("--lang", choices=LANGS, default="en",
                     help="the language the card is written in (default: en)")
    layer_args(exp)
    exp.set_defaults(subparser=exp)

    sh = sub.add_parser("sheets", help="print-and-play sheets of a game's cards: a PDF, an SVG per card "
                                       "(needs regles[sheets])",
                        description="Lay out the faces of a game's cards nine to an A4 page (3 x 3 cards of "
                                    "63 x 88 mm, with cut marks), each card as many times as its copies, and "
                                    "write them as a PDF; with --svg-dir, or when --out is a folder, one SVG per "
                                    "card too. A card prints its face: its printed text, its keywords' texts, else prose; no text is smaller than 7 pt. Pieces a game prints as tiles (print: hints) come on the last pages. Needs reportlab: "
                                    f"{sheets.INSTALL}.")
    sh.add_argument("game", metavar="GAME", help="a shipped game id, or a game folder")
    layer_args(sh)
    sh.add_argument("--out", default=None, metavar="PDF|FOLDER",
                    help="the PDF to write, or a folder (an existing one, or a name ending with /) to write "
                         "GAME.pdf and the SVGs in")
    sh.add_argument("--tts", metavar="DIR", default=None,
                    help="write Tabletop Simulator custom decks in DIR: sheets of faces (10 x 7 at most), a back "
                         "per deck and GAME.json, a saved object that loads them (needs pypdfium2 and Pillow)")
    sh.add_argument("--tts-url", metavar="URL", default=None,
                    help="with --tts, where the images will be online (URL + a file's name), for a table shared "
                         "with others (default: file:// URLs of DIR, for this machine)")
    sh.add_argument("--svg-dir", metavar="DIR", default=None, help="write one SVG per card in this folder")
    sh.add_argument("--cards", action="append", default=[], metavar="ID[,ID]",
                    help="only these cards (ids or titles); the id of an expansion or mod laid with the game "
                         "for its cards, 'mod' for the cards of the mods given with --with; may be repeated")
    sh.add_argument("--set", dest="set_name", metavar="NAME|CARD.ATTRIBUTE=VALUE", action="append", default=[],
                    help="only the cards of this set (the set: of their cards files); or, with '=', print a card "
                         "with its attribute set to VALUE (as simulate --set); may be repeated")
    sh.add_argument("--lang", choices=LANGS, default=None,
                    help="the language of the sheets (default: the language the game is printed in, its language:)")
    sh.add_argument("--once", action="store_true",
                    help="each card and tile once, whatever its copies: a proof to read before printing them all")
    sh.add_argument("--backs", action="store_true",
                    help="after each page of cards, a page of their backs (the game's title and the card's kind), "
                         "mirrored to print on both sides, turned on the long edge")
    sh.add_argument("--bleed", type=float, default=0.0, metavar="MM",
                    help="a bleed of MM millimetres round each card (0 to 5; default 0): the cards are set apart, "
                         "the backs' colour runs into it, crop marks show the cut lines; fewer cards fit a page")
    sh.add_argument("--strict", action="store_true",
                    help="exit with status 1 when a text does not fit its card at 7 pt (it is cut and named "
                         "on the standard error either way)")
    sh.add_argument("--players", "-n", type=int, default=None,
                    help="cards given to each player are printed this many times (default: the most players)")
    sh.set_defaults(subparser=sh)
