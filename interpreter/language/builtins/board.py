"""Built-in functions of the board: node, nodes, neighbors, linked."""
from __future__ import annotations

from ...engine.library import same
from ...engine.state import GameFault
from ...engine.values import NodeRef
from .. import value_kinds as vk
from ..types import ANY, BOOL, LIST, NODE
from .base import MISSING, Function, neighbors_of


class Node(Function):
    name, forms, types, returns = "node", ("node(ID)",), {"ID": ANY}, NODE
    doc = "the board node with this id"
    prose = {"en": {1: "the board node {0}"},
             "fr": {1: "le nœud {0} du plateau"}}

    @staticmethod
    def run(st, pos, key):
        k = str(key)
        if k not in st.program.nodes:
            raise GameFault(f"no board node '{k}'", pos)
        return NodeRef(k)


class Nodes(Function):
    name, forms, types, returns = "nodes", ("nodes()", "nodes(KIND)"), {"KIND": ANY}, LIST
    doc = "every board node, or those of one kind"
    prose = {"en": {0: "every board node", 1: "the board nodes of kind {0}"},
             "fr": {0: "tous les nœuds du plateau", 1: "les nœuds du plateau de type {0}"}}

    @staticmethod
    def run(st, pos, kind=MISSING):
        cached = type(kind) is str or kind is MISSING
        found = st.program.node_lists.get(kind) if cached else None  # boards never change: each list is made once
        if found is None:
            if kind is MISSING:
                found = tuple(NodeRef(k) for k in st.program.nodes)
            else:
                found = tuple(NodeRef(k) for k, v in st.program.nodes.items() if same(v.get("kind"), kind))
            if cached:
                st.program.node_lists[kind] = found
        return found

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.of(NODE), sum(len(b.nodes) for b in pack.defn.boards))


class Neighbors(Function):
    name, forms, types, returns = "neighbors", ("neighbors(N)",), {"N": ANY}, LIST
    doc = "the nodes linked to a node"
    prose = {"en": {1: "the nodes linked to {0}"},
             "fr": {1: "les nœuds reliés à {0}"}}

    @staticmethod
    def run(st, pos, n):
        return neighbors_of(st, str(n))

    def kinds(self, call, args: list, pack) -> vk.Kinds:
        return vk.list_of(vk.of(NODE))


class Linked(Function):
    name, forms, types, returns = "linked", ("linked(A, B)",), {"A": ANY, "B": ANY}, BOOL
    doc = "whether two nodes are linked"
    prose = {"en": {2: "{0} is linked to {1}"},
             "fr": {2: "{0} est relié à {1}"}}
    prose_not = {"en": "{0} is not linked to {1}", "fr": "{0} n'est pas relié à {1}"}

    @staticmethod
    def run(st, pos, a, b):
        return str(b) in st.program.adj.get(str(a), ())
