"""The wiki verbs as a user runs them: remember, forget, edit, show, list, log, diff."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import make_repo


def wikimem(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    # Run from $HOME (a temp dir, not a repository) unless a test wants a project.
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        cwd=cwd or os.environ["HOME"],
        env={**os.environ, **(env or {})},
        input=input,
    )


def test_remember_picks_a_path_and_replaces_a_contradicted_preference(home: Path) -> None:
    assert wikimem("remember", "I prefer tabs over spaces").returncode == 0
    proc = wikimem("remember", "Actually, use spaces instead of tabs", "--json")
    out = json.loads(proc.stdout)
    assert out["written"] == [{"path": "profile/preferences.md", "operation": "update"}]
    text = (home / "memory" / "profile" / "preferences.md").read_text()
    assert "- **Indentation**: Use spaces instead of tabs. (remember 20" in text
    assert "I prefer tabs" not in text.split("<!-- wikimem:was ")[0]
    assert text.count("\n- ") == 1  # merged, not appended
    log = json.loads(wikimem("log", "--json").stdout)[0]
    assert 'Replaces: "I prefer tabs over spaces."' in log.get("body", "") or (
        'Replaces: "I prefer tabs over spaces."' in _git_body(home)
    )


def _git_body(home: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "-1", "--format=%B"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_remember_in_a_repository_goes_to_the_project(home: Path, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "api", "git@github.com:acme/api.git")
    proc = wikimem("remember", "The staging database listens on port 5433", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    text = (home / "memory" / "projects" / "acme-api" / "facts.md").read_text()
    assert "The staging database listens on port 5433." in text
    log = wikimem("log", "--json")
    assert json.loads(log.stdout)[0]["subject"] == "remember: projects/acme-api/facts.md"


def test_remember_with_explicit_path_and_project(home: Path) -> None:
    assert (
        wikimem(
            "remember", "rg -uu searches ignored files", "--path", "tools/ripgrep/flags"
        ).returncode
        == 0
    )
    assert (home / "memory" / "tools" / "ripgrep" / "flags.md").exists()
    assert (
        wikimem("remember", "Deploys go out on Tuesdays", "--project", "acme-web").returncode == 0
    )
    kept = (home / "memory" / "projects" / "acme-web").glob("*.md")
    assert any("Deploys go out on Tuesdays" in p.read_text() for p in kept)


def test_remember_bad_path_is_one_line_error(home: Path) -> None:
    proc = wikimem("remember", "x", "--path", "../../.bashrc")
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "'..' segments are not allowed" in proc.stderr
    assert not (Path(os.environ["HOME"]) / ".bashrc.md").exists()


def test_remember_redacts_a_secret(home: Path) -> None:
    wikimem(
        "remember",
        "The deploy token is ghp_"
        + "abcdefghijklmnopqrstuvwxyz0123456789, rotated by the platform team every month",
    )
    text = (home / "memory" / "general" / "notes.md").read_text()
    assert "[REDACTED:github_token]" in text and "ghp_abc" not in text


def test_remember_refuses_a_line_that_only_held_a_secret(home: Path) -> None:
    """Redacted, "The deploy token is [REDACTED…]" says nothing: no claim is made of it."""
    proc = wikimem("remember", "The deploy token is ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789")
    assert proc.returncode == 1 and "a secret and nothing else" in proc.stderr
    assert "ghp_abc" not in proc.stderr
    assert not (home / "memory" / "general" / "notes.md").exists()


def test_remember_refuses_a_question(home: Path) -> None:
    proc = wikimem("remember", "which port does the orders service use")
    assert proc.returncode == 1 and "a question" in proc.stderr
    assert not list((home / "memory").rglob("notes.md"))


def test_forget(home: Path) -> None:
    wikimem("remember", "I prefer tabs")
    proc = wikimem("forget", "profile/preferences")
    assert proc.returncode == 0
    assert not (home / "memory" / "profile").exists()
    assert "forget: profile/preferences.md" in wikimem("log").stdout
    assert wikimem("forget", "profile/preferences.md").returncode == 1


def test_forget_said_in_words_retracts_the_claim_it_names_and_keeps_the_rest(home: Path) -> None:
    site = "--project", "site"
    wikimem("remember", "Always run pnpm i18n:extract before committing.", *site)
    wikimem("remember", "Use Prettier for formatting.", *site)
    proc = wikimem("forget", "pnpm i18n:extract before committing", *site)
    assert proc.returncode == 0, proc.stderr
    notes = "".join(p.read_text() for p in (home / "memory" / "projects" / "site").glob("*.md"))
    current = [ln for ln in notes.splitlines() if ln.startswith("- ")]
    assert not [ln for ln in current if "i18n:extract" in ln]
    assert [ln for ln in current if "Prettier" in ln]
    assert "<!-- wikimem:was" in notes  # history keeps what was retracted
    assert (
        'Retracts: "Always run pnpm i18n:extract'
        in wikimem("log").stdout
        + subprocess.run(
            ["git", "-C", str(home / "memory"), "log", "-1", "--format=%B"],
            capture_output=True,
            text=True,
        ).stdout
    )
    # words that name nothing change nothing, and say so
    miss = wikimem("forget", "the kubernetes rule", *site)
    assert miss.returncode == 1 and "names 'the kubernetes rule'" in miss.stderr


def editor(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-editor.py"
    script.write_text(f"import sys\n{body}\n")
    return f"{sys.executable} {script}"


def test_edit_valid_change_is_committed(home: Path, tmp_path: Path) -> None:
    wikimem("remember", "I prefer tabs")
    ed = editor(
        tmp_path,
        "p = sys.argv[1]\nt = open(p).read()\nopen(p, 'w').write(t.replace('tabs', 'two-space indents'))",
    )
    proc = wikimem("edit", "profile/preferences.md", env={"EDITOR": ed})
    assert proc.returncode == 0, proc.stderr
    assert "two-space indents" in (home / "memory" / "profile" / "preferences.md").read_text()
    assert (
        json.loads(wikimem("log", "--json").stdout)[0]["subject"] == "edit: profile/preferences.md"
    )


def test_edit_invalid_note_is_never_committed(home: Path, tmp_path: Path) -> None:
    wikimem("remember", "I prefer tabs")
    before = (home / "memory" / "profile" / "preferences.md").read_text()
    ed = editor(tmp_path, "open(sys.argv[1], 'w').write('---\\nkind: profile\\n---\\nno title\\n')")
    proc = wikimem("edit", "profile/preferences.md", env={"EDITOR": ed}, input="n\n")
    assert proc.returncode == 1
    assert "title" in proc.stderr and "nothing committed" in proc.stderr
    assert (home / "memory" / "profile" / "preferences.md").read_text() == before


def test_edit_reopen_then_fix(home: Path, tmp_path: Path) -> None:
    wikimem("remember", "I prefer tabs")
    counter = tmp_path / "count"
    ed = editor(
        tmp_path,
        f"""
