"""``/v1/audits``: create an audit (recorded in the trail), read, list and filter."""

from __future__ import annotations

import time
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, Path, Query, Request, Response

from auditor.deadline import DeadlineExceeded
from auditor.deadline import deadline as audit_deadline
from auditor.errors import UsageError
from services.api.deps import AppServices, Creator, Reader, ServicesDep, request_deadline
from services.api.errors import ApiError
from services.api.routes import AUTH_ERRORS, error_responses
from services.api.schemas import AuditPage, AuditRecord, AuditRequest, ClaimPage, VerdictName
from trail.append import check_request
from trail.db import json_dumps
from trail.records import check_text, parse_audit_id
from trail.reviews import review_summary, reviews_of

router = APIRouter(prefix="/v1", tags=["audits"])
AuditId = Annotated[str, Path(description="The audit's id (a UUID).", max_length=64)]
_ISO = r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$"


def _not_found() -> ApiError:
    return ApiError(404, "not_found", "no audit with this id")


@router.post(
    "/audits",
    status_code=201,
    response_model=AuditRecord,
    summary="Audit a text and record it in the tamper-evident trail",
    responses={
        200: {
            "model": AuditRecord,
            "description": "Replay: an audit with this "
            "external_id / Idempotency-Key exists and is returned unchanged.",
        },
        **error_responses(*AUTH_ERRORS, 413, 422, 503),
    },
)
async def create_audit(
    http_request: Request,
    body: AuditRequest,
    principal: Creator,
    services: ServicesDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            min_length=1,
            max_length=256,
            description="Makes retries safe: a repeat returns the first result (stored as "
            "external_id).",
        ),
    ] = None,
) -> Response:
    settings, trail = services.settings, services.trail
    if len(body.text) > settings.max_text_chars:
        raise ApiError(
            422,
            "text_too_long",
            f"text is longer than {settings.max_text_chars} characters; split it",
        )
    check_text(body.text)  # once, here: the trail takes the checked request as it is
    if idempotency_key and body.external_id and idempotency_key != body.external_id:
        raise ApiError(
            422,
            "idempotency_key_mismatch",
            "Idempotency-Key and external_id differ; send one or make them equal",
        )
    external_id = body.external_id or idempotency_key
    request = {
        "domain": body.domain,
        "as_of": body.as_of.isoformat() if body.as_of else None,
        "citations": body.citations,
    }
    try:
        checked = check_request(
            body.text, request, body.metadata, trail.metadata_limits, text_checked=True
        )
    except UsageError as exc:
        raise ApiError(422, "invalid_metadata", str(exc)) from None
    digest = checked.digest
    if external_id is not None:
        stored = await anyio.to_thread.run_sync(
            lambda: trail.find_by_external_id(external_id, tenant=principal.tenant)
        )
        if stored is not None:
            return _replay(with_review(services, stored, principal.tenant), digest)
    deadline = request_deadline(http_request, settings.request_timeout_s)

    def audit_and_record() -> tuple[Any, dict[str, Any]] | None:
        """One trip to a worker thread: audit, then append unless the request timed out."""
        with services.audit_slots:  # CPU-bound: a few at a time, the rest queue here
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            t0 = time.perf_counter()
            try:  # the auditor stops between sentences at the limit, freeing this worker
                with audit_deadline(min(settings.audit_timeout_s, left)):
                    result = services.audit_fn(
                        body.text, domain=body.domain, as_of=body.as_of, citations=body.citations
                    )
            except DeadlineExceeded:
                return None
            t1 = time.perf_counter()
        services.metrics.audit_seconds.observe(t1 - t0)
        if time.monotonic() > deadline:  # the client already got a 504: record nothing
            return None
        out = trail.record_and_get(
            result,
            text=body.text,
            tenant=principal.tenant,
            requester=f"key:{principal.prefix}",
            external_id=external_id,
            source="api",
            checked=checked,
        )
        services.metrics.record_seconds.observe(time.perf_counter() - t1)
        return out

    try:
        done = await anyio.to_thread.run_sync(audit_and_record, abandon_on_cancel=True)
    except ImportError as exc:
        raise ApiError(
            503, "auditor_unavailable", "the auditor is not available in this installation"
        ) from exc
    if done is None:
        raise ApiError(
            504,
            "timeout",
            "the audit took longer than the time limit "
            f"({min(settings.audit_timeout_s, settings.request_timeout_s):g} s); "
            "nothing was recorded",
        )
    rec, stored = done
    if not rec.created:
        return _replay(with_review(services, stored, principal.tenant), digest)
    services.metrics.audits.labels(stored["domain"]).inc()
    stored["review"] = review_summary(
        stored["result"], [], risk_threshold=settings.review_risk_threshold
    )
    return json_response(stored, 201, {"Location": f"/v1/audits/{rec.id}"})


