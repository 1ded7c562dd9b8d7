"""Write the signatures of the shipped citation tables: ``data/citations/signatures/<game>-<edition>.json``.

A signature is what carrying a table onto another edition (rulebook.carry) needs to find each rule
again: the hashed words and word pairs of the rule's text, not the text. It is made from the full
document of the table's edition in ../shared/corpora, so run this after editing a table:

    python bench/sign_citation_tables.py [--check]

``--check`` writes nothing and exits 1 when a file would change (tests/test_carry.py runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPORA = REPO.parent / "shared" / "corpora"

# The document each table's numbers are read from (a table based_on another is its edition's errata).
DOCUMENTS = {
    ("mtg", "2008-10-01"): "mtg/MagicCompRules-2008-10-01.txt",
    ("mtg", "2019-10-04"): "mtg/MagicCompRules-2019-10-04.txt",
    ("mtg", "2026-02-27"): "mtg/MagicCompRules-2026-02-27.txt",
    ("riftbound", "v1.2"): "riftbound/core-rules-v1.2.txt",
    ("riftbound", "2026-01-14"): "riftbound/core-rules-v1.2.txt",
    ("riftbound", "2026-03-30"): "riftbound/core-rules-v1.3.txt",
}


def signatures(game: str, edition: str, document: Path, home: Path) -> dict:
    import yaml

    from rulebook.carry import table_signatures
    from rulebook.diff import read_rules
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    lib = Library(home, seeds=seeds_dir())
    book = f"{game}-{edition}".replace(".", "-")
    lib.load([document], book, game=game)
    store = lib.open()
    rules = {e.number: e for e in read_rules(store, book)}
    table = yaml.safe_load((REPO / "data" / "citations" / f"{game}-{edition}.yaml").read_text(encoding="utf-8"))
    store.close()
    return {
        "game": game,
        "edition": edition,
        "document": document.name,
        "made_by": "bench/sign_citation_tables.py (rulebook.carry.signature)",
        "rules": table_signatures(rules, table),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file would change")
    args = parser.parse_args()
    out_dir = REPO / "data" / "citations" / "signatures"
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for (game, edition), rel in DOCUMENTS.items():
            table = REPO / "data" / "citations" / f"{game}-{edition}.yaml"
            document = CORPORA / rel
            if not table.exists():
                continue
            if not document.exists():
                print(f"skip {game}-{edition}: {document} is absent", file=sys.stderr)
                continue
            data = signatures(game, edition, document, Path(tmp) / f"{game}-{edition}")
            text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
            target = out_dir / f"{game}-{edition}.json"
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.name)
                if not args.check:
                    out_dir.mkdir(parents=True, exist_ok=True)
                    target.write_text(text, encoding="utf-8")
            print(f"{game}-{edition}: {len(data['rules'])} rules signed", file=sys.stderr)
    if args.check and stale:
        print("stale signatures: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
