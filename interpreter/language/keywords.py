"""Printed keywords: a phrase on a card matched to a keyword pattern of the game.

`Bonus 2 - Harbour` matches the pattern `Bonus X - Y` with X = 2 and
Y = Harbour. A pattern is a list of words (literal words, '-' and parameters);
a parameter takes a number (or an expression in parentheses), a class (printed
over one or several words), a name or a condition; a pattern may end with
`: EFFECT`, the statements printed after ':'. When no pattern fits, the most
advanced failure is the one reported, with the keyword's usage as its hint.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..content.model import GameDef, KeywordDef
from ..diagnostics import Position
from ..names import did_you_mean, fold
from . import nodes as N


@dataclass(frozen=True)
class KeywordUse:
    """A printed phrase matched to a keyword: the keyword, and what its parameters stand for."""
    keyword: KeywordDef
    bindings: dict  # parameter -> value: a number, a name, a class, an expression, statements


@dataclass(frozen=True)
class Mismatch:
    """Why a phrase matches no keyword: its code, where, and what to say."""
    code: str
    pos: Position
    message: str
    hint: str | None = None


def class_names(defn: GameDef) -> list:
    """The classes of a pack as written (an alias names the same class: said once)."""
    return list(dict.fromkeys(v for _, v in defn.classes.values()))


def classes_hint(defn: GameDef, name: str) -> str:
    """The classes close to `name`, or all the pack's classes when none is (a modder's first
    question is which classes there are)."""
    classes = class_names(defn)
    return did_you_mean(name, classes) or (
        "the classes of this game: " + ", ".join(sorted(classes, key=fold)) if classes else
        "this game declares no class: declare it under classes: in the game file")


class KeywordMatcher:
    """Matches the printed phrases of one pack against its keyword patterns."""

    def __init__(self, defn: GameDef):
        self.defn = defn
        self.by_first: dict[str, list[KeywordDef]] = {}  # first literal word of a pattern -> its keywords
        for kw in defn.keywords:
            first = next((w for w in kw.words if w[0] == "lit"), None)
            if first is not None:
                self.by_first.setdefault(first[1], []).append(kw)

    def match(self, phrase: N.Phrase, params=None):
        """The KeywordUse of a printed phrase, or a Mismatch; None for the effect parameter of the
        keyword being defined (`params`: the parameters of that keyword)."""
        words = phrase.words
        if not words or words[0].kind is not N.WordKind.NAME:
            return Mismatch("K001", phrase.pos, "expected a keyword")
        candidates = self.by_first.get(fold(words[0].value), [])
        failures = []
        for kw in candidates:
            bindings, why = self._match(kw, words, phrase.body, params or {})
            if bindings is not None:
                return KeywordUse(kw, bindings)
            failures.append(why)
        if params and len(words) == 1 and words[0].value in params:
            return None
        if not candidates:
            text = " ".join(str(w.value) if w.kind is not N.WordKind.EXPR else "(...)" for w in words[:12])
            text += " ..." if len(words) > 12 else ""
            keywords = self.defn.keywords
            names = sorted({k.pattern for k in keywords})
            hint = did_you_mean(words[0].value, {k.name: k for k in keywords})
            return Mismatch("N009", words[0].pos, f"unknown keyword '{text}'",
                            hint or (("known keywords: " + ", ".join(names[:8]) + ("..." if len(names) > 8 else ""))
                                     if names else "define it in a keyword library (kind: keywords)"))
        code, pos, message, hint = max(failures, key=lambda f: (f[1].line, f[1].column))
        return Mismatch(code, pos, message, hint)

    def _match(self, kw: KeywordDef, words, body, outer):
        """Bindings when `words` fit the pattern of `kw`, else (None, (code, pos, message, hint))."""
        def usage():  # for a hint: made only when the words do not fit
            return f"'{kw.pattern}'" + (" takes " + ", ".join(f"{p} ({t})" for p, t in kw.params.items())
                                        if kw.params else " takes no value")
        result = self._match_from(kw, kw.words, 0, words, 0, {}, outer)
        if isinstance(result, dict):
            if kw.effect_param and body is None:
                return None, ("T001", words[-1].pos, f"keyword '{kw.name}' needs an effect after ':'",
                              f"write it as {usage().split(' takes')[0]}")
            if not kw.effect_param and body is not None:
                return None, ("T001", words[-1].pos, f"keyword '{kw.name}' takes no effect after ':'", None)
            if kw.effect_param:
                result[kw.effect_param] = body
            return result, None
        code, pos, message, *more = result  # more: what else the hint says
        return None, (code, pos, message, "; ".join([usage(), *more]))

    def _match_from(self, kw, pat, i, words, j, bound, outer):
        if i == len(pat):
            if j == len(words):
                return bound
            return ("T001", words[j].pos, f"too many values for keyword '{kw.name}': unexpected '{_word_text(words[j])}'")
        kind, value, _ = pat[i]
        if j >= len(words):
            what = f"'{value}'" if kind != "param" else f"a value for {value}"
            return ("T001", words[-1].pos, f"keyword '{kw.name}' is missing {what}")
        w = words[j]
        if kind == "lit":
            if w.kind in (N.WordKind.NAME, N.WordKind.NUMBER) and fold(str(w.value)) == value:
                return self._match_from(kw, pat, i + 1, words, j + 1, bound, outer)
            return ("K002", w.pos, f"expected '{value}' in keyword '{kw.name}', found '{_word_text(w)}'")
        if kind == "dash":
            if w.kind is N.WordKind.DASH:
                return self._match_from(kw, pat, i + 1, words, j + 1, bound, outer)
            return ("K002", w.pos, f"expected '-' in keyword '{kw.name}', found '{_word_text(w)}'")
        ptype = kw.params.get(value)
        if outer and w.kind is N.WordKind.NAME and outer.get(w.value) == ptype and ptype != "effect":
            # inside a keyword's definition, its own parameter stands for a value of that type
            return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: N.Name(w.pos, w.value)}, outer)
        if ptype == "number":
            if w.kind is N.WordKind.NUMBER or w.kind is N.WordKind.EXPR:
                return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: w.value}, outer)
            return ("T003", w.pos, f"{value} of keyword '{kw.name}' must be a number, found '{_word_text(w)}'")
        if ptype == "class":
            # a class name may be printed over several words: 'Sea-Serpent', 'Man at arms'
            best_error = None
            for k in range(len(words) - j, 0, -1):
                chunk = words[j:j + k]
                if any(c.kind not in (N.WordKind.NAME, N.WordKind.DASH) for c in chunk):
                    continue
                text = "".join(("-" if c.kind is N.WordKind.DASH else (" " if n and chunk[n - 1].kind is not N.WordKind.DASH else "") + str(c.value))
                               for n, c in enumerate(chunk))
                if fold(text) in self.defn.classes:
                    r = self._match_from(kw, pat, i + 1, words, j + k, {**bound, value: self.defn.classes[fold(text)][1]}, outer)
                    if isinstance(r, dict):
                        return r
                    best_error = best_error or r
            if best_error:
                return best_error
            hint = did_you_mean(str(w.value), class_names(self.defn))
            if hint:
                return ("N004", w.pos, f"unknown class '{_word_text(w)}' for {value} of keyword '{kw.name}'; {hint}")
            return ("N004", w.pos, f"unknown class '{_word_text(w)}' for {value} of keyword '{kw.name}'",
                    classes_hint(self.defn, str(w.value)))
        if ptype == "name":
            if w.kind in (N.WordKind.NAME, N.WordKind.STRING):
                return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: str(w.value)}, outer)
            return ("T003", w.pos, f"{value} of keyword '{kw.name}' must be a name, found '{_word_text(w)}'")
        if ptype == "condition":
            if w.kind is N.WordKind.EXPR:
                return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: w.value}, outer)
            return ("T002", w.pos, f"{value} of keyword '{kw.name}' must be a condition in parentheses")
        return ("K001", w.pos, f"parameter {value} of keyword '{kw.name}' has no type")


def _word_text(w) -> str:
    return "(...)" if w.kind is N.WordKind.EXPR else str(w.value)
