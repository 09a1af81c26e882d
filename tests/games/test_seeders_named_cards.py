"""Seeders from Sereis: Exodus, the named cards and the glossary.

The rules tests of content/seeders-exodus/tests/ (abilities-*, cards-*,
glossary-*, integration-*) set up one situation each; most tests here play
whole games with seeded random choices and check what only whole games show:
the public discard and the hidden deck in every seat's view, the Morphoplaste's
face-down negotiators always revealed by the end of the negotiation. The card
anatomy test checks that every ability printed on a named card has code; the
others integrate a named card in a turn and play its printed effect at once.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

import interpreter
from interpreter.engine import machine as vm
from interpreter.engine.values import Seat, ZoneRef
from interpreter.language import nodes as N
from interpreter.names import fold


@lru_cache(maxsize=None)
def game():
    return interpreter.load("seeders-exodus")


def run_procedure(st, name, **params):
    """Run one procedure of the game on a state built by hand (as rules tests do); it acts
    for the player its acting parameter is given."""
    acting = game().program.defn.procedures[name].acting
    vm.push(st, game().program.procs[name], dict(params), None, params.get(acting), None)
    vm.run(st)
    return st


def component(card_id):
    """The first component of a card id."""
    g = game().program
    return next(c for c in g.comps if g.comp_card[c].id == card_id)


def named_cards():
    return [c for c in game().program.defn.cards if c.file.endswith("named.yaml")]


@pytest.mark.rule("SX-GLO-1")
@pytest.mark.parametrize("players", [2, 3])
def test_discard_public_and_deck_hidden_in_every_seat_view(players):
    st = game().new_state(players=players, seed=5)
    rng = random.Random(5)
    seen_discard = False
    while not st.is_terminal():
        for seat in range(players):
            obs = st.observation(seat)
            deck = obs["zones"].get("deck")
            if deck is not None:
                assert isinstance(deck, dict) and set(deck) == {"count"}, deck
            discard = obs["zones"].get("discard")
            if discard:
                assert isinstance(discard, list), discard
                assert [c["id"] for c in discard] == [int(c) for c in st.zones["discard"]]
                seen_discard = True
        st.apply(rng.choice(st.legal_actions()))
    assert seen_discard


def _with_morphoplaste(seed, players):
    """A new game in which seat 0 controls the Morphoplaste from the start (housed in a module
    taken from the Arche deck), or None when the seed dealt either card away from the deck."""
    g = game()
    st = g.new_state(players=players, seed=seed, trace=True)
    cg = g.program
    deck = st.zones["deck"]
    morph = next(c for c in cg.comps if cg.comp_card[c].id == "morphoplaste")
    host = next((c for c in deck if cg.comp_attrs["type"][c] == "Module"), None)
    if morph not in deck or host is None:
        return None
    st.move(host, st.zone_key("ark", 0), False, None)
    st.move(morph, st.zone_key("crews", host), False, None)
    return st


def _prefer(labels, rng):
    """Random choices that use a Morphoplaste and place face down whenever they can."""
    for i, label in enumerate(labels):
        if label.startswith("Morphoplaste:") or label.endswith("face down"):
            return i
    return rng.randrange(len(labels))


@pytest.mark.rule("SX-CRD-5")
def test_morphoplaste_negotiators_are_all_revealed_by_the_end_of_each_negotiation():
    hidden_seen = revealed = 0
    for seed in range(12):
        st = _with_morphoplaste(seed, 2 + seed % 3)
        if st is None:
            continue
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.prompt == "Integration":
                # the negotiation is over: nobody holds a negotiator face down or in the hand
                for i in range(st.n):
                    assert not st.zones.get(f"face_down#{i}"), (seed, i)
                    assert not st.zones.get(f"concealed#{i}"), (seed, i)
                    assert st.counters.get(f"morph#{i}", 0) == 0
                assert not any(v for k, v in st.counters.items() if k.startswith("masked#"))
                # and every negotiator is back on its board
                for i in range(st.n):
                    assert len(st.zones.get(f"home#{i}", [])) == 6
            if any(st.zones.get(f"face_down#{i}") for i in range(st.n)):
                hidden_seen += 1
            st.apply(_prefer(st.labels(), rng))
        revealed += sum(1 for e in st.trace if e["type"] == "move" and str(e.get("from", "")).startswith("face_down#"))
    assert hidden_seen and revealed, "no game placed a negotiator face down"


@pytest.mark.rule("SX-CRD-5")
def test_a_face_down_negotiator_is_hidden_from_the_other_seats():
    for seed in range(12):
        st = _with_morphoplaste(seed, 2)
        if st is None:
            continue
        rng = random.Random(seed)
        while not st.is_terminal():
            holders = [i for i in range(st.n) if st.zones.get(f"face_down#{i}")]
            if holders:
                i = holders[0]
                mine = st.observation(i)["zones"][f"face_down#{i}"]
                theirs = st.observation(1 - i)["zones"][f"face_down#{i}"]
                assert isinstance(mine, list) and len(mine) == 1
                assert theirs == {"count": 1}
                return
            st.apply(_prefer(st.labels(), rng))
    pytest.fail("no game placed a negotiator face down")


@pytest.mark.rule("SX-GLO-5")
def test_every_ability_of_a_named_card_uses_a_keyword_or_is_rules_text_that_compiled():
    """A printed phrase no keyword matches would be an ability that does nothing; every other
    ability is rules text with code of its own."""
    g = game().program
    compiled = {}
    for code in g.codes.values():
        if getattr(code, "source", None) is not None:
            compiled[id(code.source)] = compiled.get(id(code.source), 0) + 1
    for card in named_cards():
        for ab in card.abilities:
            use = g.found.keyword_uses.get(ab)
            if use is not None:
                # one piece of code per ability the keyword stands for
                assert compiled.get(id(ab)) == len(use.keyword.trees), (card.id, ab.text)
            else:
                assert isinstance(ab.tree, (N.Trigger, N.Action)), (card.id, ab.text)
                assert compiled.get(id(ab)) == 1, (card.id, ab.text)


@pytest.mark.rule("SX-GLO-5", "SX-INT-3")
def test_a_caste_keyword_on_a_named_card_works_as_soon_as_the_card_is_integrated():
    """The Diplomate prints Geôlier: integrated, it takes a Jailer token and may imprison a crew
    in the same integration turn."""
    st = game().blank_state(2, 0)
    module, diplomate = component("technopole"), component("diplomate")
    st.move(module, st.zone_key("ark", Seat(0)), False, None)
    st.move(diplomate, st.zone_key("hand", Seat(0)), False, None)
    st.counters["resource#0"] = 4
    run_procedure(st, "integration_turn", player=Seat(0))
    assert "Imprison a crew" not in st.labels()
    st.apply("Integrate Diplomate (3)")
    assert diplomate in st.zones[f"crews#{int(module)}"]
    assert st.counters.get(f"jailer#{int(diplomate)}") == 1
    assert "Imprison a crew" in st.labels()
    st.apply("Imprison a crew")  # the Diplomate is the only crew in play: chosen without asking
    assert st.where[diplomate] == "prison#0"
    assert st.counters["resource#0"] == 0 and st.counters.get(f"jailer#{int(diplomate)}", 0) == 0


def _seat0_integrates(card_id, resource, discard=()):
    """A blank 2-player state where seat 0 holds the card of `card_id` with `resource` in
    reserve (and the cards of `discard` in the discard, the last on top), in its integration turn."""
    st = game().blank_state(2, 0)
    st.move(component(card_id), st.zone_key("hand", Seat(0)), False, None)
    for d in discard:
        st.move(component(d), ZoneRef("discard"), False, None)
    st.counters["resource#0"] = resource
    run_procedure(st, "integration_turn", player=Seat(0))
    assert st.prompt == "Integration"
    return st


@pytest.mark.rule("SX-CRD-1", "SX-ABL-6", "SX-INT-3")
def test_archives_integrated_take_back_the_last_module_discarded_in_the_same_turn():
    st = _seat0_integrates("archives", 4, discard=("chapelle", "technopole", "apprenti"))
    assert st.labels() == ["Recycle Archives for 2", "Integrate Archives (3)", "End your integration"]
    st.apply("Integrate Archives (3)")
    assert st.counters["resource#0"] == 1 and st.counters["pp#0"] == 1
    # the Technopôle is the module last put into the discard; the Apprenti above it is a crew
    st.apply("Archives: take back the last module discarded")
    assert component("technopole") in st.zones["hand#0"]
    assert component("chapelle") in st.zones["discard"] and component("apprenti") in st.zones["discard"]
    assert st.counters["resource#0"] == 0
    # tapped: used once in the turn
    assert st.labels() == ["Recycle Technopôle for 2", "End your integration"]


@pytest.mark.rule("SX-ABL-2", "SX-ABL-6", "SX-INT-3")
def test_obscura_mutatio_integrated_takes_another_players_mutant_token_in_the_same_turn():
    st = game().blank_state(2, 0)
    chapelle, ouvrier = component("chapelle"), component("ouvrier-arche")
    bastion, converti = component("bastion-originel"), component("converti-arche")
    st.move(chapelle, st.zone_key("ark", Seat(0)), False, None)
    st.move(ouvrier, st.zone_key("crews", chapelle), False, None)
    st.move(bastion, st.zone_key("ark", Seat(1)), False, None)
    st.move(converti, st.zone_key("crews", bastion), False, None)
    # the opponent's crew carries a Mutant token, as a Mutagène would leave it
    st.add(f"mutant#{int(converti)}", game().program.counters["mutant"], 1, None)
    st.tag(converti, fold("Mutant"), True, None)
    st.move(component("obscura-mutatio"), st.zone_key("hand", Seat(0)), False, None)
    st.counters["resource#0"] = 6
    run_procedure(st, "integration_turn", player=Seat(0))
    st.apply("Integrate Obscura Mutatio (4)")
    # one Mutant crew of the opponent, one crew of seat 0 without a token: chosen without asking
    st.apply("Obscura Mutatio: take the Mutant token of another player's crew")
    assert st.counters.get(f"mutant#{int(ouvrier)}", 0) == 1 and fold("Mutant") in st.tags.get(ouvrier, ())
    assert st.counters.get(f"mutant#{int(converti)}", 0) == 0 and fold("Mutant") not in st.tags.get(converti, ())
    assert st.counters["resource#0"] == 0
    # tapped: used once in the round
    assert not any(label.startswith("Obscura Mutatio") for label in st.labels())


@pytest.mark.rule("SX-ABL-4", "SX-ABL-6", "SX-INT-3")
def test_the_chapelle_integrated_recruits_a_convert_and_its_activation_gives_a_resource():
    st = _seat0_integrates("chapelle", 2)
    st.apply("Integrate Chapelle (2)")
    [convert] = st.zones["hand#0"]
    assert game().program.comp_card[convert].id == "converti"
    assert st.counters["resource#0"] == 0
    st.apply("Chapelle: Activation: gain 1 resource")
    assert st.counters["resource#0"] == 1
    assert "Chapelle: Activation: gain 1 resource" not in st.labels()
