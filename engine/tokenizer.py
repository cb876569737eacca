"""Tokenizers: Hugging Face ``tokenizer.json`` files from checkpoints, and the byte-level BPE
trained for the default model.

Batches are left-padded (the static KV cache needs every row's next token in the same slot),
and come with an attention mask marking the real tokens.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import torch
from torch import Tensor

from engine.errors import CheckpointError

SPECIAL_TOKENS = ("<pad>", "<s>", "</s>")  # ids 0, 1, 2 in tokenizers the engine trains


class Tokenizer:
    """A ``tokenizers.Tokenizer`` with the model's special-token ids."""

    def __init__(
        self,
        tok: object,
        *,
        bos_id: int | None = None,
        eos_id: int | None = None,
        pad_id: int | None = None,
    ) -> None:
        self.tok = tok
        self.bos_id, self.eos_id = bos_id, eos_id
        self.pad_id = pad_id if pad_id is not None else (eos_id if eos_id is not None else 0)

    @property
    def vocab_size(self) -> int:
        return self.tok.get_vocab_size(with_added_tokens=True)  # type: ignore[attr-defined]

    @classmethod
    def from_dir(cls, path: str | Path) -> Tokenizer:
        """Read ``tokenizer.json`` (and the special tokens of ``tokenizer_config.json``)."""
        from tokenizers import Tokenizer as HFTokenizer

        path = Path(path)
        file = path / "tokenizer.json"
        if not file.is_file():
            raise CheckpointError(
                "no tokenizer.json found; pass token ids instead of text.", location=str(path)
            )
        try:
            tok = HFTokenizer.from_file(str(file))
        except Exception as exc:  # tokenizers raises a bare Exception on malformed JSON
            raise CheckpointError(
                f"tokenizer.json cannot be read ({exc}).", location=str(file)
            ) from None
        special: dict[str, int | None] = {}
        config = path / "tokenizer_config.json"
        names = json.loads(config.read_text()) if config.is_file() else {}
        for role, default in (("bos", "<s>"), ("eos", "</s>"), ("pad", "<pad>")):
            name = names.get(f"{role}_token", default)
            if isinstance(name, dict):  # older configs store AddedToken dicts
                name = name.get("content")
            special[role] = tok.token_to_id(name) if isinstance(name, str) else None
        return cls(tok, bos_id=special["bos"], eos_id=special["eos"], pad_id=special["pad"])

    def save(self, path: str | Path) -> None:
        path = Path(path)
        self.tok.save(str(path / "tokenizer.json"))  # type: ignore[attr-defined]
        names = {
            f"{r}_token": self.tok.id_to_token(i)  # type: ignore[attr-defined]
            for r, i in (("bos", self.bos_id), ("eos", self.eos_id), ("pad", self.pad_id))
            if i is not None
        }
        (path / "tokenizer_config.json").write_text(json.dumps(names, indent=2) + "\n")

    def encode(self, text: str, *, add_bos: bool = True, add_eos: bool = False) -> list[int]:
        ids = list(self.tok.encode(text, add_special_tokens=False).ids)  # type: ignore[attr-defined]
        if add_bos and self.bos_id is not None:
            ids.insert(0, self.bos_id)
        if add_eos and self.eos_id is not None:
            ids.append(self.eos_id)
        return ids

    def decode(self, ids: Iterable[int], *, skip_special: bool = True) -> str:
        return self.tok.decode(list(ids), skip_special_tokens=skip_special)  # type: ignore[attr-defined]

    def batch(self, texts: Sequence[str], *, add_bos: bool = True) -> tuple[Tensor, Tensor]:
        """Left-padded ids [B, T] and attention mask [B, T] (1 = real token)."""
        rows = [self.encode(t, add_bos=add_bos) for t in texts]
        return left_pad(rows, self.pad_id)


def left_pad(rows: Sequence[Sequence[int]], pad_id: int) -> tuple[Tensor, Tensor]:
    """Stack token lists of different lengths, padding on the left: ids [B, T], mask [B, T]."""
    width = max((len(r) for r in rows), default=0)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        if r:
            ids[i, width - len(r) :] = torch.tensor(r, dtype=torch.long)
            mask[i, width - len(r) :] = 1
    return ids, mask


def train_bpe(texts: Iterable[str], vocab_size: int) -> Tokenizer:
    """Train a byte-level BPE with ``<pad>``, ``<s>``, ``</s>`` as ids 0, 1, 2."""
    from tokenizers import Tokenizer as HFTokenizer
    from tokenizers import decoders, models, pre_tokenizers, trainers

    tok = HFTokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIAL_TOKENS),
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(texts, trainer=trainer)
    return Tokenizer(tok, bos_id=1, eos_id=2, pad_id=0)
