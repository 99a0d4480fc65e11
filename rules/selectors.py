"""Reads of the rules app: passage search and the rules assistant. The assistant's stages live in
rules/assistant/, whose README names them in order."""

from .assistant.answer import Answer, ask, conflicts, passage_result
from .assistant.retrieve import search_passages
from .assistant.understand import MAX_QUESTION, InvalidQuestion

__all__ = ["MAX_QUESTION", "Answer", "InvalidQuestion", "ask", "conflicts", "passage_result", "search_passages"]
