"""Alembic revisions of the audit-trail schema."""
