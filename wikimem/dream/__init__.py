"""The dream pass: consolidate recorded sessions into the wiki. See `runner`.

This package's own module holds only what the command line needs before a dream runs (the
backends' names), so `wikimem --help` does not import the runner.
"""

MODEL_BACKENDS = ("anthropic", "claude-cli", "codex-cli", "gemini-cli", "openai")
BACKENDS = ("auto", "offline", *MODEL_BACKENDS)
