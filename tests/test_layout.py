"""The package's layout holds: each wing imports only the wings below it, no module
imports another in a circle, no private name crosses a module, and the package's
own imports are made at the top of modules, where a reader sees them.

The wings, from the bottom: the shared modules (`cbuild`, `codes`, `diagnostics`, `kinds`, `limits`,
`names`, `resources`, `scopes`, `shared_store`, `version`); `content` and `engine`, which know nothing of each other;
`language`, which may use the engine's values to implement built-ins; `compile`, and
beside it `native` (the backend that compiles the same checked trees to C);
the front door (`interpreter/__init__.py`); then the wings of the tools, one per audience:
`view` (what a seat is told: narration, content shown as text, why not), under both `rl`
(the environments for AI researchers) and `rulings` (check, rules tests, explain, traces);
`play` (agents, the terminal, the web table), which may use both; `runs` (simulate,
compare, results, reports), which plays with `play`'s agents; `printing` and `lsp`, each
on its own above what it needs; and `cli`, the command, which may use everything.
See docs/architecture.md.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

SHARED = {"interpreter.cbuild", "interpreter.codes", "interpreter.diagnostics", "interpreter.kinds",
          "interpreter.limits", "interpreter.names",
          "interpreter.resources", "interpreter.scopes", "interpreter.shared_store", "interpreter.version"}
PIPELINE = {"content", "engine", "language", "compile", "native", "front door"}
TOOLS = {"view", "rl", "rulings", "play", "runs", "printing", "lsp", "cli"}
BELOW = {  # the wings each wing may import, besides itself and the shared modules
    "content": set(),
    "engine": set(),
    "language": {"content", "engine"},
    "compile": {"content", "engine", "language"},
    "native": {"content", "engine", "language"},
    "front door": {"content", "engine", "language", "compile"},
    "view": PIPELINE,
    "rl": PIPELINE | {"view"},
    "rulings": PIPELINE | {"view"},
    "play": PIPELINE | {"view", "rl", "rulings"},
    "runs": PIPELINE | {"view", "rl", "rulings", "play"},
    "printing": PIPELINE | {"view"},
    "lsp": PIPELINE | {"view", "rulings"},
    "cli": PIPELINE | TOOLS - {"cli"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def wing(module: str) -> str:
    if module in SHARED:
        return "shared"
    parts = module.split(".")
    if module == "interpreter":
        return "front door"
    if parts[1] == "__main__":
        return "cli"  # `python -m interpreter` is the command
    return parts[1]


@lru_cache(maxsize=1)
def imports() -> list:
    """(module, imported module, names, at module level?, line) of every import of the package's own."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body} | {id(n) for t in tree.body if isinstance(t, ast.Try)
                                             for n in t.body + [h for x in t.handlers for h in x.body]}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("interpreter"):
                    continue
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    is_module = (PACKAGE.parent / Path(*full.split("."))).with_suffix(".py").exists() or \
                        (PACKAGE.parent / Path(*full.split("."))).is_dir()
                    out.append((module, full if is_module else target, alias.name if not is_module else None,
                                id(node) in top, node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("interpreter"):
                        out.append((module, alias.name, None, id(node) in top, node.lineno))
    return out


def test_the_package_is_read():
    assert len({m for m, *_ in imports()}) > 40
    assert {wing(m) for m, *_ in imports()} == set(BELOW) | {"shared"}, "a wing is missing from BELOW, or empty"


def test_the_floors_are_an_order():
    """Each wing may import what the wings below it may, and no wing is below itself: the wings
    of the tools (`rl` among them) never import one another in a circle."""
    for name, below in BELOW.items():
        assert name not in below
        for lower in below:
            assert BELOW[lower] <= below, f"{name} may import {lower}, not what {lower} imports"


def test_each_wing_imports_only_the_wings_below_it():
    wrong = [f"{m}:{line} imports {target}" for m, target, _, _, line in imports()
             if wing(target) not in {"shared", wing(m)} | BELOW.get(wing(m), set())]
    assert not wrong, "imports that run up the wings:\n" + "\n".join(wrong)


def test_the_engine_never_imports_compile_language_or_tools():
    engine = [(m, t) for m, t, *_ in imports() if wing(m) == "engine"]
    assert engine, "no import of the engine found: the test reads nothing"
    assert not [(m, t) for m, t in engine if wing(t) in {"compile", "language", "content"} | TOOLS]


def test_rl_and_the_tools_around_it():
    """`rl` reads a game through `view` only, and `play` (the search agent's action space) is
    the one wing of the tools besides the command that imports `rl`."""
    rl = {wing(t) for m, t, *_ in imports() if wing(m) == "rl"} - PIPELINE - {"shared", "rl"}
    assert rl <= {"view"}
    users = {wing(m) for m, t, *_ in imports() if wing(t) == "rl"} - {"rl"}
    assert users <= {"play", "runs", "cli"}


def test_no_import_circle():
    graph: dict = {}
    for m, target, *_ in imports():
        if target != m and target != "interpreter":  # the front door imports the wings, never the reverse
            graph.setdefault(m, set()).add(target)
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))
    for v in list(graph):
        if v not in index:
            visit(v)
    assert not circles, f"import circles: {circles}"