import os
n = int(open({str(counter)!r}).read()) if os.path.exists({str(counter)!r}) else 0
open({str(counter)!r}, 'w').write(str(n + 1))
p = sys.argv[1]
if n == 0:
    open(p, 'w').write('broken')
else:
    open(p, 'w').write('---\\ntitle: Preferences\\nkind: profile\\n---\\n- fixed\\n')
""",
    )
    proc = wikimem("edit", "profile/preferences.md", env={"EDITOR": ed}, input="y\n")
    assert proc.returncode == 0, proc.stderr
    assert (home / "memory" / "profile" / "preferences.md").read_text().endswith("- fixed\n")


def test_edit_creates_a_new_note_from_a_template(home: Path, tmp_path: Path) -> None:
    ed = editor(
        tmp_path,
        "p = sys.argv[1]\nt = open(p).read()\nopen(p, 'w').write(t.replace('Write the note here.', 'Use rg -F for literals.'))",
    )
    assert wikimem("edit", "tools/ripgrep/tips.md", env={"EDITOR": ed}).returncode == 0
    text = (home / "memory" / "tools" / "ripgrep" / "tips.md").read_text()
    assert "kind: tool" in text and "Use rg -F for literals." in text


def test_edit_refuses_when_the_note_changed_meanwhile(home: Path, tmp_path: Path) -> None:
    wikimem("remember", "I prefer tabs")
    target = home / "memory" / "profile" / "preferences.md"
    ed = editor(
        tmp_path,
        f"""
