"""``/v1/kg``: statistics of a domain graph and entity search."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.encoders import jsonable_encoder

from services.api.deps import Reader, ServicesDep
from services.api.routes import AUTH_ERRORS, error_responses
from services.api.schemas import EntityPage, KgDomain

router = APIRouter(prefix="/v1/kg", tags=["knowledge graph"])


@router.get(
    "/{domain}/stats",
    response_model=dict[str, Any],
    summary="Facts, entities and sources of one domain graph",
    responses={
        200: {
            "content": {
                "application/json": {
                    "example": {
                        "kg_version": "3f2a9c1d",
                        "facts": 1843,
                        "entities": 912,
                        "sources": 57,
                        "facts_without_source": 0,
                        "facts_per_family": {"maxDailyDose": 120},
                        "entities_per_type": {"Drug": 400},
                        "subjects_per_family": {"maxDailyDose": 118},
                    }
                }
            }
        },
        **error_responses(*AUTH_ERRORS, 503),
    },
)
def kg_stats(domain: KgDomain, principal: Reader, services: ServicesDep) -> dict[str, Any]:
    kb = services.kb_loader(domain)
    return jsonable_encoder(kb.stats().get(domain, {}))


@router.get(
    "/{domain}/entities",
    response_model=EntityPage,
    summary="Entities whose label or alias contains q (best matches first)",
    responses=error_responses(*AUTH_ERRORS, 422, 503),
)
def kg_entities(
    domain: KgDomain,
    principal: Reader,
    services: ServicesDep,
    q: Annotated[str, Query(min_length=1, max_length=200, examples=["acetaminophen"])],
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    kb = services.kb_loader(domain)
    items = [jsonable_encoder(e.to_dict()) for e in kb.search(q, domain=domain, limit=limit)]
    return {"domain": domain, "query": q, "items": items}
