"""The bad-input corpus: every broken file gives its exact diagnostics, never a traceback.

Each case of CASES is a file (or a game folder) of tests/corpus/, the exit
status `regles check` must give for it, and the lines its report must hold:
each diagnostic's first line (`file:line:col: error[CODE]: message`) exactly, and
the `    hint: ...` lines that matter. The number of errors reported must be the
number of diagnostic lines listed, so that no case hides a cascade of errors.
The expected text is the specification: when a case fails, mend the pipeline,
not the case.

Most cases run `interpreter.cli.main` in-process (fast); a few run the real
command in a subprocess, as a user would.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import cli
from interpreter.resources import content_dir

from gamekit import CORPUS
DIAGNOSTIC = re.compile(r"^\S.*:\d+:\d+: error\[[A-Z]\d{3}\]: ")


def _shipped_card(card_id: str) -> str:
    """'file:line' of a shipped Seeders card, wherever the content keeps it."""
    for path in sorted((content_dir() / "seeders-exodus").rglob("*.yaml")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() == f"- id: {card_id}":
                return f"{_shown(path)}:{n}"
    raise LookupError(card_id)


def _shown(path: Path) -> str:
    """A path as `regles check` run from tests/corpus shows it (see pack.display_path)."""
    rel = os.path.relpath(path, CORPUS)
    return rel if not rel.startswith("..") else str(path)


def xfail(reason: str):
    return pytest.mark.xfail(reason=reason, strict=False)


CASES = [
    # -- YAML syntax -----------------------------------------------------------------------------
    ("yaml_unclosed_quote.yaml", 1, [
        "yaml_unclosed_quote.yaml:5:12: error[Y003]: YAML syntax error: quoted string never closed",
        "    hint: close it with the quote it opens with; the file ends at line 6 before it is closed"]),
    ("yaml_unclosed_flow.yaml", 1, [
        "yaml_unclosed_flow.yaml:6:11: error[Y003]: YAML syntax error: '[' never closed",
        "    hint: close the list with ']'; the file ends at line 6 before it is closed"]),
    ("yaml_bad_indent_mapping.yaml", 1, [
        "yaml_bad_indent_mapping.yaml:6:4: error[Y001]: YAML syntax error: wrong indentation: this line is indented "
        "3 spaces, which lines up with no block above it",
        "    hint: the keys of one mapping, and the items of one list, line up: start it at column 3 or column 5"]),
    ("yaml_indent_deeper.yaml", 1, [
        "yaml_indent_deeper.yaml:6:6: error[Y001]: YAML syntax error: wrong indentation: this line is indented 5 spaces, "
        "deeper than the line above (line 5), which opens no block",
        "    hint: line it up with the keys above it (column 5), or, if it belongs to the line above, end that line "
        "with ':' (or ': |' for a text)"]),
    ("schema_unquoted_ability.yaml", 1, [
        "schema_unquoted_ability.yaml:7:9: error[S003]: cards[0].abilities[0]: expected a text, found a mapping",
        "    hint: YAML read this as a mapping because of the ': ' in it; quote the whole text: "
        "\"when integrated: gain 2 resource\", or write it as a block after '|'"]),
    ("names_unknown_class_lists.yaml", 1, [
        "names_unknown_class_lists.yaml:9:49: error[N004]: unknown class 'Spaceship'",
        "    hint: the classes of this game: Apprenti, Architectes, Bio-Consortium, Converti, Déviants, Équipage, "
        "Module, Moved, Mutant, Novice, Noyau, Originels, Ouvrier, Prêtre, Primaire, Removed, Secondaire, Théocrates",
        "names_unknown_class_lists.yaml:11:23: error[N004]: unknown class 'Shiny'"]),
    ("names_same_kind.yaml", 1, [  # where a zone is wanted, no counter is proposed; where a number is, it is
        "names_same_kind.yaml:9:24: error[N010]: unknown name 'rond'",
        "    hint: zones: deck, discard, box, secondary_crews, you.hand, you.packet, you.passing, you.picked, "
        "you.ark, you.vacant, you.prison, you.home, you.concealed, you.face_down",
        "names_same_kind.yaml:10:15: error[N010]: unknown name 'rond'",
        "    hint: did you mean 'round'?"]),
    ("yaml_colon_in_value.yaml", 1, [
        "yaml_colon_in_value.yaml:7:36: error[Y003]: YAML syntax error: mapping values are not allowed in this context",
        "    hint: a value containing ': ' must be quoted, or written as a block with '|'"]),
    ("yaml_undefined_alias.yaml", 1, [
        "yaml_undefined_alias.yaml:5:12: error[Y003]: YAML syntax error: found undefined alias",
        "    hint: define the anchor ('&name') before using it"]),
    ("yaml_multi_document.yaml", 1, [
        "yaml_multi_document.yaml:5:1: error[Y003]: YAML syntax error: a second document in one file"]),
    ("yaml_tab_indent.yaml", 1, [
        "yaml_tab_indent.yaml:5:1: error[Y002]: tab character used for indentation",
        "    hint: YAML indents with spaces only"]),
    ("yaml_duplicate_key.yaml", 1, [
        "yaml_duplicate_key.yaml:7:5: error[Y004]: duplicate key 'cost' (first defined at line 6)"]),
    ("yaml_python_tag.yaml", 1, [
        "yaml_python_tag.yaml:5:12: error[Y007]: unsupported YAML tag '!!python/object/apply:os.system'",
        "    hint: remove the tag: content files hold plain data"]),
    ("yaml_python_name_tag.yaml", 1, [
        "yaml_python_name_tag.yaml:5:12: error[Y007]: unsupported YAML tag '!!python/name:os.system'"]),
    ("yaml_python_object_tag.yaml", 1, [
        "yaml_python_object_tag.yaml:3:8: error[Y007]: unsupported YAML tag '!!python/object:builtins.dict'"]),
    ("yaml_custom_tag.yaml", 1, [
        "yaml_custom_tag.yaml:5:12: error[Y007]: unsupported YAML tag '!card'"]),
    ("yaml_merge_key.yaml", 1, [
        "yaml_merge_key.yaml:5:5: error[Y008]: merge keys ('<<') are not supported"]),
    ("yaml_alias_bomb.yaml", 1, [
        "yaml_alias_bomb.yaml:8:11: error[Y009]: the document expands to more than 200,000 values at alias '*e' "
        "(aliases expanded)",
        "    hint: '*e' stands for 66,430 values and 177,147 characters of text each time: use it less often, "
        "or split the file"]),
    ("yaml_deep_nesting.yaml", 1, [
        "yaml_deep_nesting.yaml:5:74: error[Y009]: values nest more than 64 levels deep"]),
    ("yaml_number_too_large.yaml", 1, [  # 5,000 digits: once an internal error (Python reads 4,300)
        "yaml_number_too_large.yaml:6:13: error[T007]: number too large: more than 9,007,199,254,740,991, "
        "the largest a game keeps"]),
    ("non_utf8.yaml", 1, [
        "non_utf8.yaml:5:15: error[Y005]: file is not valid UTF-8 (byte 0xe9)",
        "    hint: save the file as UTF-8"]),
    ("empty.yaml", 1, [
        "empty.yaml:1:1: error[Y006]: file is empty"]),
    ("comments_only.yaml", 1, [
        "comments_only.yaml:1:1: error[Y006]: file is empty"]),
    ("only_null.yaml", 1, [
        "only_null.yaml:1:1: error[Y008]: a content file must be a mapping of keys to values, not null"]),
    ("top_level_list.yaml", 1, [
        "top_level_list.yaml:1:1: error[Y008]: a content file must be a mapping of keys to values, not a list",
        "    hint: start the file with 'kind: ...'"]),
    ("top_level_scalar.yaml", 1, [
        "top_level_scalar.yaml:1:1: error[Y008]: a content file must be a mapping of keys to values, not a text"]),
    ("non_string_key.yaml", 1, [
        "non_string_key.yaml:6:5: error[Y008]: a key must be a text, not true or false",
        "    hint: quote the key"]),
    ("non_string_key_number.yaml", 1, [  # a number key is read as its text, as JSON would
        "non_string_key_number.yaml:6:5: error[S001]: unknown key '3' for a card"]),
    ("non_string_key_null.yaml", 1, [
        "non_string_key_null.yaml:5:5: error[Y008]: a key must be a text, not null"]),
    ("non_string_key_complex.yaml", 1, [
        "non_string_key_complex.yaml:3:3: error[Y008]: a key must be a text, not a list"]),
    ("crlf_line_endings.yaml", 1, [
        "crlf_line_endings.yaml:7:10: error[N009]: unknown keyword 'Coffer'"]),
    ("bom_unknown_keyword.yaml", 1, [
        "bom_unknown_keyword.yaml:7:10: error[N009]: unknown keyword 'Coffer'"]),
    # -- schema: kinds, keys, types --------------------------------------------------------------
    ("schema_missing_kind.yaml", 1, [
        "schema_missing_kind.yaml:1:1: error[S002]: missing key 'kind'"]),
    ("schema_unknown_kind.yaml", 1, [
        "schema_unknown_kind.yaml:1:7: error[S009]: unknown kind 'card'; expected one of: game, expansion, cards, keywords, "
        "board, scenario, rules-test, rules",
        "    hint: did you mean 'cards'?"]),
    ("schema_kind_not_string.yaml", 1, [
        "schema_kind_not_string.yaml:1:7: error[T003]: 'kind' must be a text, not a list"]),
    ("schema_missing_cards.yaml", 1, [
        "schema_missing_cards.yaml:1:1: error[S002]: missing required key 'cards'"]),
    ("schema_missing_card_id.yaml", 1, [
        "schema_missing_card_id.yaml:4:5: error[S002]: cards[0]: missing required key 'id'"]),
    ("schema_unknown_top_key.yaml", 1, [
        "schema_unknown_top_key.yaml:3:1: error[S001]: unknown key 'compnent'",
        "    hint: did you mean 'component'?"]),
    ("schema_unknown_card_key.yaml", 1, [
        "schema_unknown_card_key.yaml:6:5: error[S001]: unknown key 'abilites' for a card",
        "    hint: did you mean 'abilities'?"]),
    ("schema_unknown_keyword_key.yaml", 1, [
        "schema_unknown_keyword_key.yaml:4:5: error[S002]: keywords[0]: missing required key 'ability'",
        "schema_unknown_keyword_key.yaml:5:5: error[S001]: keywords[0]: unknown key 'abilty'",
        "    hint: did you mean 'ability'?"]),
    ("schema_wrong_type_cost.yaml", 1, [
        "schema_wrong_type_cost.yaml:8:11: error[S008]: 'cost' must be a whole number, found 'trois'"]),
    ("schema_wrong_type_abilities.yaml", 1, [
        "schema_wrong_type_abilities.yaml:6:16: error[S003]: cards[0].abilities: expected a list, found a text"]),
    ("schema_cards_not_list.yaml", 1, [
        "schema_cards_not_list.yaml:4:3: error[S003]: cards: expected a list, found a mapping"]),
    ("schema_cards_null.yaml", 1, [
        "schema_cards_null.yaml:3:1: error[S003]: cards: expected a list, found null"]),
    ("schema_empty_cards.yaml", 1, [
        "schema_empty_cards.yaml:3:8: error[S007]: cards: expected at least 1 item"]),
    ("schema_bad_id_pattern.yaml", 1, [
        "schema_bad_id_pattern.yaml:4:9: error[S005]: cards[0].id: 'Corpus Card' is not a valid identifier"]),
    ("names_id_trailing_newline.yaml", 1, [  # a pattern matches the whole id, not the id before a newline
        "names_id_trailing_newline.yaml:4:9: error[S005]: cards[0].id: 'corpus-card\\x0a' is not a valid identifier",
        "    hint: identifiers use lower-case letters, digits, '-' and '_', e.g. 'fille-de-joie'",
        "names_id_trailing_newline.yaml:6:13: error[S006]: cards[0].rules[0]: 'SX-NEG-3\\x0a' is not a rule ID"]),
    ("names_node_id_trailing_newline.yaml", 1, [
        "names_node_id_trailing_newline.yaml:5:10: error[S005]: nodes[0].id: 'north\\x0a' is not a valid identifier"]),
    ("schema_copies_zero.yaml", 1, [
        "schema_copies_zero.yaml:6:13: error[S008]: cards[0].copies: expected a number at least 1, found 0"]),
    ("duplicate_card_id.yaml", 1, [
        "duplicate_card_id.yaml:8:5: error[N013]: duplicate card id 'corpus-card' (first at duplicate_card_id.yaml:4)",
        "    hint: give each card its own id; use 'copies' for several identical cards"]),
    ("duplicate_shipped_card_id.yaml", 1, [
        f"duplicate_shipped_card_id.yaml:4:5: error[N013]: duplicate card id 'apprenti' "
        f"(first at {_shipped_card('apprenti')})"]),
    ("names_overlong_game.yaml", 1, [  # a name too long for the file system is only unknown
        "names_overlong_game.yaml:2:7: error[N012]: unknown game '" + "seeders-exodus-" * 20 + "'"]),
    ("no_game.yaml", 1, [
        "no_game.yaml:1:1: error[N012]: this file belongs to no game",
        "    hint: put it in a game folder, or name its game with 'game: NAME'"]),
    ("names_unknown_game.yaml", 1, [
        "names_unknown_game.yaml:2:7: error[N012]: unknown game 'seeders-exodos'",
        "    hint: did you mean 'seeders-exodus'?"]),
    # -- rules-language syntax -------------------------------------------------------------------
    ("rules_missing_colon.yaml", 1, [
        "rules_missing_colon.yaml:8:24: error[P002]: syntax error: unexpected end of line; expected ':', 'if' or "
        "'optionally' (in the 'when' trigger)",
        "    hint: a block header ends with ':'"]),
    ("rules_event_with_arguments.yaml", 1, [  # `when integrated(c):`, as other languages bind them
        "rules_event_with_arguments.yaml:8:24: error[P002]: syntax error: unexpected '('; expected ':', 'if' or "
        "'optionally' (in the 'when' trigger)",
        "    hint: a trigger names its event alone, 'when EVENT:'; the event's arguments are names in its block, "
        "those its declaration gives (events:)"]),
    ("rules_block_on_header_line.yaml", 1, [  # what follows a header's ':' on its line is one simple statement
        "rules_block_on_header_line.yaml:7:46: error[P002]: syntax error: unexpected '>'; expected an expression or "
        "end of line (in the 'when' trigger)",
        "    hint: 'if' opens a block of its own: write it on a line of its own, indented under the line ending "
        "with ':', and its statements on the lines below it, indented further"]),
    ("rules_of_for_a_dot.yaml", 1, [
        "rules_of_for_a_dot.yaml:7:51: error[P002]: syntax error: unexpected name 'of'; expected end of text "
        "(in the 'when' trigger)",
        "    hint: what belongs to a player or a component is written with a dot: 'you.NAME', 'c.NAME'"]),
    ("rules_unclosed_paren.yaml", 1, [
        "rules_unclosed_paren.yaml:9:63: error[P002]: syntax error: unexpected end of text; expected ')' or ',' "
        "(the '(' at column 22 is still open)"]),
    ("rules_bad_indentation.yaml", 1, [
        "rules_bad_indentation.yaml:10:11: error[P001]: syntax error: this line is indented less than its block but "
        "more than the enclosing one"]),
    ("rules_unexpected_indent.yaml", 1, [
        "rules_unexpected_indent.yaml:10:13: error[P001]: syntax error: unexpected indentation; expected a statement "
        "or the end of the block"]),
    ("rules_stray_character.yaml", 1, [
        "rules_stray_character.yaml:9:19: error[P002]: syntax error: unexpected character '$' (in the 'score' statement)"]),
    ("rules_single_quoted_string.yaml", 1, [
        "rules_single_quoted_string.yaml:9:15: error[P002]: syntax error: unexpected character \"'\" "
        "(in the 'log' statement)",
        "    hint: strings are written between double quotes"]),
    ("rules_assign_in_condition.yaml", 1, [
        "rules_assign_in_condition.yaml:9:27: error[P002]: syntax error: unexpected '='; expected ':' "
        "(in the 'if' statement)",
        "    hint: compare with '==', assign with 'set' or 'let'"]),
    ("rules_empty_block.yaml", 1, [
        "rules_empty_block.yaml:8:22: error[P001]: syntax error: unexpected end of text; expected an indented block "
        "(in the 'when' trigger)"]),
    ("rules_inline_syntax_error.yaml", 1, [
        "rules_inline_syntax_error.yaml:7:35: error[P002]: syntax error: unexpected end of line; expected a name "
        "(in the 'gain' statement)"]),
    ("rules_tab_in_quoted_text.yaml", 1, [
        "rules_tab_in_quoted_text.yaml:7:9: error[Y002]: syntax error: tab character used for indentation"]),
    # -- names -----------------------------------------------------------------------------------
    ("names_unknown_zone.yaml", 1, [
        "names_unknown_zone.yaml:9:28: error[N003]: unknown attribute 'hnad'",
        "    hint: did you mean 'hand'?"]),
    ("names_unknown_start_zone.yaml", 1, [
        "names_unknown_start_zone.yaml:3:8: error[N001]: unknown zone 'dek'",
        "    hint: did you mean 'deck'?"]),
    ("names_unknown_global_name.yaml", 1, [
        "names_unknown_global_name.yaml:9:24: error[N010]: unknown name 'dicsard'",
        "    hint: did you mean 'discard'?"]),
    ("names_unknown_counter.yaml", 1, [
        "names_unknown_counter.yaml:9:18: error[N002]: unknown counter 'resources'",
        "    hint: did you mean 'resource'?"]),
    ("names_unknown_cost_counter.yaml", 1, [
        "names_unknown_cost_counter.yaml:8:27: error[N002]: unknown counter 'ressource'"]),
    ("names_unknown_class.yaml", 1, [
        "names_unknown_class.yaml:7:23: error[N004]: unknown class 'Modle' for Y of keyword 'Affinité X - Y'; "
        "did you mean 'Module'?",
        "    hint: 'Affinité X - Y' takes X (number), Y (class)"]),
    ("names_unknown_class_in_is.yaml", 1, [
        "names_unknown_class_in_is.yaml:9:57: error[N004]: unknown class 'Equipagee'",
        "    hint: did you mean 'Équipage'?"]),
    ("names_unknown_tag_class.yaml", 1, [
        "names_unknown_tag_class.yaml:6:5: error[N004]: unknown class 'Mutnt' in tags"]),
    ("names_unknown_attribute.yaml", 1, [
        "names_unknown_attribute.yaml:9:22: error[N003]: unknown attribute 'prestij'",
        "    hint: did you mean 'prestige'?"]),
    ("names_unknown_attribute_value.yaml", 1, [
        "names_unknown_attribute_value.yaml:7:11: error[N019]: 'Modul' is not a value of 'type'",
        "    hint: did you mean 'Module'?"]),
    ("names_unknown_function.yaml", 1, [
        "names_unknown_function.yaml:9:17: error[N008]: unknown function 'cout'",
        "    hint: did you mean 'count'?"]),
    ("names_unknown_event.yaml", 1, [
        "names_unknown_event.yaml:8:14: error[N005]: unknown event 'integrate'",
        "    hint: did you mean 'integrated'?"]),
    ("names_unknown_signal.yaml", 1, [
        "names_unknown_signal.yaml:9:18: error[N005]: unknown event 'round_begin'"]),
    ("names_unknown_window.yaml", 1, [
        "names_unknown_window.yaml:8:23: error[N006]: unknown window 'integraton'",
        "    hint: did you mean 'integration'?"]),
    ("names_unknown_procedure.yaml", 1, [
        "names_unknown_procedure.yaml:9:16: error[N007]: unknown procedure 'fondation'",
        "    hint: did you mean 'foundation'?"]),
    ("names_unknown_keyword.yaml", 1, [
        "names_unknown_keyword.yaml:7:10: error[N009]: unknown keyword 'Coffer'",
        "    hint: did you mean 'Coffre'?"]),
    ("names_unknown_keyword_none_close.yaml", 1, [
        "names_unknown_keyword_none_close.yaml:7:10: error[N009]: unknown keyword 'Téléportation 3'"]),
    # -- arity and types -------------------------------------------------------------------------
    ("arity_builtin_function.yaml", 1, [
        "arity_builtin_function.yaml:9:17: error[T001]: count() takes 1 argument, got 2"]),
    ("arity_procedure_call.yaml", 1, [
        "arity_procedure_call.yaml:9:11: error[T001]: procedure 'setup' takes 0 arguments, got 1"]),
    ("arity_signal_args.yaml", 1, [
        "arity_signal_args.yaml:9:11: error[T001]: event 'scoring' takes 1 argument, got 0"]),
    ("arity_keyword_missing_param.yaml", 1, [
        "arity_keyword_missing_param.yaml:7:19: error[T001]: keyword 'Affinité X - Y' is missing '-'",
        "    hint: 'Affinité X - Y' takes X (number), Y (class)"]),
    ("arity_keyword_extra_param.yaml", 1, [
        "arity_keyword_extra_param.yaml:7:17: error[T001]: too many values for keyword 'Coffre': unexpected '3'",
        "    hint: 'Coffre' takes no value"]),
    ("arity_keyword_wrong_type.yaml", 1, [
        "arity_keyword_wrong_type.yaml:7:19: error[T003]: X of keyword 'Affinité X - Y' must be a number, found 'deux'"]),
    ("arity_keyword_missing_effect.yaml", 1, [
        "arity_keyword_missing_effect.yaml:7:10: error[T001]: keyword 'Intégration' needs an effect after ':'",
        "    hint: write it as 'Intégration: EFFECT'"]),
    ("type_move_to_card.yaml", 1, [
        "type_move_to_card.yaml:9:24: error[T003]: the destination of 'move' must be a zone, not a component"]),
    ("numbers_too_large.yaml", 1, [  # the last one has 5,000 digits: once an internal error
        "numbers_too_large.yaml:7:19: error[T007]: number too large: more than 9,007,199,254,740,991, the largest a game keeps",
        "numbers_too_large.yaml:11:16: error[T007]: number too large: more than 9,007,199,254,740,991, the largest a game keeps",
        "numbers_too_large.yaml:12:19: error[T007]: number too large: more than 9,007,199,254,740,991, the largest a game keeps",
        "numbers_too_large.yaml:16:17: error[T007]: number too large: more than 9,007,199,254,740,991, the largest a game keeps",
        "    hint: write a smaller number"]),
    ("flow_names_without_value.yaml", 1, [  # once a KeyError while playing, or in 'regles play' only
        "flow_names_without_value.yaml:11:16: error[T004]: 'n' may have no value here: it is given one only in some "
        "branches or loops before",
        "    hint: give it a value on every way here, e.g. 'let n = none' before the branch or loop",
        "flow_names_without_value.yaml:12:11: error[T004]: in text \"Discard, {c}\": 'c' is read before it is given a value",
        "    hint: a choice's prompt is shown before the pick is made",
        "flow_names_without_value.yaml:14:16: error[T004]: 'k' is read before it is given a value"]),
    ("break_outside_loop.yaml", 1, [
        "break_outside_loop.yaml:10:11: error[T005]: 'break' outside a loop"]),
    # -- keywords defined in terms of themselves -------------------------------------------------
    ("keyword_as_another_keyword.yaml", 1, [
        "keyword_as_another_keyword.yaml:5:15: error[T008]: keyword 'Double Geôlier' is written as another keyword; it would do nothing"]),
    ("keyword_self_reference_plain.yaml", 1, [
        "keyword_self_reference_plain.yaml:4:14: error[T006]: keyword 'Écho' is defined in terms of itself"]),
    ("keyword_self_reference.yaml", 1, [
        "keyword_self_reference.yaml:4:14: error[T006]: keyword 'Écho X' is defined in terms of itself"]),
    ("keyword_cycle.yaml", 1, [
        "keyword_cycle.yaml:4:14: error[T006]: keyword 'Ping' is defined in terms of itself (Ping -> Pong -> Ping)"]),
    # -- boards, scenarios, rules tests ----------------------------------------------------------
    ("board_errors.yaml", 1, [
        "board_errors.yaml:6:10: error[N013]: duplicate node id 'north'",
        "board_errors.yaml:9:13: error[N014]: edge names unknown node 'sud'"]),
    ("scenario_errors.yaml", 1, [
        "scenario_errors.yaml:5:11: error[N011]: unknown option 'expret'",
        "    hint: did you mean 'expert'?",
        "scenario_errors.yaml:9:26: error[N010]: unknown name 'discrad'",
        "    hint: did you mean 'discard'?",
        "scenario_errors.yaml:10:3: error[N017]: no extension point 'round_begin' to hook on",
        "    hint: did you mean 'round_begins'?",
        "scenario_errors.yaml:13:3: error[N007]: 'replace:' names no procedure or function 'integraton'",
        "    hint: did you mean 'integration'?"]),
    ("scenario_requires_and_options.yaml", 1, [  # each checked clean, then stopped '--scenario'
        "scenario_requires_and_options.yaml:5:12: error[N021]: unknown expansion 'hank'",
        "    hint: did you mean 'hanks'?",
        "scenario_requires_and_options.yaml:5:18: error[N021]: unknown expansion 'nowhere'",
        "    hint: the expansions of seeders-exodus: cinq, etho, hanks, personnages, solo, tais",
        "scenario_requires_and_options.yaml:6:19: error[D003]: option 'expert' is true or false, not 17"]),
    ("rules_test_errors.yaml", 1, [
        "rules_test_errors.yaml:8:7: error[T001]: procedure 'foundation' takes 0 arguments, got 1",
        "rules_test_errors.yaml:10:12: error[P002]: syntax error: unexpected '='; expected end of line or end of text",
        "    hint: compare with '==', assign with 'set' or 'let'",
        "rules_test_errors.yaml:11:26: error[P002]: syntax error: unexpected end of line; expected an expression"]),
    ("rules_test_then_types.yaml", 1, [  # once passed, or failed, by the truth of a number or a text
        "rules_test_then_types.yaml:8:10: error[T002]: a 'then' must be a condition, true or false, not a number",
        "    hint: compare it, e.g. 'count(you.hand) == 3'",
        "rules_test_then_types.yaml:10:10: error[T002]: a 'then' must be a condition, true or false, not a counter",
        "rules_test_then_types.yaml:12:10: error[T002]: a 'then' must be a condition, true or false, not a string"]),
    # -- game folders ----------------------------------------------------------------------------
    ("type_owners", 1, [  # each checked clean, then stopped the game in Python's words, or a rules test
        "type_owners/game.yaml:19:19: error[T003]: zone 'hand' is kept per player, not by a list",
        "    hint: e.g. 'you.hand'",
        "type_owners/game.yaml:20:13: error[T003]: zone 'hand' is kept per player, not by a list",
        "type_owners/game.yaml:21:13: error[T003]: counter 'points' is kept per player, not by a number",
        "    hint: e.g. 'you.points'",
        "type_owners/game.yaml:22:13: error[T003]: zone 'hand' is kept per player, not by a component",
        "type_owners/game.yaml:23:13: error[T003]: zone 'under' is kept per card, not by a player",
        "    hint: e.g. 'self.under'",
        "type_owners/game.yaml:24:13: error[T003]: attribute 'value' is of a component or a node, not of none",
        "type_owners/game.yaml:25:18: error[T003]: what 'in' looks in must be a set, zone or list, not a number",
        "type_owners/game.yaml:26:13: error[T003]: cannot index a string",
        "    hint: brackets read a list, from 1, or a data table",
        "type_owners/game.yaml:27:13: error[T003]: property 'seat' is of a player, not of a list",
        "type_owners/game.yaml:28:13: error[T003]: property 'zone' is of a component, not of a player",
        "type_owners/tests/rulings.yaml:6:16: error[T003]: zone 'hand' is kept per player, not by a list"]),
    ("game_errors", 1, [
        "game_errors/game.yaml:10:3: error[N002]: counter 'gold' shares the supply of unknown counter 'silver'",
        "game_errors/game.yaml:14:8: error[N002]: unknown counter 'points' for the score",
        "game_errors/game.yaml:18:30: error[N003]: unknown attribute 'hnd'",
        "game_errors/game.yaml:19:10: error[N007]: unknown procedure 'cleanup'",
        "game_errors/game.yaml:20:5: error[T001]: event 'drawn' takes 1 argument, got 0",
        "game_errors/game.yaml:22:24: error[P002]: syntax error: unexpected end of line; expected ':' "
        "(in the 'if' statement)"]),
    ("names_separators", 1, [  # names that would share the state's storage with others
        "names_separators/game.yaml:10:3: error[N015]: zone name 'hand#0' holds '#'",
        "    hint: a name is one word of letters, digits, '_' and \"'\", not starting with a digit, "
        "as the rules write it: e.g. 'hand_0'",
        "names_separators/game.yaml:14:3: error[N015]: counter name 'gems#spent' holds '#'",
        "names_separators/game.yaml:15:3: error[N015]: counter name '$coins' holds '$'",
        "names_separators/game.yaml:18:3: error[N015]: event name 'end|1' holds '|'",
        "    hint: a name is one word of letters, digits, '_' and \"'\", not starting with a digit, "
        "as the rules write it: e.g. 'end_1'"]),
    ("names_control_characters", 1, [  # shown escaped; the title keeps its unicode
        "names_control_characters/game.yaml:7:32: error[N015]: value 'Pique\\x00' of attribute 'suit' holds a control "
        "character (U+0000)",
        "    hint: a name as printed is text of one line, without control characters",
        "names_control_characters/game.yaml:8:11: error[N015]: class 'Tour\\u202eruoT' holds a control character (U+202E)",
        "names_control_characters/game.yaml:10:3: error[N015]: zone name 'deck\\x00' holds a control character (U+0000)",
        "names_control_characters/game.yaml:11:11: error[N015]: window name 'main\\x0a' holds a control character (U+000A)"]),
    ("names_card_id_two_kinds", 1, [
        "names_card_id_two_kinds/tokens.yaml:5:5: error[N013]: duplicate card id 'same' "
        "(first at names_card_id_two_kinds/cards.yaml:4, a card)",
        "    hint: give each card its own id; use 'copies' for several identical cards"]),
    ("game_missing_game_procedure", 1, [
        "game_missing_game_procedure/game.yaml:4:10: error[D001]: players.min (4) is more than players.max (2)",
        "game_missing_game_procedure/game.yaml:1:1: error[N007]: the game has no procedure 'game'",
        "    hint: procedures.game is run to play a game: rename 'setup' to 'game', or call it from a procedure "
        "'game'"]),
    # once a ValueError as a game started (an internal error of `regles play`), or a counter out of its bounds
    ("game_start_errors", 1, [
        "game_start_errors/game.yaml:6:35: error[D003]: option 'rounds' is a whole number, not 'three'",
        "game_start_errors/game.yaml:7:57: error[D003]: option 'fast' is true or false, not 'no'",
        "game_start_errors/game.yaml:11:3: error[D002]: counter 'coins' starts with more than its supply holds at 4 players",
        "    hint: the supply of 'coins' holds 10: give it more, or the counters drawing on it less to start with",
        "game_start_errors/game.yaml:12:3: error[D002]: counter 'ticks' has a min (5) above its max (1)",
        "game_start_errors/game.yaml:13:3: error[D002]: counter 'marks' starts at 10, outside its bounds (min 0, max 3)",
        "game_start_errors/tests.yaml:5:14: error[D001]: Corpus start is for 2 to 4 players, not 5",
        "game_start_errors/tests.yaml:6:21: error[D003]: option 'fast' is true or false, not 'maybe'"]),
    ("game_component_unknown_attribute", 1, [  # once a KeyError in the checker (found by test_property)
        "game_component_unknown_attribute/game.yaml:8:29: error[N003]: component 'card' names unknown attribute 'type'"]),
    ("game_table_hints", 1, [  # layout hints for the table in the browser name what the game has
        "game_table_hints/game.yaml:17:5: error[N001]: table hints name unknown zone 'hnad'",
        "    hint: did you mean 'hand'?",
        "game_table_hints/game.yaml:19:5: error[D004]: table hints: board 'ring' drawn as 'rows' needs 'row', the node "
        "attribute giving each node's row",
        "    hint: attributes of its nodes: id, kind",
        "game_table_hints/game.yaml:20:36: error[N003]: table hints: board 'square' names unknown attribute 'line' of its "
        "nodes",
        "game_table_hints/game.yaml:21:5: error[N020]: table hints name unknown board 'moon'",
        "    hint: boards: ring, square"]),
    ("game_bad_types", 1, [
        "game_bad_types/game.yaml:4:10: error[S003]: players: expected a mapping, found a text",
        "game_bad_types/game.yaml:5:8: error[S003]: zones: expected a mapping, found a list",
        "game_bad_types/game.yaml:7:15: error[S003]: counters.pp.scope: expected a text, found a whole number",
        "game_bad_types/game.yaml:8:10: error[S003]: classes: expected a list, found a whole number",
        "game_bad_types/game.yaml:9:10: error[S003]: windows: expected a list, found a text",
        "game_bad_types/game.yaml:10:9: error[S001]: teams: unknown key 'two'",
        "game_bad_types/game.yaml:12:33: error[S003]: options.fast.values: expected a list, found a whole number",
        "game_bad_types/game.yaml:14:9: error[S003]: procedures.game: expected a text, found a whole number"]),
]


@pytest.fixture(scope="module", autouse=True)
def _shipped_files_loaded_once():
    """Speed: the shipped game's files are loaded and validated once for all the in-process cases.

    Every corpus file still goes through the whole pipeline on each run; only the unchanged
    files of content/ (the same for every case) are read from this cache. The subprocess
    cases below run the real command with no cache at all."""
    import interpreter.rulings.check
    import interpreter.content.pack

    shipped = content_dir().resolve()
    loads, validations = {}, {}
    real_load, real_validate = interpreter.content.pack.load_file, interpreter.content.pack.validate

    def load_file(path, raw=None):
        p = Path(path).resolve()
        if raw is not None or shipped not in p.parents:
            return real_load(path, raw)
        st = p.stat()
        key = (path, st.st_mtime_ns, st.st_size)
        if key not in loads:
            loads[key] = real_load(path)
        src, errors = loads[key]
        return src, list(errors)

    def validate(src):
        if any(src is cached for cached, _ in loads.values()):
            if id(src) not in validations:
                validations[id(src)] = real_validate(src)
            return list(validations[id(src)])
        return real_validate(src)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(interpreter.content.pack, "load_file", load_file)
        mp.setattr(interpreter.rulings.check, "load_file", load_file)
        mp.setattr(interpreter.content.pack, "validate", validate)
        yield


def _case_id(case) -> str:
    values = case.values if hasattr(case, "values") else case
    return values[0]


def _check_output(out: str, err: str, status: int, want_status: int, expected: list[str]) -> None:
    assert "Traceback" not in out and "Traceback" not in err, out + err
    assert "internal error" not in out and "internal error" not in err, err
    lines = out.splitlines()
    missing = [e for e in expected if e not in lines]
    assert not missing, f"missing lines {missing!r} in output:\n{out}"
    assert status == want_status, out + err
    reported = [line for line in lines if DIAGNOSTIC.match(line)]
    listed = [e for e in expected if DIAGNOSTIC.match(e)]
    assert len(reported) == len(listed), f"unexpected diagnostics:\n{out}"
    summary = lines[-1] if lines else ""
    n = len(listed)
    assert re.fullmatch(rf"\d+ files? checked: {n} errors?(, \d+ warnings?)?", summary), summary


@pytest.mark.parametrize("name, status, expected", CASES, ids=[_case_id(c) for c in CASES])
def test_corpus_case(name, status, expected, capsys, monkeypatch):
    monkeypatch.chdir(CORPUS)
    code = cli.main(["check", name])
    captured = capsys.readouterr()
    _check_output(captured.out, captured.err, code, status, expected)


def test_five_megabyte_file(tmp_path, capsys, monkeypatch):
    line = "  - id: card-{0}\n    title: Card number {0}\n"
    parts, size, i = ["kind: cards\ngame: seeders-exodus\ncards:\n"], 0, 0
    while size < 5 * 1024 * 1024:
        chunk = line.format(i)
        parts.append(chunk)
        size += len(chunk)
        i += 1
    (tmp_path / "big.yaml").write_text("".join(parts), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "big.yaml"])
    captured = capsys.readouterr()
    _check_output(captured.out, captured.err, code, 1, [
        "big.yaml:1:1: error[Y009]: file is too large (5.0 MB; the limit is 4 MB)",
        "    hint: split the content into several files"])


def test_non_utf8_generated(tmp_path, capsys, monkeypatch):
    (tmp_path / "latin1.yaml").write_bytes("kind: cards\ngame: seeders-exodus\n# Génial\n".encode("latin-1"))
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "latin1.yaml"])
    captured = capsys.readouterr()
    _check_output(captured.out, captured.err, code, 1, [
        "latin1.yaml:3:4: error[Y005]: file is not valid UTF-8 (byte 0xe9)"])


@pytest.mark.parametrize("by", ["names", "folder"])
def test_whole_corpus_at_once(by, capsys, monkeypatch):
    """All the broken files of tests/corpus/ in one run, named one by one or as their folder
    (which holds game folders too): every file there is reported, in one report."""
    monkeypatch.chdir(CORPUS)
    names = sorted(p.name for p in CORPUS.iterdir() if p.name != ".gitattributes")
    assert names
    code = cli.main(["check", *(names if by == "names" else ["."])])
    captured = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in captured.out + captured.err
    assert "internal error" not in captured.err
    for name in names:
        # 'file:line:col: error' for a file, 'folder/file:line:col: error' for a game folder
        assert any(line.startswith((name + ":", name + "/")) for line in captured.out.splitlines()), name


def test_internal_error_is_one_line_without_traceback(capsys, monkeypatch):
    import interpreter.rulings.check

    def boom(paths):
        raise RuntimeError("boom")

    monkeypatch.setattr(interpreter.rulings.check, "check_paths", boom)
    monkeypatch.delenv("REGLES_TRACEBACK", raising=False)
    code = cli.main(["check", str(CORPUS / "empty.yaml")])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.strip() == "regles: internal error: RuntimeError: boom"
    assert "Traceback" not in captured.out + captured.err


@pytest.mark.parametrize("option, env", [(["--traceback"], None), ([], "1"), ([], "0")])
def test_internal_error_shows_its_traceback_when_asked_for(option, env, capsys, monkeypatch):
    """`--traceback` or REGLES_TRACEBACK=1 prints where an internal error was raised, then the
    same one line; REGLES_TRACEBACK=0 is as if it were not set."""
    import interpreter.rulings.check

    def boom(paths):
        raise RuntimeError("boom")

    monkeypatch.setattr(interpreter.rulings.check, "check_paths", boom)
    if env is None:
        monkeypatch.delenv("REGLES_TRACEBACK", raising=False)
    else:
        monkeypatch.setenv("REGLES_TRACEBACK", env)
    code = cli.main([*option, "check", str(CORPUS / "empty.yaml")])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert lines[-1] == "regles: internal error: RuntimeError: boom"
    if env == "0":
        assert lines == ["regles: internal error: RuntimeError: boom"]
    else:
        assert lines[0] == "Traceback (most recent call last):"
        assert any("in boom" in line for line in lines), captured.err
        assert "RuntimeError: boom" in lines[-2]


# -- the real command, in a subprocess ---------------------------------------------------------

def run(args, cwd=CORPUS):
    proc = subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    return proc.returncode, proc.stdout, proc.stderr


SUBPROCESS_CASES = ["yaml_alias_bomb.yaml", "names_unknown_class.yaml", "game_errors"]


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_corpus_case_in_a_subprocess(name):
    case = next(c for c in CASES if _case_id(c) == name)
    _, status, expected = case
    code, out, err = run(["check", name])
    _check_output(out, err, code, status, expected)


@pytest.mark.parametrize("args, message", [
    (["chek"], "regles: error: argument COMMAND: invalid choice: 'chek'"),
    (["check", "--bogus"], "regles: error: unrecognized arguments: --bogus"),
    (["check", "--format", "xml"], "regles check: error: argument --format: invalid choice: 'xml'"),
    ([], "usage: regles"),
    (["check", "no-such-file.yaml"], "regles check: error: no such file or folder: no-such-file.yaml"),
])
def test_usage_errors_exit_2(args, message):
    code, out, err = run(args)
    assert code == 2, out + err
    assert message in err, err
    assert "Traceback" not in out + err
    assert "internal error" not in err


@pytest.mark.parametrize("args, message", [
    (["chek"], "invalid choice: 'chek'"),
    (["check", "--bogus"], "unrecognized arguments: --bogus"),
    ([], "usage: regles"),
    (["check", "empty.yaml", "no-such-file.yaml"], "regles check: error: no such file or folder: no-such-file.yaml"),
])
def test_usage_errors_in_process(args, message, capsys, monkeypatch):
    monkeypatch.chdir(CORPUS)
    code = cli.main(args)
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err
    assert captured.out == ""


@pytest.mark.parametrize("name", ["yaml_unclosed_quote.yaml", "schema_unknown_card_key.yaml",
                                  "rules_missing_colon.yaml", "game_errors", "empty.yaml"])
def test_json_report_holds_the_same_diagnostics(name, capsys, monkeypatch):
    import json

    _, status, expected = next(c for c in CASES if _case_id(c) == name)
    monkeypatch.chdir(CORPUS)
    code = cli.main(["check", "--format", "json", name])
    captured = capsys.readouterr()
    assert code == status
    report = json.loads(captured.out)
    shown = [f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}[{d['code']}]: {d['message']}" for d in report["diagnostics"]]
    assert shown == [e for e in expected if DIAGNOSTIC.match(e)]
    assert report["errors"] == len(shown)


def test_every_diagnostic_of_the_corpus_has_its_own_code_and_a_range(capsys, monkeypatch):
    """The JSON report gives each diagnostic a stable code (none left to the catch-all E000) and
    a range that ends after it starts, covering the word a caret shows."""
    import json
    from interpreter.codes import BY_ID

    monkeypatch.chdir(CORPUS)
    cli.main(["check", "--format", "json", "."])
    report = json.loads(capsys.readouterr().out)
    assert len(report["diagnostics"]) > 100
    unclassified = [d["message"] for d in report["diagnostics"] if d["code"] == "E000"]
    assert not unclassified
    assert {d["code"] for d in report["diagnostics"]} <= set(BY_ID)
    for d in report["diagnostics"]:
        assert (d["end_line"], d["end_column"]) > (d["line"], d["column"]), d
    [rond] = [d for d in report["diagnostics"] if d["path"].endswith("names_same_kind.yaml") and d["line"] == 9]
    assert (rond["code"], rond["column"], rond["end_column"]) == ("N010", 24, 28)  # the word, not the statement


def test_long_lines_are_shown_around_the_error(tmp_path, capsys, monkeypatch):
    """A 20,000-character line is cut around the column, and the caret still points at the mistake."""
    filler = ", ".join("Mutant" for _ in range(3000))
    (tmp_path / "long.yaml").write_text(
        "kind: cards\ngame: seeders-exodus\ncards:\n  - id: long-card\n    title: Long card\n"
        f"    tags: [{filler}, Mutnt, {filler}]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "long.yaml"])
    out = capsys.readouterr().out
    _check_output(out, "", code, 1, ["long.yaml:6:5: error[N004]: unknown class 'Mutnt' in tags"])
    assert max(len(line) for line in out.splitlines()) < 200, out


def test_too_many_values_without_aliases(tmp_path, capsys, monkeypatch):
    (tmp_path / "many.yaml").write_text("kind: cards\ngame: seeders-exodus\ncards: [" + ",".join(["1"] * 200_100)
                                        + "]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "many.yaml"])
    out = capsys.readouterr().out
    _check_output(out, "", code, 1, ["many.yaml:3:399995: error[Y009]: the document has more than 200000 values"])
    caret = next(line for line in out.splitlines() if line.strip().startswith("^"))
    shown = out.splitlines()[out.splitlines().index(caret) - 1]
    assert shown[caret.index("^")] == "1"
    assert max(len(line) for line in out.splitlines()) < 200


def test_parser_gives_event_and_window_names_their_positions():
    """What the checker needs to point at a misspelt event or window rather than at its statement."""
    from interpreter.language.parser import parse

    trigger = parse("when integrate:\n  pass\n", "ability")
    assert trigger.event == "integrate" and (trigger.event.pos.line, trigger.event.pos.column) == (1, 6)
    action = parse("action during negotiation, integraton cost tap:\n  pass\n", "ability")
    assert action.windows == ["negotiation", "integraton"]
    assert [(w.pos.line, w.pos.column) for w in action.windows] == [(1, 15), (1, 28)]


@pytest.mark.parametrize("breaks, line", [("\r\n", 4), ("\r", 4), ("\u2028", 4), ("\x85", 4)])
def test_lines_are_counted_as_yaml_counts_them(breaks, line, tmp_path, capsys, monkeypatch):
    """CR, NEL and U+2028 end lines for YAML: positions and the source line shown agree."""
    text = breaks.join(["kind: cards", "game: seeders-exodus", "cards:", "  - id: [a, b", ""])
    (tmp_path / "breaks.yaml").write_text(text, encoding="utf-8", newline="")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "breaks.yaml"])
    out = capsys.readouterr().out
    _check_output(out, "", code, 1, [f"breaks.yaml:{line}:9: error[Y003]: YAML syntax error: '[' never closed",
                                     "      - id: [a, b"])


@pytest.mark.parametrize("char", ["\x0c", "\u2028", "\x0b"])
def test_odd_characters_in_a_rules_text(char, tmp_path, capsys, monkeypatch):
    """A form feed or a line separator inside a rules text is an unexpected character (once an IndexError)."""
    ability = "when scoring:\\n  score 1" + char.encode("unicode_escape").decode() + " + 2"
    (tmp_path / "odd.yaml").write_text(
        "kind: cards\ngame: seeders-exodus\ncards:\n  - id: odd-card\n    title: Odd card\n"
        f'    abilities: ["{ability}"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "odd.yaml"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"syntax error: unexpected character U+{ord(char):04X} (in the 'score' statement)" in out, out
    assert "Traceback" not in out


@pytest.mark.parametrize("per_player", [False, True])
def test_a_pack_of_too_many_components_is_refused_at_the_copies_that_pass_the_limit(per_player, tmp_path, capsys,
                                                                                   monkeypatch):
    """250,000 components at most, copies (for each player, of a card set dealt to each) included."""
    from gamekit import GAME
    from interpreter.limits import MAX_COMPONENTS
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(procedures="  game: pass\n"), encoding="utf-8")
    each = 4 if per_player else 1  # the tiny game's 4 players at most
    full = MAX_COMPONENTS // (100 * each)
    lines = ["kind: cards", "game: tiny", "start: deck", f"per_player: {str(per_player).lower()}", "cards:"]
    lines += [f"  - {{id: c{i}, title: C{i}, copies: 100}}" for i in range(full)]
    lines += ["  - id: last", "    title: Last", "    copies: 2"]
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "tiny"])
    out = capsys.readouterr().out
    total = f"{MAX_COMPONENTS + 2 * each:,}"
    which = " for each player" if per_player else ""
    _check_output(out, "", code, 1, [
        f"tiny/cards.yaml:{len(lines)}:5: error[Y009]: too many components: with this card the pack has {total} "
        f"(copies{which} included), more than 250,000"])
    lines[-3:] = []  # exactly the limit: accepted
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["check", "tiny"]) == 0, capsys.readouterr().out
