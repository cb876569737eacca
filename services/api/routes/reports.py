"""``GET /v1/reports``: the compliance report over the API, with the CLI's parameters.

The app factory mounts it: ``app.include_router(services.api.routes.reports.router)``. It relies on
``services.api.deps`` (``Reader`` — any key with the ``read`` permission — and
``ServicesDep`` for the trail and settings) and on the app's JSON error handlers; a period
without audits answers 404 ``no_audits``, a bad parameter 422. Keys see their own tenant
only: ``tenant``, when given, must be the key's tenant (403 otherwise).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from services.api.deps import Reader, ServicesDep
from services.api.errors import ApiError
from services.api.routes import AUTH_ERRORS, error_responses
from services.report import MEDIA_TYPES, build_report, render
from services.report.context import checkpoint_key, load_context
from services.report.data import NoAudits

router = APIRouter(prefix="/v1", tags=["reports"])
_DAY = r"^\d{4}-\d{2}-\d{2}$"
_CONTENT = {
    "content": {m.split(";")[0]: {} for m in MEDIA_TYPES.values()},
    "description": "The report in the requested format.",
}


@router.get(
    "/reports",
    summary="Compliance report over a period",
    description="Executive summary, charts, the worst audits with claim-level evidence, "
    "methodology, graph and rule-pack versions and the audit-trail integrity statement, as "
    "JSON, CSV, self-contained HTML or PDF. Same parameters as `kgaudit report`.",
    responses={200: _CONTENT, 404: error_responses(404)[404], **error_responses(*AUTH_ERRORS, 422)},
    response_class=Response,
)
def get_report(
    principal: Reader,
    services: ServicesDep,
    start: Annotated[
        str, Query(alias="from", pattern=_DAY, description="First day (UTC), YYYY-MM-DD.")
    ],
    end: Annotated[str, Query(alias="to", pattern=_DAY, description="Last day (UTC), inclusive.")],
    domain: Literal["finance", "medical", "legal", "auto"] | None = None,
    tenant: Annotated[
        str | None,
        Query(
            max_length=64, description="Defaults to the key's tenant; another tenant is refused."
        ),
    ] = None,
    format: Literal["json", "csv", "html", "pdf"] = "json",
    worst: Annotated[int, Query(ge=0, le=100)] = 10,
    by: Annotated[
        Literal["recorded", "answered"],
        Query(description="Count audits by the day recorded, or said (`metadata.answered_at`)."),
    ] = "recorded",
) -> Response:
    if tenant is not None and tenant != principal.tenant:
        raise ApiError(403, "forbidden", "an API key can only report on its own tenant")
    settings = services.settings
    kb, rules, _ = load_context(settings)
    try:
        report = build_report(
            services.trail,
            start=start,
            end=end,
            domain=domain,
            tenant=principal.tenant,
            worst=worst,
            kb=kb,
            rules=rules,
            key=checkpoint_key(settings),
            by=by,
            review_risk_threshold=settings.review_risk_threshold,
        )
    except NoAudits as exc:
        raise ApiError(404, "no_audits", str(exc)) from exc
    body: Any = render(report, format)
    name = f"kgaudit-report-{report['parameters']['from']}-{report['parameters']['to']}"
    disposition = "attachment" if format in ("pdf", "csv") else "inline"
    return Response(
        body,
        media_type=MEDIA_TYPES[format],
        headers={"Content-Disposition": f'{disposition}; filename="{name}.{format}"'},
    )


__all__ = ["router"]
