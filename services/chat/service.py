"""The chat service: prompt → (KG-constrained) generation → audit → trail record.

The embedded model answers in the format it was trained on, ``Q: <question> A: <answer>``:
the question is the last user message (earlier turns and system messages are not shown to
this small model). Generation stops at EOS, at the caller's ``stop`` strings, or where the
model starts another turn (``\\n``, `` Q:``, `` A:``); stop strings are cut from the answer.
The model and the constraint lexicon load in the background on the first request (or at
start-up through :meth:`ChatService.warm_up`); until then requests wait a few seconds, then
get ``503 warming_up`` with ``Retry-After``. With the constraint on, text is streamed only up to the last closed span, and a span left
open by ``max_tokens`` is dropped, so no partial entity name or number is ever shown.
``response_format: json_object`` wraps the answer as ``{"answer": "..."}`` — escaped piece by
piece when streaming — so the content is valid JSON whatever the model writes or wherever it
is cut. One token is computed at a time (CPU-bound), under a lock that is never held across a
``yield``, so a client that stops reading blocks nobody; a request past its time limit stops
generating and is neither audited nor recorded. torch is imported on first use.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from auditor.deadline import deadline
from auditor.errors import UsageError
from services.chat.schemas import ChatRequest
from trail.append import CheckedRequest, check_request
from trail.metadata import MetadataLimits
from trail.records import check_text

log = logging.getLogger("kgaudit.chat")
FORMAT_STOPS = ("\n", " Q:", " A:")
DEFAULT_MAX_TOKENS = 64
# The constraint a request gets unless it names a radius: the answer slot with span intent at
# 0.3, the answer opened by its relation's trained frame ("slot-frame"), the best
# configuration of `kgaudit eval generation` (docs/constrained.md).
DEFAULT_CONSTRAINT = ("slot-frame", 0.3)
SERVED_NAMES = ("default", "kgaudit-default")


class ChatInputError(ValueError):
    """A request the engine cannot serve (too long, unknown model); becomes a 4xx."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


class ChatTimeout(ChatInputError):
    """The request ran out of time: nothing more is generated, audited or recorded."""


def clean(text: str) -> str:
    """Lone surrogates (valid JSON, invalid UTF-8) replaced, so the text can be stored."""
    return text.encode("utf-8", "replace").decode("utf-8")


def check_before_audit(text: str, metadata: dict[str, Any], limits: MetadataLimits) -> None:
    """Refuse, before the audit runs, what the trail would refuse after it: the answer's text
    (the trail's ``check_text``) and the metadata under ``limits`` — the trail's, which
    ``create_app`` sets from ``Settings`` (the API's limits). A ChatInputError 422
    (``invalid_metadata`` as in the API); nothing is audited or recorded."""
    try:
        check_text(text, "the answer")
    except UsageError as exc:
        raise ChatInputError(422, "invalid_request", str(exc)) from None
    try:
        limits.check(metadata)
    except UsageError as exc:
        raise ChatInputError(422, "invalid_metadata", str(exc)) from None


def checked_request(text: str, request: dict[str, Any], metadata: dict[str, Any]) -> CheckedRequest:
    """The request the trail stores as it is, after :func:`check_before_audit` passed its
    text and (with the policy's outcome at its largest) its metadata: the digest only."""
    return check_request(text, request, metadata, text_checked=True, metadata_checked=True)


def as_of_text(req: ChatRequest) -> str | None:
    return req.as_of.isoformat() if req.as_of else None


