"""The answer-slot automaton, table-driven on the toy lexicon of conftest.py: the subject is
ibuprofen, the graph's value 1200 mg, 800 mg a qualifier, "I don't know" the way out."""

from __future__ import annotations

from datetime import date

import pytest
import torch

from engine import generate
from engine.constraint import KGConstraint, SlotAutomaton


@pytest.fixture
def slot(lexicon, variants_fn):
    return SlotAutomaton(
        lexicon,
        variants_fn(["ibuprofen"]),
        variants_fn(["1200 mg"]),
        extra_forms=variants_fn(["800 mg"]),
        idk_forms=variants_fn(["I don't know"]),
    )


CASES = [
    ("subject then value", " The maximum daily dose of ibuprofen is 1200 mg per day.", None),
    ("value before the subject", " 1200 mg is the dose of ibuprofen.", " 12"),
    ("another entity", " The maximum daily dose of warfarin", " warfarin"),
    ("another value", " The dose of ibuprofen is 3200 mg.", " 3"),
    ("new line before a value", " The dose of ibuprofen\n", "\n"),
    ("qualifier anywhere", " The dose is 800 mg per day for ibuprofen.", None),
    ("I don't know", " I don't know.", None),
    ("no span after I don't know", " I don't know ibuprofen", " ibuprofen"),
]


