"""Bringing other agents' own memories into the wiki, one module per source.

- `claude_auto_memory`: Claude Code's auto memory, `~/.claude/projects/<project>/memory/*.md`.
- `codex_memories`: Codex CLI's memories, `$CODEX_HOME/memories/`.
- `mirror`: what both share: every note goes through the write gate (source `import`) in one
  commit, and a record in `state/` makes a run idempotent (unchanged input, no commit), keeps a
  person's later edits of an imported note, and follows a source that is deleted.
"""