def test_no_private_name_crosses_a_module():
    crossing = [f"{m}:{line} imports {name} from {target}" for m, target, name, _, line in imports()
                if name is not None and name.startswith("_") and name != "__version__"]
    assert not crossing, "\n".join(crossing)


def test_the_package_imports_its_own_modules_at_the_top():
    inside = [f"{m}:{line} imports {target}" for m, target, _, top, line in imports() if not top]
    assert not inside, "imports made inside functions:\n" + "\n".join(inside)


@pytest.mark.parametrize("folder", ["content", "language", "compile", "engine", "view", "rl", "rulings", "play",
                                    "play/web", "runs", "runs/results", "runs/report_html", "printing", "lsp",
                                    "cli"])
def test_every_module_says_what_it_is(folder):
    for path in sorted((PACKAGE / folder).glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, f"{path.relative_to(PACKAGE.parent)} has no docstring saying what it is"


ENGINE_WORDS = re.compile(r"ge[oô]lier|jailer|mutag[eè]n|n[eé]gociat|negotiat|karman|seeders|etherium|kb12|"
                          r"plan[eè]te|planet|colonis|cr[eé]ature|pr[eé]dat|seke|intricom|arche\b|affinit|\bcastes?\b|"
                          r"psolos|\breces\b|\bertis\b|hivalia|mauh[eé]a|meinas", re.I)


def test_engine_holds_no_game_vocabulary():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ENGINE_WORDS.search(line):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    assert offenders == []


def test_the_engine_never_reads_the_content_model():
    """The engine reads its own records (engine.program), filled in by compile: never the
    content's definition of the game (`program.defn`, kept for the tools) nor raw YAML (`.data[...]`)."""
    found = []
    for path in sorted((PACKAGE / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "defn" and isinstance(node.ctx, ast.Load):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: .defn")
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "data":
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: .data[...]")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "data":
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: .data.get(...)")
    assert not found, "the engine reads the content model:\n" + "\n".join(found)


def _words(node) -> bool:
    """Whether `node` is a text, or a tuple, list or set holding texts: what a kind or a scope
    was compared with when kinds and scopes were words."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_words(e) or isinstance(e, ast.Tuple)
                                                                      for e in node.elts)


def _named(node, name: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == name or isinstance(node, ast.Name) and node.id == name


def test_kinds_and_scopes_are_read_not_spelled():
    """A zone's or counter's scope is a `Scope` (interpreter.scopes), asked what it is (`is_game`,
    `kind`, `per(...)`), never indexed (`scope[0]`) nor compared with words (`.scope == ("game",)`);
    the kind of a code, a decision, a cost, a layer, a word or an LSP place is a member of its enum,
    never compared with a text (`.kind == "menu"`)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and _named(node.value, "scope") \
                    and (isinstance(node.slice, ast.Slice) or isinstance(node.slice, ast.Constant)
                         and isinstance(node.slice.value, int)):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.Compare):
                parts = [node.left, *node.comparators]
                for name in ("kind", "scope"):
                    if any(_named(p, name) and isinstance(p, ast.Attribute) for p in parts) \
                            and any(_words(p) for p in parts):
                        found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "kinds or scopes spelled as words:\n" + "\n".join(found)