@dataclass
class Run:
    """One request's generation: iterate :meth:`deltas`, then read the outcome fields."""

    request: ChatRequest
    question: str
    text: str = ""
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    constraint: dict[str, Any] = field(default_factory=lambda: {"enabled": False})
    deadline: float | None = None  # time.monotonic() by which the answer must be complete

    def check_time(self) -> None:
        """Stop generating once the request's time is up (its client already got a 504)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ChatTimeout(504, "timeout", "the completion took longer than the time limit")


class ChatService:
    """Holds the model and the constraint builder; shared by every request of an app."""

    def __init__(
        self,
        audit_fn: Callable[..., Any],
        *,
        model: Any = None,
        auditor: Any = None,
        model_name: str = "default",
    ) -> None:
        self.audit_fn = audit_fn
        self.model_name = model_name
        self._model, self._auditor, self._builders = model, auditor, {}
        self._lock = threading.Lock()  # one generation at a time
        self._load_lock = threading.Lock()
        self._ready = threading.Event()
        self._warming: threading.Thread | None = None
        self.error: BaseException | None = None  # why the engine could not be loaded

    def warm_up(self) -> None:
        """Load the model and build the constraint lexicon now (idempotent, blocking)."""
        try:
            self.builder("slot").lexicon()
        except Exception as exc:  # reported as 503 engine_unavailable by the router
            log.error("the chat engine could not be loaded: %s: %s", type(exc).__name__, exc)
            self.error = exc
        finally:
            self._ready.set()

    def ready(self, wait_s: float) -> bool:
        """True once loaded; else start loading in the background and wait up to ``wait_s``."""
        if self._ready.is_set():
            return True
        with self._load_lock:
            if self._warming is None:
                self._warming = threading.Thread(target=self.warm_up, daemon=True)
                self._warming.start()
        return self._ready.wait(wait_s)

    # -- resources ----------------------------------------------------------------------

    def model(self) -> Any:
        with self._load_lock:
            if self._model is None:
                from engine import load_model

                self._model = load_model(self.model_name, device="cpu")
            return self._model

    def builder(self, radius: int | str) -> Any:
        """The constraint builder of a radius, or ``"slot"`` for the answer slot."""
        with self._load_lock:
            b = self._builders.get(radius)
        if b is None:
            from auditor.decoding import ConstraintBuilder, SlotBuilder

            if self._auditor is None:
                from auditor import get_auditor

                self._auditor = get_auditor()
            m = self.model()
            args = (self._auditor, m.tokenizer, m.config.vocab_size)
            b = SlotBuilder(*args) if radius == "slot" else ConstraintBuilder(*args, radius=radius)
            with self._load_lock:
                self._builders[radius] = b
        return b

    # -- generation ---------------------------------------------------------------------

    def start(self, req: ChatRequest) -> Run:
        if req.model not in (*SERVED_NAMES, self.model_name):
            raise ChatInputError(
                404, "model_not_found", f"the model {req.model!r} is not served here; use 'default'"
            )
        users = [m for m in req.messages if m.role == "user"]
        if not users or not users[-1].text().strip():
            raise ChatInputError(422, "no_question", "the messages hold no user message with text")
        return Run(req, clean(" ".join(users[-1].text().split())))

    def deltas(self, run: Run) -> Iterator[str]:
        """The answer's text as it is generated (JSON-wrapped pieces in JSON mode)."""
        json_mode = run.request.response_format is not None and (
            run.request.response_format.type == "json_object"
        )
        if json_mode:
            yield '{"answer": "'
        for piece in self._generate(run):
            yield json.dumps(piece, ensure_ascii=False)[1:-1] if json_mode else piece
        if json_mode:
            yield '"}'

    def _generate(self, run: Run) -> Iterator[str]:
        """The lock is held while a token is computed, never across a ``yield``: a client that
        stops reading (or disconnects) holds nothing, and other requests go on."""
        import torch

        from engine import stream

        req = run.request
        with self._lock:
            model = self.model()
            tok = model.tokenizer
            prompt = f"Q: {run.question} A:"
            ids, mask = tok.batch([prompt])
            run.prompt_tokens = ids.shape[1]
            room = model.config.max_seq_len - ids.shape[1]
            if room < 1:
                raise ChatInputError(
                    422,
                    "prompt_too_long",
                    f"the question takes "
                    f"{ids.shape[1]} tokens of the model's "
                    f"{model.config.max_seq_len}; shorten it",
                )
            limit = min(req.max_completion_tokens or req.max_tokens or DEFAULT_MAX_TOKENS, room)
            constraint, opening, head_n = None, "", 0
            if req.kg_constraint:
                from engine.constraint import KGConstraint

                if "radius" in req.model_fields_set:  # asked for the neighbourhood constraint
                    config, intent = f"kg-r{req.radius}", None
                    built = self.builder(req.radius).build(run.question, req.domain)
                else:  # the best configuration of kgaudit eval generation
                    config, intent = DEFAULT_CONSTRAINT
                    built = self.builder("slot").build(run.question, req.domain, as_of=req.as_of)
                constraint = KGConstraint([built.automaton], intent_threshold=intent)
                frame = (built.slot or {}).get("frame", "") if config == "slot-frame" else ""
                if frame:  # the answer opens with the frame; the automaton reads it first
                    head = tok.encode(" " + frame, add_bos=False)
                    if len(head) < room:
                        constraint.prefill(0, head)
                        ids = torch.cat([ids, torch.tensor([head], dtype=ids.dtype)], 1)
                        mask = torch.cat([mask, torch.ones((1, len(head)), dtype=mask.dtype)], 1)
                        room -= len(head)
                        opening, head_n = " " + frame, len(head)
                run.constraint = {
                    "enabled": True,
                    "config": config if opening or config != "slot-frame" else "slot",
                    "radius": req.radius if not config.startswith("slot") else None,
                    **built.summary(),
                }
            limit = min(limit, room)
            stops = [*FORMAT_STOPS, *req.stops()]
            gen = stream(
                model,
                ids,
                limit,
                attention_mask=mask,
                tokenizer=tok,
                temperature=req.temperature or 0.0,
                top_p=req.top_p or 1.0,
                seed=req.seed,
                stop_strings=stops,
                kg_constraint=constraint,
            )
        sent, toks, steps = "", [], iter(gen)
        while True:
            run.check_time()
            with self._lock:
                step = next(steps, None)
                if step is None:
                    break
                toks.append(int(step[0]))
                shown = len(toks)
                if constraint is not None:
                    constraint.advance(gen.new_ids())
                    shown -= constraint.open_span_tokens(0)
            text, stopped = _cut((opening + tok.decode(toks[:shown])).lstrip(), stops)
            if not stopped:  # hold back what may still become a stop string or a character
                keep = max(len(s) for s in stops) - 1
                text = text[: max(len(sent), len(text) - keep)].rstrip("\ufffd")
            if len(text) > len(sent) and text.startswith(sent):
                yield text[len(sent) :]  # no lock held here
                sent = text
            if stopped:
                break
        reason = gen.stats[0].stop_reason if gen.stats else "stop_string"
        n = len(toks) - (constraint.open_span_tokens(0) if constraint is not None else 0)
        final, stopped = _cut((opening + tok.decode(toks[:n])).lstrip(), stops)
        if final.startswith(sent) and len(final) > len(sent):
            yield final[len(sent) :]
        run.text = final if final.startswith(sent) else sent
        run.completion_tokens = len(toks) + head_n  # the frame is part of the answer
        run.finish_reason = "length" if reason == "length" and not stopped else "stop"

    # -- audit --------------------------------------------------------------------------

    def audit(self, run: Run) -> Any:
        answer = run.text.strip()
        left = None if run.deadline is None else max(0.0, run.deadline - time.monotonic())
        with deadline(left):
            return self.audit_fn(answer, domain=run.request.domain, as_of=run.request.as_of)

    def metadata(
        self, run: Run, completion_id: str, extra: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The metadata recorded with the answer's audit; ``extra`` joins it (the policy's
        outcome, ``gateway``)."""
        return {
            "completion_id": completion_id,
            "model": self.model_name,
            "context": run.question[:2000],
            "kg_constraint": bool(run.constraint.get("enabled")),
            "finish_reason": run.finish_reason,
            **(extra or {}),
        }

    @staticmethod
    def request(run: Run) -> dict[str, Any]:
        req = run.request
        return {"domain": req.domain, "as_of": as_of_text(req), "citations": None}

    def check(
        self, trail: Any, run: Run, *, completion_id: str, extra: dict[str, Any] | None = None
    ) -> None:
        """Before the audit: the answer and its metadata under the trail's limits
        (:func:`check_before_audit`); ``extra`` as large as :meth:`record`'s can be."""
        check_before_audit(
            run.text.strip(), self.metadata(run, completion_id, extra), trail.metadata_limits
        )

    def record(
        self,
        trail: Any,
        run: Run,
        result: Any,
        *,
        tenant: str,
        requester: str,
        completion_id: str,
        extra: dict[str, Any] | None = None,
    ) -> str:
        """Append the answer's audit, after :meth:`check` passed it before the audit (with an
        ``extra`` no smaller than this one); ``extra`` joins the metadata (the policy's
        outcome). The trail stores the checked request as it is."""
        run.check_time()  # never record what the client was not answered
        text = run.text.strip()
        checked = checked_request(text, self.request(run), self.metadata(run, completion_id, extra))
        rec = trail.record(
            result, text=text, tenant=tenant, requester=requester, source="chat", checked=checked
        )
        return str(rec.id)


def audit_summary(result: Any, constraint: dict[str, Any], audit_id: str | None) -> dict[str, Any]:
    """The ``kgaudit`` object of a chat response: the audit's scores and claims."""
    d = result.to_dict() if hasattr(result, "to_dict") else dict(result)
    keys = ("text", "verdict", "subject", "predicate", "object", "rule_id", "hallucination_type")
    return {
        "audit_id": audit_id,
        "domain": d["domain"],
        "fer": d.get("fer"),
        "citation_confidence": d.get("citation_confidence"),
        "joint_score": d.get("joint_score"),
        "coverage": d.get("coverage"),
        "counts": d["counts"],
        "claims": [{k: c.get(k) for k in keys} for c in d["claims"]],
        "constraint": constraint,
    }


def _cut(text: str, stops: list[str]) -> tuple[str, bool]:
    """``text`` up to the earliest stop string, and whether one was found."""
    cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)


def new_completion_id() -> str:
    return f"chatcmpl-{uuid.uuid4().hex}"


def now() -> int:
    return int(time.time())
