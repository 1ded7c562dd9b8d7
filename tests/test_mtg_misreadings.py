"""Card text the Magic engine once read wrongly without saying so (issue 23: a scenario writer found them with
real cards). A partial reading is worse than a refusal: each is now refused, naming the words."""

from __future__ import annotations

import textwrap

import pytest

from engine.mtg.effects import EffectError, parse_effect


@pytest.mark.parametrize(
    "text",
    [
        # Ghitu Journeymage: the condition was swallowed as the name of the source, so it always dealt 2.
        "If you control another Wizard, ~ deals 2 damage to each opponent.",
        # Sarkhan's Rage: the same, with a condition that must be checked as it resolves (608.2c).
        "If you control no Dragons, ~ deals 2 damage to you.",
        # Renegade's Getaway: the token was named "Servo artifact" and was no artifact.
        "Create a 1/1 colorless Servo artifact creature token.",
    ],
)
def test_text_once_misread_is_refused(text):
    with pytest.raises(EffectError):
        parse_effect(text)


def test_what_those_patterns_read_is_still_read():
    assert parse_effect("~ deals 3 damage to any target.")[0].verb == "damage"
    assert parse_effect("Create two 1/1 white Soldier creature tokens with lifelink")[0].extra == (
        1,
        1,
        "W",
        "Soldier",
        ("lifelink",),
    )


def test_a_mana_ability_that_does_more_is_refused_not_cut_short(judge, tmp_path):
    """Pristine Talisman ({T}: Add {C}. You gain 1 life.): the engine added the mana and skipped the life."""
    path = tmp_path / "talisman.yaml"
    path.write_text(
        textwrap.dedent("""\
        game: mtg
        players: [Ana, Ben]
        turn: {player: Ana, phase: main1}
        state:
          permanents:
            - {name: Talisman, controller: Ana, type: artifact, ability: {cost: "{T}", effect: "Add {C}. You gain 1 life."}}
        actions:
          - Ana activates Talisman
        """),
        encoding="utf-8",
    )
    code, out, err = judge("explain", str(path))
    assert code == 2 and err.count("\n") == 1
    assert "a mana ability that also does something else is not modelled: 'Add {C}. You gain 1 life.'" in err


def test_minus_one_is_a_number_not_x():
    # Wither's "-1/-1" once read as X (the value X stood for was -1): the spell asked for X and gave the
    # creature +X/+X. "-X/-X" (Sever the Bloodline's kind) is minus the value announced.
    from engine.mtg.effects import X, uses_x

    boost = parse_effect("Target creature gets -1/-1 until end of turn.")[0]
    assert (boost.amount, boost.amount2) == (-1, -1) and not uses_x("Target creature gets -1/-1 until end of turn.")
    minus_x = parse_effect("Target creature gets -X/-X until end of turn.")[0]
    assert (minus_x.amount, minus_x.amount2) == (-X, -X)
