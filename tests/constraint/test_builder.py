"""From a prompt to the allowed set on the real graphs, and end to end on the default model:
every entity the constrained model names is in the question's neighbourhood."""

from __future__ import annotations

import pytest

from engine import generate
from engine.constraint import KGConstraint

QUESTIONS = [
    ("Q: What is the maximum daily dose of ibuprofen for adults? A:", "medical", "drug:ibuprofen"),
    ("Q: Can warfarin be taken with aspirin? A:", "medical", "drug:warfarin"),
    ("Q: Which currency is used in Croatia? A:", "finance", "country:HR"),
    ("Q: Where is Miranda v. Arizona reported? A:", "legal", "case:384 U.S. 436"),
]


@pytest.mark.parametrize(
    ("prompt", "domain", "seed"), QUESTIONS, ids=[q[1] + "-" + q[2] for q in QUESTIONS]
)
def test_link_and_neighbourhood(builder, prompt: str, domain: str, seed: str) -> None:
    built = builder.build(prompt, domain)
    assert seed in built.seeds and built.domains == [domain]
    assert built.entities[seed] == 0 and all(d <= 1 for d in built.entities.values())
    assert len(built.automaton.allowed) > 1 and built.build_ms > 0


def test_auto_domain_and_variants(builder) -> None:
    built = builder.build("Q: Which currency is used in Croatia? A:")
    assert built.domains == ["finance"]
    assert {" Croatia", "Croatia", " croatia"} <= set(built.forms)


def test_radius_two_contains_radius_one(auditor_obj, model) -> None:
    from auditor.decoding import ConstraintBuilder

    one = ConstraintBuilder(auditor_obj, model.tokenizer, 2048, radius=1)
    two = ConstraintBuilder(auditor_obj, model.tokenizer, 2048, radius=2)
    prompt = "Q: Can warfarin be taken with aspirin? A:"
    e1, e2 = one.build(prompt, "medical").entities, two.build(prompt, "medical").entities
    assert set(e1) < set(e2) and max(e2.values()) == 2


def test_seed_values_only(auditor_obj, model) -> None:
    from auditor.decoding import ConstraintBuilder

    seeds = ConstraintBuilder(auditor_obj, model.tokenizer, 2048, values="seeds")
    built = seeds.build(QUESTIONS[0][0], "medical")
    assert "1200 mg" in built.values and "10 mg" not in built.values  # ketorolac's dose


def test_no_entity_in_prompt_masks_every_span(builder, model) -> None:
    built = builder.build("Q: What is the answer? A:", "medical")
    assert built.seeds == [] and built.entities == {}
    tok = model.tokenizer
    ids, mask = tok.batch(["Q: What is the maximum daily dose of ibuprofen for adults? A:"])
    out = generate(
        model,
        ids,
        30,
        attention_mask=mask,
        tokenizer=tok,
        kg_constraint=KGConstraint([built.automaton]),
    )
    text = tok.decode(out[0].tolist())
    assert not builder.auditor.linker().link(text, domains=["medical"]), text
    assert not any(ch.isdigit() for ch in text), text


@pytest.mark.parametrize(("prompt", "domain", "seed"), QUESTIONS, ids=[q[1] for q in QUESTIONS])
def test_constrained_answers_name_only_graph_valid_entities(builder, model, prompt, domain, seed):
    tok = model.tokenizer
    built = builder.build(prompt, domain)
    ids, mask = tok.batch([prompt])
    c = KGConstraint([built.automaton])
    out = generate(model, ids, 40, attention_mask=mask, tokenizer=tok, kg_constraint=c)
    c.advance(out)
    text = tok.decode(out[0, : out.shape[1] - c.open_span_tokens(0)].tolist())
    for m in builder.auditor.linker().link(text, domains=[domain]):
        assert set(m.candidates) & set(built.entities), (m.text, text)
