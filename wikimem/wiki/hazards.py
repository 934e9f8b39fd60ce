"""What an agent is never given as a standing rule without the person's confirmation: commands
that run code from elsewhere or send the machine's files out, and text that speaks to the agent
as if it were its instructions.

A line is read by its structure, not matched against spellings. The command is normalised first
(line continuations joined, quotes and escapes inside words dropped: `cu''rl`, `c\\url`, `'sh'`;
absolute paths reduced to the command's name: `/usr/bin/curl`; `.exe` dropped; wrappers that
run another command stripped: `sudo -E`, `doas`, `env VAR=x`, `/usr/bin/env`, `command`,
`exec`, `nohup`, `busybox`, `xargs`), then split into statements and pipeline stages, and each
is classified:

- `fetch_exec`: code fetched from the network and run, in one step (`curl … | sh`, into any
  shell or interpreter that reads its input; `bash <(curl …)`, `eval "$(wget …)"`,
  `iex (iwr …)`; inline code that downloads and evaluates) or in two (`curl -o x.sh … && bash
  x.sh`, `wget …/setup.sh; ./setup.sh`, `-OutFile` then `Start-Process`);
- `encoded_exec`: decoded text run (`base64 -d | sh`, `printf '\\x…' | sh`, `powershell -enc`,
  inline code that decodes and executes);
- `package_runner`: a package runner told not to ask (`npx -y`, `npm exec --yes`, `dlx`,
  `bunx`), or running a package from outside the default index (`uvx --from git+…`,
  `deno run https://…`, `go run host/module@version`);
- `other_index`: an install from another index, a URL or a repository (`pip install -i …`,
  `--extra-index-url`, `git+https://…`, `npm install --registry …`, `gem install --source …`,
  `cargo install --git …`, a registry set in config or in the environment);
- `upload`: a local file sent to another machine (`curl -F f=@…`, `-d @…`, `-T …`,
  `--post-file`, `-InFile`, `nc host port < file`, a secret's path copied by `scp`/`rsync` or
  piped into a network command);
- `reverse_shell`: a shell handed to another machine (`/dev/tcp/`, `nc -e`, `socat exec:`,
  inline code with a socket and a shell), or a key added to `authorized_keys`;
- `skip_verification`: `git commit -n`, `--no-verify`; `force_push`: a force-push to a shared
  branch (main, master, develop, release…, or no branch named: the current one, or `--all`);
- `tls_off`: certificate checks turned off for what follows (`GIT_SSL_NO_VERIFY`,
  `http.sslVerify false`, `strict-ssl false`, `NODE_TLS_REJECT_UNAUTHORIZED=0`,
  `trusted-host`);
- `injection`: text written to an agent rather than to a person: overriding earlier
  instructions, in any of a few languages; or, together, two of: speaking to the model as its
  system or as "AI reading this", asking it to act without telling or asking the person, and
  ordering it to reveal or send secrets or keys. A phrase inside quotes is a mention.

A download that is not run, a local script, an install from the default index, a request to
localhost, a force-push to one's own branch and a sentence about these are not held.

Contract: `hazard(text)` returns the first kind of hazard the text holds, or None.
Hook-path module: standard library only; a line without any trigger word costs one lower-casing
and a few substring searches, and `re` is imported only for text that may be injection.
"""

from __future__ import annotations

# Requirement schemes that install from a repository ("git+https://…"): a set, not a command.
_VCS_SCHEMES = frozenset({"hg", "git", "svn", "bzr"})

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

_FETCHERS = frozenset(
    "curl wget wget2 fetch iwr irm invoke-webrequest invoke-restmethod aria2c axel "
    "lwp-download lwp-request certutil bitsadmin start-bitstransfer".split()
)
_FETCH_MARKS = ("downloadstring", "downloadfile", "downloaddata", "webclient")
_SHELLS = frozenset("sh bash zsh dash ksh mksh fish ash csh tcsh yash $shell ${shell}".split())
_INTERPRETERS = frozenset("node nodejs perl ruby php lua rscript osascript tclsh py".split())
_PWSH = frozenset(("pwsh", "powershell"))
_EVALUATORS = frozenset(("eval", "source", ".", "iex", "invoke-expression"))
_NETWORK_SENDERS = frozenset(
    "curl wget iwr irm invoke-webrequest invoke-restmethod nc ncat netcat socat telnet ssh "
    "scp sftp rsync".split()
)
# wrapper -> its options that take a value
_WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset(("-u", "-g", "-C", "-h", "-p", "-U", "-r", "-t", "-D")),
    "doas": frozenset(("-u", "-C")),
    "env": frozenset(("-u", "-S", "-C", "--unset", "--chdir")),
    "command": frozenset(),
    "exec": frozenset(("-a",)),
    "nohup": frozenset(),
    "time": frozenset(),
    "nice": frozenset(("-n",)),
    "busybox": frozenset(),
    "builtin": frozenset(),
    "stdbuf": frozenset(),
    "timeout": frozenset(),
    "xargs": frozenset(("-I", "-n", "-d", "-P", "-L", "-E", "-s", "-a")),
}
_SENSITIVE = (".ssh", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", ".aws", "credentials",
              ".netrc", ".env", ".kube", ".gnupg", ".npmrc", ".pypirc", ".git-credentials",
              ".docker/config", "/etc/passwd", "/etc/shadow", ".pgpass", "authorized_keys",
              "keychain", ".vault-token")  # fmt: skip
