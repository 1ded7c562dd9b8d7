"""How many of the official Riftbound FAQs' situational questions are expressed as scenarios that pass.

    python bench/faq_coverage.py            # the counts, and each scenario's result
    python bench/faq_coverage.py --missing  # also the questions not yet expressible, by missing feature

Reads every question of ../shared/corpora/riftbound/faq-origins.md and faq-spiritforged.md with the
project's rulings reader (so a question is known by the id ``judge rulings`` gives it) and the
classification in ``bench/faq_coverage.yaml`` (written before the engine was extended, so the number of
situational questions does not follow what the engine can do). A situational question counts as
expressed when every scenario mapped to it passes ``judge explain --check``, cites every rule the answer
rests on (a rule or one of its sub-rules; an FAQ ruling's id exactly) and names the question's id in its
description. Exit status 1 when the classification does not match the FAQs or a mapped scenario fails.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CORPUS = REPO.parent / "shared" / "corpora" / "riftbound"
FAQS = ("faq-origins.md", "faq-spiritforged.md")
TABLE = REPO / "bench" / "faq_coverage.yaml"
SCENARIOS = REPO / "data" / "scenarios"
TARGET = 0.80


@dataclass
class Outcome:
    id: str
    question: str
    situational: bool
    scenarios: list[str] = field(default_factory=list)
    missing: str | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def passing(self) -> bool:
        return self.situational and bool(self.scenarios) and not self.problems


def _norm(text: str) -> str:
    return " ".join(text.replace("ʼ", "'").replace("’", "'").split()).lower()


def read_questions() -> dict[str, str]:
    """Ruling id -> question, for every question (not section) of the two FAQs, in file order."""
    from rulebook.model import Source
    from rulebook.readers.rulings import read_rulings

    out: dict[str, str] = {}
    for name in FAQS:
        path = CORPUS / name
        doc = read_rulings(path.read_text(encoding="utf-8").splitlines(), Source(str(path), "", "rulings"), "riftbound")
        out.update({r.id: r.question for r in doc.rulings if r.form == "question"})
    return out


def _cites(rules_cited: list[str], wanted: str) -> bool:
    from scenarios.expectations import rule_matches

    if wanted.startswith("faq-"):
        return wanted in rules_cited
    return any(not r.startswith("faq-") and rule_matches(wanted, r) for r in rules_cited)


def run_scenario(path: Path) -> tuple[bool, list[str], str, str]:
    """(every expectation held, the rules cited, the scenario's description, a failure detail)."""
    from scenarios.explain import explain
    from scenarios.scenario import ScenarioFileError, load_scenario

    try:
        told = explain(path)
    except ScenarioFileError as exc:
        return False, [], "", str(exc)
    code = 0 if told.ok else 1
    doc = told.to_json()
    failed = [r["detail"] for r in doc["expectations"] if not r["ok"]]
    data = load_scenario(path).data
    text = " ".join(str(data.get(k) or "") for k in ("title", "description", "notes"))
    if not doc["expectations"]:
        failed.append("no expectation was checked")
    return code == 0 and not failed, [r["rule"] for r in doc["rules_cited"]], text, "; ".join(failed)


def evaluate() -> tuple[list[Outcome], list[str]]:
    """Each classified question's outcome, and what is wrong with the classification itself."""
    questions = read_questions()
    table = yaml.safe_load(TABLE.read_text(encoding="utf-8"))["questions"]
    errors = [f"{qid}: not classified in {TABLE.name} ({questions[qid]!r})" for qid in questions if qid not in table]
    errors += [f"{qid}: classified, but the FAQs have no such question" for qid in table if qid not in questions]
    outcomes = []
    for qid, question in questions.items():
        entry = table.get(qid)
        if entry is None:
            continue
        if not _norm(question).startswith(_norm(entry["q"])):
            errors.append(f"{qid}: the FAQ asks {question!r}, not {entry['q']!r}")
        o = Outcome(qid, question, bool(entry["situational"]))
        outcomes.append(o)
        if not o.situational:
            continue
        scenarios = entry.get("scenario") or []
        o.scenarios = [scenarios] if isinstance(scenarios, str) else list(scenarios)
        o.missing = entry.get("missing")
        if bool(o.scenarios) == bool(o.missing):
            errors.append(f"{qid}: give either scenario or missing")
        for rel in o.scenarios:
            path = SCENARIOS / rel
            if not path.exists():
                o.problems.append(f"{rel}: no such scenario")
                continue
            ok, cited, text, detail = run_scenario(path)
            if not ok:
                o.problems.append(f"{rel}: fails --check ({detail})")
            if not re.search(rf"\b{re.escape(qid)}\b", text):
                o.problems.append(f"{rel}: its description does not name {qid}")
        if o.scenarios and not o.problems:
            cited_all = [r for rel in o.scenarios for r in run_scenario(SCENARIOS / rel)[1]]
            for rule in entry.get("rules") or []:
                if not _cites(cited_all, str(rule)):
                    o.problems.append(f"the answer rests on {rule}, which no mapped scenario cites")
    return outcomes, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--missing", action="store_true", help="list the questions not yet expressible")
    args = parser.parse_args(argv)
    if not all((CORPUS / name).exists() for name in FAQS):
        print(f"the FAQs are not in {CORPUS}: nothing to measure")
        return 0
    outcomes, errors = evaluate()
    situational = [o for o in outcomes if o.situational]
    passing = [o for o in situational if o.passing]
    failing = [o for o in situational if o.scenarios and o.problems]
    missing = [o for o in situational if not o.scenarios]
    for e in errors:
        print(f"classification: {e}")
    for o in failing:
        for p in o.problems:
            print(f"FAIL {o.id}: {p}")
    if args.missing:
        by_feature = Counter(o.missing or "" for o in missing)
        print("\nNot yet expressible, by the feature missing:")
        for feature, n in by_feature.most_common():
            ids = ", ".join(o.id.replace("faq-", "") for o in missing if o.missing == feature)
            print(f"  {n:3}  {feature}: {ids}")
    share = len(passing) / len(situational) if situational else 0.0
    print(
        f"\nRiftbound FAQ coverage: {len(outcomes)} questions in {' and '.join(FAQS)}; "
        f"{len(situational)} situational, {len(outcomes) - len(situational)} not"
    )
    print(
        f"  passing scenarios: {len(passing)} of {len(situational)} situational questions ({share:.0%}; target "
        f"{TARGET:.0%} = {int(-(-TARGET * len(situational) // 1))})"
    )
    print(f"  expressed but failing: {len(failing)}; not yet expressible: {len(missing)}")
    return 1 if errors or failing else 0


if __name__ == "__main__":
    sys.exit(main())
