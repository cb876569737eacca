"""The OpenAI-compatible chat endpoint: the embedded engine answers (KG-constrained by
default), the auditor audits the answer, the trail records it.

The HTTP routes are :mod:`services.api.routes.chat`; ``ChatService`` holds the model and can
be injected as ``app.state.chat_service`` (tests). Importing this package imports neither
torch nor the engine.
"""

from __future__ import annotations

from services.chat.service import ChatService

__all__ = ["ChatService"]
