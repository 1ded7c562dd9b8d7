"""The search vocabulary's JSON twins, made from the YAML files a person edits.

``python -m rulebook.search.vocabulary_source`` writes ``data/search-synonyms.json`` and
``data/search-shorthand.json`` from their YAML files (run it after editing either);
``python -m rulebook.search.vocabulary_source --check`` exits 1 naming a twin that is out of date, as
``tests/test_search_speed.py`` does. A search reads only the twins (:mod:`rulebook.search.vocabulary`).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import yaml

from rulebook.search import vocabulary
from rulebook.shipped import data_file

FILES = (vocabulary.SYNONYMS_FILE, vocabulary.SHORTHAND_FILE)


def twin_text(name: str) -> str:
    """The JSON twin the YAML file ``name`` makes: its data as parsed, with a note naming its source."""
    data: dict[str, Any] = yaml.safe_load(data_file(name).read_text(encoding="utf-8")) or {}
    note = f"made from {name} by python -m rulebook.search.vocabulary_source: edit that file, not this one"
    return json.dumps({vocabulary.GENERATED: note, **data}, ensure_ascii=False, indent=1) + "\n"


def stale() -> list[str]:
    """The twins whose text is not what their YAML file makes."""
    out = []
    for name in FILES:
        path = data_file(vocabulary.twin(name))
        if not path.is_file() or path.read_text(encoding="utf-8") != twin_text(name):
            out.append(path.name)
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = stale()
        for name in found:
            print(f"{name} is out of date: run python -m rulebook.search.vocabulary_source", file=sys.stderr)
        return 1 if found else 0
    for name in FILES:
        data_file(vocabulary.twin(name)).write_text(twin_text(name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
