"""``/docs``: Swagger UI from the locally installed ``swagger-ui-bundle`` assets, no CDN.

FastAPI's default ``/docs`` page loads its script and stylesheet from cdn.jsdelivr.net, so
it is a blank page on a machine without internet access (the usual place for an audit
service). This page is the same Swagger UI, its assets served under ``/docs/static`` from
the Python package ``swagger-ui-bundle``. ReDoc (``/redoc``) has no local bundle and is off.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

DOCS_URL = "/docs"
STATIC_URL = "/docs/static"
OAUTH2_REDIRECT_URL = "/docs/oauth2-redirect"


def install_docs(app: FastAPI) -> None:
    """Serve ``/docs`` (Swagger UI) and its assets from the installed package."""
    app.mount(STATIC_URL, StaticFiles(directory=swagger_ui_path), name="swagger-ui")

    @app.get(DOCS_URL, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}{STATIC_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{STATIC_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{STATIC_URL}/favicon-32x32.png",
            oauth2_redirect_url=f"{root}{OAUTH2_REDIRECT_URL}",
        )

    @app.get(OAUTH2_REDIRECT_URL, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()


__all__ = ["DOCS_URL", "STATIC_URL", "install_docs"]
