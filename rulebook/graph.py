"""The cross-reference graph of one book, with networkx.

Nodes are ``("rule", number)``, ``("term", name)`` and ``("ruling", id)``, each with the attributes
``kind``, ``label`` (what a picture shows), ``title`` and ``section`` (true for a rule heading that
groups other headings, see :func:`is_section`). Edges carry ``kind``:

* ``contains``: parent rule -> child rule;
* ``heads``: Riftbound heading rule -> a later sibling it heads (``337 Showdowns`` heads 338 to 345,
  which the numbering makes its siblings), as ``judge rule``'s breadcrumb shows it;
* ``cites``: rule/term/ruling -> the rule (or section heading) a reference resolves to; dangling
  references have no node to point at and are left to the integrity report;
* ``defines``: rule -> the term it defines (Riftbound terms derived from rules);
* ``uses``: rule -> a glossary term its text mentions;
* ``see_also``: term -> term (glossary cross-references).

This is the only module that imports networkx: the CLI's fast path must not pay for it.

>>> from rulebook.model import Rule
>>> rules = [Rule("601", title="Casting Spells"), Rule("601.2", parent="601", text="To cast a spell ..."),
...          Rule("608", title="Resolving Spells and Abilities"),
...          Rule("608.2", parent="608", text="If the object is a spell ... See rule 601.2.")]
>>> from rulebook.references import resolve_book
>>> G = build_graph(rules, [], [], resolve_book("cr", "mtg", rules), [])
>>> [(step.node[1], step.link) for step in shortest_path(G, ("rule", "608"), ("rule", "601"))]
[('608', None), ('608.2', 'contains'), ('601.2', 'cites'), ('601', 'part_of')]
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from rulebook.model import Rule, Ruling, Term
from rulebook.numbers import sort_key
from rulebook.references import Reference

Node = tuple[str, str]
EDGE_KINDS = ("contains", "heads", "cites", "defines", "uses", "see_also")
CONTAINMENT = ("contains", "heads")


def _rule_label(rule: Rule) -> str:
    if rule.title:
        return f"{rule.number} {rule.title}"
    text = rule.text.strip()
    return f"{rule.number} {text[:40]}…" if len(text) > 40 else f"{rule.number} {text}".strip()


def _is_heading(rule: Rule) -> bool:
    return bool(rule.title) and not rule.text.strip()


def is_section(rule: Rule, children: Sequence[Rule]) -> bool:
    """A heading that groups other headings: MTG ``7 Additional Rules`` and ``702 Keyword Abilities``,
    Riftbound ``300 Playing the Game``. Everything under one is "linked" through it, so a chain that
    passes through a section says nothing (:func:`shortest_path` never does); a heading over plain
    rules (``702.19 Trample``, ``510 Combat Damage Step``) is a topic, and a chain may pass through it.
    """
    return _is_heading(rule) and any(_is_heading(child) for child in children)


def heading_pairs(rules: Sequence[Rule]) -> list[tuple[str, str]]:
    """``(heading, rule)`` for each Riftbound rule headed by a sibling heading: the nearest heading
    before it under the same parent (``337 Showdowns`` heads 338 to 345), the breadcrumb's rule."""
    siblings: dict[str, list[Rule]] = defaultdict(list)
    for rule in rules:
        if rule.parent:
            siblings[rule.parent].append(rule)
    pairs = []
    for group in siblings.values():
        heading = None
        for rule in sorted(group, key=lambda r: sort_key(r.number)):
            if _is_heading(rule):
                heading = rule.number
            elif heading is not None:
                pairs.append((heading, rule.number))
    return pairs


