"""Answer grading, predicate cues and the answer slot of real questions (auditor side)."""

from __future__ import annotations

from datetime import date

import pytest

from auditor.decoding.predicates import PredicateCues, default_cues, stem
from measure.generation.grading import grade, rates


def c(subject, predicate, obj, verdict):
    return {"subject": subject, "predicate": predicate, "object": obj, "verdict": verdict}


GRADES = [
    ("supported answer", [c("drug:a", "maxDose", "1 mg", "supported")], "correct"),
    ("symmetric relation", [c("drug:b", "interactsWith", "drug:a", "supported")], "correct"),
    ("contradicted", [c("drug:a", "maxDose", "9 mg", "contradicted")], "wrong"),
    (
        "supported but also contradicted",
        [
            c("drug:a", "maxDose", "1 mg", "supported"),
            c("drug:a", "maxDose", "9 g", "contradicted"),
        ],
        "wrong",
    ),
    ("another subject", [c("drug:b", "maxDose", "1 mg", "unverifiable")], "wrong"),
    ("no claim", [], "non_answer"),
    ("unresolved subject only", [c(None, "maxDose", "1 mg", "unverifiable")], "non_answer"),
    (
        "unverifiable about the subject",
        [c("drug:a", "maxDose", "1 mg", "unverifiable")],
        "off_target",
    ),
    ("another predicate", [c("drug:a", "indicatedFor", "x", "supported")], "off_target"),
]


@pytest.mark.parametrize(("claims", "outcome"), [g[1:] for g in GRADES], ids=[g[0] for g in GRADES])
def test_grade(claims, outcome: str) -> None:
    assert (
        grade(claims, "drug:a", "maxDose" if "interact" not in str(claims) else "interactsWith")
        == outcome
    )


def test_rates_count_every_answer() -> None:
    r = rates(["correct", "non_answer", "non_answer", "wrong"])
    assert r == {"correct": 0.25, "wrong": 0.25, "non_answer": 0.5, "off_target": 0.0}
    assert rates([])["correct"] is None


@pytest.mark.parametrize(
    ("a", "b"), [("combining", "combine"), ("applies", "apply"), ("decided", "decide")]
)
def test_stem_joins_word_forms(a: str, b: str) -> None:
    assert stem(a) == stem(b)


def test_cues_rank_and_fall_back() -> None:
    cues = PredicateCues({"decided": "decided decision date", "citation": "citation reported"})
    assert cues.rank("In what year was Roe v. Wade decided?", ["citation", "decided"]) == [
        "decided"
    ]
    assert cues.rank("Tell me about Roe v. Wade.", ["citation", "decided"]) == [
        "citation",
        "decided",
    ]


@pytest.mark.parametrize(
    ("question", "candidates", "expected"),
    [
        ("What is the maximum daily dose of X for adults?", ["indicatedFor", "maxDose"], "maxDose"),
        ("Can X be taken together with Y?", ["interactsWith", "maxDose"], "interactsWith"),
        ("When was X decided?", ["citation", "decided", "overruledBy"], "decided"),
        ("Which case overruled X?", ["citation", "decided", "overruledBy"], "overruledBy"),
        ("When was X adopted?", ["adopted", "applicationDate", "officialIdentifier"], "adopted"),
        (
            "What is X prescribed for?",
            ["indicatedFor", "maxDose", "prescriptionStatus"],
            "indicatedFor",
        ),
        (
            "Can I buy X over the counter?",
            ["indicatedFor", "prescriptionStatus"],
            "prescriptionStatus",
        ),
    ],
)
def test_default_cues_come_from_the_ontology_and_training_wordings(question, candidates, expected):
    assert default_cues().rank(question, candidates) == [expected]


SLOTS = [
    (
        "Q: How much ibuprofen can adults take per day at most?",
        "medical",
        "drug:ibuprofen",
        "maxDose",
    ),
    ("Q: Does warfarin interact with aspirin?", "medical", "drug:warfarin", "interactsWith"),
    ("Q: Which currency is used in Croatia?", "finance", "country:HR", "currency"),
    ("Q: When was Miranda v. Arizona decided?", "legal", "case:384 U.S. 436", "decided"),
]


@pytest.fixture(scope="module")
def slot_builder(auditor_obj, model):
    from auditor.decoding.slot import SlotBuilder

    return SlotBuilder(auditor_obj, model.tokenizer, 2048, as_of=date(2025, 6, 30))


