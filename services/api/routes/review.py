"""``/review``: the reviewer workbench (server-rendered HTML), and ``POST /v1/audits/{id}/reviews``.

Pages (readable without JavaScript; ``/review/static/review.js`` only adds shortcuts)::

    GET  /review/login                 sign-in form (an API key)
    POST /review/login                 key -> signed session cookie, then the queue
    POST /review/logout                ends the session
    GET  /review                       the queue: audits with open items, riskiest first
    GET  /review/next                  the riskiest queued audit (``after=ID``: the one after it)
    GET  /review/prev                  ``after=ID``: the queued audit before that one
    GET  /review/audits/{id}           one audit: answer, claims, evidence, citations, forms
    POST /review/audits/{id}/decide    confirm / overturn / note one item
    POST /review/bulk-confirm          confirm every open item of the selected audits

A viewer reads; a POST by a viewer is 403. Another tenant's audit is 404 like a missing one.
Every POST needs the session's CSRF token. See docs/review.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import parse_qs, urlencode

import anyio
from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, Field

from auditor.errors import UsageError
from services.api.deps import AppServices, Reviewer, ServicesDep
from services.api.errors import ApiError
from services.api.keys import KeyExpired
from services.api.routes import AUTH_ERRORS, error_responses
from services.api.web import (
    COOKIE,
    CSP,
    Sessions,
    WebSession,
    csrf_ok,
    key_is_active,
)
from trail.records import parse_audit_id
from trail.review_queue import QueueFilter, next_in_queue, review_queue
from trail.reviews import Decision, append_reviews, audit_items, item_state, reviews_of

router = APIRouter(prefix="/review", include_in_schema=False)
api_router = APIRouter(prefix="/v1", tags=["audits"])
VERDICT_LABELS = {
    "supported": ("✓", "supported"),
    "contradicted": ("✗", "contradicted"),
    "unverifiable": ("?", "unverifiable"),
    "verified": ("✓", "verified"),
    "unverified": ("?", "unverified"),
}
STATUS_LABELS = {
    "open": "open",
    "confirmed": "confirmed",
    "overturned": "overturned",
    "not_required": "no review needed",
}


def _sessions(request: Request) -> Sessions:
    return request.app.state.review_sessions


def _html(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    env = request.app.state.review_templates
    body = env.get_template(name).render(
        static="/review/static", labels=VERDICT_LABELS, statuses=STATUS_LABELS, **ctx
    )
    return HTMLResponse(body, status_code=status, headers=_headers())


def _headers() -> dict[str, str]:
    return {
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }


def _error(request: Request, status: int, message: str, session: WebSession | None) -> HTMLResponse:
    return _html(request, "error.html", status, message=message, session=session)


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303, headers=_headers())


async def _session(request: Request, services: AppServices) -> WebSession | None:
    session = _sessions(request).read(request.cookies.get(COOKIE))
    if session is None:
        return None
    active = await anyio.to_thread.run_sync(key_is_active, services.trail, session.principal)
    return session if active else None


async def _form(request: Request, services: AppServices) -> dict[str, list[str]]:
    """The posted form; one larger than ``max_form_bytes`` (a setting) is read as empty."""
    body = await request.body()
    if len(body) > services.settings.max_form_bytes:
        return {}
    try:
        return parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=1000)
    except (UnicodeDecodeError, ValueError):
        return {}


def _one(form: dict[str, list[str]], name: str) -> str | None:
    values = form.get(name)
    return values[0] if values else None


# -- sign in / out ----------------------------------------------------------------------


@router.get("/login")
async def login_page(request: Request, services: ServicesDep) -> Response:
    return _html(
        request, "login.html", token=_sessions(request).login_token(), error=None, session=None
    )


@router.post("/login")
async def login(request: Request, services: ServicesDep) -> Response:
    form = await _form(request, services)
    sessions = _sessions(request)
    address = request.client.host if request.client else "-"

    def again(message: str, status: int) -> Response:
        return _html(
            request, "login.html", status, token=sessions.login_token(), error=message, session=None
        )

    if not sessions.check_login_token(_one(form, "csrf")):
        return again("The sign-in form expired; please try again.", 403)
    if services.auth_failures.exhausted(address) is not None:
        return again("Too many failed sign-ins from this address; try again later.", 429)
    token = (_one(form, "api_key") or "").strip()
    try:
        principal = (
            await anyio.to_thread.run_sync(services.keys.authenticate, token) if token else None
        )
    except KeyExpired as exc:
        return again(f"{str(exc)[0].upper()}{str(exc)[1:]}.", 401)
    if principal is None:
        services.auth_failures.acquire(address)
        return again("That API key is invalid or revoked.", 401)
    if not principal.can("read"):
        return again("This key's role cannot read audits.", 403)
    cookie, _ = sessions.issue(principal)
    response = _redirect("/review")
    response.set_cookie(value=cookie, **sessions.cookie_args())
    return response


@router.post("/logout")
async def logout(request: Request, services: ServicesDep) -> Response:
    session = await _session(request, services)
    form = await _form(request, services)
    if session is not None and not csrf_ok(session, _one(form, "csrf")):
        return _error(request, 403, "The form's CSRF token is missing or wrong.", session)
    response = _redirect("/review/login")
    args = _sessions(request).cookie_args()
    response.delete_cookie(
        COOKIE, path=args["path"], secure=args["secure"], httponly=True, samesite="strict"
    )
    return response


# -- queue --------------------------------------------------------------------------------


def _filter(request: Request) -> tuple[QueueFilter, dict[str, str]]:
    q = request.query_params
    raw = {k: (q.get(k) or "").strip()[:256] for k in ("domain", "rule", "verdict", "start", "end")}
    return QueueFilter(**{k: v or None for k, v in raw.items()}), {
        k: v for k, v in raw.items() if v
    }


@router.get("")
async def queue(request: Request, services: ServicesDep) -> Response:
    session = await _session(request, services)
    if session is None:
        return _redirect("/review/login")
    flt, active = _filter(request)
    try:
        page = int(request.query_params.get("page") or 1)
    except ValueError:
        page = 1
    try:
        result = await anyio.to_thread.run_sync(
            lambda: review_queue(
                services.trail,
                tenant=session.principal.tenant,
                risk_threshold=services.settings.review_risk_threshold,
                flt=flt,
                page=page,
            )
        )
    except UsageError as exc:
        return _error(request, 422, str(exc), session)

    def page_url(n: int) -> str:
        return "/review?" + urlencode({**active, "page": n})

    return _html(
        request,
        "queue.html",
        session=session,
        q=result,
        filters=active,
        page_url=page_url,
        verdicts=("contradicted", "unverifiable", "unverified", "supported", "verified"),
        threshold=services.settings.review_risk_threshold,
        confirmed=_count(request.query_params.get("confirmed")),
    )


def _count(value: str | None) -> int | None:
    """A non-negative count from the query string (what a redirect put there), else None."""
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 9 else None


@router.get("/next")
async def next_audit(request: Request, services: ServicesDep) -> Response:
    session = await _session(request, services)
    if session is None:
        return _redirect("/review/login")
    return await _neighbour(request, services, session, backwards=False)


@router.get("/prev")
async def previous_audit(request: Request, services: ServicesDep) -> Response:
    session = await _session(request, services)
    if session is None:
        return _redirect("/review/login")
    return await _neighbour(request, services, session, backwards=True)


async def _neighbour(
    request: Request, services: AppServices, session: WebSession, *, backwards: bool
) -> Response:
    """Redirect to the queued audit after (before) ``?after=ID`` in the queue's order."""
    after = request.query_params.get("after")
    found = await anyio.to_thread.run_sync(
        lambda: next_in_queue(
            services.trail,
            tenant=session.principal.tenant,
            risk_threshold=services.settings.review_risk_threshold,
            after=after,
            backwards=backwards,
        )
    )
    return _redirect(f"/review/audits/{found}" if found else "/review?done=1")


