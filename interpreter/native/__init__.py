"""The native backend: a game's rules compiled to C and run there.

    from interpreter.native import NativeGame, NotNative, NoCompiler
    native = NativeGame(interpreter.load(GAME))
    st = native.new_state(players=2, seed=1, trace=True)

Its stages:
- `emit` lowers the checked procedures, functions and abilities to C (with `statements`,
  `expressions`, `calls` and `automata`: the seats content drives), typing every
  expression and laying every zone and counter out as a slot of the state (`slots`);
  `NotNative` names the first construct it does not take;
- the C runtime (`runtime.c`, `actions.c`, `machine.c`) knows no game;
- `build` compiles the C with the system's compiler (else Zig's, from the `ziglang` package)
  and keeps the library by its fingerprint (`NoCompiler` when it cannot);
- `state` runs it through the step API of the Python backend and writes the same trace;
  `NativeLimit` stops a game it cannot play on (an automaton ranking a label made in play),
  which the Python backend then plays.

The Python backend stays the reference: the tests play the same seeds on both and compare
their traces byte for byte.
"""
from .build import NoCompiler, compiler
from .emit import NotNative
from .state import NativeGame, NativeLimit, NativeState

__all__ = ["NativeGame", "NativeLimit", "NativeState", "NotNative", "NoCompiler", "compiler"]
