"""Claims from the whole session: what the agent concluded and what a tool printed (docs/memory.md).

The person is not the only one who learns something in a session. The agent reads
`pyproject.toml` and says "the minimum Python is 3.12 now, not 3.11"; `cat .python-version`
prints `3.12.4`. Those are facts about the project, newer than what the person typed weeks ago.

Contract:
  - `from_agent(message, said_on)`: the facts an agent's final message of a turn states about
    the project. Only a present-tense statement that gives a typed value (port, host, URL,
    version, owner, schedule, time, e-mail) of a named thing counts; what the agent did ("I
    updated …"), plans and offers ("I'll …", "you could …"), hedges ("probably", "seems"),
    outcomes of the moment ("the tests pass"), questions and paths it merely mentions do not.
  - `from_tool(command, output)`: the pinned versions a command printed from the files that
    pin them (`.python-version`, `.nvmrc`, `.node-version`, `.ruby-version`, `.tool-versions`,
    `go.mod`, `rust-toolchain(.toml)`, `pyproject.toml`'s `requires-python`, `package.json`'s
    `engines.node`), read with `cat`, `head`, `grep`, … .
  - `settings_read(command, output)` and `confirmed(settings, message)`: a setting a command
    printed from a configuration file (`spark.executor.instances 12` in
    `conf/spark-defaults.conf`) becomes a claim only when the agent's message of that turn
    names its value and its key: a whole config file printed is not a list of facts, the one
    the agent relied on is.
Both return `statements.Statement`s (kind fact, scope project); the caller records who said it
(`Provenance.by` "agent" or "tool") so an agent, and a person reading the note, can tell a
finding from what the person said. Deterministic, dependency-free.
"""

from __future__ import annotations

import re
import shlex
from datetime import date

from wikimem.dream import statements
from wikimem.dream.subjects import key_of

# Kinds of value a finding may give: checkable, and what people ask an agent about later. A
# path alone is not one (an agent's summary names the files it touched in every sentence).
TYPED = frozenset(
    {"port", "host", "url", "version", "owner", "schedule", "time", "email", "quantity"}
)
MAX_FINDING = 220
_NOT_A_FINDING = re.compile(
    r"^(?:i|i'?ve|i'?ll|i'?d|i'?m|i have|i will|let me|let'?s|we'?ll|you|your|now,|done|next|"
    r"here'?s|here is|feel free|if you|once you|to (?:fix|make|do)|please|note that you|"
    r"should i|want me|shall i|summary|in summary|all set|great|sure|ok(?:ay)?|"
    r"per (?:that|this|the|your)|according to|from (?:that|this|the|your) (?:page|readme|doc))\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|perhaps|probably|likely|possibly|seems?|appears?|should|could|would|"
    r"i think|i believe|suggest|recommend|consider|guess|assume|unclear|not sure|unless)\b",
    re.IGNORECASE,
)
# Outcomes of the moment: true of this run, not of the project.
_OUTCOME = re.compile(
    r"\b(?:pass(?:es|ed|ing)?|fail(?:s|ed|ing|ure)?|succeed(?:s|ed)?|green|broken|fixed|"
    r"works? now|error|errors|warning|timed out|exit(?:ed)? with|uploaded|created|added|removed|"
    r"deleted|updated|changed|edited|wrote|ran|installed|built|generated|again|back to)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"(?<!\w:)(?:;|:)\s+(?![^`]*`)")
_PRESENT = re.compile(
    r"\b(?:is|are|runs|listens|lives|sits|points|uses|requires|serves|resolves|targets|pins|"
    r"expects|defaults to|belongs to|is owned by|is maintained by|happens|starts|deploys to)\b",
    re.IGNORECASE,
)


def from_agent(message: str, said_on: date | None = None) -> list[statements.Statement]:
    out: list[statements.Statement] = []
    # "I read pyproject.toml: the minimum Python is 3.12 now" — what follows the colon is the
    # finding, what precedes it the action.
    clauses = [c for s in statements.sentences(message) for c in _CLAUSE.split(s)]
    for clause in clauses:
        text = clause.strip()
        if (
            text.endswith("?")
            or len(text) > MAX_FINDING
            or _NOT_A_FINDING.match(text)
            or _HEDGE.search(text)
            or _OUTCOME.search(text)
            or not _PRESENT.search(text)
        ):
            continue
        cleaned = statements.clean(text, said_on)
        key = key_of(cleaned)
        if key.attribute not in TYPED or not key.entity:
            continue
        out.append(statements.Statement("fact", cleaned, "project"))
    return out


# file name -> (what it pins, how to find the value in what was printed)
_PINNING_FILES: dict[str, tuple[str, re.Pattern[str]]] = {
    ".python-version": ("The Python version", re.compile(r"^\s*(\d+\.\d+(?:\.\d+)?)\s*$", re.M)),
    ".nvmrc": ("The Node.js version", re.compile(r"^\s*v?(\d+(?:\.\d+){0,2})\s*$", re.M)),
    ".node-version": ("The Node.js version", re.compile(r"^\s*v?(\d+(?:\.\d+){0,2})\s*$", re.M)),
    ".ruby-version": (
        "The Ruby version",
        re.compile(r"^\s*(?:ruby-)?(\d+\.\d+(?:\.\d+)?)\s*$", re.M),
    ),
    "go.mod": ("The Go version", re.compile(r"^go\s+(\d+\.\d+(?:\.\d+)?)\s*$", re.M)),
    "rust-toolchain": ("The Rust toolchain", re.compile(r"^\s*(\d+\.\d+(?:\.\d+)?)\s*$", re.M)),
    "rust-toolchain.toml": (
        "The Rust toolchain",
        re.compile(r"^\s*channel\s*=\s*\"(\d+\.\d+(?:\.\d+)?)\"", re.M),
    ),
    "pyproject.toml": (
        "The minimum Python version",
        re.compile(r"^\s*requires-python\s*=\s*[\"']\s*>=\s*(\d+\.\d+(?:\.\d+)?)", re.M),
    ),
    "package.json": (
        "The minimum Node.js version",
        re.compile(r"\"node\"\s*:\s*\"\s*>=\s*v?(\d+(?:\.\d+){0,2})"),
    ),
}
_TOOL_VERSIONS = re.compile(
    r"^\s*(python|nodejs|node|ruby|golang|go|rust|java|erlang|elixir)\s+"
    r"(\d+\.\d+(?:\.\d+)?)\s*$",
    re.M,
)
_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "type", "grep", "rg", "sed"})


