"""The write gate: built-in rules, user pre/post-write commands, atomic writes, one commit a batch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO
from wikimem.home import Home
from wikimem.wiki.batch import Wiki
from wikimem.wiki.gate import MemoryWrite, content_hash
from wikimem.wiki.notes import new_note, render_note

PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAxyz\n-----END RSA PRIVATE KEY-----"


def note_text(
    title: str = "Commands",
    body: str = "- `pnpm test`\n",
    path: str = "projects/acme-api/commands.md",
) -> str:
    """A valid note with fixed dates: the same arguments always give the same text."""
    note = new_note(path, title, body).with_changes(
        created="2026-11-29", updated="2026-11-29T12:00:00Z"
    )
    return render_note(note)


def write_config(home: Path, extra: str) -> None:
    (home / "config.toml").write_text(extra)


def wiki_of(home: Path) -> Wiki:
    return Wiki(Home(str(home)))


def commit_count(home: Path) -> int:
    out = subprocess.run(
        ["git", "-C", str(home / "memory"), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
    )
    return int(out.stdout.strip())


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts
    }


@pytest.mark.parametrize(
    "path,reason",
    [
        ("../../.bashrc", "'..'"),
        ("/etc/passwd", "absolute"),
        (".git/config", "hidden"),
        ("index.md", "generated"),
        ("projects/acme-api/../../../../x.md", "'..'"),
        ("Projects/Acme/X.md", "kebab-case"),
    ],
)
def test_path_rules_refuse(home: Path, path: str, reason: str) -> None:
    result = wiki_of(home).commit_writes(
        [MemoryWrite(path, "create", note_text(path="general/x.md"), "dream")], "t"
    )
    [r] = result.results
    assert r.status == "blocked" and reason in r.reason
    assert result.commit is None


def test_symlink_pointing_outside_is_refused(home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (home / "memory" / "general").symlink_to(outside)
    before = snapshot(tmp_path / "outside")
    result = wiki_of(home).commit_writes(
        [MemoryWrite("general/evil.md", "create", note_text(path="general/evil.md"), "dream")], "t"
    )
    [r] = result.results
    assert r.status == "blocked" and "outside memory/" in r.reason
    assert snapshot(outside) == before == {}


def test_symlinked_note_inside_is_not_written_through(home: Path) -> None:
    (home / "memory" / "general").mkdir()
    (home / "memory" / "general" / "real.md").write_text(note_text(path="general/real.md"))
    (home / "memory" / "general" / "link.md").symlink_to(home / "memory" / "general" / "real.md")
    result = wiki_of(home).commit_writes(
        [MemoryWrite("general/link.md", "update", note_text("X", path="general/link.md"), "dream")],
        "t",
    )
    assert result.results[0].status == "blocked" and "symbolic link" in result.results[0].reason


def test_oversized_body_is_refused(home: Path) -> None:
    big = note_text(body="x" * (5 * 1024 * 1024))
    [r] = (
        wiki_of(home)
        .commit_writes([MemoryWrite("general/big.md", "create", big, "dream")], "t")
        .results
    )
    assert r.status == "blocked" and "max_note_bytes" in r.reason


def test_missing_title_and_unknown_kind_are_refused(home: Path) -> None:
    wiki = wiki_of(home)
    [r] = wiki.commit_writes(
        [MemoryWrite("general/x.md", "create", "---\nkind: general\n---\nbody\n", "dream")], "t"
    ).results
    assert r.status == "blocked" and "title" in r.reason
    [r] = wiki.commit_writes(
        [MemoryWrite("general/x.md", "create", "---\ntitle: X\nkind: diary\n---\nb\n", "dream")],
        "t",
    ).results
    assert r.status == "blocked" and "kind" in r.reason


def test_private_key_is_redacted_by_default(home: Path) -> None:
    result = wiki_of(home).commit_writes(
        [
            MemoryWrite(
                "general/keys.md",
                "create",
                note_text("Keys", f"Key:\n{PRIVATE_KEY}\n", "general/keys.md"),
                "dream",
            )
        ],
        "t",
    )
    [r] = result.results
    assert r.ok and "private_key" in r.redacted
    text = (home / "memory" / "general" / "keys.md").read_text()
    assert "MIIEow" not in text and "[REDACTED:private_key]" in text
    assert "Wikimem-Redacted: private_key" in result.message


def test_private_key_is_blocked_in_block_mode(home: Path) -> None:
    write_config(home, '[gate]\nsecrets = "block"\n')
    [r] = (
        wiki_of(home)
        .commit_writes(
            [
                MemoryWrite(
                    "general/keys.md",
                    "create",
                    note_text("Keys", f"{PRIVATE_KEY}\n", "general/keys.md"),
                    "dream",
                )
            ],
            "t",
        )
        .results
    )
    assert r.status == "blocked" and "private_key" in r.reason
    assert not (home / "memory" / "general" / "keys.md").exists()


def test_protected_paths_refuse_automated_writers_only(home: Path) -> None:
    write_config(home, '[gate]\nprotected = ["profile/**"]\n')
    wiki = wiki_of(home)
    text = note_text("Prefs", path="profile/preferences.md")
    [r] = wiki.commit_writes(
        [MemoryWrite("profile/preferences.md", "create", text, "dream")], "t"
    ).results
    assert r.status == "blocked" and "protected" in r.reason
    [r] = wiki.commit_writes(
        [MemoryWrite("profile/preferences.md", "create", text, "remember")], "t"
    ).results
    assert r.ok


def hook(tmp_path: Path, name: str, code: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(code)
    return f"{sys.executable} {script}"


def test_pre_write_exit_2_blocks_with_stderr(home: Path, tmp_path: Path) -> None:
    cmd = hook(
        tmp_path,
        "deny",
        "import sys, json\nd = json.load(sys.stdin)\nprint('no writes to ' + d['path'], file=sys.stderr)\nsys.exit(2)\n",
    )
    write_config(home, f'[[gate.pre_write]]\ncommand = "{cmd}"\nmatch = "projects/**"\n')
    wiki = wiki_of(home)
    result = wiki.commit_writes(
        [
            MemoryWrite("projects/acme-api/commands.md", "create", note_text(), "dream"),
            MemoryWrite("general/ok.md", "create", note_text("Ok", path="general/ok.md"), "dream"),
        ],
        "dream: 1 created",
    )
    blocked, written = result.results
    assert (
        blocked.status == "blocked"
        and "no writes to projects/acme-api/commands.md" in blocked.reason
    )
    assert written.ok  # the glob did not match: the rest of the batch is applied
    assert (
        "Blocked by the write gate" in result.message
        and "projects/acme-api/commands.md" in result.message
    )


def test_pre_write_receives_the_contract_payload_and_can_modify(home: Path, tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    cmd = hook(
        tmp_path,
        "modify",
        f"""