_SHARED_BRANCHES = frozenset(
    "main master develop development dev trunk prod production staging stable head gh-pages".split()
)
_DEFAULT_INDEXES = ("pypi.org", "files.pythonhosted.org", "pypi.python.org",
                    "registry.npmjs.org", "registry.yarnpkg.com", "rubygems.org",
                    "index.crates.io", "crates.io")  # fmt: skip
_GO_OWN = ("golang.org/", "google.golang.org/", "go.dev/")
_INDEX_VARS = ("pip_index_url=", "pip_extra_index_url=", "pip_find_links=", "uv_index_url=",
               "uv_extra_index_url=", "uv_index=", "npm_config_registry=", "yarn_registry=",
               "bundle_mirror")  # fmt: skip
# The cheap test first: a line holding none of these words cannot be a hazardous command.
_RUNS_FETCHED = ("curl", "wget", "fetch", "iwr", "irm", "invoke-", "webclient", "certutil",
                 "bitsadmin", "aria2c", "mshta", "urlopen", "urllib", "requests.", "http.get",
                 "base64", "b64", "\\x", "-enc", "-e ", "xxd", "atob", "/dev/tcp", "/dev/udp",
                 "authorized_keys", "socket")  # fmt: skip
_RUNNERS = ("npx", "dlx", "bunx", "bun x", "uvx", "pipx", "npm exec", "npm_config", "deno",
            "go run", "go install", "go get", "uv tool")  # fmt: skip
_INDEX_MARKS = ("index", "git+", "://", "trusted-host", "find-links", "registry", "--source",
                "--git", "github:", "-i ")  # fmt: skip
_SENDERS = ("nc ", "ncat", "netcat", "socat", "scp ", "rsync", "sftp", "telnet", "| ssh")
_SAFEGUARDS = ("no-verify", "sslverify", "ssl_no_verify", "strict-ssl", "tls_reject",
               "httpsverify", "trusted-host")  # fmt: skip
_OVERRIDE_VERBS = ("ignor", "disregard", "forget", "overrid", "bypass", "oubli", "olvid",
                   "vergiss", "zignoruj")  # fmt: skip
_OVERRIDE_NOUNS = ("instruc", "instruç", "anweisung", "vorgabe", "consigne", "istruz", "polecen",
                   "rule", "règle", "regla", "regel", "regol", "guideline", "directive", "prompt",
                   "guardrail", "the user said")  # fmt: skip
_ROLE_MARKS = ("system", "[inst", "<|", "<<sys", "</", "<memory", "assistant", "ai ", " ai",
               "agent", "llm", "model", "you read this", "you are now", "claude", "chatgpt",
               "copilot", "gemini", "codex", "developer", "admin")  # fmt: skip
_CONCEAL_MARKS = ("tell", "inform", "mention", "notify", "without ask", "without tell",
                  "without confirm", "without permission", "without consent", "silently",
                  "secretly", "approved", "skip confirm", "skip the confirm", "skip approval",
                  "no need to")  # fmt: skip
_REVEAL_MARKS = (".ssh", "id_rsa", "id_ed25519", ".env", "credential", ".netrc", ".aws",
                 "environment variable", "env var", "api key", "private key", "password",
                 "authorized_keys", ".kube")  # fmt: skip


def _may_be_command(low: str) -> bool:
    if "\\" in low or "'" in low or '"' in low:
        if "\\x" in low:
            return True
        # a name hidden by quotes or escapes (cu''rl, c\url) is looked for as the shell reads it
        low = low.replace("\\", "").replace("'", "").replace('"', "")
    if any(m in low for m in _RUNS_FETCHED) or any(m in low for m in _RUNNERS):
        return True
    if any(m in low for m in _SAFEGUARDS) or any(m in low for m in _SENDERS):
        return True
    if ("pip" in low or "npm" in low or "yarn" in low or "pnpm" in low or "gem " in low
            or "cargo" in low or "bun " in low) and any(m in low for m in _INDEX_MARKS):  # fmt: skip
        return True
    return "git" in low and ("push" in low or "commit" in low)


def _may_be_injection(low: str) -> bool:
    if any(v in low for v in _OVERRIDE_VERBS) and any(n in low for n in _OVERRIDE_NOUNS):
        return True
    role = any(m in low for m in _ROLE_MARKS)
    conceal = any(m in low for m in _CONCEAL_MARKS)
    reveal = any(m in low for m in _REVEAL_MARKS)
    return (role and (conceal or reveal)) or (conceal and reveal)


def candidate(text: str) -> bool:
    """Whether `text` (a line, or a whole note) may hold a hazard at all: substring tests only,
    for callers that decide whether to look closer."""
    low = text.lower()
    return _may_be_command(low) or _may_be_injection(low)


REASONS = {
    "fetch_exec": "it runs code fetched from the network",
    "encoded_exec": "it runs decoded text",
    "package_runner": "it runs a package without asking, or from outside the default index",
    "other_index": "it installs from another index, a URL or a repository",
    "upload": "it sends a local file to another machine",
    "reverse_shell": "it hands a shell or a login to another machine",
    "skip_verification": "it skips the repository's checks",
    "force_push": "it force-pushes to a shared branch",
    "tls_off": "it turns certificate checks off",
    "injection": "it is written to the agent as instructions",
}
_OPS = ("||", "&&", "$(", "<(", ">>", "|", ";", "&", "(", ")", "`", "\n", "<", ">")
_SEPARATORS = frozenset((";", "&&", "||", "&", "`", "\n"))
_PUNCT = ",.:;!?)("


