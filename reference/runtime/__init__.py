"""The chat runtime: the truth pipeline, then the realizer under a register."""

from reference.runtime.chat import ChatResponse, ChatRuntime, TurnEvent
from reference.runtime.config import RuntimeConfig
from reference.runtime.steps import TurnRuntime, TurnSteps

__all__ = ["ChatResponse", "ChatRuntime", "RuntimeConfig", "TurnEvent", "TurnRuntime", "TurnSteps"]