def build_graph(
    rules: Sequence[Rule],
    terms: Sequence[Term],
    rulings: Sequence[Ruling],
    references: Iterable[Reference],
    uses: Iterable[tuple[str, str]],
    headings: bool = False,
) -> nx.MultiDiGraph:
    """The graph of one book. ``references`` come from :func:`rulebook.references.resolve_book`,
    ``uses`` from :func:`rulebook.references.uses`; ``headings`` adds the ``heads`` edges (Riftbound,
    whose heading rules are siblings of the rules they head).

    A reference whose outcome is ``title_mismatch`` still makes a ``cites`` edge (the number points
    at a rule that exists); the edge keeps ``outcome`` and ``raw`` so the mismatch is visible.
    """
    G = nx.MultiDiGraph()
    first: dict[str, Rule] = {}
    children: dict[str, list[Rule]] = defaultdict(list)
    for rule in rules:
        if rule.number in first:  # the outline and the detail both carry it: the first one read wins
            continue
        first[rule.number] = rule
        if rule.parent:
            children[rule.parent].append(rule)
    for rule in first.values():
        G.add_node(
            ("rule", rule.number),
            kind="rule",
            label=_rule_label(rule),
            title=rule.title or "",
            section=is_section(rule, children[rule.number]),
        )
    for rule in rules:
        if (
            rule.parent
            and ("rule", rule.parent) in G
            and not G.has_edge(("rule", rule.parent), ("rule", rule.number), "contains")
        ):
            G.add_edge(("rule", rule.parent), ("rule", rule.number), key="contains", kind="contains")
    if headings:
        for heading, number in heading_pairs(list(first.values())):
            G.add_edge(("rule", heading), ("rule", number), key="heads", kind="heads")
    for term in terms:
        G.add_node(("term", term.term), kind="term", label=term.term, title=term.term, section=False)
        if term.source.startswith("rule ") and ("rule", term.source[5:]) in G:
            G.add_edge(("rule", term.source[5:]), ("term", term.term), key="defines", kind="defines")
    for ruling in rulings:
        G.add_node(
            ("ruling", ruling.id), kind="ruling", label=ruling.question[:60], title=ruling.question, section=False
        )
    for ref in references:
        if ref.outcome == "dangling":
            continue
        source: Node = (ref.from_kind, ref.from_id)
        target: Node = ("term", ref.target) if ref.target_kind == "term" else ("rule", ref.target)
        if source not in G or target not in G:
            continue
        kind = "see_also" if ref.target_kind == "term" else "cites"
        if not G.has_edge(source, target, kind):  # one edge per pair even when cited twice
            G.add_edge(source, target, key=kind, kind=kind, raw=ref.raw, outcome=ref.outcome)
    for number, used in uses:
        user, word = ("rule", number), ("term", used)
        if user in G and word in G and not G.has_edge(user, word, "uses"):
            G.add_edge(user, word, key="uses", kind="uses")
    return G


def neighbourhood(
    G: nx.MultiDiGraph, node: Node, depth: int = 1, kinds: Iterable[str] | None = None
) -> nx.MultiDiGraph:
    """The subgraph of nodes within ``depth`` edges of ``node``, following edges both ways.

    ``kinds`` limits the edges followed (and kept), e.g. ``("cites",)`` for the citation
    neighbourhood that ``judge refs`` shows; by default every kind is followed.
    """
    if node not in G:
        raise KeyError(node)
    allowed = set(kinds) if kinds is not None else None
    seen = {node}
    frontier = [node]
    for _ in range(max(depth, 0)):
        nxt = []
        for n in frontier:
            edges = list(G.out_edges(n, data="kind")) + [(v, u, k) for u, v, k in G.in_edges(n, data="kind")]
            for _, other, kind in edges:
                if (allowed is None or kind in allowed) and other not in seen:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    sub = G.subgraph(seen).copy()
    if allowed is not None:
        sub.remove_edges_from([(u, v, k) for u, v, k, kind in sub.edges(keys=True, data="kind") if kind not in allowed])
    return sub


@dataclass(frozen=True)
class Step:
    """One step of a chain: the node reached, the kind of the edge that led to it (``None`` for the
    first step) and whether that edge points from the step before to this one."""

    node: Node
    kind: str | None = None
    forward: bool = True

    @property
    def containment(self) -> bool:
        return self.kind in CONTAINMENT

    @property
    def link(self) -> str | None:
        """How the step before relates to this one: ``cites``/``cited_by``, ``contains``/``part_of``,
        ``heads``/``under`` (None for the first step)."""
        if self.kind is None:
            return None
        return {"cites": ("cites", "cited_by"), "contains": ("contains", "part_of"), "heads": ("heads", "under")}[
            self.kind
        ][0 if self.forward else 1]


# A citation step costs _STEP, a containment step one more: the shortest chain wins, and of equally
# short chains the one with the fewest containment steps (no chain reaches 1000 steps).
_STEP = 1000
_WEIGHT = {"cites": _STEP, "contains": _STEP + 1, "heads": _STEP + 1}


def shortest_path(G: nx.MultiDiGraph, a: Node, b: Node, through_sections: bool = False) -> list[Step]:
    """The shortest chain linking ``a`` to ``b`` over ``cites``, ``contains`` and ``heads`` edges.

    Direction is ignored: a judge asking how 608 relates to 601 wants "608 contains 608.2, which
    cites 601.2, which is part of 601" even though the last edge points the other way. Of equally
    short chains, the one with the fewest containment steps wins (citations are preferred, but a
    chain is never made longer to avoid containment: "702.103g is part of 702.103 Bestow, which
    contains 702.103a, which cites 601.2f" says more than a four-citation detour). A chain never
    passes through a section (:func:`is_section`) unless ``through_sections``; ``a`` and ``b`` may be
    sections. Returns ``[]`` when no chain exists; raises ``KeyError`` when a node is not in the graph.
    """
    for n in (a, b):
        if n not in G:
            raise KeyError(n)
    U = nx.Graph()
    U.add_nodes_from(G.nodes)
    for u, v, kind in G.edges(data="kind"):
        weight = _WEIGHT.get(kind)
        if weight is None or (U.has_edge(u, v) and U.edges[u, v]["weight"] <= weight):
            continue
        U.add_edge(u, v, kind=kind, source=u, weight=weight)
    if not through_sections:
        U.remove_nodes_from([n for n, section in G.nodes(data="section") if section and n not in (a, b)])
    try:
        path = nx.dijkstra_path(U, a, b, weight="weight")
    except nx.NetworkXNoPath:
        return []
    steps = [Step(path[0])]
    for u, v in zip(path, path[1:]):
        edge = U.edges[u, v]
        steps.append(Step(v, edge["kind"], edge["source"] == u))
    return steps