@pytest.mark.parametrize(("q", "domain", "subject", "predicate"), SLOTS, ids=[s[3] for s in SLOTS])
def test_slot_of_a_question(slot_builder, q, domain, subject, predicate) -> None:
    slot = slot_builder.slot(q, domain)
    assert slot.subjects == [subject] and slot.predicates == [predicate]
    assert slot.value_forms and not slot.empty and slot.preferred_forms


def test_interaction_named_in_the_question_is_the_only_value(slot_builder) -> None:
    slot = slot_builder.slot("Q: Does warfarin interact with aspirin? A:", "medical")
    assert slot.subjects == ["drug:warfarin"] and slot.objects == ["drug:aspirin"]
    assert "aspirin" in slot.value_forms and "warfarin" in slot.subject_forms


def test_brand_names_are_not_names_of_the_subject_outside_brand_questions(
    slot_builder, auditor_obj
) -> None:
    slot = slot_builder.slot("Q: What is the maximum daily dose of ibuprofen? A:", "medical")
    brands = {f.literal.lower() for f in auditor_obj.kb.facts_about("drug:ibuprofen", "brandName")}
    names = {n.lower() for n in slot.subject_forms}
    assert brands and "ibuprofen" in names and not brands & names


def test_brand_name_question_has_the_brand_as_value_not_subject(slot_builder) -> None:
    slot = slot_builder.slot("Q: Which drug is sold under the brand name Zantac? A:", "medical")
    assert slot.subjects == ["drug:ranitidine"] and slot.predicates == ["brandName"]
    assert "zantac" in {v.lower() for v in slot.value_forms}
    assert "zantac" not in {n.lower() for n in slot.subject_forms}


def test_dose_question_keeps_the_doses_it_asks_for(slot_builder) -> None:
    per_day = slot_builder.slot(
        "Q: What is the most lisinopril adults may take in one day?", "medical"
    )
    assert "40 mg" in per_day.value_forms and "20 to 40 mg" not in per_day.value_forms


def test_no_subject_means_only_i_dont_know(slot_builder, model, tok) -> None:
    built = slot_builder.build("Q: What is the weather like on Mars? A:", "medical")
    assert built.slot["subjects"] == [] and built.automaton.forced_idk
    ids = tok.encode(" I don't know.", add_bos=False)
    aut = built.automaton
    assert (
        aut.answered(aut.run(ids))
        and not aut.mask_bits(aut.start) >> tok.encode(" The", add_bos=False)[0] & 1
    )


@pytest.mark.parametrize(
    ("q", "domain", "frame"),
    [
        ("Q: Which currency is used in Croatia?", "finance", "The currency of Croatia is the"),
        ("Q: Does warfarin interact with aspirin?", "medical", "Taking warfarin together with"),
        (
            "Q: Is it safe to combine aspirin and warfarin?",
            "medical",
            "Taking aspirin together with",
        ),
        (  # two doses (OTC and Rx) share the words up to the drug's name only
            "Q: How much ibuprofen can adults take in one day at most?",
            "medical",
            "The maximum daily dose of ibuprofen",
        ),
        ("Q: When was Miranda v. Arizona decided?", "legal", "Miranda v. Arizona was decided on"),
        ("Q: Which drug is sold under the brand name Zantac? A:", "medical", ""),  # would answer
    ],
)
def test_answer_frame_opens_the_trained_answer_up_to_the_value(slot_builder, q, domain, frame):
    slot = slot_builder.slot(q, domain)
    assert slot.frame == frame
    low = frame.lower()
    assert not any(v.lower() in low for v in slot.value_forms if len(v) > 3)  # never the answer


def test_prefilled_frame_names_the_subject(slot_builder, tok) -> None:
    from engine.constraint import KGConstraint

    built = slot_builder.build("Q: Which currency is used in Croatia? A:", "finance")
    frame = built.slot["frame"]
    c = KGConstraint([built.automaton])
    c.prefill(0, tok.encode(" " + frame, add_bos=False))
    aut, sid = built.automaton, c.states[0]
    assert sid != aut.start and not aut.answered(sid)

    # the subject is said: naming Croatia again is masked, its currency is allowed
    def allowed(text: str) -> bool:
        s = sid
        for t in tok.encode(text, add_bos=False):
            if not aut.mask_bits(s) >> t & 1:
                return False
            s = aut.step(s, t)
        return True

    assert not allowed(" Croatia.") and allowed(" Euro.")
