"""The chat runtime: the truth pipeline, then the realizer under a register."""

from reference.realize.steps import TurnRuntime, TurnSteps
from reference.runtime.chat import ChatResponse, ChatRuntime, TurnEvent
from reference.runtime.config import RuntimeConfig

__all__ = ["ChatResponse", "ChatRuntime", "RuntimeConfig", "TurnEvent", "TurnRuntime", "TurnSteps"]