# A dream checks each line of a note at every write of it: each line is judged once. A plain
# dict, not functools: the hooks import this module and functools is not loaded there.
_JUDGED: dict[str, str | None] = {}


def hazard(text: str) -> str | None:
    if text in _JUDGED:
        return _JUDGED[text]
    kind = _hazard(text)
    if len(text) <= 2000:  # bounded in memory for a long-lived process (mcp, watch)
        if len(_JUDGED) >= 4096:
            _JUDGED.clear()
        _JUDGED[text] = kind
    return kind


def _hazard(text: str) -> str | None:
    low = text.lower()
    kind = _command_hazard(text) if _may_be_command(low) else None
    if kind is None and _may_be_injection(low) and _injection(text):
        kind = "injection"
    return kind


# -- commands ------------------------------------------------------------------------------------


def _normalise(text: str) -> str:
    """The text as the shell would read its words: continuations joined, quotes gone (they only
    group or hide: `cu''rl`, `'sh'`), a backslash before a letter dropped (`c\\url`, `\\bash`)."""
    t = text.replace("\\\r\n", " ").replace("\\\n", " ").replace("`\r\n", " ").replace("`\n", " ")
    for q in ("'", '"', "\u2018", "\u2019", "\u201c", "\u201d"):
        if q in t:
            t = t.replace(q, "")
    if "\\" in t:
        out = []
        for i, ch in enumerate(t):
            if (
                ch == "\\"
                and i + 1 < len(t)
                and t[i + 1].isascii()
                and t[i + 1].isalpha()
                and (i == 0 or t[i - 1] in " \t|;&(`" or t[i - 1].isalpha())
            ):
                continue
            out.append(ch)
        t = "".join(out)
    return t


def _tokens(t: str) -> list[str]:
    out: list[str] = []
    word: list[str] = []
    i = 0
    n = len(t)
    while i < n:
        ch = t[i]
        if ch in " \t\r":
            if word:
                out.append("".join(word))
                word = []
            i += 1
            continue
        op = None
        if ch in "|&$<>();`\n":
            for o in _OPS:
                if t.startswith(o, i):
                    op = o
                    break
        if op is not None and op == "&" and (t[i - 1 : i] == ">" or t[i + 1 : i + 2] == ">"):
            i += 1  # `>&`, `&>`: part of a redirection
            continue
        if op is None:
            word.append(ch)
            i += 1
            continue
        if word:
            out.append("".join(word))
            word = []
        out.append(op)
        i += len(op)
    if word:
        out.append("".join(word))
    return out


def _name(word: str) -> str:
    """A command word as its name: no directory, no `.exe`, lower case, no trailing comma."""
    w = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    w = w.rstrip(",.:;!?") or w
    return w[:-4] if w.endswith(".exe") else w


def _is_python(name: str) -> bool:
    return name.startswith("python") and all(c in "0123456789." for c in name[6:])


def _is_runner(name: str) -> bool:
    return name in _SHELLS or name in _INTERPRETERS or name in _PWSH or _is_python(name)


def _is_url(word: str) -> bool:
    w = word.strip(_PUNCT).lower()
    if "://" in w:
        return True
    host, _, rest = w.partition("/")
    host = host.split("@")[-1]
    bare = host.split(":")[0]
    if bare == "localhost" or (bare.count(".") == 3 and bare.replace(".", "").isdigit()):
        return bool(rest) or ":" in host
    if not rest or "." not in bare:
        return False
    tld = bare.rsplit(".", 1)[-1]
    return tld.isalpha() and len(tld) >= 2 and all(c.isalnum() or c in ".-" for c in bare)


def _host(url: str) -> str:
    w = url.strip(_PUNCT).lower()
    w = w.split("://", 1)[-1]
    return w.split("/", 1)[0].split("@")[-1].split(":")[0]


def _local(url: str) -> bool:
    h = _host(url)
    return (
        h in ("localhost", "0.0.0.0", "[::1]", "::1")
        or h.startswith("127.")
        or h.endswith(".localhost")
    )


def _default_index(url: str) -> bool:
    h = _host(url)
    return any(h == d or h.endswith("." + d) for d in _DEFAULT_INDEXES)


def _file_like(word: str) -> bool:
    return not word.startswith("-") and any(c in word for c in "./$%\\")


