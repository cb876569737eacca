"""The Hugging Face LogitsProcessor on a ``transformers`` model of the default checkpoint, and
our masks against XGrammar's on the same allowed strings."""

from __future__ import annotations

import pytest
import torch

from engine import generate
from engine.constraint import KGConstraint, SpanAutomaton

PROMPT = "Q: What is the maximum daily dose of ibuprofen for adults? A:"
ALLOWED = ["ibuprofen", "warfarin", "1200 mg", "800 mg", "Croatia", "euro"]


@pytest.fixture(scope="module")
def hf_model():
    transformers = pytest.importorskip("transformers")
    from engine.loader import DEFAULT_MODEL_DIR

    m = transformers.AutoModelForCausalLM.from_pretrained(
        DEFAULT_MODEL_DIR, torch_dtype=torch.float32, attn_implementation="eager"
    )
    return m.eval()


@pytest.mark.parametrize("intent", [0.5, None], ids=["span-intent", "plain-mask"])
def test_hf_processor_constrains_transformers_like_the_engine(
    hf_model, model, lexicon, variants_fn, intent
) -> None:
    from transformers import LogitsProcessorList

    from engine.constraint import KGLogitsProcessor

    tok = model.tokenizer
    ids, mask = tok.batch([PROMPT])
    forms = variants_fn(ALLOWED)
    proc = KGLogitsProcessor(KGConstraint([SpanAutomaton(lexicon, forms)], intent_threshold=intent))
    hf = hf_model.generate(
        ids,
        attention_mask=mask,
        max_new_tokens=24,
        do_sample=False,
        logits_processor=LogitsProcessorList([proc]),
        eos_token_id=tok.eos_id,
        pad_token_id=tok.pad_id,
    )[0, ids.shape[1] :]
    ours = KGConstraint([SpanAutomaton(lexicon, forms)], intent_threshold=intent)
    eng = generate(model, ids, 24, attention_mask=mask, tokenizer=tok, kg_constraint=ours)[0]
    hf_text, eng_text = tok.decode(hf.tolist()), tok.decode(eng.tolist())
    assert hf_text == eng_text
    assert "valsartan" not in hf_text and proc.prompt_len == ids.shape[1]


@pytest.fixture(scope="module")
def xgr(tok):
    pytest.importorskip("xgrammar")
    from engine.constraint.xgrammar_baseline import tokenizer_info

    return tokenizer_info(tok, 2048, [tok.eos_id])


@pytest.mark.parametrize("form", [" ibuprofen", " Croatia", " 1200 mg", "euro", " Warfarin"])
def test_our_span_masks_are_xgrammars_restricted_to_canonical_tokens(
    xgr, tok, lexicon, variants_fn, form
) -> None:
    """Along the canonical tokenization of an allowed form, our mask ⊆ XGrammar's mask for the
    alternation of the same strings, and each token only XGrammar allows starts a
    non-canonical tokenization; at the end of the form both allow EOS."""
    from engine.constraint.xgrammar_baseline import XGrammarAlternation
    from kernels import unpack_bitmask

    forms = sorted(variants_fn(ALLOWED))
    aut, grammar = SpanAutomaton(lexicon, forms), XGrammarAlternation(xgr, forms)
    matcher, bitmask = grammar.matchers(1)[0], grammar.allocate(1)
    ids = tok.encode(form, add_bos=False)
    sid = aut.run(ids[:1])
    text = aut.vocab.texts[ids[0]]
    assert matcher.accept_token(ids[0])
    for k in range(1, len(ids) + 1):
        matcher.fill_next_token_bitmask(bitmask)
        theirs = set(unpack_bitmask(bitmask, 2048)[0].nonzero().flatten().tolist())
        ours = set(aut.allowed.children_ids(aut.allowed.walk(ids[:k])))
        assert ours <= theirs
        for t in theirs - ours - {tok.eos_id}:
            longer = [f for f in forms if f.startswith(text + aut.vocab.texts[t])]
            assert all(tok.encode(f, add_bos=False)[: k + 1] != [*ids[:k], t] for f in longer)
        if k == len(ids):
            assert tok.eos_id in theirs and aut.mask_bits(sid) >> tok.eos_id & 1
            break
        assert matcher.accept_token(ids[k])
        sid, text = aut.step(sid, ids[k]), text + aut.vocab.texts[ids[k]]


def test_first_tokens_of_allowed_forms_are_allowed_by_both(xgr, tok, lexicon, variants_fn) -> None:
    from engine.constraint.xgrammar_baseline import XGrammarAlternation
    from kernels import unpack_bitmask

    forms = sorted(variants_fn(ALLOWED))
    aut, grammar = SpanAutomaton(lexicon, forms), XGrammarAlternation(xgr, forms)
    bitmask = grammar.allocate(1)
    grammar.matchers(1)[0].fill_next_token_bitmask(bitmask)
    theirs = unpack_bitmask(bitmask, 2048)[0]
    ours_openers = set(aut.allowed.children_ids(0))
    assert ours_openers == {tok.encode(f, add_bos=False)[0] for f in forms}
    assert all(theirs[t] for t in ours_openers)
    assert all(aut.mask_bits(aut.start) >> t & 1 for t in ours_openers if aut.vocab.space_list[t])
