"""Fixtures: the default model's tokenizer, a small hand-made lexicon, the default model."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

# Hand-made vocabularies: every form of the toy "graph", and the free words around them.
GLOBAL = [
    "ibuprofen",
    "warfarin",
    "valsartan",
    "pravastatin",
    "aspirin",
    "Croatia",
    "euro",
    "euro area",
    "ibuprofen and famotidine",
    "The Hague",
    "United States v. Lopez",
    "1200 mg",
    "3200 mg",
    "800 mg",
    "347 U.S. 483",
]
FREE = [
    "The",
    "maximum",
    "daily",
    "dose",
    "of",
    "is",
    "per",
    "day",
    "No",
    "Taking",
    "together",
    "with",
    "Can",
    "a",
    "currency",
    "the",
    "reported",
    "at",
    "and",
]
ALLOWED = ["ibuprofen", "warfarin", "1200 mg", "Croatia", "euro"]


def variants(words: list[str]) -> set[str]:
    out: set[str] = set()
    for w in words:
        for c in {w, w.lower(), w[:1].upper() + w[1:]}:
            out |= {c, " " + c}
    return out


@pytest.fixture(scope="session", autouse=True)
def _one_thread() -> None:
    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def tok():
    from engine.loader import DEFAULT_MODEL_DIR
    from engine.tokenizer import Tokenizer

    return Tokenizer.from_dir(DEFAULT_MODEL_DIR)


@pytest.fixture(scope="session")
def vocab(tok):
    from engine.constraint import TokenVocab

    return TokenVocab.from_tokenizer(tok, 2048)


@pytest.fixture(scope="session")
def lexicon(tok, vocab):
    from engine.constraint import SpanLexicon

    return SpanLexicon(tok, vocab, variants(GLOBAL), variants(FREE))


@pytest.fixture
def automaton(lexicon):
    """A fresh automaton for the toy allowed set (memo tables are per automaton)."""
    from engine.constraint import SpanAutomaton

    return SpanAutomaton(lexicon, variants(ALLOWED))


@pytest.fixture(scope="session")
def model(default_model):
    """The shipped default model (the root conftest's ``default_model``)."""
    return default_model


@pytest.fixture(scope="session")
def builder(auditor_obj, model):
    from auditor.decoding import ConstraintBuilder

    return ConstraintBuilder(auditor_obj, model.tokenizer, model.config.vocab_size)


@pytest.fixture(scope="session")
def first_block(tok):
    """first_block(automaton, text): the text of the first token of ``text`` the automaton
    masks when replayed from its start state, or None when every token is allowed."""

    def run(aut, text: str) -> str | None:
        sid = aut.start
        for t in tok.encode(text, add_bos=False):
            if not aut.mask_bits(sid) >> t & 1:
                return aut.vocab.texts[t]
            sid = aut.step(sid, t)
        return None

    return run


@pytest.fixture(scope="session")
def variants_fn():
    return variants
