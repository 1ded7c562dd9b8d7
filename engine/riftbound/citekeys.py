"""The citation keys the Riftbound engine cites as it carries out card text, as typed constants.

An instruction names a rule by key (``play.spell_executes``), and each edition's citation table
(``data/citations/riftbound-*.yaml``) says which rule of that edition the key is. Written as constants, a
misspelt key is a name error that ruff and mypy report, not a citation silently "not located";
``tests/test_riftbound_cardtext.py`` checks that every constant is a key of a shipped table.

>>> PLAY_SPELL_EXECUTES
'play.spell_executes'
"""

from __future__ import annotations

from typing import Final

ABILITY_EXECUTES_LIKE_SPELL: Final = "ability.executes_like_spell"
BANISH_ACTION: Final = "banish.action"
BANISH_HOLDING_SPACE: Final = "banish.holding_space"
BONUS_APPLIES: Final = "bonus.applies"
BUFF_ONE_COUNTER: Final = "buff.one_counter"
BUFF_PLUS_ONE_MIGHT: Final = "buff.plus_one_might"
BUFF_SPEND: Final = "buff.spend"
CHAMPION_NOT_RETURNED: Final = "champion.not_returned"
CHAMPION_SAME_NAME: Final = "champion.same_name"
CHOICE_NOT_TARGET_PRIVATE: Final = "choice.not_target_private"
CONTROL_OF_PERMANENT: Final = "control.of_permanent"
COST_DISCOUNTS: Final = "cost.discounts"
COST_BASE: Final = "cost.base_cost"
COST_IGNORED: Final = "cost.ignored"
COST_MUST_PAY: Final = "cost.must_pay"
COST_WITHIN_INSTRUCTION: Final = "cost.within_instruction"
COUNTER_DOES_NOTHING: Final = "counter.does_nothing"
COUNTER_NOT_PLAYED: Final = "counter.not_played"
DEAL_SOURCE_DEFAULT: Final = "deal.source_default"
DEAL_UNIT_SOURCE: Final = "deal.unit_source"
DELAYED_PASSIVE: Final = "delayed.passive"
DELAYED_REPLACEMENT: Final = "delayed.replacement"
DELAYED_SOURCE_IRRELEVANT: Final = "delayed.source_irrelevant"
DELAYED_TRIGGER: Final = "delayed.trigger"
DISCARD_ACTION: Final = "discard.action"
DRAW_BY_EFFECT: Final = "draw.by_effect"
EXHAUST_ACTION: Final = "exhaust.action"
EXHAUST_ALREADY_EXHAUSTED: Final = "exhaust.already_exhausted"
EXHAUST_COST_MUST_COMPLETE: Final = "exhaust.cost_must_complete"
FAQ_WEAPONMASTER_OPTIONAL: Final = "faq.weaponmaster_optional"
HEAL_CLEARS_DAMAGE: Final = "heal.clears_damage"
HIDE_NOT_PLAY: Final = "hide.not_play"
HIDE_UNITS_AT_THAT_BATTLEFIELD: Final = "hide.units_at_that_battlefield"
KEYWORD_GRANTED: Final = "keyword.granted"
KEYWORD_VALUES_SUMMED: Final = "keyword.values_summed"
KILL_INSTRUCTION_RESPONSIBLE: Final = "kill.instruction_responsible"
LAYERS_SNAPSHOT: Final = "layers.snapshot"
LEGION_ANOTHER_CARD: Final = "legion.another_card"
LEGION_ON_PLAY: Final = "legion.on_play"
LEGION_OTHER: Final = "legion.other"
LOOK_EXCESS_NO_BURN_OUT: Final = "look.excess_no_burn_out"
LOOK_TOO_FEW_IGNORED: Final = "look.too_few_ignored"
LOOK_WHEN_INSTRUCTED: Final = "look.when_instructed"
MIGHT_CURRENT: Final = "might.current"
MOVE_BETWEEN_LOCATIONS: Final = "move.between_locations"
MOVE_BY_EFFECT: Final = "move.by_effect"
PASSIVE_STATEMENT: Final = "passive.statement"
PLAY_BY_EFFECT: Final = "play.by_effect"
PLAY_BY_EFFECT_NONE: Final = "play.by_effect_none"
PLAY_ILLEGAL_TARGETS_UNAFFECTED: Final = "play.illegal_targets_unaffected"
PLAY_LOCATION_PERMISSION: Final = "play.location_permission"
PLAY_LOOK_BACK: Final = "play.look_back"
PLAY_NO_TARGETS_NO_INSTRUCTION: Final = "play.no_targets_no_instruction"
PLAY_NULL_INFORMATION: Final = "play.null_information"
PLAY_RESOLVES_WITH_ILLEGAL_TARGETS: Final = "play.resolves_with_illegal_targets"
PLAY_SOME_TARGETS_LEFT: Final = "play.some_targets_left"
PLAY_SPELL_EXECUTES: Final = "play.spell_executes"
PLAY_TARGET_VALID: Final = "play.target_valid"
PLAY_UNIT_LOCATION: Final = "play.unit_location"
PLAY_UP_TO_ZERO: Final = "play.up_to_zero"
PRIORITY_LIMITED_ACTIONS_REGARDLESS: Final = "priority.limited_actions_regardless"
READY_ACTION: Final = "ready.action"
READY_ALREADY_READY: Final = "ready.already_ready"
READY_BY_EFFECT: Final = "ready.by_effect"
RECALL_TO_BASE: Final = "recall.to_base"
RECYCLE_TO_MAIN_DECK: Final = "recycle.to_main_deck"
REFLEXIVE_CONDITION: Final = "reflexive.condition"
REFLEXIVE_CREATES_ITEM: Final = "reflexive.creates_item"
REFLEXIVE_PENDING: Final = "reflexive.pending"
REFLEXIVE_TIMES: Final = "reflexive.times"
REPEAT_AGAIN: Final = "repeat.again"
RETURN_OWNERS_HAND: Final = "return.owners_hand"
RULES_CANT_BEATS_CAN: Final = "rules.cant_beats_can"
REVEAL_DESTINATION: Final = "reveal.destination"
REVEAL_PRESENTS: Final = "reveal.presents"
REVEAL_STAYS_IN_ZONE: Final = "reveal.stays_in_zone"
SPLIT_AT_RESOLUTION: Final = "split.at_resolution"
SPLIT_TARGETS: Final = "split.targets"
STUN_ACTION: Final = "stun.action"
STUN_NOT_AGAIN: Final = "stun.not_again"
TARGETS_EACH_PLAYER_CHOOSES: Final = "targets.each_player_chooses"
TARGETS_GROUP_LEFT: Final = "targets.group_left"
TARGETS_GROUP_REQUIREMENT: Final = "targets.group_requirement"
TARGETS_GROUP_SUBSET: Final = "targets.group_subset"
TARGETS_MUST_NOT_TARGET: Final = "targets.must_not_target"
TARGETS_PROGRAMMATIC: Final = "targets.programmatic"
TEAM_CONTROL_NOT_SHARED: Final = "team.control_not_shared"
TEXT_CARD_SUPERSEDES: Final = "text.card_supersedes"
TEXT_DO_WHAT_YOU_CAN: Final = "text.do_what_you_can"
TEXT_SPELL_THIS: Final = "text.spell_this"
TOKEN_NOT_CARD: Final = "token.not_card"
TRIGGER_CONQUER: Final = "trigger.conquer"
TRIGGER_COST_WHEN_FINALIZED: Final = "trigger.cost_when_finalized"
TURN_ORDER_SEQUENCE: Final = "turn.simultaneous_in_turn_order"
TRIGGER_OPTIONAL_WHEN_TRIGGERED: Final = "trigger.optional_when_triggered"
TURN_ADDITIONAL: Final = "turn.additional"
WEAPONMASTER_PLAY_EFFECT: Final = "weaponmaster.play_effect"
WEAPONMASTER_STAYS: Final = "weaponmaster.stays"

