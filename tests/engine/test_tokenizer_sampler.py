"""Tokenizer (trained BPE, tokenizer.json files, left padding) and sampling parameters."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from engine.errors import CheckpointError, EngineInputError  # noqa: E402
from engine.sampler import Sampler, SamplingParams  # noqa: E402
from engine.tokenizer import Tokenizer, left_pad, train_bpe  # noqa: E402

TEXTS = [
    "The maximum daily dose of ibuprofen (OTC) is 1200 mg per day.",
    "The currency of Croatia is the Euro.",
    "Brown v. Board of Education, 347 U.S. 483 — décidé.",
] * 20


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return train_bpe(TEXTS, 300)


def test_trained_bpe_round_trips_text_with_special_ids(tok):
    ids = tok.encode(TEXTS[2], add_eos=True)
    assert ids[0] == tok.bos_id == 1 and ids[-1] == tok.eos_id == 2 and tok.pad_id == 0
    assert tok.decode(ids) == TEXTS[2]


def test_saved_tokenizer_reloads_identically(tok, tmp_path):
    tok.save(tmp_path)
    again = Tokenizer.from_dir(tmp_path)
    assert again.encode(TEXTS[0]) == tok.encode(TEXTS[0])
    assert (again.bos_id, again.eos_id, again.pad_id) == (1, 2, 0)


def test_a_corrupt_tokenizer_file_is_named(tmp_path):
    (tmp_path / "tokenizer.json").write_text("{broken")
    with pytest.raises(CheckpointError, match=r"tokenizer\.json cannot be read"):
        Tokenizer.from_dir(tmp_path)


def test_batches_are_left_padded_with_a_mask(tok):
    ids, mask = tok.batch(["Euro.", TEXTS[0]])
    assert ids.shape == mask.shape and mask[0, -1] == 1 and mask[0, 0] == 0 and mask[1].all()
    assert (ids[0][mask[0] == 0] == tok.pad_id).all()


def test_left_pad_of_lists():
    ids, mask = left_pad([[5], [6, 7, 8]], pad_id=0)
    assert ids.tolist() == [[0, 0, 5], [6, 7, 8]] and mask.tolist() == [[0, 0, 1], [1, 1, 1]]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(temperature=-0.1), "temperature"),
        (dict(top_k=-1), "top_k"),
        (dict(top_p=1.5), "top_p"),
        (dict(repetition_penalty=0.0), "repetition_penalty"),
    ],
)
def test_sampling_parameters_are_validated(kwargs, message):
    with pytest.raises(EngineInputError, match=message):
        SamplingParams(**kwargs)


def test_repetition_penalty_follows_transformers():
    sampler = Sampler(SamplingParams(repetition_penalty=2.0), 1, 4, torch.device("cpu"))
    sampler.observe(torch.tensor([[0, 1]]))
    # seen: 0 (logit 3 -> 1.5) and 1 (logit -1 -> -2); unseen 2 (logit 2) now wins
    assert int(sampler(torch.tensor([[3.0, -1.0, 2.0, 0.0]]))[0]) == 2


def test_seeded_sampling_follows_the_distribution():
    sampler = Sampler(SamplingParams(temperature=1.0, seed=0), 4000, 3, torch.device("cpu"))
    logits = torch.log(torch.tensor([0.7, 0.2, 0.1])).expand(4000, 3)
    counts = torch.bincount(sampler(logits), minlength=3).float() / 4000
    assert torch.allclose(counts, torch.tensor([0.7, 0.2, 0.1]), atol=0.03)
