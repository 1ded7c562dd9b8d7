"""The search vocabulary file, ``data/search-synonyms.yaml``: irregular forms and synonym groups.

Judges' words for what the rules call otherwise (see that file and docs/decisions.md, "Search
vocabulary"). Read once per process; :mod:`rulebook.search.query` uses its irregular forms when
stemming, :mod:`rulebook.search.expansion` its groups.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from rulebook.shipped import data_file

SYNONYMS_FILE = "search-synonyms.yaml"


@cache
def vocabulary_table(path: str | None = None) -> dict[str, Any]:
    """The search vocabulary: ``{"irregular": {form: base}, "groups": [{games, words, rules, broader}]}``;
    empty when the file is absent."""
    import yaml

    file = Path(path) if path else data_file(SYNONYMS_FILE)
    if not file.is_file():
        return {"irregular": {}, "groups": []}
    data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    return {"irregular": {str(k).lower(): str(v).lower() for k, v in (data.get("irregular") or {}).items()},
            "groups": [{"games": set(g.get("games") or ()), "words": [str(w).lower() for w in g.get("words") or ()],
                        "rules": [str(w).lower() for w in g.get("rules") or ()],
                        "broader": [str(w).lower() for w in g.get("broader") or ()]}
                       for g in data.get("groups") or ()]}


@cache
def irregular() -> dict[str, str]:
    """Inflected forms the light stemmer cannot reduce, and the word each inflects ("spent": "spend")."""
    return vocabulary_table()["irregular"]