class _Command:
    """A pipeline stage read as a command: its name after wrappers, its arguments, and whether
    it reads arguments from its input (`xargs`)."""

    def __init__(self, words: list[str]) -> None:
        self.assignments: list[str] = []
        self.xargs = False
        i = 0
        while i < len(words):
            w = words[i]
            key = w.split("=", 1)[0]
            if "=" in w and not w.startswith("-") and key.replace("_", "a").isalnum():
                self.assignments.append(w.lower())
                i += 1
                continue
            name = _name(w)
            if name not in _WRAPPERS:
                break
            self.xargs = self.xargs or name == "xargs"
            i += 1
            takes = _WRAPPERS[name]
            while i < len(words) and words[i].startswith("-") and words[i] != "-":
                opt = words[i]
                i += 1
                if opt in takes or (len(opt) == 2 and opt[:2] in takes and name == "xargs"):
                    i += 1
            if name == "timeout" and i < len(words):
                i += 1
        self.name = _name(words[i]) if i < len(words) else ""
        self.args = words[i + 1 :]

    def reads_stdin(self) -> bool:
        """Whether this command runs what comes in on its input as code."""
        name, args = self.name, [a.lower() for a in self.args]
        if self.xargs:
            return _is_runner(name) or name in _EVALUATORS
        if name in ("iex", "invoke-expression"):
            return True
        if name in _PWSH:
            return not args or "-" in args or args[-1:] == ["-command"]
        if not (name in _SHELLS or name in _INTERPRETERS or _is_python(name)):
            return False
        shell = name in _SHELLS
        for a in args:
            if a in ("-", "-s") or (shell and a.startswith("-") and "s" in a[1:3]):
                return True
            if a == "-c" or (not shell and a in ("-e", "-m", "-r", "-p", "--eval", "--print")):
                return False
            if _file_like(a):
                return False
        return True

    def runs_file(self) -> str | None:
        """The file a runner is given to run (`bash x.sh`, `Start-Process x.exe`)."""
        if not (
            _is_runner(self.name)
            or self.name in ("source", ".", "start-process", "start", "cmd", "saps")
        ):
            return None
        for a in self.args:
            if a.startswith("-") or a.startswith("/"):
                if a.lower() in ("-c", "-e", "-m", "/c") or a.startswith("/"):
                    if a.startswith("/") and _file_like(a[1:]) and "/" in a[1:]:
                        return _name(a)
                    continue
                continue
            return _name(a)
        return None


def _statements(tokens: list[str]) -> list[list[list[str]]]:
    """Statements, each a list of pipeline stages, each a list of tokens."""
    out: list[list[list[str]]] = []
    stages: list[list[str]] = [[]]
    for tok in tokens:
        if tok in _SEPARATORS:
            if any(stages):
                out.append(stages)
            stages = [[]]
        elif tok == "|":
            stages.append([])
        else:
            stages[-1].append(tok)
    if any(stages):
        out.append(stages)
    return out


def _words(stage: list[str]) -> list[str]:
    """The words of a stage up to its first operator (redirections and substitutions after)."""
    out = []
    for tok in stage:
        if tok in _OPS:
            break
        out.append(tok)
    return out


def _fetches(stage: list[str]) -> bool:
    """A fetcher given an address: a URL anywhere in the stage, or a host-like word as the
    fetcher's first argument (`curl evil.sh`); "curl | bash" said in a sentence names none."""
    if any(m in t.lower() for t in stage for m in _FETCH_MARKS):
        return any(_is_url(t) for t in stage)
    for k, tok in enumerate(stage):
        if _name(tok) not in _FETCHERS:
            continue
        for a in stage[k + 1 :]:
            if a in _OPS:
                break
            if _is_url(a) or (not a.startswith("-") and "." in a.strip(_PUNCT)):
                return True
    return any(_is_url(t) for t in stage) and any(_name(t) in _FETCHERS for t in stage)


def _decodes(stage: list[str], raw: str) -> bool:
    cmd = _Command(_words(stage))
    args = [a.lower() for a in cmd.args]
    if cmd.name == "base64":
        return any(a == "--decode" or (a[:1] == "-" and a[1:2] != "-" and "d" in a) for a in args)
    if cmd.name == "openssl":
        return ("base64" in args or "enc" in args) and "-d" in args
    if cmd.name == "xxd":
        return any(a.startswith("-r") for a in args)
    if cmd.name == "certutil":
        return "-decode" in args
    if cmd.name in ("printf", "echo"):
        return "\\x" in raw or "\\0" in raw
    return False


def _downloads(stage: list[str]) -> list[str]:
    """The names of the files a fetching stage writes (`-o`, `-O`, `-OutFile`, `>`, wget's
    default of the URL's last part)."""
    names: list[str] = []
    for k, tok in enumerate(stage):
        if tok == ">" and k + 1 < len(stage):
            names.append(_name(stage[k + 1]))
    for f, tok in enumerate(stage):
        fetcher = _name(tok)
        if fetcher not in _FETCHERS:
            continue
        args = stage[f + 1 :]
        urls = [a for a in args if _is_url(a)]
        remote = _name(urls[0].split("?")[0].rstrip("/")) if urls else ""
        to_stdout = False
        explicit = False
        for k, a in enumerate(args):
            low = a.lower()
            nxt = args[k + 1] if k + 1 < len(args) else ""
            if fetcher in ("iwr", "invoke-webrequest", "irm", "invoke-restmethod"):
                if low == "-outfile" and nxt:
                    names.append(_name(nxt))
                continue
            if fetcher in ("certutil", "bitsadmin") and _is_url(a) and nxt:
                names.append(_name(nxt))
                continue
            if low.startswith("--output=") or low.startswith("--output-document="):
                names.append(_name(a.split("=", 1)[1]))
                explicit = True
            elif low in ("--output", "--output-document") and nxt:
                names.append(_name(nxt))
                explicit = True
            elif low in ("--remote-name", "--remote-name-all"):
                names.append(remote)
                explicit = True
            elif a.startswith("-") and not a.startswith("--") and len(a) > 1:
                flags = a[1:]
                if fetcher == "wget" and "O" in flags:
                    explicit = True
                    tail = flags.split("O", 1)[1]
                    target = tail or nxt
                    if target == "-":
                        to_stdout = True
                    elif target:
                        names.append(_name(target))
                elif "o" in flags and flags.endswith("o") and nxt:
                    names.append(_name(nxt))
                    explicit = True
                elif "O" in flags and fetcher != "wget":
                    names.append(remote)
                    explicit = True
        if fetcher == "wget" and not explicit and not to_stdout and "--spider" not in args:
            names.append(remote)
    return [n for n in names if n and n != "-"]


