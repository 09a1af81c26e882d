"""The worlds a search plays in (`view.worlds`): another seat's secret choices still hidden are
made again, those the rules have shown are kept, and the seat sees every world as the real one.

Etherium is the shipped game with secret choices: each player programmes its tokens behind a
screen (`choose ... secretly`), the programme lying in counters only its owner sees until the
reveal copies it to public ones."""
from __future__ import annotations

import interpreter
from interpreter.engine.values import Rng
from interpreter.view import worlds
from interpreter.play.agents import SeatView
from interpreter.view.seen import signature

SEAT = 2


def _secret_counters(st, seats):
    """The programme counters of the tokens of `seats`, as {key: value}."""
    program = st.program
    return {k: v for k, v in st.counters.items()
            if k.startswith(("plan_act#", "plan_arg#")) and program.comp_owner[int(k.split("#")[1])] in seats}


def _random_until(st, rng, stop):
    while not stop(st):
        st.apply(rng.below(len(st.pending.entries)))
    return st


def _asked_to_programme(seed):
    """A 4-player game where seats 0 and 1 have programmed their tokens and seat 2 is asked to."""
    st = interpreter.load("etherium").new_state(4, seed)
    return _random_until(st, Rng(seed), lambda s: s.pending.secret and int(s.pending.player) == SEAT)


def test_other_seats_secret_choices_are_made_again_in_each_world():
    st = _asked_to_programme(5)
    real = _secret_counters(st, (0, 1))
    assert any(real.values()), "seats 0 and 1 have programmed"
    view, rng = SeatView(st, SEAT), Rng(11)
    drawn = [view.sampled(rng) for _ in range(12)]
    assert all(signature(w, SEAT) == signature(st, SEAT) for w in drawn)
    assert all(w.observation(SEAT) == st.observation(SEAT) for w in drawn)
    programmes = {tuple(sorted(_secret_counters(w, (0, 1)).items())) for w in drawn}
    assert len(programmes) > 6, "the programmes behind the screens are drawn anew"


def test_a_seat_keeps_its_own_secret_choices():
    st = _asked_to_programme(5)
    seat = 1  # has programmed: its own programme is what it knows
    own = _secret_counters(st, (seat,))
    assert own
    rng = Rng(3)
    for _ in range(8):
        assert _secret_counters(SeatView(st, seat).sampled(rng), (seat,)) == own


def test_a_revealed_programme_is_kept_and_worlds_agree_with_the_seat_all_game():
    st = interpreter.load("etherium").new_state(4, 9)
    rng, mine = Rng(9), Rng(4)
    after_reveal = 0
    for _ in range(500):
        if st.is_terminal():
            break
        if int(st.pending.player) == SEAT:
            w = SeatView(st, SEAT).sampled(mine)
            assert w.observation(SEAT) == st.observation(SEAT)
            assert signature(w, SEAT) == signature(st, SEAT)
            revealed = {k: v for k, v in st.counters.items() if k.startswith(("act#", "arg#"))}
            if any(revealed.values()):
                after_reveal += 1
                # what the reveal showed is the real programme in every world
                assert {k: w.counters.get(k, 0) for k in revealed} == revealed
        st.apply(rng.below(len(st.pending.entries)))
    assert after_reveal > 5


def test_a_state_its_history_does_not_lead_to_keeps_the_secret_choices():
    st = _asked_to_programme(5)
    visible = next(k for k in st.counters if k.startswith("wood#"))
    st.counters[visible] += 1  # set by hand: no history leads here
    real = _secret_counters(st, (0, 1))
    rng = Rng(2)
    for _ in range(4):
        w = worlds.sample(st, SEAT, rng)
        assert _secret_counters(w, (0, 1)) == real
        assert w.counters[visible] == st.counters[visible]


def test_a_world_is_drawn_the_same_from_the_same_seed():
    a, b = _asked_to_programme(7), _asked_to_programme(7)
    wa = [worlds.sample(a, SEAT, Rng(1)) for _ in range(2)]
    wb = [worlds.sample(b, SEAT, Rng(1)) for _ in range(2)]
    assert [w.to_json() for w in wa] == [w.to_json() for w in wb]
