"""Other wordings of the training questions, so the model answers a question it has not seen
word for word with the answer frame of its relation and the subject the question names.

Each relation with a question-answer template gets a handful of question wordings; training
adds ``per_fact`` of them (drawn per fact with a fixed seed) in front of the fact's usual
answer. Placeholders: ``{s}`` subject, ``{o}`` object, ``{b}`` brand name, ``{pop}``
population, ``{per}`` period.

These wordings must never be the held-out questions of ``kgaudit eval generation``
(``measure/generation/questions.py``); ``tests/engine/test_corpus.py`` checks that none of
them is.
"""

from __future__ import annotations

import random

from knowledge_graphs.model import Fact
from knowledge_graphs.verbalise.templates import Names, cap

PARAPHRASES: dict[str, tuple[str, ...]] = {
    "maxDose": (
        "What is the maximum dose of {s}?",
        "What is the upper limit for {s} per {per}?",
        "How many milligrams of {s} are allowed per {per}?",
        "What dose of {s} should {pop} not exceed?",
        "Tell me the dose limit of {s}.",
        "What is the highest recommended dose of {s}?",
        "Max dose of {s} for {pop}?",
    ),
    "interactsWith": (
        "Can I take {s} with {o}?",
        "Is there an interaction between {s} and {o}?",
        "Are {s} and {o} safe together?",
        "What happens if {s} is taken together with {o}?",
        "Should {s} and {o} be used together?",
        "Is {s} compatible with {o}?",
    ),
    "indicatedFor": (
        "What is {s} used to treat?",
        "What is {s} for?",
        "Which condition does {s} treat?",
        "Why would someone take {s}?",
        "What is the indication of {s}?",
        "What disease is {s} given for?",
    ),
    "dosingFrequency": (
        "How often should {s} be taken?",
        "How many times is {s} taken?",
        "What is the dosing schedule of {s}?",
        "At what interval is {s} taken?",
    ),
    "memberOf": ("What kind of drug is {s}?", "To which class does {s} belong?"),
    "withdrawn": (
        "When was {s} withdrawn?",
        "When was {s} pulled from the market?",
        "On what date was {s} removed from sale?",
        "When did {s} leave the market?",
    ),
    "brandName": (
        "What is {b}?",
        "What drug is {b}?",
        "{b} is a brand of which drug?",
        "What is the active ingredient of {b}?",
        "Which generic drug does {b} contain?",
    ),
    "policyRate": (
        "What is the {s} today?",
        "How high is the {s}?",
        "What is the current level of the {s}?",
        "Where does the {s} stand?",
        "Tell me the {s}.",
    ),
    "reportingThreshold": (
        "What is the threshold of the {s}?",
        "From what amount does the {s} require a report?",
        "What amount triggers the {s}?",
        "When does the {s} kick in?",
    ),
    "minimumRatio": (
        "What is the minimum for the {s}?",
        "What level does the {s} require?",
        "What percentage is the {s}?",
        "Tell me the {s}.",
    ),
    "currency": (
        "What currency does {s} use?",
        "What is the money of {s}?",
        "Which money is legal tender in {s}?",
        "In what currency are prices in {s}?",
        "What is the currency in {s}?",
    ),
    "adopted": (
        "What is the adoption date of {s}?",
        "On which day was {s} enacted?",
        "When did lawmakers adopt {s}?",
        "What date was {s} passed?",
    ),
    "entryIntoForce": ("When did {s} take effect?", "What is the entry-into-force date of {s}?"),
    "applicationDate": (
        "When does {s} start to apply?",
        "Since what date has {s} applied?",
        "What is the application date of {s}?",
        "When did {s} become applicable?",
    ),
    "repealed": ("When did {s} stop being law?", "On what date was {s} repealed?"),
    "officialIdentifier": (
        "What is the official citation of {s}?",
        "How is {s} referred to officially?",
        "What is the official number of {s}?",
        "What is the identifier of {s}?",
    ),
    "legalBasis": ("Which law is the {s} based on?", "Where does the {s} come from?"),
    "citation": (
        "How is {s} cited?",
        "In which reporter is {s} published?",
        "Give the U.S. Reports citation of {s}.",
        "Where can I find {s}?",
        "What volume and page is {s}?",
    ),
    "decided": (
        "When did the Supreme Court decide {s}?",
        "What is the decision date of {s}?",
        "When was the ruling in {s}?",
        "Which year did {s} come down?",
    ),
    "overruledBy": (
        "What case reversed {s}?",
        "Which later decision overturned {s}?",
        "Is {s} still good law?",
        "Was {s} overruled?",
    ),
    "sectionHeading": ("What is the title of {s}?", "How is {s} headed?"),
    "statuteSubject": (
        "What does {s} cover?",
        "What is the subject of {s}?",
        "What does {s} deal with?",
    ),
}


def paraphrased_questions(fact: Fact, names: Names, rng: random.Random, per_fact: int) -> list[str]:
    """Up to ``per_fact`` other wordings of the question about ``fact`` (drawn with ``rng``)."""
    options = PARAPHRASES.get(fact.predicate, ())
    if not options or per_fact <= 0:
        return []
    q = fact.qualifiers
    pop = q.get("population") or "adult"
    slots = {
        "s": names(fact.subject),
        "o": names(fact.object) if fact.object else "",
        "b": cap(fact.literal or ""),
        "pop": "adults" if pop == "adult" else pop,
        "per": q.get("per") or "day",
    }
    picked = rng.sample(options, min(per_fact, len(options)))
    return [cap(p.format(**slots)) for p in picked]
