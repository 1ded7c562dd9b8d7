"""Write engine/riftbound/cardtext_tables.py: the Riftbound card-text grammar's LALR tables, built (building
them takes about a second; loading them a tenth of that). Run it after changing the grammar or a verb's rule;
tests/test_riftbound_cardtext.py fails while the shipped tables are another grammar's. (Two runs write
equivalent tables, not the same bytes: Lark's pickled tables hold sets of its objects.)

    python bench/write_cardtext_tables.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.riftbound import cardtext  # noqa: E402

if __name__ == "__main__":
    target = REPO / "engine" / "riftbound" / "cardtext_tables.py"
    target.write_text(cardtext.tables_source(), encoding="utf-8")
    print(f"wrote {target.relative_to(REPO)} ({target.stat().st_size} bytes)")
