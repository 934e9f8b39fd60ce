#!/usr/bin/env python3
"""PreMemoryWrite: block any note that contains something that looks like a token.

wikimem's own gate already redacts known secret formats; this catches the unknown ones: long,
high-entropy runs of letters and digits that are not hex hashes or UUIDs. Exit 2 blocks the
write and the reason (stderr) lands in the report and the commit message.

    [[gate.pre_write]]
    command = "python3 ~/.wikimem/hooks/no-tokens.py"
    match = "**"
"""

import json
import math
import re
import sys
from collections import Counter

CANDIDATE = re.compile(r"[A-Za-z0-9_\-+/=]{32,}")
HEX_OR_UUID = re.compile(r"[0-9a-fA-F-]+")


def entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(n / len(s) * math.log2(n / len(s)) for n in counts.values())


def main() -> int:
    payload = json.load(sys.stdin)
    content = payload.get("proposed_content") or ""
    for match in CANDIDATE.finditer(content):
        token = match.group(0)
        if HEX_OR_UUID.fullmatch(token) or token.count("/") > 2:
            continue  # hashes, UUIDs and paths
        has_mix = (
            any(c.isdigit() for c in token)
            and any(c.isupper() for c in token)
            and any(c.islower() for c in token)
        )
        if has_mix and entropy(token) > 4.0:
            print(
                f"looks like a token: {token[:6]}… ({len(token)} chars) in {payload['path']}",
                file=sys.stderr,
            )
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
