"""``/docs`` works offline: Swagger UI from locally installed assets, nothing from a CDN."""

from __future__ import annotations

import re
from typing import Any


def test_docs_page_references_only_local_urls(api: Any) -> None:
    r = api.client.get("/docs")
    assert r.status_code == 200
    html = r.text
    urls = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", html)
    assert urls, html
    remote = [u for u in urls if re.match(r"(?i)^(https?:)?//", u)]
    assert remote == [], f"/docs loads from the network: {remote}"
    assert "/docs/static/swagger-ui-bundle.js" in html
    assert "/docs/static/swagger-ui.css" in html
    assert "'/openapi.json'" in html or '"/openapi.json"' in html


def test_docs_assets_are_served(api: Any) -> None:
    for path, kind in [
        ("/docs/static/swagger-ui-bundle.js", "javascript"),
        ("/docs/static/swagger-ui.css", "css"),
        ("/docs/static/favicon-32x32.png", "png"),
    ]:
        r = api.client.get(path)
        assert r.status_code == 200, path
        assert kind in r.headers["content-type"], (path, r.headers["content-type"])
        assert len(r.content) > 500
    assert "SwaggerUIBundle" in api.client.get("/docs/static/swagger-ui-bundle.js").text
    assert api.client.get("/docs/oauth2-redirect").status_code == 200


def test_no_cdn_redoc(api: Any) -> None:
    assert api.client.get("/redoc").status_code == 404
