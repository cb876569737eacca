"""The auditor's version, stamped on every result (``auditor_version``)."""

__version__ = "0.1.0"
AUDITOR_VERSION = f"kgaudit-auditor/{__version__}"