def _first_word(command: str) -> str:
    """The command's first word as shlex would read it, when it is a plain one ("" if not)."""
    words = command.split(None, 1)
    return words[0].strip("'\"") if words else ""


def _files_read(command: str) -> list[str]:
    """The file names a read-only command prints (`cat .python-version`, `grep -n requires
    pyproject.toml`); none for anything else."""
    if _first_word(command) not in _READERS:
        return []  # most commands: no need to tokenise them
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    if (
        not words
        or words[0] not in _READERS
        or any(w in ("|", ">", ">>", "&&", ";") for w in words)
    ):
        return []
    return [w.rsplit("/", 1)[-1] for w in words[1:] if not w.startswith("-")]


def from_tool(command: str, output: str) -> list[statements.Statement]:
    out: list[statements.Statement] = []
    for name in _files_read(command):
        if name == ".tool-versions":
            for m in _TOOL_VERSIONS.finditer(output):
                tool = {"nodejs": "Node.js", "node": "Node.js", "golang": "Go"}.get(
                    m[1], m[1].capitalize()
                )
                out.append(_pinned(f"The {tool} version", name, m[2]))
            continue
        known = _PINNING_FILES.get(name)
        if known is None:
            continue
        what, pattern = known
        found = pattern.findall(output)
        if len(found) == 1:  # two values: a diff or several files, not one pin
            out.append(_pinned(what, name, found[0]))
    return out


def _pinned(what: str, name: str, value: str) -> statements.Statement:
    return statements.Statement("fact", f"{what} ({name}) is {value}.", "project")


_CONFIG_FILE = re.compile(
    r"(?:\.(?:conf|cfg|ini|properties|env|toml|ya?ml)|/\.env(?:\.[\w-]+)?|^\.env(?:\.[\w-]+)?)$"
)
_SETTING = re.compile(
    r"^\s*(?:export\s+)?(?P<key>[A-Za-z_][\w.-]{2,80})\s*(?:=|:|\s)\s*[\"']?"
    r"(?P<value>[^\s\"'#,]{1,120})[\"']?\s*(?:#.*)?$"
)
MAX_SETTINGS = 200


def settings_read(command: str, output: str) -> list[tuple[str, str, str]]:
    """(file, key, value) of the settings a read-only command printed from one config file."""
    if _first_word(command) not in _READERS:
        return []
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    if not words or words[0] not in ("cat", "head", "tail", "bat", "less", "more", "grep", "rg"):
        return []
    files = [w for w in words[1:] if not w.startswith("-") and _CONFIG_FILE.search(w)]
    if len(files) != 1:
        return []  # two files printed together: a value cannot be told to one
    found = []
    for line in output.splitlines()[:MAX_SETTINGS]:
        m = _SETTING.match(line)
        if m:
            found.append((files[0], m["key"], m["value"]))
    return found


def _terms(text: str) -> set[str]:
    words = re.findall(r"[a-z][a-z0-9]+", text.lower())
    return {w[:-1] if w.endswith("s") and len(w) > 4 else w for w in words}


def confirmed(settings: list[tuple[str, str, str]], message: str) -> list[statements.Statement]:
    """The settings the agent's message relies on: it names the value and a word of the key."""
    said = _terms(message)
    values = set(re.findall(r"[\w.:/-]+", message))
    out = []
    for file, key, value in settings:
        key_words = _terms(key.replace(".", " ").replace("_", " ")) - {"spark", "app", "the"}
        if value in values and key_words & said:
            out.append(statements.Statement("fact", f"{file} sets {key} = {value}.", "project"))
    return out