# -- one audit ----------------------------------------------------------------------------


def _segments(text: str, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answer cut into plain and claim pieces (overlapping claims: the first wins)."""
    out: list[dict[str, Any]] = []
    pos = 0
    spans = sorted(
        (
            (int(c.get("start") or 0), int(c.get("end") or 0), i)
            for i, c in enumerate(claims)
            if isinstance(c.get("start"), int) and isinstance(c.get("end"), int)
        ),
    )
    for start, end, i in spans:
        if start < pos or end <= start or end > len(text):
            continue
        if start > pos:
            out.append({"text": text[pos:start], "claim": None})
        out.append({"text": text[start:end], "claim": i, "verdict": claims[i].get("verdict")})
        pos = end
    if pos < len(text):
        out.append({"text": text[pos:], "claim": None})
    return out


@router.get("/audits/{audit_id}")
async def audit_page(
    request: Request,
    services: ServicesDep,
    audit_id: Annotated[str, Path(max_length=64)],
) -> Response:
    session = await _session(request, services)
    if session is None:
        return _redirect("/review/login")
    tenant = session.principal.tenant
    stored = await anyio.to_thread.run_sync(lambda: services.trail.get(audit_id, tenant=tenant))
    if stored is None:
        return _error(request, 404, "No audit with this id.", session)
    aid = parse_audit_id(audit_id)
    assert aid is not None  # trail.get found it
    decided = await anyio.to_thread.run_sync(
        lambda: reviews_of(services.trail, [aid], tenant=tenant)[aid]
    )
    result = stored["result"]
    threshold = services.settings.review_risk_threshold
    state = item_state(audit_items(result, risk_threshold=threshold), decided)
    claims = result.get("claims") or []
    citations = result.get("citations") or []
    order = [k for k, st in state.items() if st["status"] == "open"]
    return _html(
        request,
        "audit.html",
        session=session,
        audit=stored,
        result=result,
        segments=_segments(stored["text"], claims),
        claims=claims,
        citations=citations,
        state=state,
        reviews=decided,
        open_keys=order,
        threshold=threshold,
        saved=request.query_params.get("saved"),
    )


async def _decide(
    request: Request,
    services: ServicesDep,
    session: WebSession,
    decisions: list[Decision],
) -> str | None:
    """Append ``decisions``; None when done, else the sentence saying why not."""
    try:
        await anyio.to_thread.run_sync(
            lambda: append_reviews(
                services.trail,
                decisions,
                tenant=session.principal.tenant,
                reviewer=f"key:{session.principal.prefix}",
            )
        )
    except UsageError as exc:
        return str(exc)
    return None


async def _decider(
    request: Request, services: AppServices
) -> tuple[WebSession | None, dict[str, list[str]], Response | None]:
    session = await _session(request, services)
    form = await _form(request, services)
    if session is None:
        return None, form, _error(request, 401, "Please sign in again.", None)
    if not csrf_ok(session, _one(form, "csrf")):
        return (
            session,
            form,
            _error(request, 403, "The form's CSRF token is missing or wrong.", session),
        )
    if not session.may_decide:
        return (
            session,
            form,
            _error(
                request,
                403,
                f"The role {session.principal.role!r} may read but not decide.",
                session,
            ),
        )
    return session, form, None


@router.post("/audits/{audit_id}/decide")
async def decide(
    request: Request,
    services: ServicesDep,
    audit_id: Annotated[str, Path(max_length=64)],
) -> Response:
    session, form, refused = await _decider(request, services)
    if refused is not None:
        return refused
    assert session is not None
    tenant = session.principal.tenant
    stored = await anyio.to_thread.run_sync(lambda: services.trail.get(audit_id, tenant=tenant))
    if stored is None:
        return _error(request, 404, "No audit with this id.", session)
    item = _one(form, "item") or ""
    decision = _one(form, "decision") or ""
    problem = await _decide(
        request, services, session, [Decision(audit_id, item, decision, _one(form, "reason"))]
    )
    if problem is not None:
        return _error(request, 422, problem, session)
    aid = parse_audit_id(audit_id)
    assert aid is not None
    decided = await anyio.to_thread.run_sync(
        lambda: reviews_of(services.trail, [aid], tenant=tenant)[aid]
    )
    state = item_state(
        audit_items(stored["result"], risk_threshold=services.settings.review_risk_threshold),
        decided,
    )
    still = [k for k, st in state.items() if st["status"] == "open"]
    if _one(form, "then") == "next" and decision != "note" and not still:
        return _redirect(f"/review/next?{urlencode({'after': audit_id})}")
    later = [k for k in still if k != item]
    focus = item if decision == "note" or not later else later[0]
    query = urlencode({"saved": item, "n": len(decided)})
    return _redirect(f"/review/audits/{audit_id}?{query}#item-{focus}")


@router.post("/bulk-confirm")
async def bulk_confirm(request: Request, services: ServicesDep) -> Response:
    """Confirm every open item (matching the queue's filter) of the selected audits."""
    session, form, refused = await _decider(request, services)
    if refused is not None:
        return refused
    assert session is not None
    ids = [a for a in form.get("audit", []) if parse_audit_id(a) is not None][:500]
    if not ids:
        return _error(request, 422, "Select at least one audit to confirm.", session)
    flt = QueueFilter(
        **{
            k: (_one(form, k) or "").strip()[:256] or None
            for k in ("domain", "rule", "verdict", "start", "end")
        }
    )
    tenant = session.principal.tenant
    threshold = services.settings.review_risk_threshold

    def collect() -> list[Decision] | None:
        from trail.review_queue import open_items

        aids = [parse_audit_id(a) for a in ids]
        decided = reviews_of(services.trail, [a for a in aids if a is not None], tenant=tenant)
        out: list[Decision] = []
        for a in ids:
            stored = services.trail.get(a, tenant=tenant)
            if stored is None:
                return None
            aid = parse_audit_id(a)
            assert aid is not None
            for it in open_items(stored["result"], decided[aid], risk_threshold=threshold, flt=flt):
                out.append(Decision(a, it["item"], "confirm", "bulk confirm"))
        return out

    decisions = await anyio.to_thread.run_sync(collect)
    if decisions is None:
        return _error(request, 404, "No audit with this id.", session)
    problem = await _decide(request, services, session, decisions)
    if problem is not None:
        return _error(request, 422, problem, session)
    active = {f: v for f, v in vars_of(flt).items() if v}
    return _redirect("/review?" + urlencode({**active, "confirmed": len(decisions)}))


def vars_of(flt: QueueFilter) -> dict[str, str | None]:
    return {k: getattr(flt, k) for k in ("domain", "rule", "verdict", "start", "end")}


# -- JSON API -----------------------------------------------------------------------------


class ReviewRequest(BaseModel):
    """One decision on one item of an audit."""

    item: str = Field(
        max_length=64,
        pattern=r"^(claim|citation):\d{1,6}$",
        description="`claim:<idx>` or `citation:<idx>` (positions in the audit's result).",
        examples=["claim:0"],
    )
    decision: Literal["confirm", "overturn", "note"]
    reason: str | None = Field(
        default=None,
        max_length=4000,
        description="Required for overturn and note.",
    )


@api_router.post(
    "/audits/{audit_id}/reviews",
    status_code=201,
    summary="Record a reviewer's decision on one item of an audit (a trail event)",
    description="Confirm or overturn the machine verdict of a claim or citation, or add a "
    "note. The decision is appended to the hash chain as a `review.recorded` event; "
    "`GET /v1/audits/{id}` shows the reviewed state. Roles `reviewer` and `admin`.",
    responses=error_responses(*AUTH_ERRORS, 404),
)
def create_review(
    audit_id: Annotated[str, Path(max_length=64)],
    body: ReviewRequest,
    principal: Reviewer,
    services: ServicesDep,
) -> dict[str, Any]:
    if services.trail.get(audit_id, tenant=principal.tenant) is None:
        raise ApiError(404, "not_found", "no audit with this id")
    try:
        (stored,) = append_reviews(
            services.trail,
            [Decision(audit_id, body.item, body.decision, body.reason)],
            tenant=principal.tenant,
            reviewer=f"key:{principal.prefix}",
        )
    except UsageError as exc:
        raise ApiError(422, "invalid_review", str(exc)) from None
    return stored


__all__ = ["api_router", "router"]