def sections_between(G: nx.MultiDiGraph, a: Node, b: Node) -> list[Node]:
    """When no chain links ``a`` and ``b``: the sections on the shortest chain that passes through
    sections, i.e. what alone links them (``[]`` when nothing does)."""
    return [
        step.node for step in shortest_path(G, a, b, through_sections=True)[1:-1] if G.nodes[step.node].get("section")
    ]


def node_id(node: Node) -> str:
    """A node as one string: ``rule:601.2c``, ``term:Landcycling``."""
    return f"{node[0]}:{node[1]}"


def _dot_quote(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_DOT_STYLE = {
    "contains": 'color="gray60"',
    "heads": 'color="gray60" style="dashed"',
    "cites": 'color="black"',
    "defines": 'color="darkgreen" style="bold"',
    "uses": 'color="steelblue" style="dashed"',
    "see_also": 'color="purple" style="dotted"',
}
_DOT_SHAPE = {"rule": "box", "term": "ellipse", "ruling": "note"}


def _ordered_nodes(G: nx.MultiDiGraph) -> list[Node]:
    return sorted(G.nodes, key=lambda n: (n[0], sort_key(n[1]) if n[0] == "rule" else (), n[1]))


def to_dot(G: nx.MultiDiGraph, name: str = "rules") -> str:
    """Graphviz DOT, every id and label quoted and escaped, so ``dot -Tsvg`` renders it.

    >>> G = nx.MultiDiGraph()
    >>> G.add_node(("term", 'Say "hi"'), kind="term", label='Say "hi"', title="")
    >>> print(to_dot(G), end="")
    digraph "rules" {
      node [fontname="Helvetica" fontsize=10];
      "term:Say \\"hi\\"" [label="Say \\"hi\\"" shape=ellipse];
    }
    """
    lines = [f"digraph {_dot_quote(name)} {{", '  node [fontname="Helvetica" fontsize=10];']
    for node in _ordered_nodes(G):
        data = G.nodes[node]
        shape = _DOT_SHAPE.get(data.get("kind", node[0]), "box")
        lines.append(f"  {_dot_quote(node_id(node))} [label={_dot_quote(data.get('label', node[1]))} shape={shape}];")
    for u, v, kind in sorted(G.edges(data="kind"), key=lambda e: (node_id(e[0]), node_id(e[1]), e[2] or "")):
        style = _DOT_STYLE.get(kind, "")
        lines.append(f"  {_dot_quote(node_id(u))} -> {_dot_quote(node_id(v))} [label={_dot_quote(kind)} {style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _flat(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy with string node ids (``rule:601.2c``), as file formats want."""
    H = nx.MultiDiGraph()
    for node in _ordered_nodes(G):
        data = G.nodes[node]
        H.add_node(
            node_id(node),
            kind=data.get("kind", node[0]),
            label=data.get("label", node[1]),
            title=data.get("title", "") or "",
            name=node[1],
            section=bool(data.get("section")),
        )
    for u, v, key, data in G.edges(keys=True, data=True):
        H.add_edge(node_id(u), node_id(v), key=key, **{k: ("" if val is None else val) for k, val in data.items()})
    return H


def to_graphml(G: nx.MultiDiGraph) -> str:
    """GraphML (for Gephi, yEd); node ids are ``kind:id`` strings."""
    return "\n".join(nx.generate_graphml(_flat(G))) + "\n"


def to_json(G: nx.MultiDiGraph) -> dict:
    """Node-link JSON: ``{"directed", "multigraph", "graph", "nodes": [{"id", "kind", ...}], "links": [...]}``.

    >>> G = nx.MultiDiGraph()
    >>> _ = G.add_edge(("rule", "601"), ("rule", "601.2"), key="contains", kind="contains")
    >>> to_json(G)["links"]
    [{'kind': 'contains', 'source': 'rule:601', 'target': 'rule:601.2', 'key': 'contains'}]
    """
    H = _flat(G)
    data = {
        "directed": True,
        "multigraph": True,
        "graph": {},
        "nodes": [{"id": n, **H.nodes[n]} for n in H.nodes],
        "links": [{**d, "source": u, "target": v, "key": k} for u, v, k, d in H.edges(keys=True, data=True)],
    }
    json.dumps(data)  # fail here, not in the caller, if something is not serialisable
    return data
