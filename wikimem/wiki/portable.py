"""Names every system the wiki is opened on can hold: Windows' reserved device names.

memory/ is a git repository a person clones wherever they work, Windows included, where a file
or folder named CON, PRN, AUX, NUL, COM0–9 or LPT0–9 (any case, with any extension:
`con.md`, `Aux.notes.md`; the superscript digits too) is a device, not a file, and a name ending
in a dot or a space cannot be made at all: git cannot check such a path out, and the clone fails.

Contract: `problem(segment)` says why one path segment (a folder or a file name, as it is on
disk) cannot be used, or None; the write gate refuses any note path with such a segment
(`wikimem.wiki.notes.validate_path`), and `avoid(slug)` is what the names wikimem makes itself
(project slugs, note names from free text) use instead of a reserved one. Standard library only:
the hooks name projects with it.
"""

from __future__ import annotations

_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{port}{n}" for port in ("COM", "LPT") for n in (*"0123456789", "¹", "²", "³")}
)


def reserved(segment: str) -> bool:
    """Whether Windows takes `segment` for a device: its part before the first dot (spaces
    before that dot ignored) is a device name, in any case."""
    return segment.split(".", 1)[0].rstrip(" ").upper() in _DEVICES


def problem(segment: str) -> str | None:
    if reserved(segment):
        return (
            f"{segment!r} names a device on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9, with "
            "any extension), so the wiki could not be opened there"
        )
    if segment.endswith((".", " ")):
        return (
            f"{segment!r} ends in a dot or a space, which Windows cannot hold, so the wiki "
            "could not be opened there"
        )
    return None


def avoid(slug: str, suffix: str) -> str:
    """`slug`, or `slug-suffix` when `slug` is a reserved name."""
    return f"{slug}-{suffix}" if reserved(slug) else slug
