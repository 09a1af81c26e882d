"""Why not? in the language of the game played (`regles play --lang fr`): the move named by an
option's label as the seat reads it, the answer said in French from the engine's phrases, its
labels and prompts in the game's words; in English, the answer as the engine wrote it."""
from __future__ import annotations

import io
import random

import interpreter
from interpreter.engine.phrases import ENGLISH, Phrase
from interpreter.play.agents import HumanAgent
from interpreter.play.terminal import play_at_terminal
from interpreter.view.narrate_words import WORDS
from interpreter.view.texts import texts_of
from interpreter.view.why import lines as why_lines, said as why_said


def _until(st, wanted, seed: int, most: int = 3000):
    """`st` played at random (from `seed`) until `wanted(st)`."""
    rng = random.Random(seed)
    for _ in range(most):
        if st.is_terminal():
            return False
        if wanted(st):
            return True
        st.apply(rng.randrange(len(st.legal_actions())))
    return False


def test_a_french_seat_names_an_option_in_its_words_and_is_answered_in_french():
    g = interpreter.load("karman-swap")
    st = g.new_state(2, 4)
    assert _until(st, lambda s: s.pending.prompt == "Your turn" and "Pass" in s.pending.labels_for(s), 1)
    seat, i = int(st.pending.player), st.pending.labels_for(st).index("Pass")
    fr = texts_of(g.program, "fr")
    assert fr("Pass") == "Passer" and fr("Your turn") == "Votre tour"
    answer = st.why_not("Passer", seat, fr)
    assert answer.legal
    assert why_lines(why_said(answer, g.program.sources, g.program, "fr", seat))[0] == \
        f"« Passer » est proposé maintenant : option {i + 1} de « Votre tour »"
    assert why_lines(why_said(answer, g.program.sources))[0] == f"'Pass' is offered now: option {i + 1} of 'Your turn'"
    # the English seat's move, named in English, gets the same answer; a French word it does not know
    assert str(st.why_not("Pass", seat)) == str(answer)
    assert not st.why_not("Passer", seat).legal


def test_a_false_condition_is_said_in_french_with_what_it_read():
    g = interpreter.load("seeders-exodus")
    fr = texts_of(g.program, "fr")
    for seed in range(40):
        st = g.new_state(3, seed)

        def dear_card(s):
            d = s.pending
            if d.prompt != "Integration":
                return False
            labels = d.labels_for(s)
            return any(lbl.startswith("Recycle ") for lbl in labels) and not any(
                lbl.startswith("Integrate ") for lbl in labels)
        if _until(st, dear_card, seed):
            break
    else:
        raise AssertionError("no integration menu without an integration in 40 games")
    seat = int(st.pending.player)
    card = next(lbl for lbl in st.pending.labels_for(st) if lbl.startswith("Recycle ")).split(" for ")[0][8:]
    english = st.why_not(f"Integrate {card}", seat)
    assert not english.legal and english.values
    french = st.why_not(f"Intégrer {card}", seat, fr)
    assert str(french) == str(english)  # one answer, named in either language
    first = why_lines(why_said(french, g.program.sources, g.program, "fr", seat))[0]
    assert first.startswith(f"« Intégrer {card}") and "n'est pas proposé :" in first
    assert " est faux : c.cost = " in first
    assert " = " in first and " is " not in first  # what it read: 'c.cost = 6'
    assert " ; dans can_integrate(you, c), où p = vous, c = " + card in first
    assert why_lines(why_said(french, g.program.sources))[0] == str(english)


def test_why_at_a_french_terminal():
    g = interpreter.load("karman-swap")
    out = io.StringIO()
    human = HumanAgent(io.StringIO("why\nwhy Passer\nq\n"), out, lang="fr")
    play_at_terminal(g, 2, 1, g.options(), ["greedy"], seat=0, human=human, out=out, lang="fr")
    told = out.getvalue()
    assert "pourquoi quoi ? tapez why et un coup" in told
    assert "« Passer »" in told and "why what?" not in told