import sys, json
d = json.load(sys.stdin)
open({str(seen)!r}, "w").write(json.dumps(d))
print(json.dumps({{"hookSpecificOutput": {{"updatedContent": d["proposed_content"].replace("pnpm test", "pnpm test --run")}}}}))
""",
    )
    write_config(home, f'[[gate.pre_write]]\ncommand = "{cmd}"\n')
    result = wiki_of(home).commit_writes(
        [
            MemoryWrite(
                "projects/acme-api/commands.md", "create", note_text(), "remember", ("claude:abc",)
            )
        ],
        "t",
    )
    assert result.results[0].ok
    assert (
        "pnpm test --run" in (home / "memory" / "projects" / "acme-api" / "commands.md").read_text()
    )
    payload = json.loads(seen.read_text())
    assert payload == {
        "hook_event_name": "PreMemoryWrite",
        "memory_file": "commands.md",
        "memory_path": str(home / "memory" / "projects" / "acme-api" / "commands.md"),
        "path": "projects/acme-api/commands.md",
        "operation": "create",
        "proposed_content": note_text(),
        "source": "remember",
        "sessions": ["claude:abc"],
    }


def test_pre_write_update_is_checked_again(home: Path, tmp_path: Path) -> None:
    cmd = hook(
        tmp_path,
        "breaks",
        'import json\nprint(json.dumps({"hookSpecificOutput": {"updatedContent": "no front matter"}}))\n',
    )
    write_config(home, f'[[gate.pre_write]]\ncommand = "{cmd}"\n')
    [r] = (
        wiki_of(home)
        .commit_writes(
            [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "dream")], "t"
        )
        .results
    )
    assert r.status == "blocked" and "front matter" in r.reason


def test_pre_write_error_and_missing_command_are_logged_not_blocking(
    home: Path, tmp_path: Path
) -> None:
    cmd = hook(tmp_path, "crash", "import sys\nprint('oops', file=sys.stderr)\nsys.exit(1)\n")
    write_config(
        home,
        f'[[gate.pre_write]]\ncommand = "{cmd}"\n\n[[gate.pre_write]]\ncommand = "/nonexistent/hook"\n',
    )
    result = wiki_of(home).commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "dream")], "t"
    )
    assert result.results[0].ok and result.commit
    assert any("exited 1: oops" in w for w in result.warnings)
    assert any("/nonexistent/hook" in w and "exited 127" in w for w in result.warnings)


def test_pre_write_timeout_is_bounded_and_not_blocking(home: Path, tmp_path: Path) -> None:
    cmd = hook(tmp_path, "slow", "import time\ntime.sleep(30)\n")
    write_config(home, f'[[gate.pre_write]]\ncommand = "{cmd}"\ntimeout = 0.5\n')
    start = time.monotonic()
    result = wiki_of(home).commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "dream")], "t"
    )
    assert time.monotonic() - start < 10
    assert result.results[0].ok
    assert any("timed out" in w for w in result.warnings)


def test_post_write_sync_gets_written_content_and_commit(home: Path, tmp_path: Path) -> None:
    seen = tmp_path / "post.json"
    cmd = hook(tmp_path, "post", f"import sys\nopen({str(seen)!r}, 'w').write(sys.stdin.read())\n")
    write_config(home, f'[[gate.post_write]]\ncommand = "{cmd}"\n')
    result = wiki_of(home).commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "remember")], "t"
    )
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PostMemoryWrite"
    assert payload["commit"] == result.commit and payload["written_content"] == note_text(
        path="general/x.md"
    )


def test_mirror_template_as_async_post_write(home: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "kb"
    script = REPO / "templates" / "gate" / "mirror.py"
    write_config(
        home,
        f'[[gate.post_write]]\ncommand = "{sys.executable} {script} {mirror}"\nmatch = "projects/**"\nasync = true\n',
    )
    wiki = wiki_of(home)
    start = time.monotonic()
    wiki.commit_writes(
        [MemoryWrite("projects/acme-api/commands.md", "create", note_text(), "remember")], "t"
    )
    assert time.monotonic() - start < 5
    target = mirror / "projects" / "acme-api" / "commands.md"
    for _ in range(400):  # a detached process on a loaded machine: allow it 20 s
        if target.exists():
            break
        time.sleep(0.05)
    assert target.read_text() == note_text()
    current = (home / "memory" / "projects" / "acme-api" / "commands.md").read_text()
    wiki.commit_writes(
        [
            MemoryWrite(
                "projects/acme-api/commands.md", "delete", None, "forget", (), content_hash(current)
            )
        ],
        "t",
    )
    for _ in range(400):
        if not target.exists():
            break
        time.sleep(0.05)
    assert not target.exists()


def test_no_tokens_template_blocks_a_token(home: Path) -> None:
    script = REPO / "templates" / "gate" / "no-tokens.py"
    write_config(home, f'[[gate.pre_write]]\ncommand = "{sys.executable} {script}"\n')
    wiki = wiki_of(home)
    token = "Zk9" + "xQ2mR7vL4pT8wN1cY6bH3jD5fG0sA2eU"
    [r] = wiki.commit_writes(
        [
            MemoryWrite(
                "general/x.md",
                "create",
                note_text(body=f"staging value {token}\n", path="general/x.md"),
                "dream",
            )
        ],
        "t",
    ).results
    assert r.status == "blocked" and "looks like a token" in r.reason
    sha = "3f2b8c1e7d4a4e9b9c215a6f0d8e4b17a9c3d2e1"
    [r] = wiki.commit_writes(
        [
            MemoryWrite(
                "general/y.md",
                "create",
                note_text(body=f"commit {sha}\n", path="general/y.md"),
                "dream",
            )
        ],
        "t",
    ).results
    assert r.ok


def test_require_fields_template(home: Path) -> None:
    script = REPO / "templates" / "gate" / "require-fields.py"
    write_config(home, f'[[gate.pre_write]]\ncommand = "{sys.executable} {script} tags"\n')
    wiki = wiki_of(home)
    [r] = wiki.commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "dream")], "t"
    ).results
    assert r.status == "blocked" and "missing required front matter: tags" in r.reason
    tagged = render_note(new_note("general/x.md", "X", "b\n", tags=("ops",)))
    [r] = wiki.commit_writes([MemoryWrite("general/x.md", "create", tagged, "dream")], "t").results
    assert r.ok


def test_concurrent_edit_is_refused(home: Path) -> None:
    wiki = wiki_of(home)
    wiki.commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "remember")], "t"
    )
    read_at = content_hash(wiki.read("general/x.md"))
    (home / "memory" / "general" / "x.md").write_text(
        note_text("Edited by hand", path="general/x.md")
    )
    [r] = wiki.commit_writes(
        [
            MemoryWrite(
                "general/x.md",
                "update",
                note_text("Dream's version", path="general/x.md"),
                "dream",
                (),
                read_at,
            )
        ],
        "t",
    ).results
    assert r.status == "blocked" and "changed since it was read" in r.reason
    assert "Edited by hand" in (home / "memory" / "general" / "x.md").read_text()


def test_one_commit_per_batch_with_message_and_trailers(home: Path) -> None:
    wiki = wiki_of(home)
    before = commit_count(home)
    result = wiki.commit_writes(
        [
            MemoryWrite(
                f"general/n{i}.md",
                "create",
                note_text(f"N{i}", path=f"general/n{i}.md"),
                "dream",
                ("claude:3f2b8c1e", "codex:019d7a2e"),
            )
            for i in range(3)
        ],
        "dream: 3 created from 2 sessions",
        trailers=[("Wikimem-Watermark", '{"2026-11-29.jsonl": 123}')],
    )
    assert commit_count(home) == before + 1
    msg = subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "-1", "--format=%B"],
        capture_output=True,
        text=True,
    ).stdout
    assert msg.splitlines()[0] == "dream: 3 created from 2 sessions"
    assert "Wikimem-Source: dream" in msg
    assert "Wikimem-Sessions: claude:3f2b8c1e, codex:019d7a2e" in msg
    assert 'Wikimem-Watermark: {"2026-11-29.jsonl": 123}' in msg
    author = subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "-1", "--format=%an <%ae>"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert author == "wikimem <wikimem@localhost>"
    files = subprocess.run(
        ["git", "-C", str(home / "memory"), "show", "--name-only", "--format=", "HEAD"],
        capture_output=True,
        text=True,
    ).stdout.split()
    assert sorted(files) == ["general/n0.md", "general/n1.md", "general/n2.md", "index.md"]
    assert "[[general/n1|N1]]" in (home / "memory" / "index.md").read_text()
    assert result.commit


def test_user_commits_and_staged_files_are_left_alone(home: Path) -> None:
    mem = home / "memory"
    (mem / "general").mkdir()
    (mem / "general" / "mine.md").write_text(note_text("Mine", path="general/mine.md"))
    subprocess.run(["git", "-C", str(mem), "add", "general/mine.md"], check=True)
    wiki_of(home).commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "dream")], "t"
    )
    status = subprocess.run(
        ["git", "-C", str(mem), "status", "--porcelain"], capture_output=True, text=True
    ).stdout
    assert "A  general/mine.md" in status  # still staged, not swept into our commit
    subprocess.run(["git", "-C", str(mem), "commit", "-qm", "my own commit"], check=True)
    wiki_of(home).commit_writes(
        [MemoryWrite("general/y.md", "create", note_text("Y", path="general/y.md"), "dream")], "t"
    )
    log = subprocess.run(
        ["git", "-C", str(mem), "log", "--format=%s"], capture_output=True, text=True
    ).stdout.splitlines()
    assert log[:3] == ["t", "my own commit", "t"]


def test_global_signing_setup_is_ignored(home: Path, tmp_path: Path) -> None:
    gitconfig = Path(os.environ["GIT_CONFIG_GLOBAL"])
    gitconfig.write_text(
        gitconfig.read_text() + "[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = /bin/false\n"
    )
    result = wiki_of(home).commit_writes(
        [MemoryWrite("general/x.md", "create", note_text(path="general/x.md"), "dream")], "t"
    )
    assert result.commit


hostile_paths = st.one_of(
    st.sampled_from(
        [
            "../x.md",
            "../../.bashrc",
            "/tmp/x.md",
            "general/../../x.md",
            ".git/hooks/pre-commit",
            "general/./x.md",
            "general/x.md/../../../y.md",
            "general\\..\\..\\x.md",
            "general/x.md\x00",
            "~/.ssh/authorized_keys",
            "projects/../../../../etc/passwd",
        ]
    ),
    st.text(alphabet="./-_abcXYZ\\~\x00 ", min_size=1, max_size=30),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=hostile_paths)
def test_nothing_is_ever_written_outside_memory(home: Path, tmp_path: Path, path: str) -> None:
    outside_before = {p for p in tmp_path.rglob("*") if "memory" not in p.parts}
    wiki_of(home).commit_writes(
        [MemoryWrite(path, "create", note_text(path="general/x.md"), "mcp")], "t"
    )
    outside_after = {p for p in tmp_path.rglob("*") if "memory" not in p.parts}
    new = {p for p in outside_after - outside_before if "state" not in p.parts}
    assert not new, new


def test_a_crash_mid_batch_is_finished_by_the_next_person_write(home: Path) -> None:
    env = {**os.environ, "WIKIMEM_CRASH_AT": "after_write"}
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "remember", "I prefer tabs"],
        env=env,
        capture_output=True,
        text=True,
        cwd=os.environ["HOME"],
    )
    assert proc.returncode == 137
    assert (home / "memory" / "profile" / "preferences.md").exists()  # written, not committed
    assert commit_count(home) == 1
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "remember", "Deploys on Tuesdays"],
        capture_output=True,
        text=True,
        cwd=os.environ["HOME"],
    )
    assert proc.returncode == 0
    log = subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "--format=%s"], capture_output=True, text=True
    ).stdout
    assert "recover: 1 interrupted write(s)" in log
    status = subprocess.run(
        ["git", "-C", str(home / "memory"), "status", "--porcelain"], capture_output=True, text=True
    ).stdout
    assert status == ""
