"""The reference graph: edges of every kind, neighbourhoods, shortest chains and the exports."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from rulebook.graph import build_graph, neighbourhood, node_id, shortest_path, to_dot, to_graphml, to_json
from rulebook.model import Rule, Ruling, Term
from rulebook.readers import read_file
from rulebook.references import derive_terms, resolve_book, uses

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


def small_book():
    rules = [
        Rule("601", title="Casting Spells"),
        Rule("601.2", parent="601", text="To cast a spell is to put it on the stack and pay its costs."),
        Rule("601.2c", parent="601.2", text="The player announces targets. See rule 115, “Targets.”"),
        Rule("115", title="Targets"),
        Rule("115.1", parent="115", text="Some spells require targets."),
        Rule("608", title="Resolving Spells and Abilities"),
        Rule("608.2", parent="608", text="If the object is a spell, it resolves (see rule 601.2). Landcycling aside."),
        Rule("700", title="General"),
        Rule("702.29", parent="700", text="Cycling and Landcycling are activated abilities. See rule 999.1."),
    ]
    terms = [Term("Landcycling", "See Typecycling."), Term("Typecycling", "A variant of cycling. See rule 702.29.")]
    rulings = [Ruling("faq-1", "Can I respond to a spell being cast?", "Yes, once rule 601.2 is done.")]
    refs = resolve_book("demo", "mtg", rules, terms, rulings)
    return rules, terms, rulings, refs, uses(rules, terms)


@pytest.fixture
def graph():
    rules, terms, rulings, refs, pairs = small_book()
    return build_graph(rules, terms, rulings, refs, pairs)


def edges(G, kind):
    return sorted((node_id(u), node_id(v)) for u, v, k in G.edges(data="kind") if k == kind)


def test_edges_of_each_kind(graph):
    assert ("rule:601", "rule:601.2") in edges(graph, "contains")
    assert ("rule:601.2", "rule:601.2c") in edges(graph, "contains")
    assert edges(graph, "cites") == [
        ("rule:601.2c", "rule:115"), ("rule:608.2", "rule:601.2"),
        ("ruling:faq-1", "rule:601.2"), ("term:Typecycling", "rule:702.29")]
    assert edges(graph, "see_also") == [("term:Landcycling", "term:Typecycling")]
    assert edges(graph, "uses") == [("rule:608.2", "term:Landcycling"), ("rule:702.29", "term:Landcycling")]
    # The dangling citation of 999.1 makes no node.
    assert ("rule", "999.1") not in graph


def test_node_attributes(graph):
    assert graph.nodes[("rule", "601")] == {"kind": "rule", "label": "601 Casting Spells", "title": "Casting Spells"}
    assert graph.nodes[("term", "Landcycling")]["kind"] == "term"
    assert graph.nodes[("ruling", "faq-1")]["title"] == "Can I respond to a spell being cast?"


def test_neighbourhood_follows_both_directions(graph):
    sub = neighbourhood(graph, ("rule", "601.2"), 1, kinds=("cites",))
    assert set(sub.nodes) == {("rule", "601.2"), ("rule", "608.2"), ("ruling", "faq-1")}
    assert {k for _, _, k in sub.edges(data="kind")} == {"cites"}
    sub = neighbourhood(graph, ("rule", "601.2"), 2, kinds=("cites", "contains"))
    assert ("rule", "115") in set(sub.nodes)  # 601.2 contains 601.2c, which cites 115
    assert ("rule", "608") in set(sub.nodes)  # 608 contains 608.2, which cites 601.2
    assert set(neighbourhood(graph, ("rule", "601.2"), 0).nodes) == {("rule", "601.2")}
    with pytest.raises(KeyError):
        neighbourhood(graph, ("rule", "1.1"), 1)


def test_shortest_path_over_cites_and_contains_ignoring_direction(graph):
    assert shortest_path(graph, ("rule", "608"), ("rule", "115")) == [
        (("rule", "608"), None), (("rule", "608.2"), "contains"), (("rule", "601.2"), "cites"),
        (("rule", "601.2c"), "contains"), (("rule", "115"), "cites")]
    assert shortest_path(graph, ("rule", "115"), ("rule", "115")) == [(("rule", "115"), None)]
    assert shortest_path(graph, ("rule", "115"), ("rule", "700")) == []  # not linked by cites/contains
    with pytest.raises(KeyError):
        shortest_path(graph, ("rule", "115"), ("rule", "999.1"))


def test_json_is_node_link_and_serialisable(graph):
    data = to_json(graph)
    text = json.dumps(data)
    assert data["directed"] and data["multigraph"]
    ids = {n["id"] for n in data["nodes"]}
    assert {"rule:601", "term:Landcycling", "ruling:faq-1"} <= ids
    assert {"source": "rule:608.2", "target": "rule:601.2", "kind": "cites"}.items() <= next(
        link for link in data["links"] if link["source"] == "rule:608.2" and link["kind"] == "cites").items()
    assert json.loads(text) == data


def test_graphml_parses_back(graph):
    H = nx.read_graphml(io.BytesIO(to_graphml(graph).encode()))
    assert H.number_of_nodes() == graph.number_of_nodes()
    assert H.number_of_edges() == graph.number_of_edges()
    assert H.nodes["rule:601"]["title"] == "Casting Spells"
    assert {d["kind"] for _, _, d in H.edges(data=True)} == {"contains", "cites", "uses", "see_also"}


def test_dot_quotes_and_escapes():
    G = nx.MultiDiGraph()
    G.add_node(("term", 'Say "hi" \\ bye'), kind="term", label='Say "hi" \\ bye', title="")
    G.add_node(("rule", "1"), kind="rule", label="1 Game {Concepts}; -> x", title="")
    G.add_edge(("rule", "1"), ("term", 'Say "hi" \\ bye'), key="uses", kind="uses")
    dot = to_dot(G)
    assert '"term:Say \\"hi\\" \\\\ bye"' in dot
    assert '"rule:1" -> "term:Say \\"hi\\" \\\\ bye"' in dot
    assert dot.startswith('digraph "rules" {') and dot.rstrip().endswith("}")


def seed_graph():
    from conftest import riftbound_seed_book

    book = riftbound_seed_book()
    rule_list, rulings = book.rules, book.rulings
    terms = derive_terms(rule_list, "riftbound")
    refs = resolve_book("riftbound", "riftbound", rule_list, terms, rulings, partial=True)
    return build_graph(rule_list, terms, rulings, refs, uses(rule_list, terms))


def test_seed_graph():
    G = seed_graph()
    kinds = {k for _, _, k in G.edges(data="kind")}
    assert kinds == {"contains", "cites", "defines", "uses"}
    assert G.has_edge(("rule", "313.1"), ("term", "Focus"), "defines")
    assert G.has_edge(("rule", "313.1"), ("rule", "307"), "cites")
    assert G.has_edge(("rule", "312"), ("rule", "312.1"), "contains")
    assert ("rule", "398.1") not in G  # dangling: not in the loaded text
    assert any(k == "uses" and v == ("term", "Priority") for _, v, k in G.out_edges(("rule", "313.2"), data="kind"))
    # Against the direction of the citation: 313.1 cites 307.
    assert shortest_path(G, ("rule", "307"), ("rule", "313.1")) == [(("rule", "307"), None), (("rule", "313.1"), "cites")]
    # Riftbound's 3xx rules are all children of the section heading 300: 313.1, 313 or 307, 300, 308.
    path = [n for n, _ in shortest_path(G, ("rule", "313.1"), ("rule", "308"))]
    assert len(path) == 4 and path[0] == ("rule", "313.1") and path[2:] == [("rule", "300"), ("rule", "308")]


def test_dot_renders_with_graphviz(tmp_path):
    dot_exe = shutil.which("dot")
    if dot_exe is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz)")
    G = seed_graph()
    for graph in (G, neighbourhood(G, ("rule", "313.1"), 2)):
        result = subprocess.run([dot_exe, "-Tsvg"], input=to_dot(graph), capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert "<svg" in result.stdout
        assert result.stderr == ""


def test_networkx_is_not_imported_by_the_other_modules():
    code = ("import sys; import rulebook.references, rulebook.integrity; "
            "print('networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_full_cr_graph_dot_parses():
    """The whole 2026 CR graph is too big to lay out in a test, but Graphviz must parse it (nop)."""
    path = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "mtg" / "MagicCompRules-2026-02-27.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent: the real documents live in ../shared/corpora beside the checkout")
    nop = shutil.which("nop")
    if nop is None:
        pytest.skip("Graphviz's nop is not installed (apt-get install graphviz)")
    doc = read_file(path)
    refs = resolve_book("cr", "mtg", doc.rules, doc.terms)
    G = build_graph(doc.rules, doc.terms, [], refs, uses(doc.rules, doc.terms))
    assert G.number_of_nodes() > 3500
    result = subprocess.run([nop], input=to_dot(G), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    sub = neighbourhood(G, ("rule", "601.2"), 2, kinds=("cites", "contains"))
    result = subprocess.run(["dot", "-Tsvg"], input=to_dot(sub), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "<svg" in result.stdout, result.stderr