def _pipe_hazard(stages: list[list[str]], raw: str) -> str | None:
    for i, stage in enumerate(stages):
        fetch = _fetches(stage)
        decode = not fetch and _decodes(stage, raw)
        if not (fetch or decode):
            continue
        for later in stages[i + 1 :]:
            if _Command(_words(later)).reads_stdin():
                return "fetch_exec" if fetch else "encoded_exec"
    return None


def _substitution_hazard(stage: list[str]) -> str | None:
    """`bash <(curl …)`, `eval "$(wget …)"`, `sh -c "$(curl …)"`, `iex (iwr …)`,
    `[scriptblock]::Create((irm …))`: an evaluator given a substitution that fetches."""
    for k, tok in enumerate(stage):
        name = _name(tok)
        if not (_is_runner(name) or name in _EVALUATORS or "scriptblock]::create" in tok.lower()):
            continue
        j = k + 1
        while j < len(stage) and stage[j].startswith("-") and stage[j] not in _OPS:
            j += 1
        if j < len(stage) and stage[j] in ("$(", "<(", "(") and _fetches(stage[j + 1 :]):
            return "fetch_exec"
    return None


_CODE_FLAGS = frozenset(("-c", "-e", "-r", "--eval", "-command", "-p", "-encodedcommand"))
_NET_CODE = ("urlopen", "urllib.request", "requests.get", "requests.post", "httpx.", "http.client",
             "fetch(", "http.get(", "https.get(", "net::http", "open-uri", "uri.open", "lwp::",
             "file_get_contents(http", "downloadstring", "webclient", "urlretrieve",
             "invoke-webrequest", "invoke-restmethod")  # fmt: skip
_EXEC_CODE = ("exec(", "eval(", "(eval)", ".then(eval", "os.system", "subprocess", "popen",
              "system(", "child_process", "execsync", "new function", "instance_eval", "iex",
              "invoke-expression", "spawn(")  # fmt: skip
_B64_CODE = ("b64decode", "base64", "atob(", "frombase64string", "decode64", "unpack(m")


def _code_hazard(stage: list[str], low: str) -> str | None:
    """Inline code given to an interpreter (`python -c`, `node -e`, `powershell -c`)."""
    for k, tok in enumerate(stage[:-1]):
        name = _name(tok)
        if not (_is_runner(name) and stage[k + 1].lower() in _CODE_FLAGS):
            continue
        flag = stage[k + 1].lower()
        if name in _PWSH and flag in ("-e", "-encodedcommand"):
            return "encoded_exec"
        runs = any(m in low for m in _EXEC_CODE)
        if runs and any(m in low for m in _NET_CODE):
            return "fetch_exec"
        if runs and any(m in low for m in _B64_CODE):
            return "encoded_exec"
        if "socket" in low and any(m in low for m in ("dup2", "pty.spawn", "/bin/sh", "/bin/bash",
                                                      "subprocess", "exec(")):  # fmt: skip
            return "reverse_shell"
    for k, tok in enumerate(stage[:-1]):
        if _name(tok) in _PWSH and any(
            a.lower() in ("-e", "-enc", "-ec", "-en", "-encoded", "-encodedcommand")
            for a in _words(stage[k + 1 :])
        ):
            return "encoded_exec"
    return None


def _git_hazard(cmd: _Command) -> str | None:
    if cmd.name != "git":
        return None
    args = cmd.args
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt = args[i]
        if opt in ("-c", "-C") and i + 1 < len(args):  # a setting, or a folder
            setting = args[i + 1].lower().replace(" ", "")
            if "sslverify=false" in setting or "sslverify=0" in setting:
                return "tls_off"
            i += 2
            continue
        i += 1
    if i >= len(args):
        return None
    sub = args[i].lower()
    rest = args[i + 1 :]
    lowered = [a.lower().rstrip(",.;:!?") for a in rest]
    if sub == "config":
        for k, a in enumerate(lowered):
            if (
                a.endswith("sslverify")
                and k + 1 < len(lowered)
                and lowered[k + 1] in ("false", "0")
            ):
                return "tls_off"
        return None
    if sub in ("commit", "push", "merge", "rebase", "am", "cherry-pick", "revert", "pull"):
        if "--no-verify" in lowered:
            return "skip_verification"
        if sub == "commit" and any(
            a.startswith("-") and not a.startswith("--") and "n" in a[1:] for a in lowered
        ):
            return "skip_verification"
    if sub != "push":
        return None
    force = False
    positional = []
    everything = False
    for a in lowered:
        if a in (
            "--force",
            "--force-with-lease",
            "--force-if-includes",
            "--mirror",
        ) or a.startswith("--force-with-lease="):
            force = True
            everything = everything or a == "--mirror"
        elif a in ("--all", "--branches"):
            everything = True
        elif a.startswith("-") and not a.startswith("--") and "f" in a[1:]:
            force = True
        elif not a.startswith("-") and a:
            positional.append(a)
            if a.startswith("+"):
                force = True
    if not force:
        return None
    refs = positional[1:]
    if everything or not refs:
        return "force_push"
    for ref in refs:
        dst = ref.lstrip("+").rsplit(":", 1)[-1].removeprefix("refs/heads/")
        if dst in _SHARED_BRANCHES or dst.startswith("release"):
            return "force_push"
    return None


