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

from rulebook.graph import (
    build_graph,
    heading_pairs,
    neighbourhood,
    node_id,
    sections_between,
    shortest_path,
    to_dot,
    to_graphml,
    to_json,
)
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
        ("rule:601.2c", "rule:115"),
        ("rule:608.2", "rule:601.2"),
        ("ruling:faq-1", "rule:601.2"),
        ("term:Typecycling", "rule:702.29"),
    ]
    assert edges(graph, "see_also") == [("term:Landcycling", "term:Typecycling")]
    assert edges(graph, "uses") == [("rule:608.2", "term:Landcycling"), ("rule:702.29", "term:Landcycling")]
    # The dangling citation of 999.1 makes no node.
    assert ("rule", "999.1") not in graph


def test_node_attributes(graph):
    assert graph.nodes[("rule", "601")] == {
        "kind": "rule",
        "label": "601 Casting Spells",
        "title": "Casting Spells",
        "section": False,
    }
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


def chain(steps):
    return [(step.node[1], step.link) for step in steps]


def test_shortest_path_over_cites_and_contains_ignoring_direction(graph):
    steps = shortest_path(graph, ("rule", "608"), ("rule", "115"))
    assert chain(steps) == [
        ("608", None),
        ("608.2", "contains"),
        ("601.2", "cites"),
        ("601.2c", "contains"),
        ("115", "cites"),
    ]
    assert [s.containment for s in steps] == [False, True, False, True, False]
    assert chain(shortest_path(graph, ("rule", "601.2c"), ("rule", "608.2"))) == [
        ("601.2c", None),
        ("601.2", "part_of"),
        ("608.2", "cited_by"),
    ]
    assert chain(shortest_path(graph, ("rule", "115"), ("rule", "115"))) == [("115", None)]
    assert shortest_path(graph, ("rule", "115"), ("rule", "700")) == []  # not linked by cites/contains
    with pytest.raises(KeyError):
        shortest_path(graph, ("rule", "115"), ("rule", "999.1"))


def sectioned_book():
    """7 Additional Rules > 702 Keyword Abilities > 702.2 Deathtouch, 702.19 Trample; 510 is cited."""
    rules = [
        Rule("5", title="Turn Structure"),
        Rule("510", parent="5", title="Combat Damage Step"),
        Rule("510.1", parent="510", text="Combat damage is assigned."),
        Rule("510.1c", parent="510.1", text="A blocked creature assigns its combat damage to its blockers."),
        Rule("7", title="Additional Rules"),
        Rule("702", parent="7", title="Keyword Abilities"),
        Rule("702.2", parent="702", title="Deathtouch"),
        Rule("702.2b", parent="702.2", text="Any nonzero damage from a source with deathtouch is lethal."),
        Rule("702.19", parent="702", title="Trample"),
        Rule("702.19a", parent="702.19", text="Trample modifies combat damage. See rule 510, “Combat Damage Step.”"),
        Rule("702.19b", parent="702.19", text="Assign lethal damage to the blockers. See rule 510.1c."),
        Rule("702.19c", parent="702.19", text="Assigning lethal damage takes deathtouch into account."),
        Rule("702.19d", parent="702.19", text="If no creatures block it, all damage goes to the player."),
    ]
    return build_graph(rules, [], [], resolve_book("demo", "mtg", rules), [])


def test_sections_are_headings_over_headings():
    G = sectioned_book()
    assert {n[1] for n, section in G.nodes(data="section") if section} == {"5", "7", "702"}


def test_a_chain_never_passes_through_a_section():
    G = sectioned_book()
    # 702.19d reaches 510.1c by going up to its own keyword, not through 702 to a sibling keyword.
    assert chain(shortest_path(G, ("rule", "702.19d"), ("rule", "510.1c"))) == [
        ("702.19d", None),
        ("702.19", "part_of"),
        ("702.19b", "contains"),
        ("510.1c", "cites"),
    ]
    # Only 702 (and 7) link Deathtouch to Trample: no chain, and the section is named.
    assert shortest_path(G, ("rule", "702.2b"), ("rule", "702.19c")) == []
    assert sections_between(G, ("rule", "702.2b"), ("rule", "702.19c")) == [("rule", "702")]
    assert chain(shortest_path(G, ("rule", "702.2b"), ("rule", "702.19c"), through_sections=True)) == [
        ("702.2b", None),
        ("702.2", "part_of"),
        ("702", "part_of"),
        ("702.19", "contains"),
        ("702.19c", "contains"),
    ]
    # A section may be an end of the chain.
    assert chain(shortest_path(G, ("rule", "702"), ("rule", "702.19a"))) == [
        ("702", None),
        ("702.19", "contains"),
        ("702.19a", "contains"),
    ]
    # ... but not a way through: 7 reaches 510 only by 702.
    assert shortest_path(G, ("rule", "7"), ("rule", "510")) == []
    assert sections_between(G, ("rule", "7"), ("rule", "510")) == [("rule", "702")]