ALL: Final = (
    ABILITY_EXECUTES_LIKE_SPELL,
    BANISH_ACTION,
    BANISH_HOLDING_SPACE,
    BONUS_APPLIES,
    BUFF_ONE_COUNTER,
    BUFF_PLUS_ONE_MIGHT,
    BUFF_SPEND,
    CHAMPION_NOT_RETURNED,
    CHAMPION_SAME_NAME,
    CHOICE_NOT_TARGET_PRIVATE,
    CONTROL_OF_PERMANENT,
    COST_DISCOUNTS,
    COST_BASE,
    COST_IGNORED,
    COST_MUST_PAY,
    COST_WITHIN_INSTRUCTION,
    COUNTER_DOES_NOTHING,
    COUNTER_NOT_PLAYED,
    DEAL_SOURCE_DEFAULT,
    DEAL_UNIT_SOURCE,
    DELAYED_PASSIVE,
    DELAYED_REPLACEMENT,
    DELAYED_SOURCE_IRRELEVANT,
    DELAYED_TRIGGER,
    DISCARD_ACTION,
    DRAW_BY_EFFECT,
    EXHAUST_ACTION,
    EXHAUST_ALREADY_EXHAUSTED,
    EXHAUST_COST_MUST_COMPLETE,
    FAQ_WEAPONMASTER_OPTIONAL,
    HEAL_CLEARS_DAMAGE,
    HIDE_NOT_PLAY,
    HIDE_UNITS_AT_THAT_BATTLEFIELD,
    KEYWORD_GRANTED,
    KEYWORD_VALUES_SUMMED,
    KILL_INSTRUCTION_RESPONSIBLE,
    LAYERS_SNAPSHOT,
    LEGION_ANOTHER_CARD,
    LEGION_ON_PLAY,
    LEGION_OTHER,
    LOOK_EXCESS_NO_BURN_OUT,
    LOOK_TOO_FEW_IGNORED,
    LOOK_WHEN_INSTRUCTED,
    MIGHT_CURRENT,
    MOVE_BETWEEN_LOCATIONS,
    MOVE_BY_EFFECT,
    PASSIVE_STATEMENT,
    PLAY_BY_EFFECT,
    PLAY_BY_EFFECT_NONE,
    PLAY_ILLEGAL_TARGETS_UNAFFECTED,
    PLAY_LOCATION_PERMISSION,
    PLAY_LOOK_BACK,
    PLAY_NO_TARGETS_NO_INSTRUCTION,
    PLAY_NULL_INFORMATION,
    PLAY_RESOLVES_WITH_ILLEGAL_TARGETS,
    PLAY_SOME_TARGETS_LEFT,
    PLAY_SPELL_EXECUTES,
    PLAY_TARGET_VALID,
    PLAY_UNIT_LOCATION,
    PLAY_UP_TO_ZERO,
    PRIORITY_LIMITED_ACTIONS_REGARDLESS,
    READY_ACTION,
    READY_ALREADY_READY,
    READY_BY_EFFECT,
    RECALL_TO_BASE,
    RECYCLE_TO_MAIN_DECK,
    REFLEXIVE_CONDITION,
    REFLEXIVE_CREATES_ITEM,
    REFLEXIVE_PENDING,
    REFLEXIVE_TIMES,
    REPEAT_AGAIN,
    RETURN_OWNERS_HAND,
    RULES_CANT_BEATS_CAN,
    REVEAL_DESTINATION,
    REVEAL_PRESENTS,
    REVEAL_STAYS_IN_ZONE,
    SPLIT_AT_RESOLUTION,
    SPLIT_TARGETS,
    STUN_ACTION,
    STUN_NOT_AGAIN,
    TARGETS_EACH_PLAYER_CHOOSES,
    TARGETS_GROUP_LEFT,
    TARGETS_GROUP_REQUIREMENT,
    TARGETS_GROUP_SUBSET,
    TARGETS_MUST_NOT_TARGET,
    TARGETS_PROGRAMMATIC,
    TEAM_CONTROL_NOT_SHARED,
    TEXT_CARD_SUPERSEDES,
    TEXT_DO_WHAT_YOU_CAN,
    TEXT_SPELL_THIS,
    TOKEN_NOT_CARD,
    TRIGGER_CONQUER,
    TRIGGER_COST_WHEN_FINALIZED,
    TURN_ORDER_SEQUENCE,
    TRIGGER_OPTIONAL_WHEN_TRIGGERED,
    TURN_ADDITIONAL,
    WEAPONMASTER_PLAY_EFFECT,
    WEAPONMASTER_STAYS,
)
