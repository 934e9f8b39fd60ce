"""The managed block in an instruction file, handled as bytes.

Contract: a block is every line from a line that reads `START` to the next line that reads
`END`, both included (surrounding spaces and the line ending aside). `find(data)` locates it;
`put(data, body)` replaces the block's lines with new ones (or appends a block after a blank
line when there is none) and `take_out(data, lead)` removes it; neither changes a byte before
the start marker's line or after the end marker's line, except the separator `put` added in
front of a block it appended (`lead`), which `take_out` removes with it when the block is still
the file's end. The block's own lines end the way the file's lines do (`\\r\\n` in a CRLF file).
A file with a start marker and no end marker, or two blocks, is refused (`BlockError`): which
bytes are wikimem's would be a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from wikimem.errors import WikimemError

START = "<!-- wikimem:export -->"
END = "<!-- /wikimem:export -->"
NOTICE = (
    "<!-- Managed by wikimem: rewritten by `wikimem export` and after each dream; edits here are"
    " replaced. `wikimem uninstall export` removes the block. -->"
)


class BlockError(WikimemError):
    """The file's markers do not delimit one block: nothing was changed."""


@dataclass(frozen=True)
class Span:
    start: int  # the first byte of the start marker's line
    end: int  # just after the end marker's line ending (or the file's end)


def newline_of(data: bytes) -> bytes:
    """The line ending the file uses (that of its first line); LF for a file without one."""
    at = data.find(b"\n")
    return b"\r\n" if at > 0 and data[at - 1 : at] == b"\r" else b"\n"


def _lines(data: bytes) -> list[tuple[int, int, bytes]]:
    """(start, end after the line ending, the line without it) of every line."""
    out = []
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl == -1 else nl + 1
        out.append((pos, end, data[pos:end].rstrip(b"\r\n")))
        pos = end
    return out


def find(data: bytes) -> Span | None:
    start: int | None = None
    span: Span | None = None
    for begin, end, line in _lines(data):
        text = line.strip()
        if text == START.encode():
            if start is not None or span is not None:
                raise BlockError(f"two `{START}` lines: which block is wikimem's is unclear")
            start = begin
        elif text == END.encode():
            if start is None:
                raise BlockError(f"`{END}` without `{START}` before it")
            span, start = Span(start, end), None
    if start is not None:
        raise BlockError(f"`{START}` without `{END}` after it")
    return span


def render(body: str, newline: bytes) -> bytes:
    """The block's bytes: the markers around the notice and `body`, each line ended `newline`."""
    lines = [START, NOTICE, *(ln for ln in body.split("\n") if not _marker_like(ln)), END]
    if lines[-2] == "":
        lines.pop(-2)
    return newline.join(ln.encode("utf-8", "surrogatepass") for ln in lines) + newline


def _marker_like(line: str) -> bool:
    # stored text must not end the block early or open a second one
    text = line.strip()
    return text.startswith(("<!-- wikimem:export", "<!-- /wikimem:export"))


def put(data: bytes, body: str) -> tuple[bytes, bytes]:
    """(the file's bytes with the block holding `body`, the separator added in front of a newly
    appended block: b"" when a block was already there)."""
    newline = newline_of(data)
    block = render(body, newline)
    span = find(data)
    if span is not None:
        return data[: span.start] + block + data[span.end :], b""
    if not data:
        lead = b""
    elif data.endswith(b"\n"):
        lead = newline
    else:
        lead = newline + newline
    return data + lead + block, lead


def take_out(data: bytes, lead: bytes = b"") -> bytes:
    span = find(data)
    if span is None:
        return data
    before, after = data[: span.start], data[span.end :]
    if lead and not after and before.endswith(lead):
        before = before[: -len(lead)]
    return before + after


def body_of(data: bytes) -> str | None:
    """What the block in `data` says (between the notice and the end marker, LF line endings),
    or None without a block."""
    span = find(data)
    if span is None:
        return None
    lines = [ln for _, _, ln in _lines(data[span.start : span.end])][1:-1]
    if lines and lines[0].strip() == NOTICE.encode():
        lines = lines[1:]
    return "\n".join(ln.decode("utf-8", "replace") for ln in lines)
