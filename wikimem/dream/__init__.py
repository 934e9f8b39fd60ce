"""The dream pass: consolidate recorded sessions into the wiki. See `runner`.

This package's own module holds only what the command line needs before a dream runs (the
backends' names, and which one `auto` stands for), so `wikimem --help` and `status` do not
import the runner or the backends.
"""

import os

MODEL_BACKENDS = ("anthropic", "claude-cli", "codex-cli", "gemini-cli", "openai")
BACKENDS = ("auto", "offline", *MODEL_BACKENDS)


def resolve(name: str) -> str:
    """The backend `name` stands for (`auto` resolved)."""
    if name == "auto":
        return "anthropic" if os.environ.get("ANTHROPIC_API_KEY", "").strip() else "offline"
    return name
