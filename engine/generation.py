"""The generation loop: one prefill over the left-padded prompts, then one decode step per token
against a static KV cache, with per-request stop conditions and timings.

``stream`` yields each step's tokens as they are produced; ``generate`` collects them into the
``LongTensor[B, N]`` of new ids that DESIGN.md fixes (N = max_new_tokens, or fewer when every
row stopped). Rows that stopped early are filled with the pad id.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch
from torch import Tensor

from engine.errors import EngineInputError
from engine.greedy_head import greedy_head
from engine.kv_factory import KV_KINDS, make_cache
from engine.sampler import Sampler, SamplingParams

if TYPE_CHECKING:
    from engine.model import Transformer
    from engine.tokenizer import Tokenizer

# A logits processor (e.g. the KG constraint): (new tokens so far [B, n], logits [B, V]) -> logits.
LogitsProcessor = Callable[[Tensor, Tensor], Tensor]


@dataclass
class RequestStats:
    """Timings of one row of a batch (all rows share the prefill, hence the first token time)."""

    prompt_tokens: int
    new_tokens: int
    ttft_s: float  # from the call to the first new token
    total_s: float  # from the call to this row's last token
    stop_reason: str  # "stop_token", "stop_string" or "length"

    @property
    def decode_tokens_per_s(self) -> float:
        span = self.total_s - self.ttft_s
        return (self.new_tokens - 1) / span if self.new_tokens > 1 and span > 0 else 0.0


class Generation:
    """Iterator over decode steps: each ``next()`` returns the new token of every row [B]."""

    def __init__(
        self,
        model: Transformer,
        input_ids: Tensor,
        max_new_tokens: int,
        *,
        attention_mask: Tensor | None = None,
        sampling: SamplingParams | None = None,
        stop_token_ids: Sequence[int] | None = None,
        stop_strings: Sequence[str] = (),
        tokenizer: Tokenizer | None = None,
        kv_cache: str = "fp",
        logits_processors: Sequence[LogitsProcessor] = (),
    ) -> None:
        cfg = model.config
        self.model, self.sampling = model, sampling or SamplingParams()
        self.input_ids, self.mask = _check_prompt(input_ids, attention_mask, model.device)
        _B, T = self.input_ids.shape
        if max_new_tokens < 0:
            raise EngineInputError(f"max_new_tokens must be >= 0, got {max_new_tokens}.")
        if T + max_new_tokens > cfg.max_seq_len:
            raise EngineInputError(
                f"the prompt of {T} tokens plus {max_new_tokens} new tokens exceeds the model's "
                f"context of {cfg.max_seq_len} tokens; shorten the prompt or lower max_new_tokens."
            )
        if kv_cache not in KV_KINDS:
            raise EngineInputError(
                f"unknown KV-cache kind {kv_cache!r}; choose one of {', '.join(KV_KINDS)}."
            )
        if stop_strings and tokenizer is None:
            raise EngineInputError("stop strings need a tokenizer to decode the generated text.")
        if stop_token_ids is None:
            stop_token_ids = list(cfg.eos_token_id)
            if tokenizer is not None and tokenizer.eos_id is not None:
                stop_token_ids.append(tokenizer.eos_id)
        self.max_new_tokens, self.kv_cache = max_new_tokens, kv_cache
        self.stop_ids = frozenset(int(t) for t in stop_token_ids)
        self.stop_strings, self.tokenizer = list(stop_strings), tokenizer
        self.processors = list(logits_processors)
        pad = tokenizer.pad_id if tokenizer is not None else cfg.pad_token_id
        self.pad_id = pad if pad is not None else (cfg.eos_token_id[0] if cfg.eos_token_id else 0)
        self.tokens: list[Tensor] = []  # one [B] tensor per step
        self.stats: list[RequestStats] = []
        self._prompt_lens = self.mask.sum(-1).tolist()
        self._steps = self._run()

    def __iter__(self) -> Iterator[Tensor]:
        return self

    def __next__(self) -> Tensor:
        return next(self._steps)

    def result(self) -> Tensor:
        """Run to the end and return the new ids [B, N]."""
        for _ in self:
            pass
        return self.new_ids()

    def _run(self) -> Iterator[Tensor]:
        t0 = time.perf_counter()
        B, T = self.input_ids.shape
        n_new, done_at, reasons = [0] * B, [0.0] * B, ["length"] * B
        if self.max_new_tokens == 0:
            return
        with torch.inference_mode():
            cache = make_cache(
                self.kv_cache,
                self.model.config,
                B,
                T + self.max_new_tokens,
                dtype=self.model.dtype,
                device=self.model.device,
            )
            sampler = Sampler(self.sampling, B, self.model.config.vocab_size, self.model.device)
            sampler.observe(self.input_ids, self.mask)
            # plain greedy decoding needs only the argmax: an exact one that reads half the
            # bytes of an fp32 lm_head where that applies (engine.greedy_head)
            head = (
                greedy_head(self.model)
                if self.sampling.greedy
                and self.sampling.repetition_penalty == 1.0
                and not self.processors
                else None
            )
            hidden = head is not None  # the model returns hidden states [B, D], not logits
            logits = self.model(
                self.input_ids, self.mask, cache=cache, last_only=True, return_hidden=hidden
            )
            logits = logits[:, -1]  # [B, V] (or [B, D])
        fin = [False] * B
        finished = torch.zeros(B, dtype=torch.bool, device=self.model.device)
        ttft = 0.0
        for step in range(self.max_new_tokens):
            with torch.inference_mode():
                for proc in self.processors:
                    logits = proc(self.new_ids(), logits)
                nxt = sampler(logits) if head is None else head(logits)  # [B]
                if any(fin):
                    nxt = torch.where(finished, self.pad_id, nxt)
                self.tokens.append(nxt)
                stopped = [t in self.stop_ids for t in nxt.tolist()]  # one host read
            now = time.perf_counter() - t0
            ttft = ttft or now
            for b in range(B):
                if stopped[b] and not fin[b]:
                    reasons[b] = "stop_token"
            if self.stop_strings:
                for b in self._stop_string_rows(fin, stopped):
                    stopped[b], reasons[b] = True, "stop_string"
            for b in range(B):
                if not fin[b]:
                    n_new[b], done_at[b], fin[b] = step + 1, now, stopped[b]
            if any(fin):
                finished = torch.tensor(fin, device=finished.device)
            yield nxt
            if all(fin) or step == self.max_new_tokens - 1:
                break
            with torch.inference_mode():
                sampler.observe(nxt[:, None])
                logits = self.model(nxt[:, None], cache=cache, return_hidden=hidden)[:, -1]
        self.stats = [
            RequestStats(
                prompt_tokens=int(self._prompt_lens[b]),
                new_tokens=n_new[b],
                ttft_s=ttft,
                total_s=done_at[b],
                stop_reason=reasons[b],
            )
            for b in range(B)
        ]

    def new_ids(self) -> Tensor:
        """The tokens generated so far [B, n]."""
        if not self.tokens:
            return torch.empty(
                self.input_ids.shape[0], 0, dtype=torch.long, device=self.model.device
            )
        return torch.stack(self.tokens, dim=1)

    def _stop_string_rows(self, fin: list[bool], stopped: list[bool]) -> list[int]:
        """Rows still running whose recent text now contains a stop string."""
        window = max(len(s) for s in self.stop_strings) + 2
        recent = torch.stack(self.tokens[-window:], 1).tolist()  # [B, w]
        return [
            b
            for b, toks in enumerate(recent)
            if not (fin[b] or stopped[b])
            and any(s in self.tokenizer.decode(toks) for s in self.stop_strings)  # type: ignore[union-attr]
        ]


def _check_prompt(
    input_ids: Tensor, mask: Tensor | None, device: torch.device
) -> tuple[Tensor, Tensor]:
    if not isinstance(input_ids, Tensor) or input_ids.dim() != 2:
        raise EngineInputError("input_ids must be a LongTensor of shape [batch, tokens].")
    if input_ids.shape[0] == 0 or input_ids.shape[1] == 0:
        raise EngineInputError("the prompt is empty; give at least one token (e.g. the BOS token).")
    input_ids = input_ids.to(device=device, dtype=torch.long)
    if mask is None:
        mask = torch.ones_like(input_ids)
    if tuple(mask.shape) != tuple(input_ids.shape):
        raise EngineInputError(
            f"attention_mask has shape {tuple(mask.shape)} but input_ids has {tuple(input_ids.shape)}."
        )
    mask = mask.to(device=device, dtype=torch.long)
    if not bool(mask[:, -1].all()):
        raise EngineInputError(
            "prompts must be left-padded: the last position of every row must be a real token."
        )
    return input_ids, mask


def stream(
    model: Transformer, input_ids: Tensor, max_new_tokens: int = 32, **kwargs: object
) -> Generation:
    """Start generating; iterate the result for each step's tokens [B] (see :func:`generate`)."""
    return Generation(model, input_ids, max_new_tokens, **_options(**kwargs))  # type: ignore[arg-type]


