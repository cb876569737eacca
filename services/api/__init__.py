"""The REST API of kgaudit (FastAPI): audits, the audit trail, graph queries, operations.

>>> from services.api import create_app
>>> app = create_app()  # doctest: +SKIP

The settings decide the database. Run it with ``kgaudit serve``; the routes are documented at ``/docs`` and in docs/api.md.
"""

from services.api.app import create_app

__all__ = ["create_app"]
