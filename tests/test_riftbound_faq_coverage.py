"""The classification of the official Riftbound FAQs' questions (bench/faq_coverage.yaml) matches the FAQs,
names rules that exist in Core Rules v1.2, and every scenario mapped to a question passes ``--check``, cites
the rules its answer rests on and names the question (bench/faq_coverage.py measures the coverage)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "riftbound"
spec = importlib.util.spec_from_file_location("faq_coverage", ROOT / "bench" / "faq_coverage.py")
faq_coverage = importlib.util.module_from_spec(spec)
sys.modules["faq_coverage"] = faq_coverage  # dataclasses look their module up
spec.loader.exec_module(faq_coverage)

pytestmark = pytest.mark.skipif(not (CORPUS / "faq-origins.md").exists(), reason=f"the FAQs are not in {CORPUS}")


def test_every_question_is_classified_and_every_mapped_scenario_passes():
    outcomes, errors = faq_coverage.evaluate()
    assert not errors
    assert not [(o.id, o.problems) for o in outcomes if o.problems]
    situational = [o for o in outcomes if o.situational]
    assert len(outcomes) == 124 and len(situational) == 111


def test_the_rules_an_answer_rests_on_exist_in_v1_2():
    from rulebook.readers import read_file

    numbers = {r.number for r in read_file(CORPUS / "core-rules-v1.2.txt").rules}
    table = yaml.safe_load((ROOT / "bench" / "faq_coverage.yaml").read_text(encoding="utf-8"))["questions"]
    questions = faq_coverage.read_questions()
    for qid, entry in table.items():
        for rule in entry.get("rules") or []:
            if str(rule).startswith("faq-"):
                assert rule in questions, f"{qid}: {rule} is not a question of the FAQs"
            else:
                assert str(rule) in numbers, f"{qid}: {rule} is not a rule of Core Rules v1.2"