def generate(
    model: Transformer,
    input_ids: Tensor,
    max_new_tokens: int = 32,
    *,
    temperature: float = 0.0,
    top_p: float = 1.0,
    top_k: int = 0,
    repetition_penalty: float = 1.0,
    seed: int | None = None,
    kg_constraint: LogitsProcessor | None = None,
    attention_mask: Tensor | None = None,
    stop_token_ids: Sequence[int] | None = None,
    stop_strings: Sequence[str] = (),
    tokenizer: Tokenizer | None = None,
    kv_cache: str = "fp",
    return_stats: bool = False,
) -> Tensor | tuple[Tensor, list[RequestStats]]:
    """New token ids ``LongTensor[B, N]`` for left-padded prompts ``input_ids [B, T]``.

    ``temperature=0`` is greedy. ``stop_token_ids`` defaults to the model's EOS ids; a row
    stops after producing one, or once its text contains one of ``stop_strings``.
    ``kg_constraint`` is a logits processor ``(new_ids [B, n], logits [B, V]) -> logits``.
    With ``return_stats`` the per-row :class:`RequestStats` come back too.
    """
    gen = stream(
        model,
        input_ids,
        max_new_tokens,
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        repetition_penalty=repetition_penalty,
        seed=seed,
        kg_constraint=kg_constraint,
        attention_mask=attention_mask,
        stop_token_ids=stop_token_ids,
        stop_strings=stop_strings,
        tokenizer=tokenizer,
        kv_cache=kv_cache,
    )
    out = gen.result()
    return (out, gen.stats) if return_stats else out


def _options(
    *,
    temperature: float = 0.0,
    top_p: float = 1.0,
    top_k: int = 0,
    repetition_penalty: float = 1.0,
    seed: int | None = None,
    kg_constraint: LogitsProcessor | None = None,
    **rest: object,
) -> dict[str, object]:
    sampling = SamplingParams(
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        repetition_penalty=repetition_penalty,
        seed=seed,
    )
    return {
        "sampling": sampling,
        "logits_processors": [kg_constraint] if kg_constraint else [],
        **rest,
    }