p = sys.argv[1]
mine = open(p).read()
open(p, 'w').write(mine.replace('tabs', 'spaces'))
t = open({str(target)!r}).read()
open({str(target)!r}, 'w').write(t.replace('tabs', 'hand edit'))
""",
    )
    proc = wikimem("edit", "profile/preferences.md", env={"EDITOR": ed})
    assert proc.returncode == 1 and "changed since it was read" in proc.stderr
    assert "hand edit" in target.read_text()


def test_show_list_log_diff(home: Path) -> None:
    wikimem("remember", "I prefer tabs")
    wikimem("remember", "Staging is on port 5433", "--project", "acme-api")
    show = wikimem("show", "profile/preferences")
    assert show.returncode == 0 and "title: Preferences" in show.stdout
    listed = json.loads(wikimem("list", "--json").stdout)
    assert [r["path"] for r in listed] == ["profile/preferences.md", "projects/acme-api/facts.md"]
    assert [r["path"] for r in json.loads(wikimem("list", "projects/", "--json").stdout)] == [
        "projects/acme-api/facts.md"
    ]
    log = json.loads(wikimem("log", "-n", "2", "--json").stdout)
    assert len(log) == 2 and log[0]["subject"] == "remember: projects/acme-api/facts.md"
    diff = wikimem("diff")
    assert "+- **Staging port**: Staging is on port 5433. (remember 20" in diff.stdout
    assert wikimem("show", "nope").returncode == 1
    assert "Traceback" not in wikimem("diff", "no-such-rev").stderr


def test_forget_a_note_that_was_never_committed(home: Path) -> None:
    (home / "memory" / "general").mkdir()
    (home / "memory" / "general" / "scratch.md").write_text(
        "---\ntitle: Scratch\nkind: general\n---\nx\n"
    )
    assert wikimem("forget", "general/scratch").returncode == 0
    assert not (home / "memory" / "general" / "scratch.md").exists()
    assert wikimem("remember", "Deploys on Tuesdays").returncode == 0  # nothing left stuck


def on_a_terminal(*args: str, columns: int = 100) -> str:
    """What `wikimem ARGS` shows on a terminal (a pseudo-terminal), colours taken out."""
    import pty
    import re
    import select

    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wikimem", *args],
        stdout=child, stderr=child, stdin=subprocess.DEVNULL, cwd=os.environ["HOME"],
        env={**os.environ, "COLUMNS": str(columns), "LINES": "50", "TERM": "xterm"},
    )  # fmt: skip
    os.close(child)
    out = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    proc.wait(timeout=60)
    os.close(main)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", "", out.decode()).replace("\r", "")


def test_show_on_a_terminal_keeps_a_conflicts_markers(home: Path) -> None:
    """`=======` under a line is a heading's underline in markdown: a conflict shown rendered
    lost its markers and made one side a heading."""
    rel = "projects/acme-api/ops.md"
    path = home / "memory" / rel
    path.parent.mkdir(parents=True)
    path.write_text(
        "---\ntitle: Ops\nkind: project\nconflict: true\n---\n- Build with `make build`.\n"
        "<<<<<<< laptop 2026-11-30T09:12:40Z\n- **Metrics port**: 9300. (remember 2026-11-30)\n"
        "=======\n- **Metrics port**: 9200. (remember 2026-11-30)\n"
        ">>>>>>> desktop 2026-11-30T16:05:02Z\n"
    )
    shown = on_a_terminal("show", rel)
    lines = [ln.strip() for ln in shown.splitlines()]
    assert "<<<<<<< laptop 2026-11-30T09:12:40Z" in lines, shown
    assert "=======" in lines and ">>>>>>> desktop 2026-11-30T16:05:02Z" in lines, shown
    assert lines.index("=======") > next(i for i, ln in enumerate(lines) if "9300" in ln)
    assert any("9200" in ln for ln in lines[lines.index("=======") :]), shown
    assert "sync conflict not yet settled" in shown
