"""The OpenAI-compatible chat endpoint: the embedded engine answers (KG-constrained by
default), the auditor audits the answer, the trail records it.

``router`` is included by ``auditor.api.app.create_app``; ``ChatService`` holds the model and
can be injected as ``app.state.chat_service`` (tests). Importing this package imports neither
torch nor the engine.
"""

from __future__ import annotations

from auditor.chat.endpoints import router
from auditor.chat.service import ChatService

__all__ = ["ChatService", "router"]