def _index_hazard(cmd: _Command) -> str | None:
    name, args = cmd.name, [a.lower() for a in cmd.args]
    for a in cmd.assignments:
        var, _, val = a.partition("=")
        if a.startswith(_INDEX_VARS) and _is_url(val + "/") and not _default_index(val):
            return "other_index"
        if var == "npm_config_yes" and val in ("true", "1", "yes") and name in ("npx", "npm"):
            return "package_runner"
    if (_is_python(name) or name == "uv") and (args[:2] == ["-m", "pip"] or args[:1] == ["pip"]):
        name, args = "pip", args[2:] if args[:1] == ["-m"] else args[1:]
    if name == "pip" or (name.startswith("pip") and name[3:].replace(".", "").isdigit()):
        if not args or args[0] not in ("install", "download", "wheel", "config"):
            return None
        if args[0] == "config":
            return (
                "tls_off"
                if any("trusted-host" in a for a in args)
                else ("other_index" if any("index-url" in a for a in args) else None)
            )
        valued = ("-i", "--index-url", "--extra-index-url", "-f", "--find-links")
        for k, a in enumerate(args):
            opt, _, val = a.partition("=")
            before = args[k - 1] if k else ""
            if opt in valued:
                val = val or (args[k + 1] if k + 1 < len(args) else "")
                if val and not _default_index(val):
                    return "other_index"
            elif opt == "--trusted-host":
                return "other_index"
            elif before in (*valued, "-r", "-c", "-e", "--requirement", "--constraint"):
                continue
            elif not a.startswith("-") and ("://" in a or a.split("+", 1)[0] in _VCS_SCHEMES):
                return "other_index"
        return None
    if name in ("npm", "pnpm", "yarn", "bun", "cnpm"):
        if len(args) >= 3 and args[0] in ("config", "set") and "registry" in args[1:3]:
            target = (
                args[args.index("registry") + 1] if args.index("registry") + 1 < len(args) else ""
            )
            return None if not target or _default_index(target) else "other_index"
        if args[:1] == ["set"] and args[1:2] and args[1].startswith("registry"):
            return "other_index"
        if args[:1] in (["dlx"], ["x"]) and name in ("pnpm", "yarn", "bun"):
            return "package_runner"
        if args[:1] in (["exec"], ["x"]) and name == "npm" and ("--yes" in args or "-y" in args):
            return "package_runner"
        if args[:1] in (["install"], ["i"], ["add"], ["update"], ["ci"], ["global"]):
            for k, a in enumerate(args):
                opt, _, val = a.partition("=")
                if opt == "--registry":
                    val = val or (args[k + 1] if k + 1 < len(args) else "")
                    if val and not _default_index(val):
                        return "other_index"
                elif not a.startswith("-") and (
                    "://" in a or a.startswith(("git+", "github:", "gitlab:", "bitbucket:"))
                ):
                    return "other_index"
        return None
    if name == "npx":
        if "-y" in args or "--yes" in args:
            return "package_runner"
        if any(a.startswith(("github:", "git+", "gitlab:")) or "://" in a for a in args):
            return "package_runner"
        return None
    if name == "bunx":
        return "package_runner"
    if name in ("uvx", "pipx") or (name == "uv" and args[:2] == ["tool", "run"]):
        for k, a in enumerate(args):
            opt, _, val = a.partition("=")
            val = val or (
                args[k + 1] if opt in ("--from", "--spec", "--with") and k + 1 < len(args) else ""
            )
            if opt in ("--from", "--spec", "--with", "--index-url", "--index", "--extra-index-url"):
                if "://" in val or val.startswith(("git+", "hg+")):
                    return "package_runner"
            elif not a.startswith("-") and ("://" in a or a.startswith("git+")):
                return "package_runner"
        return None
    if name == "gem" and args[:1] == ["install"]:
        for k, a in enumerate(args):
            if a in ("--source", "-s") and k + 1 < len(args) and not _default_index(args[k + 1]):
                return "other_index"
            if a == "--clear-sources":
                return "other_index"
        return None
    if name == "cargo" and args[:1] == ["install"]:
        if any(a.partition("=")[0] in ("--git", "--registry", "--index") for a in args):
            return "other_index"
        return None
    if name == "go" and args[:1] and args[0] in ("install", "get", "run"):
        for a in args[1:]:
            if a.startswith("-") or "/" not in a or "." not in a.split("/", 1)[0]:
                continue
            if not a.startswith(_GO_OWN):
                return "package_runner" if args[0] == "run" else "other_index"
        return None
    if (
        name == "deno"
        and args[:1] in (["run"], ["install"], ["eval"])
        and any(_is_url(a) and not _local(a) for a in args[1:])
    ):
        return "package_runner"
    if name == "mshta" and any(_is_url(a) for a in args):
        return "fetch_exec"
    return None


