"""JSON for the hook path without importing the `json` package.

`import json` pulls in `re` (and `enum` behind it): about 9 ms, most of what the hook may spend
beyond the interpreter's own start-up. The C accelerator `_json` that `json` itself uses can be
driven directly, which is what this module does; where it is missing or its interface differs (a
Python other than CPython, a future change), it falls back to the `json` package. Both paths
produce the same results as `json.loads` and compact, ASCII-only `json.dumps` (a test checks it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WS = " \t\n\r"
TOO_DEEP = "JSON nested too deeply"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _ScanContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


def _default(obj: object) -> object:
    raise TypeError(f"Object of type {obj.__class__.__name__} is not JSON serializable")


_scan: Callable[[str, int], tuple[Any, int]] | None = None
_encode_ascii: Callable[[Any, int], Any] | None = None
_encode_utf: Callable[[Any, int], Any] | None = None
try:
    import _json

    _scan = _json.make_scanner(_ScanContext())  # type: ignore[arg-type]
    _encode_ascii = _json.make_encoder(
        None, _default, _json.encode_basestring_ascii, None, ":", ",", False, False, True
    )
    _encode_utf = _json.make_encoder(
        None, _default, _json.encode_basestring, None, ":", ",", False, False, True
    )
except (ImportError, AttributeError, TypeError):  # pragma: no cover - non-CPython
    _scan = _encode_ascii = _encode_utf = None


def loads(text: str) -> Any:
    """Parse one JSON document; ValueError when it is not one."""
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WS + "\ufeff"))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"Expecting value at char {exc.value}") from None
    except RecursionError:
        raise ValueError(TOO_DEEP) from None
    if text[end:].strip(_WS):
        raise ValueError(f"Extra data at char {end}")
    return value


def dumps(value: Any, ascii: bool = True) -> str:
    """Compact JSON, as `json.dumps(v, separators=(",", ":"), ensure_ascii=ascii)` gives it."""
    encode = _encode_ascii if ascii else _encode_utf
    if encode is None:  # pragma: no cover
        import json

        return json.dumps(value, separators=(",", ":"), ensure_ascii=ascii)
    return "".join(encode(value, 0))
