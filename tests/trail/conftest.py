"""Trail tests run against SQLite and (marked ``postgres``) PostgreSQL.

The fixtures (``db_url``, ``trail``, ``pg_url``) are the shared ones of the root
``tests/conftest.py``: one throw-away PostgreSQL database per session, emptied before each
test; ``KGAUDIT_REQUIRE_PG=1`` (CI) fails instead of skipping when the server is unreachable.
"""
