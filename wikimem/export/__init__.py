"""`wikimem export`: a managed memory block in the instruction files agents already read.

Many agents have no hooks, yet nearly all read `AGENTS.md` or a file of their own at the start of
a session. A person opts one file in at a time (`wikimem export --to FILE`); wikimem then keeps a
block between two marker lines in it, rewrites the block after each dream, and takes it out again
on `wikimem uninstall export`. docs/export.md says it for users.

- `block`: the block itself, as bytes: finding the markers, putting a block in, taking it out,
  never changing a byte outside the markers (a CRLF file keeps its CRLF);
- `targets`: which files are the person's own (user-level) and which a repository's, and the
  project a repository file belongs to;
- `registry`: the files export is enabled in (`state/exports.json`, machine-local);
- `content`: what a block says: exactly what a session start gives for that scope (the same
  selection and reading code, `wikimem.recall.inject.standing`), less any line a secret was
  redacted from;
- `files`: writing, checking and removing blocks in files, idempotently and atomically.
"""
