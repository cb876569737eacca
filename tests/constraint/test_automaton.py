"""Span semantics, table-driven: what the automaton lets through and where it masks.

Allowed: ibuprofen, warfarin, 1200 mg, Croatia, euro (toy lexicon in conftest.py)."""

from __future__ import annotations

import pytest

from engine.constraint import SpanAutomaton

CASES = [
    ("allowed entity and value", " The maximum daily dose of ibuprofen is 1200 mg per day.", None),
    ("case variant", " Ibuprofen is taken with warfarin.", None),
    ("free text only", " No. The dose is the dose.", None),
    ("disallowed entity", " The maximum daily dose of valsartan is 1200 mg.", " val"),
    ("disallowed value", " The maximum daily dose of ibuprofen is 3200 mg.", " 3"),
    ("unlisted number", " Taking 7 of them", " 7"),
    ("number glued to a word", " The dose is least20", "20"),
    ("allowed number glued to a word", " The dose is day1200 mg per day.", None),
    ("unknown continuation", " The currency of Croatiax is the euro.", "x"),
    ("value with a wrong unit", " The dose is 1200 g per day.", " g"),
    ("non-canonical opener", " The dose of ibupro", " ib"),
    ("form after free words", " The Hague is", " H"),
    ("first word not free", " United States v. Lopez", " United"),
    ("non-canonical spelling of an allowed form", " warfarins", " w"),
    ("partial UTF-8 after a form", " euroé", "\ufffd"),
    ("allowed form run on into a longer known name", " The currency is the euro area.", " are"),
    ("free word after a form that begins a longer name", " Ibuprofen and warfarin.", None),
]


@pytest.mark.parametrize(("text", "blocked"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_span_semantics(automaton, first_block, text: str, blocked: str | None) -> None:
    assert first_block(automaton, text) == blocked


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        (" The dose of", True),
        (" The dose of warfarin", True),
        (" The dose is 12", False),
        (" The dose is 1200", False),
        (" The dose is 1200 mg", True),
        (" Cro", False),
    ],
    ids=["free", "complete-entity", "number-prefix", "number-no-unit", "value", "entity-prefix"],
)
def test_open_span_detection(automaton, tok, text: str, safe: bool) -> None:
    assert automaton.safe[automaton.run(tok.encode(text, add_bos=False))] is safe


@pytest.mark.parametrize(
    ("text", "eos_ok"),
    [(" The dose", True), (" The dose of warfarin", True), (" Cro", False), (" 1200", False)],
    ids=["free", "after-form", "inside-entity", "inside-value"],
)
def test_eos_only_outside_spans(automaton, tok, text: str, eos_ok: bool) -> None:
    sid = automaton.run(tok.encode(text, add_bos=False))
    assert bool(automaton.mask_bits(sid) >> tok.eos_id & 1) is eos_ok


def test_transitions_are_memoised(automaton, tok) -> None:
    ids = tok.encode(" The dose of warfarin is 1200 mg per day.", add_bos=False)
    first = automaton.run(ids)
    states = automaton.n_states
    assert automaton.run(ids) == first and automaton.n_states == states


def test_special_tokens(automaton, tok) -> None:
    """EOS in free text resets to free text; a special token inside a span (only padding of a
    finished row can get there) leads to the dead state, which allows only special tokens."""
    sid = automaton.run(tok.encode(" Cro", add_bos=False))
    assert not automaton.safe[sid]
    dead = automaton.step(sid, tok.pad_id)
    assert automaton.mask_bits(dead) == automaton.vocab.special
    free = automaton.step(automaton.start, tok.eos_id)
    assert automaton.safe[free] and first_token_allowed(automaton, free, tok, " The")


def first_token_allowed(aut: SpanAutomaton, sid: int, tok, text: str) -> bool:
    return bool(aut.mask_bits(sid) >> tok.encode(text, add_bos=False)[0] & 1)


def test_start_inside_a_word(lexicon, tok) -> None:
    """After a prompt ending in a letter, a bare (no-space) token continues that word."""
    aut = SpanAutomaton(lexicon, [" warfarin", "warfarin"], start_ws=False)
    assert first_token_allowed(aut, aut.start, tok, "alsartan")
    ws = SpanAutomaton(lexicon, [" warfarin", "warfarin"], start_ws=True)
    assert not first_token_allowed(ws, ws.start, tok, "ib")