def test_of_equally_short_chains_the_one_with_fewer_containment_steps_wins():
    rules = [
        Rule("100", title="General"),
        Rule("100.1", parent="100", text="A rule. See rule 200.1."),
        Rule("100.2", parent="100", text="Another. See rule 300.1."),
        Rule("200", title="Other"),
        Rule("200.1", parent="200", text="Cited. See rule 300.1."),
        Rule("300", title="Third"),
        Rule("300.1", parent="300", text="Cited twice."),
    ]
    G = build_graph(rules, [], [], resolve_book("demo", "mtg", rules), [])
    # 100.1 -> 300.1 in two steps either way: cites 200.1 cites 300.1, or part of 100 contains 100.2 ...
    # (three); of the two-step chains, the one of citations wins.
    assert chain(shortest_path(G, ("rule", "100.1"), ("rule", "300.1"))) == [
        ("100.1", None),
        ("200.1", "cites"),
        ("300.1", "cites"),
    ]
    # A shorter chain with containment beats a longer one of citations.
    assert chain(shortest_path(G, ("rule", "100.1"), ("rule", "100.2"))) == [
        ("100.1", None),
        ("100", "part_of"),
        ("100.2", "contains"),
    ]


def test_riftbound_headings_head_the_sibling_rules_after_them():
    rules = [
        Rule("300", title="Playing the Game"),
        Rule("311", parent="300", title="Priority and Focus"),
        Rule("312", parent="300", text="Up to one player has Priority."),
        Rule("313", parent="300", text="Up to one player has Focus."),
        Rule("314", parent="300", title="Phases of the Turn"),
        Rule("315", parent="300", title="Start of Turn"),
        Rule("315.1", parent="315", text="Awaken."),
    ]
    assert heading_pairs(rules) == [("311", "312"), ("311", "313")]
    G = build_graph(rules, [], [], [], [], headings=True)
    assert G.has_edge(("rule", "311"), ("rule", "313"), "heads")
    assert chain(shortest_path(G, ("rule", "312"), ("rule", "313"))) == [
        ("312", None),
        ("311", "under"),
        ("313", "heads"),
    ]
    assert not any(k == "heads" for _, _, k in build_graph(rules, [], [], [], []).edges(data="kind"))


def test_json_is_node_link_and_serialisable(graph):
    data = to_json(graph)
    text = json.dumps(data)
    assert data["directed"] and data["multigraph"]
    ids = {n["id"] for n in data["nodes"]}
    assert {"rule:601", "term:Landcycling", "ruling:faq-1"} <= ids
    assert {"source": "rule:608.2", "target": "rule:601.2", "kind": "cites"}.items() <= next(
        link for link in data["links"] if link["source"] == "rule:608.2" and link["kind"] == "cites"
    ).items()
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
    return build_graph(rule_list, terms, rulings, refs, uses(rule_list, terms), headings=True)


def test_seed_graph():
    G = seed_graph()
    kinds = {k for _, _, k in G.edges(data="kind")}
    assert kinds == {"contains", "heads", "cites", "defines", "uses"}
    assert G.has_edge(("rule", "313.1"), ("term", "Focus"), "defines")
    assert G.has_edge(("rule", "313.1"), ("rule", "307"), "cites")
    assert G.has_edge(("rule", "312"), ("rule", "312.1"), "contains")
    assert ("rule", "398.1") not in G  # dangling: not in the loaded text
    assert any(k == "uses" and v == ("term", "Priority") for _, v, k in G.out_edges(("rule", "313.2"), data="kind"))
    # Against the direction of the citation: 313.1 cites 307.
    assert chain(shortest_path(G, ("rule", "307"), ("rule", "313.1"))) == [("307", None), ("313.1", "cited_by")]
    # Riftbound's 3xx rules are all children of the section 300; a chain goes by 307, which heads 308.
    assert G.nodes[("rule", "300")]["section"]
    assert chain(shortest_path(G, ("rule", "313.1"), ("rule", "308"))) == [
        ("313.1", None),
        ("307", "cites"),
        ("308", "heads"),
    ]


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
    code = "import sys; import rulebook.references, rulebook.integrity; print('networkx' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1]
    )
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
