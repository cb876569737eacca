"""The verbaliser: facts -> statements and question-answer pairs, and the train/held-out split."""

from __future__ import annotations

from datetime import date

import pytest

from engine.train.corpus import build_corpus
from knowledge_graphs.model import Entity, Fact, Source
from knowledge_graphs.verbalise import num, verbalise

SRC = Source("test document")
ENTITIES = {
    e.id: e
    for e in [
        Entity("drug:ibuprofen", "medical", "Drug", "Ibuprofen"),
        Entity("drug:sildenafil", "medical", "Drug", "Sildenafil"),
        Entity("drug:nitroglycerin", "medical", "Drug", "Nitroglycerin"),
        Entity("country:HR", "finance", "Country", "Croatia"),
        Entity("country:IR", "finance", "Country", "Iran, Islamic Republic of", ("Iran", "IRN")),
        Entity("currency:EUR", "finance", "Currency", "Euro"),
        Entity("currency:HRK", "finance", "Currency", "Croatian Kuna"),
        Entity("currency:IRR", "finance", "Currency", "Iranian Rial"),
        Entity("rate:fed", "finance", "PolicyRate", "federal funds target range / target rate"),
        Entity("case:brown", "legal", "Case", "Brown v. Board of Education"),
        Entity("case:plessy", "legal", "Case", "Plessy v. Ferguson"),
        Entity("regulation:gdpr", "finance", "Regulation", "General Data Protection Regulation"),
    ]
}


def fact(fid: str, subject: str, predicate: str, **kw) -> Fact:
    return Fact(fid, "test", subject, predicate, SRC, **kw)


IBU_OTC = fact(
    "f-ibu",
    "drug:ibuprofen",
    "maxDose",
    value=1200.0,
    unit="mg",
    qualifiers={"per": "day", "status": "otc", "population": "adult"},
)

CASES = [
    (
        IBU_OTC,
        "Q: What is the maximum daily dose of ibuprofen for adults? A: The maximum daily dose of ibuprofen (OTC) is 1200 mg per day.",
        "1200 mg",
    ),
    (IBU_OTC, "The maximum daily dose of ibuprofen (OTC) is 1200 mg per day.", "1200 mg"),
    (
        fact(
            "f-sil",
            "drug:nitroglycerin",
            "interactsWith",
            object="drug:sildenafil",
            qualifiers={"severity": "contraindicated"},
        ),
        "Q: Can nitroglycerin be taken with sildenafil? A: No. Taking nitroglycerin together with sildenafil is contraindicated.",
        "contraindicated",
    ),
    (
        fact("f-hr", "country:HR", "currency", object="currency:EUR", valid_from=date(2023, 1, 1)),
        "Q: What is the currency of Croatia? A: The currency of Croatia is the Euro.",
        "Euro",
    ),
    (
        fact(
            "f-hrk",
            "country:HR",
            "currency",
            object="currency:HRK",
            valid_from=date(1994, 5, 30),
            valid_to=date(2023, 1, 1),
        ),
        "Until 1 January 2023, Croatia used the Croatian Kuna.",
        "Croatian Kuna",
    ),
    (
        fact("f-ir", "country:IR", "currency", object="currency:IRR"),
        "The currency of Iran is the Iranian Rial.",
        "Iranian Rial",
    ),
    (
        fact(
            "f-fed",
            "rate:fed",
            "policyRate",
            value=0.0,
            value_max=0.25,
            unit="percent",
            valid_from=date(2008, 12, 16),
            valid_to=date(2015, 12, 17),
        ),
        "Q: What was the federal funds target range on 16 December 2008? A: On 16 December 2008, the federal funds target range was 0.00 to 0.25 percent.",
        "0.00 to 0.25 percent",
    ),
    (
        fact("f-cite", "case:brown", "citation", literal="347 U.S. 483"),
        "Q: What is the citation of Brown v. Board of Education? A: Brown v. Board of Education is reported at 347 U.S. 483.",
        "347 U.S. 483",
    ),
    (
        fact(
            "f-dec",
            "case:brown",
            "decided",
            date=date(1954, 5, 17),
            qualifiers={"precision": "day"},
        ),
        "Brown v. Board of Education was decided on 17 May 1954.",
        "17 May 1954",
    ),
    (
        fact(
            "f-year",
            "case:plessy",
            "decided",
            date=date(1896, 1, 1),
            qualifiers={"precision": "year"},
        ),
        "Plessy v. Ferguson was decided in 1896.",
        "1896",
    ),
    (
        fact("f-over", "case:plessy", "overruledBy", object="case:brown"),
        "Plessy v. Ferguson was overruled by Brown v. Board of Education.",
        "Brown v. Board of Education",
    ),
    (
        fact("f-gdpr", "regulation:gdpr", "entryIntoForce", date=date(2016, 5, 24)),
        "Q: When did General Data Protection Regulation enter into force? A: General Data Protection Regulation entered into force on 24 May 2016.",
        "24 May 2016",
    ),
]


