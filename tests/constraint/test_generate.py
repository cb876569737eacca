"""The constraint inside ``engine.generate``: fail closed on the real default model."""

from __future__ import annotations

import re

import pytest
import torch

from engine import generate
from engine.constraint import KGConstraint, SpanAutomaton

PROMPT = "Q: What is the maximum daily dose of ibuprofen for adults? A:"
DISALLOWED = ("valsartan", "pravastatin", "aspirin", "3200", "hague", "lopez", "483")
ALLOWED_NUMBERS = {"1200", "800"}


class Recorder:
    """Wraps a KGConstraint and checks that every sampled token was allowed one step earlier."""

    def __init__(self, constraint: KGConstraint) -> None:
        self.c, self.allowed, self.calls = constraint, [], 0

    def __call__(self, new_ids, logits):
        if self.allowed:
            last = new_ids[:, -1]
            for b in range(new_ids.shape[0]):
                assert self.allowed[-1][b, last[b]], f"row {b} produced a masked token"
        out = self.c(new_ids, logits)
        self.allowed.append(torch.isfinite(out))
        self.calls += 1
        return out


def _answers(model, prompts: list[str], constraint=None, n: int = 40) -> list[str]:
    tok = model.tokenizer
    ids, mask = tok.batch(prompts)
    out = generate(model, ids, n, attention_mask=mask, tokenizer=tok, kg_constraint=constraint)
    return [tok.decode(row.tolist()) for row in out]


def test_unconstrained_model_names_a_disallowed_entity(model) -> None:
    """The premise of the next tests: without the constraint the model's answer leaves the
    allowed set (it names another drug, or a number that is not an allowed dose)."""
    text = _answers(model, [PROMPT])[0].lower()
    numbers = set(re.findall(r"\d+", text))
    assert any(d in text for d in DISALLOWED) or not numbers <= ALLOWED_NUMBERS, text


@pytest.mark.parametrize("intent", [0.5, None], ids=["span-intent", "plain-mask"])
def test_disallowed_entity_never_produced(model, lexicon, variants_fn, intent) -> None:
    allowed = ["ibuprofen", "warfarin", "1200 mg", "800 mg"]
    aut = SpanAutomaton(lexicon, variants_fn(allowed))
    rec = Recorder(KGConstraint([aut], intent_threshold=intent))
    text = _answers(model, [PROMPT], rec)[0].lower()
    assert rec.calls > 5
    assert not any(d in text for d in DISALLOWED), text
    assert set(re.findall(r"\d+", text)) <= ALLOWED_NUMBERS, text


def test_rows_have_their_own_allowed_sets(model, lexicon, variants_fn) -> None:
    auts = [
        SpanAutomaton(lexicon, variants_fn(["ibuprofen", "1200 mg"])),
        SpanAutomaton(lexicon, variants_fn(["warfarin", "800 mg"])),
    ]
    rec = Recorder(KGConstraint(auts))
    a, b = (t.lower() for t in _answers(model, [PROMPT, PROMPT], rec))
    assert "warfarin" not in a and "800" not in a.replace("1200", "")
    assert "ibuprofen" not in b and "1200" not in b


def test_open_span_is_reported_for_trimming(automaton, tok) -> None:
    c = KGConstraint([automaton])
    ids = tok.encode(" The dose is 12", add_bos=False)
    c.advance(torch.tensor([ids]))
    assert c.open_span_tokens(0) == 1
    c.advance(torch.tensor([ids + tok.encode("00 mg", add_bos=False)]))
    assert c.open_span_tokens(0) == 0


def test_logit_columns_past_the_vocabulary_are_masked(automaton) -> None:
    logits = torch.zeros(1, 2050)
    KGConstraint([automaton]).apply_(logits)
    assert torch.isinf(logits[0, 2048:]).all() and torch.isfinite(logits[0, :2048]).any()


@pytest.mark.parametrize(
    ("rows", "shape"), [(2, (1, 2048)), (1, (1, 1000))], ids=["rows", "narrow-logits"]
)
def test_shape_errors(automaton, rows: int, shape: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match=r"rows|columns"):
        KGConstraint(automaton, batch_size=rows).apply_(torch.zeros(shape))


def test_bitmask_matches_applied_mask(automaton, tok) -> None:
    from kernels import unpack_bitmask

    c = KGConstraint([automaton], intent_threshold=None)
    c.advance(torch.tensor([tok.encode(" The dose of", add_bos=False)]))
    logits = torch.zeros(1, 2048)
    c.apply_(logits)
    assert torch.equal(unpack_bitmask(c.bitmask(), 2048), torch.isfinite(logits))