def test_every_phrase_of_the_engine_is_said_in_every_language():
    for lang, table in WORDS.items():
        assert {f"why_{k}" for k in ENGLISH} <= set(table), lang
        for key in ENGLISH:  # as many parts in each language
            fields = {f for f in range(6) if "{%d}" % f in ENGLISH[key]}
            assert {f for f in range(6) if "{%d}" % f in table[f"why_{key}"]} == fields, (lang, key)
    assert str(Phrase("is", "c.cost", 6)) == "c.cost is 6"


def test_regles_why_answers_in_the_language_asked(tmp_path, capsys):
    from interpreter.cli import main
    from interpreter.rulings.trace import save_state_trace, source_of
    g = interpreter.load("karman-swap")
    st = g.new_state(2, 4, trace=True)
    assert _until(st, lambda s: s.pending.prompt == "Your turn" and "Pass" in s.pending.labels_for(s), 1)
    path = tmp_path / "game.jsonl"
    save_state_trace(path, g, st, source=source_of(g, "karman-swap"))
    at = str(st.trace[-1]["n"])
    assert main(["why", str(path), "--at", at, "--lang", "fr", "Passer"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"à l'événement {at} : ") and "« Votre tour »" in lines[0]
    assert lines[1].startswith("« Passer » est proposé maintenant : option ")
    assert main(["why", str(path), "--at", at, "Passer"]) == 0  # in English, a French label names nothing
    assert capsys.readouterr().out.splitlines()[1] == \
        "no option, card or action 'Passer' is known here; did you mean 'Pass'?"


def test_an_action_is_asked_by_its_label_with_a_colon_and_its_cost_said_in_french():
    g = interpreter.load("seeders-exodus")
    prog, fr = g.program, texts_of(g.program, "fr")
    found = {}
    acting = [(c, a) for c in prog.comps for a in prog.comp_actions[c]]
    colon = [(c, a) for c, a in acting if ":" in a.label(g.new_state(3, 0), c)]
    assert colon  # an 'Activation 1: ...' among them
    for seed in range(6):
        st = g.new_state(3, seed)
        rng = random.Random(seed)
        for _ in range(400):
            if st.is_terminal() or "cost" in found:
                break
            seat = int(st.pending.player)
            for c, a in acting[::3] + colon[:4]:
                label = a.label(st, c)
                answer = st.why_not(label, seat, fr)
                found.setdefault(answer.reason.key, (seat, label, answer))
            st.apply(rng.randrange(len(st.legal_actions())))
    # a label holding ':' ('Activation 1: ...') names its action, never nothing
    assert "unknown" not in found
    seat, label, answer = found["cost"]
    first = why_lines(why_said(answer, prog.sources, prog, "fr", seat))[0]
    assert "ne peut pas être payé : vous avez " in first and ", le coût est de " in first  # said to its seat
    # asked of no seat in particular (regles why without --seat), the player is named
    assert "ne peut pas être payé : le joueur " in why_lines(why_said(answer, prog.sources, prog, "fr"))[0]
    assert " has " not in first and "the cost" not in first
    assert str(answer).endswith(f"the cost is {str(answer).rsplit(' ', 1)[1]}")


def test_a_board_node_is_named_in_french_as_the_screen_labels_it():
    g = interpreter.load("etherium")
    fr = texts_of(g.program, "fr")
    st = g.new_state(2, 0)

    def node_left_out(s):  # a place asked for, with a space of the board not offered
        d = s.pending
        return d.prompt.startswith("A green place") and any(
            n.get("kind") == "space" and n["name"] not in d.labels_for(s) for n in g.program.nodes.values())
    assert _until(st, node_left_out, 0)
    seat, offered = int(st.pending.player), st.pending.labels_for(st)
    read = 0
    for space in (n["name"] for n in g.program.nodes.values() if n.get("kind") == "space"):
        if space in offered:
            continue
        french = fr(space)
        assert french.startswith("case ") and french != space
        answer = st.why_not(french, seat, fr)  # named as the screen shows it
        assert str(answer) == str(st.why_not(space, seat)) and not answer.legal
        said = why_lines(why_said(answer, g.program.sources, g.program, "fr", seat))[0]
        assert said.startswith(f"« {french} » n'est pas proposé : ") and "space " not in said
        # out of the choice's source ('ce n'est pas un membre de ...'), or a condition false of it
        read += " est faux ; " in said and f"n = {french}" in said
    assert read  # a condition, with the values it read named as the screen names them
