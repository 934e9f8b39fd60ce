#!/usr/bin/env python3
"""PreMemoryWrite: enforce front-matter fields beyond wikimem's own schema.

By default every note must carry non-empty `tags`; name other fields as arguments. A note
missing one is blocked (exit 2) with the list of what is missing. Deletions pass.

    [[gate.pre_write]]
    command = "python3 ~/.wikimem/hooks/require-fields.py tags owner"
    match = "projects/**"
"""

import json
import sys


def front_matter(text: str) -> dict[str, str]:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}
    fields = {}
    for line in lines[1:]:
        if line.strip() == "---":
            break
        if line[:1] not in (" ", "\t", "-", "#") and ":" in line:
            key, _, value = line.partition(":")
            fields[key.strip()] = value.split(" #", 1)[0].strip()
    return fields


def main() -> int:
    required = sys.argv[1:] or ["tags"]
    payload = json.load(sys.stdin)
    if payload.get("operation") == "delete":
        return 0
    fields = front_matter(payload.get("proposed_content") or "")
    missing = [f for f in required if fields.get(f, "") in ("", "[]", "''", '""', "null", "~")]
    if missing:
        print(
            f"{payload['path']}: missing required front matter: {', '.join(missing)}",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
