"""Bringing other agents' own memories into the wiki, one module per source.

- `claude_auto_memory`: Claude Code's auto memory, `~/.claude/projects/<project>/memory/*.md`.
- `codex_memories`: Codex CLI's memories, `$CODEX_HOME/memories/`.
- `gemini_memories`, `qwen_memories`: the `## … Added Memories` section Gemini CLI's and Qwen
  Code's `save_memory` keep in `~/.gemini/GEMINI.md` and `~/.qwen/QWEN.md` (`added_memories`).
- `cursor_rules`: a project's `.cursor/rules/*.mdc` (and `.cursorrules`), `~/.cursor/rules/`.
- `mirror`: what they all share: every note goes through the write gate (source `import`) in one
  commit, and a record in `state/` makes a run idempotent (unchanged input, no commit), keeps a
  person's later edits of an imported note, and follows a source that is deleted.
"""