def _tls_hazard(cmd: _Command, low: str) -> str | None:
    for a in (
        cmd.assignments
        + [a.lower() for a in cmd.args[:1]]
        + ([cmd.name] if "=" in cmd.name else [])
    ):
        var, _, val = a.partition("=")
        if var == "git_ssl_no_verify" and val not in ("", "0", "false", "no"):
            return "tls_off"
        if var in ("node_tls_reject_unauthorized", "pythonhttpsverify") and val == "0":
            return "tls_off"
        if var == "npm_config_strict_ssl" and val in ("false", "0"):
            return "tls_off"
    if cmd.name in ("npm", "yarn", "pnpm") and "strict-ssl" in low:
        args = [a.lower() for a in cmd.args]
        for k, a in enumerate(args):
            if a.startswith("strict-ssl") and (
                a.endswith("=false") or args[k + 1 : k + 2] == ["false"]
            ):
                return "tls_off"
    return None


def _upload_hazard(stages: list[list[str]], i: int, cmd: _Command) -> str | None:
    stage = stages[i]
    name = cmd.name
    args = cmd.args
    lowered = [a.lower() for a in args]
    urls = [a for a in stage if _is_url(a)]
    remote = any(not _local(u) for u in urls)
    piped_in = i > 0
    if name == "curl" and remote:
        for k, a in enumerate(args):
            nxt = args[k + 1] if k + 1 < len(args) else ""
            low = a.lower()
            if low in ("-f", "--form") and ("=@" in nxt or "=<" in nxt):
                return "upload"
            if a.startswith("-F") and ("=@" in a or "=<" in a):
                return "upload"
            if low in (
                "-d",
                "--data",
                "--data-binary",
                "--data-urlencode",
                "--json",
            ) and nxt.startswith("@"):
                return "upload" if nxt != "@-" or piped_in else None
            if a.startswith("-d@") or low.startswith(("--data=@", "--data-binary=@")):
                return "upload"
            if a in ("-T", "--upload-file") and nxt:
                return "upload" if nxt != "-" or piped_in else None
    if (
        name == "wget"
        and remote
        and any(a.startswith(("--post-file", "--body-file")) for a in lowered)
    ):
        return "upload"
    if name in ("iwr", "invoke-webrequest", "irm", "invoke-restmethod") and "-infile" in lowered:
        return "upload"
    if name in ("nc", "ncat", "netcat", "socat", "telnet") and (
        "<" in stage or (piped_in and any(_reads_local(s) for s in stages[:i]))
    ):
        return "upload"
    if name in ("scp", "rsync", "sftp", "rclone"):
        sources = [a for a in args if not a.startswith("-")]
        dest = sources[-1] if sources else ""
        if ":" in dest and any(_sensitive(a) for a in sources[:-1]):
            return "upload"
    if name in _NETWORK_SENDERS and piped_in and any(_sensitive_stage(s) for s in stages[:i]):
        return "upload"
    if name in ("curl", "wget") and remote and "$(" in stage and any(_sensitive(t) for t in stage):
        return "upload"
    return None


def _sensitive(word: str) -> bool:
    low = word.lower()
    return any(s in low for s in _SENSITIVE) and not low.endswith(".pub")


def _sensitive_stage(stage: list[str]) -> bool:
    cmd = _Command(_words(stage))
    if cmd.name in ("env", "printenv", "set") and not cmd.args:
        return True
    return any(_sensitive(t) for t in stage)


def _reads_local(stage: list[str]) -> bool:
    return _Command(_words(stage)).name in ("cat", "tar", "zip", "env", "printenv", "type", "gc",
                                              "get-content") or _sensitive_stage(stage)  # fmt: skip


def _reverse_shell(stage: list[str], cmd: _Command) -> str | None:
    low = [t.lower() for t in stage]
    if any("/dev/tcp/" in t or "/dev/udp/" in t for t in low):
        return "reverse_shell"
    if cmd.name in ("nc", "ncat", "netcat") and any(
        a in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec")
        or (a.startswith("-") and not a.startswith("--") and "e" in a[1:])
        for a in (x.lower() for x in cmd.args)
    ):
        return "reverse_shell"
    if cmd.name == "socat" and any(t.startswith(("exec:", "system:")) for t in low):
        return "reverse_shell"
    for k, t in enumerate(low[:-1]):
        if t == ">>" and "authorized_keys" in low[k + 1]:
            return "reverse_shell"
    if cmd.name == "tee" and any("authorized_keys" in t for t in low):
        return "reverse_shell"
    return None


def _command_hazard(text: str) -> str | None:
    norm = _normalise(text)
    low = norm.lower()
    statements = _statements(_tokens(norm))
    downloaded: set[str] = set()
    for stages in statements:
        kind = _pipe_hazard(stages, text)
        if kind:
            return kind
        for i, stage in enumerate(stages):
            cmd = _anchored(_words(stage))
            for check in (
                _substitution_hazard(stage),
                _code_hazard(stage, low),
                _git_hazard(cmd),
                _index_hazard(cmd),
                _tls_hazard(cmd, low),
                _upload_hazard(stages, i, cmd),
                _reverse_shell(stage, cmd),
            ):
                if check:
                    return check
            if downloaded and _runs_downloaded(stage, cmd, downloaded):
                return "fetch_exec"
        for stage in stages:
            if _fetches(stage):
                downloaded.update(_downloads(stage))
    return None


_KNOWN = frozenset(
    "git pip pip3 python python3 uv uvx pipx npm npx pnpm yarn bun bunx gem cargo go deno curl "
    "wget iwr irm invoke-webrequest invoke-restmethod nc ncat netcat socat scp rsync sftp mshta "
    "export tee".split()
)