@pytest.mark.parametrize(("text", "blocked"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_slot_semantics(slot, first_block, text: str, blocked: str | None) -> None:
    assert first_block(slot, text) == blocked


@pytest.mark.parametrize(
    ("text", "answered"),
    [
        (" The dose of", False),
        (" The dose of ibuprofen is", False),
        (" The dose is 800 mg per day.", False),
        (" The dose of ibuprofen is 1200 mg", True),
        (" ibuprofen: 1200 mg", True),
        (" I don't know", True),
    ],
    ids=["frame", "subject-only", "qualifier-only", "subject-value", "value-subject", "idk"],
)
def test_the_answer_may_end_only_once_complete(slot, tok, text: str, answered: bool) -> None:
    sid = slot.run(tok.encode(text, add_bos=False))
    assert slot.answered(sid) is answered
    assert bool(slot.mask_bits(sid) >> tok.eos_id & 1) is answered


def test_a_value_the_question_states_may_come_first(lexicon, tok, variants_fn) -> None:
    aut = SlotAutomaton(
        lexicon,
        variants_fn(["ibuprofen"]),
        variants_fn(["1200 mg", "warfarin"]),
        echo_forms=variants_fn(["warfarin"]),
    )
    sid = aut.run(tok.encode(" Warfarin is taken with ibuprofen", add_bos=False))
    assert aut.answered(sid) and aut.mask_bits(sid) >> tok.eos_id & 1


def test_fails_closed_without_a_value(lexicon, tok, variants_fn, first_block) -> None:
    forced = SlotAutomaton(
        lexicon, variants_fn(["ibuprofen"]), (), idk_forms=variants_fn(["I don't know"])
    )
    assert forced.forced_idk
    assert first_block(forced, " The dose") == " The"
    assert first_block(forced, " I don't know.") is None
    silent = SlotAutomaton(lexicon, variants_fn(["ibuprofen"]), ())
    assert silent.mask_bits(silent.start) == silent.vocab.special  # nothing to say: only end


def test_dead_state_allows_only_special_tokens(slot, tok) -> None:
    dead = slot.run(tok.encode(" The dose of warfarin", add_bos=False))
    assert not slot._sets[dead] and slot.mask_bits(dead) == slot.vocab.special


PROMPT = "Q: What is the maximum daily dose of ibuprofen for adults? A:"


def _slot_constraint(lexicon, variants_fn) -> KGConstraint:
    return KGConstraint(
        [
            SlotAutomaton(
                lexicon,
                variants_fn(["ibuprofen"]),
                variants_fn(["1200 mg", "3200 mg"]),
                idk_forms=variants_fn(["I don't know"]),
            )
        ]
    )


@pytest.mark.parametrize(
    ("question", "domain", "subject", "predicate"),
    [
        ("How much ibuprofen may adults take per day?", "medical", "drug:ibuprofen", "maxDose"),
        ("Which currency is used in Croatia?", "finance", "country:HR", "currency"),
        ("When was Miranda v. Arizona decided?", "legal", "case:384 U.S. 436", "decided"),
    ],
    ids=["dose", "currency", "decided"],
)
def test_generation_ends_only_with_the_subject_and_a_graph_value(
    auditor_obj, model, question: str, domain: str, subject: str, predicate: str
) -> None:
    from auditor.decoding.slot import SlotBuilder

    builder = SlotBuilder(auditor_obj, model.tokenizer, 2048, as_of=date(2025, 6, 30))
    built = builder.build(question, domain)
    assert built.slot["subjects"] == [subject] and built.slot["predicates"] == [predicate]
    tok = model.tokenizer
    ids, mask = tok.batch([f"Q: {question} A:"])
    con = KGConstraint([built.automaton])
    new, stats = generate(
        model, ids, 48, attention_mask=mask, tokenizer=tok, kg_constraint=con, return_stats=True
    )
    con.advance(new)
    text = tok.decode(new[0].tolist())
    if stats[0].stop_reason == "stop_token":
        assert con.rows[0].answered(con.states[0]), text
    allowed = set(built.entities)
    for m in auditor_obj.linker().link(text, domains=[domain]):
        assert set(m.candidates) & allowed, (m.text, text)


def test_hf_logits_processor_with_the_slot(model, lexicon, variants_fn) -> None:
    transformers = pytest.importorskip("transformers")
    from engine.constraint import KGLogitsProcessor
    from engine.loader import DEFAULT_MODEL_DIR

    hf = transformers.AutoModelForCausalLM.from_pretrained(
        DEFAULT_MODEL_DIR, torch_dtype=torch.float32, attn_implementation="eager"
    ).eval()
    tok = model.tokenizer
    ids, mask = tok.batch([PROMPT])
    proc = KGLogitsProcessor(_slot_constraint(lexicon, variants_fn))
    out = hf.generate(
        ids,
        attention_mask=mask,
        max_new_tokens=24,
        do_sample=False,
        logits_processor=transformers.LogitsProcessorList([proc]),
        eos_token_id=tok.eos_id,
        pad_token_id=tok.pad_id,
    )[0, ids.shape[1] :]
    ours = generate(
        model,
        ids,
        24,
        attention_mask=mask,
        tokenizer=tok,
        kg_constraint=_slot_constraint(lexicon, variants_fn),
    )[0]
    assert tok.decode(out.tolist()) == tok.decode(ours.tolist())


def test_a_finished_row_is_no_longer_advanced(lexicon, variants_fn, tok) -> None:
    con = _slot_constraint(lexicon, variants_fn)
    aut = con.rows[0]
    answer = tok.encode(" The maximum daily dose of ibuprofen is 1200 mg.", add_bos=False)
    eos = next(iter(aut.vocab.special_ids))
    con.advance(torch.tensor([[*answer, eos]]))
    assert con.done[0] and aut.answered(con.states[0])
    state = con.states[0]
    con.advance(torch.tensor([[*answer, eos, tok.pad_id, tok.pad_id]]))  # the generator pads
    assert con.states[0] == state
    logits = torch.zeros(1, aut.vocab.size)
    con(torch.tensor([answer + [eos] * 4]), logits)  # no intent, no commit for a done row
    assert con.forcing == [False]


def test_hf_logits_processor_with_a_prefilled_frame(model, lexicon, variants_fn) -> None:
    """The answer frame goes after the prompt and into the constraint by ``prefill``, for
    ``transformers`` as for the engine: the same constrained tokens, the answer complete."""
    transformers = pytest.importorskip("transformers")
    from engine.constraint import KGLogitsProcessor
    from engine.loader import DEFAULT_MODEL_DIR
    from engine.tokenizer import left_pad

    hf = transformers.AutoModelForCausalLM.from_pretrained(
        DEFAULT_MODEL_DIR, torch_dtype=torch.float32, attn_implementation="eager"
    ).eval()
    tok = model.tokenizer
    frame = tok.encode(" The maximum daily dose of ibuprofen", add_bos=False)
    ids, mask = left_pad([tok.encode(PROMPT) + frame], tok.pad_id)
    outs = []
    for engine in (False, True):
        con = _slot_constraint(lexicon, variants_fn)
        con.prefill(0, frame)
        if engine:
            new = generate(model, ids, 24, attention_mask=mask, tokenizer=tok, kg_constraint=con)
            new = new[0]
        else:
            new = hf.generate(
                ids,
                attention_mask=mask,
                max_new_tokens=24,
                do_sample=False,
                logits_processor=transformers.LogitsProcessorList([KGLogitsProcessor(con)]),
                eos_token_id=tok.eos_id,
                pad_token_id=tok.pad_id,
            )[0, ids.shape[1] :]
        con.advance(new[None])
        assert con.rows[0].answered(con.states[0]), tok.decode(new.tolist())
        outs.append(tok.decode(new.tolist()))
    assert outs[0] == outs[1]
