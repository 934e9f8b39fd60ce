"""Files that ship with wikimem besides its code: note and gate templates, the hook script, docs,
the OpenCode plugin.

Contract: `resource(name, *parts)` is the absolute path of `templates/…`, `hooks/…`, `docs/…` or
`integrations/opencode/…`
in a source checkout (where they live at the repository's top) and in an installed wheel alike:
`wikimem/_data/` links to those folders in the checkout, and the wheel carries their files there.
"""

from __future__ import annotations

import os

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_data")


def resource(name: str, *parts: str) -> str:
    return os.path.realpath(os.path.join(DATA_DIR, name, *parts))
