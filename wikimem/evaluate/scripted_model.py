"""A stand-in for the Anthropic Messages API that answers as a good model would.

`wikimem dream --backend anthropic` talks to it over HTTP (`ANTHROPIC_BASE_URL`), so the whole
model path runs for real: chunking, the prompt, the tool call, validation, the correction round,
the gate, the commit. The answers are scripted per turn (`Turn.model`: `Put` a claim on a
subject, `Drop` one) and given the way a careful model would, using only what the prompt shows:

  - the chunk's project comes from the prompt's `Project:` line, a turn is recognised by its
    prompt text in the rendered events, and its claims go to that project's notes or the profile;
  - when the tool offers `claim`/`retract` operations (the claims protocol), each `Put` is one
    `claim` (its subject named after the subject pattern) and each `Drop` a `retract` quoting the
    claim as the prompt shows it; wikimem writes the digests itself;
  - otherwise (the upsert protocol), an existing note is rewritten whole from the text the prompt
    shows (bullets on the same subject replaced, the rest kept), and one digest per session is
    written, named as the prompt's rules say (the date and the session prefix of the headers);
  - either way, notes it had to change without seeing them whole (not shown, or clipped) are
    counted: under the upsert protocol that is where data is lost;
  - a correction round gets the same answer again.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from wikimem.evaluate.cases import Drop, Put

_NOTE_BLOCK = re.compile(r"\n### (\S+)([^\n]*)\n```markdown\n(.*?)\n```\n", re.S)
_SESSION_HEAD = re.compile(
    r"^### session (?P<client>[\w-]+):(?P<prefix>\S+) \((?P<name>[\w-]+), started "
    r"(?P<date>\d{4}-\d\d-\d\d)",
    re.M,
)
_CLIENT_NAMES = {
    "claude": "Claude Code",
    "codex": "Codex",
    "cursor": "Cursor",
    "gemini": "Gemini CLI",
}


def _asked(text: str, mark: str) -> bool:
    """The rendered events hold a user prompt starting with `mark` (numbered or not)."""
    return re.search(r"user(?: \(turn \d+\))?: " + re.escape(mark), text) is not None


def subject_label(pattern: str, fallback: str) -> str:
    """A readable subject from a subject pattern: `staging (box|host)` -> "staging box"; the
    longest top-level alternative wins. The same pattern always gives the same label, so a
    correction names the subject its first statement named."""
    simple = re.sub(r"\(([^()|]*)(?:\|[^()]*)?\)", r"\1", pattern)
    simple = simple.replace(".*", " ").replace("\\b", "").replace("\\.", ".")
    alternatives = [re.sub(r"[?*+^$\\\[\]]", "", a).strip() for a in simple.split("|")]
    best = " ".join(max(alternatives, key=len, default="").split())
    return best if re.search(r"\w", best) else fallback


def marker(prompt: str) -> str:
    """How a prompt shows in the rendered events (whitespace collapsed), its first 80 chars."""
    return " ".join(prompt.split())[:80]


@dataclass
class WorkingNote:
    path: str
    title: str
    kind: str
    lines: list[str]
    changed: bool = False


@dataclass
class Stats:
    requests: int = 0
    corrections: int = 0
    turns_applied: int = 0
    protocol: str = ""  # "claims" (claim/retract offered) or "upserts"
    blind_rewrites: list[str] = field(default_factory=list)  # notes changed without being shown
    clipped_rewrites: list[str] = field(default_factory=list)  # notes changed from a clipped view
    digest_collisions: list[str] = field(default_factory=list)  # two sessions, one digest path

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _split_note(text: str) -> tuple[str, str, list[str], bool]:
    """(title, kind, body lines, clipped) of a note as the prompt shows it."""
    title, kind, body = "", "", text
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            front, body = text[4:end], text[end + 5 :]
            m = re.search(r"^title:\s*(.+)$", front, re.M)
            title = m.group(1).strip().strip("'\"") if m else ""
            m = re.search(r"^kind:\s*(\S+)", front, re.M)
            kind = m.group(1).strip("'\"") if m else ""
    lines = body.split("\n")
    clipped = any("note clipped" in ln for ln in lines)
    lines = [ln for ln in lines if "note clipped" not in ln]
    while lines and not lines[-1].strip():
        lines.pop()
    return title, kind, lines, clipped


def _default_title(path: str, project: str) -> str:
    stem = path.rsplit("/", 1)[-1][:-3].replace("-", " ")
    if path.startswith("projects/"):
        return f"{stem.capitalize()} of {project}"
    return stem.capitalize()


def _kind(path: str) -> str:
    top = path.split("/", 1)[0]
    return {"profile": "profile", "projects": "project", "tools": "tool"}.get(top, "general")


class ScriptedModel:
    def __init__(self, turns: Iterable[tuple[str, tuple[object, ...]]]) -> None:
        self.turns = [(marker(p), ops) for p, ops in turns if ops]
        self.stats = Stats()
        self._digests: dict[str, str] = {}  # digest path -> session it was written for
        self._lock = threading.Lock()

    # -- the Messages API ------------------------------------------------------------------------

    def respond(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.stats.requests += 1
            messages = request.get("messages") or []
            if len(messages) > 1:
                self.stats.corrections += 1
            first = messages[0]["content"] if messages else ""
            if isinstance(first, list):
                first = "".join(b.get("text", "") for b in first if isinstance(b, dict))
            tools = request.get("tools") or [{"name": "apply_operations"}]
            operations = self.operations(str(first), claims="claim" in _op_names(tools[0]))
            n = self.stats.requests
            return {
                "id": f"msg_scripted_{n}",
                "type": "message",
                "role": "assistant",
                "model": request.get("model", "scripted"),
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"toolu_scripted_{n}",
                        "name": tools[0].get("name", "apply_operations"),
                        "input": {"operations": operations},
                    }
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {
                    "input_tokens": len(str(first)) // 4,
                    "output_tokens": len(json.dumps(operations)) // 4,
                    "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0,
                },
            }

    # -- the good model ------------------------------------------------------------------------

    def operations(self, prompt: str, claims: bool = False) -> list[dict[str, Any]]:
        self.stats.protocol = "claims" if claims else "upserts"
        project_m = re.search(r"^Project: (\S+)", prompt, re.M)
        project = project_m.group(1) if project_m else "unknown"
        head, _, events = prompt.partition("## New events since the last consolidation")
        shown: dict[str, str] = {}
        for m in _NOTE_BLOCK.finditer(head):
            text = m.group(3)
            if "CLIPPED" in m.group(2):
                text = text.rstrip().removesuffix("[…]") + "\n[… note clipped for this prompt …]"
            shown[m.group(1)] = text
        catalogue = set(re.findall(r"^- (\S+\.md) — ", head, re.M))
        notes: dict[str, WorkingNote] = {}
        sessions = self._sessions(events)
        if claims:
            return self._claims(project, shown, catalogue, sessions)

        def note(path: str) -> WorkingNote:
            if path not in notes:
                if path in shown:
                    title, kind, lines, clipped = _split_note(shown[path])
                    if clipped:
                        self.stats.clipped_rewrites.append(path)
                    notes[path] = WorkingNote(
                        path, title or _default_title(path, project), kind or _kind(path), lines
                    )
                else:
                    if path in catalogue:
                        self.stats.blind_rewrites.append(path)
                    notes[path] = WorkingNote(path, _default_title(path, project), _kind(path), [])
            return notes[path]

        for _, _, _, text in sessions:
            for mark, ops in self.turns:
                if not _asked(text, mark):
                    continue
                self.stats.turns_applied += 1
                for op in ops:
                    if isinstance(op, Put | Drop):
                        path = op.note.replace("P/", f"projects/{project}/", 1)
                        n = note(path)
                        subject = re.compile(op.subject, re.I)
                        kept = [
                            ln for ln in n.lines if not (ln.startswith("- ") and subject.search(ln))
                        ]
                        if isinstance(op, Put):
                            kept.append(f"- {op.line}")
                        n.lines = kept
                        n.changed = True
        out: list[dict[str, Any]] = []
        for n in notes.values():
            if not n.changed:
                continue
            if not any(ln.strip() for ln in n.lines):
                out.append({"op": "delete", "path": n.path, "reason": "retracted by the user"})
                continue
            out.append(
                {
                    "op": "upsert",
                    "path": n.path,
                    "title": n.title,
                    "kind": n.kind,
                    "tags": [],
                    "body": "\n".join(n.lines).strip("\n") + "\n",
                    "sources": sorted({f"{c}:{p}" for c, p, _, _ in sessions}),
                }
            )
        for client, prefix, date, text in sessions:
            out.append(self._digest(project, client, prefix, date, text))
        return out

    def _claims(
        self,
        project: str,
        shown: dict[str, str],
        catalogue: set[str],
        sessions: list[tuple[str, str, str, str]],
    ) -> list[dict[str, Any]]:
        """The claims protocol: one `claim` per Put, one `retract` per Drop; no digests."""
        out: list[dict[str, Any]] = []
        for client, prefix, _, text in sessions:
            for mark, ops in self.turns:
                if not _asked(text, mark):
                    continue
                self.stats.turns_applied += 1
                for op in ops:
                    if not isinstance(op, Put | Drop):
                        continue
                    path = op.note.replace("P/", f"projects/{project}/", 1)
                    if path in catalogue and path not in shown:
                        self.stats.blind_rewrites.append(path)
                    elif path in shown and "note clipped" in shown[path]:
                        self.stats.clipped_rewrites.append(path)
                    stem = path.rsplit("/", 1)[-1][:-3].replace("-", " ")
                    if isinstance(op, Put):
                        claim: dict[str, Any] = {
                            "op": "claim",
                            "path": path,
                            "subject": subject_label(op.subject, stem),
                            "text": op.line,
                            "sources": [f"{client}:{prefix}"],
                        }
                        if path not in catalogue:
                            claim["title"] = _default_title(path, project)
                        out.append(claim)
                    else:
                        out.append(
                            {
                                "op": "retract",
                                "path": path,
                                "text": self._quote(shown.get(path, ""), op, stem),
                            }
                        )
        return out

    @staticmethod
    def _quote(note: str, op: Drop, fallback: str) -> str:
        """The claim a retraction names, as the prompt shows it (else its subject)."""
        subject = re.compile(op.subject, re.I)
        for line in _split_note(note)[2] if note else []:
            if line.startswith("- ") and subject.search(line):
                return line[2:].strip()
        return subject_label(op.subject, fallback)

    def _sessions(self, events: str) -> list[tuple[str, str, str, str]]:
        """(client, session prefix, date, rendered lines) per session of the chunk."""
        heads = list(_SESSION_HEAD.finditer(events))
        out = []
        for i, m in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(events)
            out.append((m["client"], m["prefix"], m["date"], events[m.end() : end]))
        return out

    def _digest(
        self, project: str, client: str, prefix: str, date: str, text: str
    ) -> dict[str, Any]:
        short = re.sub(r"[^a-z0-9-]", "-", prefix.lower()).strip("-") or "session"
        path = f"projects/{project}/sessions/{date}-{short}.md"
        asked = re.search(r"\] user(?: \(turn \d+\))?: (.+)", text)
        answered = re.findall(r"\] assistant: (.+)", text)
        owner = self._digests.get(path)
        if owner is not None and owner != text[:200]:
            self.stats.digest_collisions.append(path)
        self._digests[path] = text[:200]
        body = (
            f"{_CLIENT_NAMES.get(client, client)} session in {project} on {date}.\n\n"
            f"- Asked: {asked.group(1)[:300] if asked else '(no prompt)'}\n"
            f"- Outcome: {answered[-1][:300] if answered else '(no answer)'}\n"
        )
        return {
            "op": "upsert",
            "path": path,
            "title": f"Session {date} {short}",
            "kind": "session",
            "tags": ["session", client],
            "body": body,
            "sources": [f"{client}:{prefix}"],
        }


def _op_names(tool: dict[str, Any]) -> list[str]:
    """The operation names the tool's input schema offers (empty when it does not say)."""
    try:
        items = tool["input_schema"]["properties"]["operations"]["items"]
        return list(items["properties"]["op"]["enum"])
    except (KeyError, TypeError):
        return []


class MessagesServer:
    """`POST /v1/messages` on 127.0.0.1, answered by a `ScriptedModel`; a context manager."""

    def __init__(self, model: ScriptedModel) -> None:
        self.model = model

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                    if not self.path.rstrip("/").endswith("/v1/messages"):
                        raise ValueError(f"unexpected path {self.path}")
                    status, payload = 200, model.respond(request)
                except Exception as exc:  # the dream must see a clean API error, not a hang
                    status = 400
                    payload = {
                        "type": "error",
                        "error": {"type": "invalid_request_error", "message": str(exc)},
                    }
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        port = self.server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def __enter__(self) -> MessagesServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
