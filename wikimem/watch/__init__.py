"""`wikimem watch`: memory/ kept committed and indexed while people edit it by hand.

- `handedits`: find a person's uncommitted edits of notes and commit them through the gate
  (standard library and the wiki only: `wikimem watch --once` and tests use it directly);
- `watcher`: the long-running loop on watchdog (the only module that imports it), which calls
  `handedits` after a quiet spell, refreshes the search index, and optionally imports Claude
  Code's auto memory as it changes.
"""