def _anchored(words: list[str]) -> _Command:
    """The stage's command; in a sentence ("just do git push --force, …", "install it with pip
    install -i …") the first word that names a command this module reads."""
    cmd = _Command(words)
    if cmd.name in _KNOWN or _is_python(cmd.name) or not words:
        return cmd
    for k in range(1, len(words)):
        name = _name(words[k])
        if name in _KNOWN or _is_python(name):
            return _Command(words[k:])
    return cmd


def _runs_downloaded(stage: list[str], cmd: _Command, downloaded: set[str]) -> bool:
    if cmd.name in downloaded or cmd.runs_file() in downloaded:
        return True
    words = _words(stage)
    for k, w in enumerate(words):
        if w.startswith(("./", ".\\")) and _name(w) in downloaded:
            return True
        if k and _Command(words[k:]).runs_file() in downloaded and _is_runner(_name(w)):
            return True
    return False


# -- text written to the agent -------------------------------------------------------------------

_compiled: dict[str, re.Pattern[str]] = {}
_EARLIER = (r"previous|prior|earlier|above|preceding|all|any|your|existing|the user'?s?|"
            r"vorherig\w*|früher\w*|alle[nms]?|précédent\w*|antérieur\w*|toutes|tous|"
            r"anterior\w*|previ[ao]s|todas|todos|precedent\w*|tutte|tutti|wszystki\w*|"
            r"poprzedni\w*")  # fmt: skip
_PATTERNS = {
    "override": (
        r"(?i)\b(?:ignor\w*|disregard\w*|forget|overrid\w*|bypass\w*|oubli\w*|olvid\w*"
        r"|vergiss\w*|zignoruj\w*)\b[^.!?\n]{0,60}?\b(?:instruction\w*|instruc\w*|instruç\w*"
        r"|istruzion\w*|anweisung\w*|vorgabe\w*|consigne\w*|polecen\w*|rules?|règles?|reglas?"
        r"|regeln?|regole|guidelines?|directives?|prompts?|guardrails?|(?:what|anything|"
        r"everything) the user said)\b"
    ),
    "role": (
        r"(?im)(?:^\W{0,4}(?:system|assistant|developer|admin|administrator)\s*:"
        r"|<\s*/?\s*(?:system|memory|assistant|instructions?|im_start|im_end)\b[^>]*>"
        r"|\[/?inst\]|<\|im_(?:start|end)\|>|<<sys>>"
        r"|\b(?:note|message|attention|instructions?|reminder)\s+(?:to|for)\s+(?:any|all|every"
        r"|the)?\s*(?:ai|llm|assistant|agent|model|bot)s?\b"
        r"|^\W{0,4}(?:ai\s+)?(?:agents?|assistants?|ai|llm|claude|chatgpt|copilot|gemini|codex)"
        r"\s*[,:]"
        r"|\bwhen you (?:read|see|process|load) this\b|\byou are now\b)"
    ),
    "conceal": (
        r"(?i)\b(?:(?:do not|don'?t|dont|never)\s+(?:tell|inform|mention|notify|alert|ask)\b"
        r"[^.!?\n]{0,20}?\b(?:the user|the person|the developer|anyone|them)\b"
        r"|don'?t mention (?:it|this)|without (?:asking|telling|confirm\w*|permission|consent"
        r"|approval|notifying)|silently|secretly|skip (?:the )?(?:confirmation|approval|review"
        r"|prompt)s?|pre-?approved|already approved|no need to (?:ask|confirm|check))\b"
    ),
    "reveal": (
        r"(?i)\b(?:print|cat|show|output|display|reveal|dump|include|send|post|upload"
        r"|exfiltrate|leak|email|paste|copy|share|add|gib|zeig\w*|envoy\w*|affich\w*|muestra"
        r"|env[ií]a\w*)\b[^.!?\n]{0,80}?(?:~/\.ssh|\bid_rsa|\bid_ed25519|\.env\b|credentials"
        r"|\.netrc|\.aws\b|environment variables|env vars|api keys?|private keys?|passwords?"
        r"|authorized_keys|\.kube)"
    ),
}


def _pattern(name: str) -> re.Pattern[str]:
    pat = _compiled.get(name)
    if pat is None:
        import re

        pat = _compiled[name] = re.compile(_PATTERNS[name])
    return pat


def _unquoted(text: str) -> str:
    """The text without what it quotes: a phrase in quotes is mentioned, not said."""
    out: list[str] = []
    i = 0
    pairs = {"'": "'", '"': '"', "\u201c": "\u201d", "\u2018": "\u2019"}
    while i < len(text):
        ch = text[i]
        close = pairs.get(ch)
        # an apostrophe inside a word (don't, l'alarme) opens nothing
        if close and not (ch == "'" and i and text[i - 1].isalnum()):
            end = text.find(close, i + 1)
            if end != -1 and end - i <= 200:
                out.append(" ")
                i = end + 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def _injection(text: str) -> bool:
    said = _unquoted(text)
    if _pattern("override").search(said):
        return True
    role = bool(_pattern("role").search(said))
    conceal = bool(_pattern("conceal").search(said))
    reveal = bool(_pattern("reveal").search(said))
    return (role and (conceal or reveal)) or (conceal and reveal)