def json_response(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """A stored audit as JSON, skipping response-model validation: it was built from the same
    typed rows, and the schema conformance is pinned by the schemathesis tests."""
    return Response(
        json_dumps(body).encode("utf-8"),
        status_code=status,
        headers=headers,
        media_type="application/json",
    )


def with_review(services: AppServices, stored: dict[str, Any], tenant: str) -> dict[str, Any]:
    """``stored`` with its reviewed state (``review``) from the trail's review events."""
    aid = parse_audit_id(stored["id"])
    decided = reviews_of(services.trail, [aid], tenant=tenant)[aid] if aid else []
    stored["review"] = review_summary(
        stored["result"], decided, risk_threshold=services.settings.review_risk_threshold
    )
    return stored


def _replay(stored: dict[str, Any], digest: str) -> Response:
    if stored["request_sha256"] != digest:
        raise ApiError(
            422,
            "idempotency_key_mismatch",
            "this external_id / Idempotency-Key was already used for a different request",
        )
    return json_response(
        stored, 200, {"Idempotent-Replayed": "true", "Location": f"/v1/audits/{stored['id']}"}
    )


@router.get(
    "/audits/{audit_id}",
    response_model=AuditRecord,
    summary="One stored audit",
    responses=error_responses(*AUTH_ERRORS, 404),
)
def get_audit(audit_id: AuditId, principal: Reader, services: ServicesDep) -> Response:
    stored = services.trail.get(audit_id, tenant=principal.tenant)
    if stored is None:
        raise _not_found()
    return json_response(with_review(services, stored, principal.tenant))


@router.get(
    "/audits",
    response_model=AuditPage,
    summary="List audits, newest first",
    responses=error_responses(*AUTH_ERRORS, 422),
)
def list_audits(
    principal: Reader,
    services: ServicesDep,
    domain: Annotated[str | None, Query(max_length=32, examples=["medical"])] = None,
    start: Annotated[
        str | None,
        Query(pattern=_ISO, description="Created at or after (ISO date or timestamp, UTC)."),
    ] = None,
    end: Annotated[
        str | None,
        Query(
            pattern=_ISO,
            description="Created before this timestamp; a plain date includes that whole day.",
        ),
    ] = None,
    fer_min: Annotated[float | None, Query(ge=0.0, le=1.0)] = None,
    fer_max: Annotated[float | None, Query(ge=0.0, le=1.0)] = None,
    verdict: Annotated[
        VerdictName | None, Query(description="Audits with at least one claim with this verdict.")
    ] = None,
    hallucination_type: Annotated[str | None, Query(max_length=64)] = None,
    rule_id: Annotated[str | None, Query(max_length=256)] = None,
    cursor: Annotated[str | None, Query(max_length=128)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> Response:
    items, next_cursor = services.trail.list_audits(
        tenant=principal.tenant,
        domain=domain,
        start=start,
        end=end,
        fer_min=fer_min,
        fer_max=fer_max,
        verdict=verdict,
        hallucination_type=hallucination_type,
        rule_id=rule_id,
        cursor=cursor,
        limit=limit,
    )
    return json_response({"items": items, "next_cursor": next_cursor})


@router.get(
    "/audits/{audit_id}/proof",
    summary="Inclusion proof of one audit under the newest signed tree head",
    description="An RFC 9162 inclusion proof of the audit's chain event in the Merkle tree, "
    "against the newest Ed25519-signed tree head (one is signed when none covers the audit "
    "yet). Check it offline with `kgaudit trail check-proof` and the server's public key; "
    "the format is in docs/trail.md. Another tenant's audit is 404, like a missing one.",
    responses=error_responses(*AUTH_ERRORS, 404, 503),
)
def get_proof(audit_id: AuditId, principal: Reader, services: ServicesDep) -> dict[str, Any]:
    from trail.proofs import prove_audit

    tenant = None if principal.is_operator else principal.tenant
    try:
        doc = prove_audit(services.trail, audit_id, tenant=tenant)
    except UsageError as exc:  # no head covers it and the server has no signing key
        raise ApiError(503, "not_configured", str(exc)) from None
    if doc is None:
        raise _not_found()
    return doc


@router.get(
    "/audits/{audit_id}/claims",
    response_model=ClaimPage,
    summary="The claims of one audit, optionally filtered",
    responses=error_responses(*AUTH_ERRORS, 404),
)
def list_claims(
    audit_id: AuditId,
    principal: Reader,
    services: ServicesDep,
    verdict: VerdictName | None = None,
    hallucination_type: Annotated[str | None, Query(max_length=64)] = None,
    rule_id: Annotated[str | None, Query(max_length=256)] = None,
) -> dict[str, Any]:
    items = services.trail.claims(
        audit_id,
        tenant=principal.tenant,
        verdict=verdict,
        hallucination_type=hallucination_type,
        rule_id=rule_id,
    )
    if items is None:
        raise _not_found()
    return {"audit_id": str(parse_audit_id(audit_id)), "items": items}
