#!/usr/bin/env python3
"""PostMemoryWrite: mirror every written note into another folder (a stand-in for an external
knowledge base: a docs site, a team wiki, a backup disk).

The folder is the first argument (or $WIKIMEM_MIRROR). Created and updated notes are copied with
the same relative path; deleted ones are removed. Safe to run async.

    [[gate.post_write]]
    command = "python3 ~/.wikimem/hooks/mirror.py ~/Documents/team-kb"
    match = "projects/**"
    async = true
"""

import json
import os
import sys
import tempfile


def main() -> int:
    target_root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("WIKIMEM_MIRROR")
    if not target_root:
        print(
            "mirror.py: give the mirror folder as an argument or $WIKIMEM_MIRROR", file=sys.stderr
        )
        return 1
    payload = json.load(sys.stdin)
    root = os.path.realpath(os.path.expanduser(target_root))
    target = os.path.realpath(os.path.join(root, payload["path"]))
    if os.path.commonpath([root, target]) != root:
        print(f"mirror.py: refusing to write outside {root}", file=sys.stderr)
        return 1
    if payload["operation"] == "delete":
        if os.path.exists(target):
            os.unlink(target)
        return 0
    os.makedirs(os.path.dirname(target), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(payload["written_content"])
    os.replace(tmp, target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
