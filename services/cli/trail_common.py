"""What the trail's command modules share: the trail a command works on."""

from __future__ import annotations

from typing import Any

from auditor.errors import UsageError


def _trail(db_url: str | None) -> Any:
    """The trail, with the settings' checkpoint policy and log (when a key is set)."""
    from auditor.settings import get_settings
    from trail import Trail

    settings = get_settings()
    try:
        return Trail.from_settings(settings, db_url)
    except UsageError:  # a weak key: reading and verifying still work, signing refuses
        from trail.metadata import MetadataLimits

        trail = Trail(db_url or settings.db_url, durable=settings.trail_durable_commits)
        trail.metadata_limits = MetadataLimits.from_settings(settings)  # as from_settings
        return trail