@pytest.mark.parametrize(
    ("f", "text", "key"), CASES, ids=[f"{c[0].predicate}-{i}" for i, c in enumerate(CASES)]
)
def test_facts_are_verbalised_with_the_value_after_the_prompt(f, text, key):
    items = {v.text: v for v in verbalise([f], ENTITIES)}
    assert text in items
    v = items[text]
    assert v.key == key and key in v.completion and key not in v.prompt.removeprefix("Q: ")


def test_facts_without_templates_or_numbers_are_skipped():
    skipped = [
        fact("x1", "drug:ibuprofen", "drugbankId", literal="DB01050"),
        fact("x2", "drug:ibuprofen", "maxDose", qualifiers={"kind": "individualized"}),
    ]
    assert verbalise(skipped, ENTITIES) == []


@pytest.mark.parametrize(
    ("x", "text"), [(1200.0, "1200"), (10000.0, "10,000"), (4.5, "4.5"), (0.25, "0.25")]
)
def test_numbers_read_naturally(x, text):
    assert num(x) == text


def test_the_split_holds_out_only_extra_statements_of_trained_facts():
    facts = [
        fact(f"c{i}", "country:HR", "currency", object=f"currency:X{i}") for i in range(60)
    ] + [IBU_OTC]
    corpus = build_corpus(facts, ENTITIES, held_out_share=0.5, seed=1)
    trained = {v.fact_id for v in corpus.train}
    assert corpus.held_out and all(
        v.kind == "statement" and v.fact_id in trained for v in corpus.held_out
    )
    assert {v.fact_id for v in corpus.train if v.kind == "qa"} == {f.id for f in facts}
    for held in corpus.held_out:
        assert not any(held.text in v.text for v in corpus.train if v.fact_id == held.fact_id)
    again = build_corpus(facts, ENTITIES, held_out_share=0.5, seed=1)
    assert again.held_out == corpus.held_out


def test_year_precision_decisions_without_a_day_are_verbalised():
    f = fact("f-y", "case:plessy", "decided", value=1896.0, qualifiers={"precision": "year"})
    texts = [v.text for v in verbalise([f], ENTITIES)]
    assert "Plessy v. Ferguson was decided in 1896." in texts


def test_paraphrased_questions_precede_the_same_answer_and_split_is_unchanged():
    facts = [fact(f"c{i}", "country:HR", "currency", object=f"currency:X{i}") for i in range(20)]
    plain = build_corpus(facts, ENTITIES, held_out_share=0.5, seed=1)
    para = build_corpus(facts, ENTITIES, held_out_share=0.5, seed=1, paraphrases_per_fact=3)
    assert para.held_out == plain.held_out
    extra = [v for v in para.train if v.kind == "paraphrase"]
    assert len(extra) == 3 * len(facts)
    answers = {
        v.fact_id: v.prompt.split(" A: ", 1)[1] + v.completion
        for v in plain.train
        if v.kind == "qa"
    }
    for v in extra:
        assert (
            v.prompt.startswith("Q: ")
            and v.prompt.split(" A: ", 1)[1] + v.completion == answers[v.fact_id]
        )


def test_no_training_question_is_a_held_out_evaluation_question(kb):
    from measure.generation.questions import held_out_questions

    corpus = build_corpus(kb.facts, kb.entities, paraphrases_per_fact=7)
    trained = {v.prompt.split(" A:")[0] for v in corpus.train if v.kind in ("qa", "paraphrase")}
    for seed in (0, 1):
        qs = held_out_questions(kb, per_domain=80, seed=seed, as_of=date(2025, 6, 30))
        assert not [q.prompt for q in qs if q.prompt.split(" A:")[0] in trained]
