"""Recall: the index, session-start and per-prompt injection, in each client's format."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_repo, run_hook
from wikimem.home import Home
from wikimem.recall.index import fts_query, open_index, passages
from wikimem.recall.inject import prompt as inject_prompt
from wikimem.wiki.batch import Wiki

NOTES = {
    "profile/preferences.md": (
        "Preferences",
        "profile",
        "- Use pnpm, never npm, in JavaScript repositories.\n- Keep commits small.\n",
    ),
    "profile/about.md": (
        "About me",
        "profile",
        "- Backend engineer; works mostly in TypeScript and Go.\n",
    ),
    "projects/acme-api/overview.md": ("acme-api", "project", "The billing and auth API of Acme.\n"),
    "projects/acme-api/commands.md": (
        "Commands of acme-api",
        "project",
        "| command | kind |\n|---|---|\n| `pnpm test` | test |\n",
    ),
    "projects/acme-api/pitfalls.md": (
        "Pitfalls in acme-api",
        "project",
        "- `pnpm test` failed because TOKEN_TTL exceeded the OAuth2 provider maximum of 900 s; lowered it in src/auth.ts.\n",
    ),
    "projects/acme-api/sessions/2026-11-20-aaaa1111.md": (
        "Session 2026-11-20",
        "session",
        "- **Asked:** migrate the invoices table\n  **Answered:** added migration 0042.\n",
    ),
    "projects/acme-web/conventions.md": (
        "Conventions of acme-web",
        "project",
        "- Components live in src/ui; use Tailwind.\n",
    ),
    "tools/ripgrep/flags.md": (
        "ripgrep",
        "tool",
        "- `rg -uu` searches ignored and hidden files.\n",
    ),
    "general/deploys.md": (
        "Deploys",
        "general",
        "Production deploys go out on Tuesdays with `make ship`.\n\n"
        "## Rollback\n\nRun `make rollback VERSION=x` and page the on-call.\n",
    ),
}


def seed(home: Path, notes: dict[str, tuple[str, str, str]] = NOTES) -> None:
    for rel, (title, kind, body) in notes.items():
        path = home / "memory" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\ntitle: {title}\nkind: {kind}\n---\n{body}")


def prompt_payload(prompt: str, cwd: str, session: str = "sess-1") -> dict[str, Any]:
    return {
        "session_id": session,
        "hook_event_name": "UserPromptSubmit",
        "cwd": cwd,
        "prompt": prompt,
        "transcript_path": "/tmp/x.jsonl",
    }


def context_of(proc: Any) -> str:
    out = proc.stdout.decode()
    if not out:
        return ""
    data = json.loads(out)
    return str(data["hookSpecificOutput"]["additionalContext"])


@pytest.fixture
def project(tmp_path: Path) -> str:
    return str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))


def test_session_start_injects_profile_and_project_standing_notes(home: Path, project: str) -> None:
    seed(home)
    proc = run_hook(
        "claude",
        {
            "session_id": "s1",
            "hook_event_name": "SessionStart",
            "cwd": project,
            "source": "startup",
        },
    )
    data = json.loads(proc.stdout)
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    text = data["hookSpecificOutput"]["additionalContext"]
    assert text.startswith('<memory source="wikimem">') and text.endswith("</memory>")
    assert "### profile/preferences.md — Preferences" in text and "Use pnpm, never npm" in text
    order = [
        text.index(f"### projects/acme-api/{n}.md") for n in ("commands", "pitfalls", "overview")
    ]
    assert order == sorted(order)  # by importance
    assert "sessions/" not in text  # never the digests
    assert "acme-web" not in text and "ripgrep" not in text  # not another project's, not tools


def test_prompt_injects_the_best_passages_current_project_first(home: Path, project: str) -> None:
    seed(home)
    text = context_of(
        run_hook(
            "claude", prompt_payload("why does pnpm test fail with the TOKEN_TTL error?", project)
        )
    )
    assert "### projects/acme-api/pitfalls.md — Pitfalls in acme-api" in text
    assert "OAuth2 provider maximum of 900 s" in text
    text = context_of(
        run_hook(
            "claude",
            prompt_payload("what is the rollback procedure after a deploy?", project, "sess-2"),
        )
    )
    assert "make rollback VERSION=x" in text
    assert (
        "Production deploys go out on Tuesdays" not in text
    )  # only the best section of a long note


def test_nothing_when_nothing_is_relevant(home: Path, project: str) -> None:
    seed(home)
    for p in ("thanks!", "ok", "what is the weather like on Mars today", "¿qué tal?", ""):
        proc = run_hook("claude", prompt_payload(p, project))
        assert proc.returncode == 0 and proc.stdout == b"", p


def test_no_repeat_within_a_session(home: Path, project: str) -> None:
    seed(home)
    first = context_of(
        run_hook("claude", prompt_payload("TOKEN_TTL failure in pnpm test", project, "s-rep"))
    )
    assert "TOKEN_TTL" in first
    again = context_of(
        run_hook("claude", prompt_payload("TOKEN_TTL failure in pnpm test again", project, "s-rep"))
    )
    assert "TOKEN_TTL exceeded" not in again
    other = context_of(
        run_hook(
            "claude", prompt_payload("TOKEN_TTL failure in pnpm test", project, "another-session")
        )
    )
    assert "TOKEN_TTL exceeded" in other


def test_session_start_notes_are_not_repeated_per_prompt(home: Path, project: str) -> None:
    seed(home)
    run_hook(
        "claude",
        {
            "session_id": "s-ss",
            "hook_event_name": "SessionStart",
            "cwd": project,
            "source": "startup",
        },
    )
    text = context_of(
        run_hook("claude", prompt_payload("pnpm or npm for javascript?", project, "s-ss"))
    )
    assert "profile/preferences.md" not in text


def test_compaction_restarts_the_record(home: Path, project: str) -> None:
    seed(home)
    start = {"session_id": "s-c", "hook_event_name": "SessionStart", "cwd": project}
    first = json.loads(run_hook("claude", {**start, "source": "startup"}).stdout)
    again = json.loads(run_hook("claude", {**start, "source": "compact"}).stdout)
    assert first == again  # the compacted context lost it: injected again


def test_budgets_are_never_exceeded(home: Path, project: str) -> None:
    filler = " ".join(f"word{j}" for j in range(400))
    big = {
        f"projects/acme-api/note-{i}.md": (
            f"Note {i}",
            "project",
            f"{filler} auth token rotation {i}. {filler}\n\n" * 3,
        )
        for i in range(30)
    }
    seed(home, {**NOTES, **big})
    (home / "config.toml").write_text("[inject]\nsession_start_chars = 2500\nprompt_chars = 1200\n")
    start = json.loads(
        run_hook(
            "claude", {"session_id": "b", "hook_event_name": "SessionStart", "cwd": project}
        ).stdout
    )
    assert len(start["hookSpecificOutput"]["additionalContext"]) <= 2500
    for i in range(3):
        text = context_of(
            run_hook("claude", prompt_payload(f"auth token rotation {i}", project, "b"))
        )
        assert 0 < len(text) <= 1200


def test_hand_edit_is_visible_to_the_next_query(home: Path, project: str) -> None:
    seed(home)
    Wiki(Home(str(home)))._after_commit([])  # a warm index, as after any commit
    target = home / "memory" / "general" / "deploys.md"
    # an editor that writes in place (same inode, directory untouched): found by `wikimem search`
    with open(target, "r+") as fh:
        text = fh.read().replace("Tuesdays", "Thursdays after standup")
        fh.seek(0)
        fh.write(text)
        fh.truncate()
    os.utime(target, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "wikimem", "search", "thursdays standup", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)[0]["path"] == "general/deploys.md"
    # Obsidian-style atomic save (new file renamed over): found by the very next prompt
    (home / "memory" / "general" / "tmp.md").write_text(
        "---\ntitle: Deploys\nkind: general\n---\nDeploys need a green canary first.\n"
    )
    os.replace(home / "memory" / "general" / "tmp.md", target)
    text = context_of(
        run_hook("claude", prompt_payload("what do deploys need? canary?", project, "s-edit"))
    )
    assert "green canary" in text


def test_in_place_edit_of_profile_is_seen_at_next_session_start(home: Path, project: str) -> None:
    seed(home)
    Wiki(Home(str(home)))._after_commit([])
    target = home / "memory" / "profile" / "preferences.md"
    with open(target, "r+") as fh:
        text = fh.read().replace("Keep commits small.", "Squash before merging.")
        fh.seek(0)
        fh.write(text)
        fh.truncate()
    os.utime(target, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    start = run_hook(
        "claude", {"session_id": "s-p", "hook_event_name": "SessionStart", "cwd": project}
    )
    assert (
        "Squash before merging."
        in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    )
    index = open_index(str(home / "state"), str(home / "memory"))
    assert [h.path for h in index.search("squash merging")][:1] == ["profile/preferences.md"]
    index.close()


def test_deleted_and_renamed_notes_leave_the_index(home: Path) -> None:
    seed(home)
    index = open_index(str(home / "state"), str(home / "memory"))
    index.refresh()
    (home / "memory" / "tools" / "ripgrep" / "flags.md").rename(
        home / "memory" / "tools" / "ripgrep" / "options.md"
    )
    (home / "memory" / "general" / "deploys.md").unlink()
    index.refresh()
    paths = {h.path for h in index.search("rg ignored hidden files deploys tuesdays")}
    assert paths == {"tools/ripgrep/options.md"}
    index.close()


def test_corrupt_or_missing_index_is_rebuilt(home: Path, project: str) -> None:
    seed(home)
    (home / "state" / "index.sqlite3").write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (home / "state" / f"index.sqlite3{suffix}").unlink(missing_ok=True)
    text = context_of(run_hook("claude", prompt_payload("TOKEN_TTL pnpm test", project)))
    assert "TOKEN_TTL" in text
    (home / "state" / "index.sqlite3").unlink()
    assert "TOKEN_TTL" in context_of(
        run_hook("claude", prompt_payload("TOKEN_TTL pnpm test", project, "s9"))
    )


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    query=st.text(max_size=300)
    | st.sampled_from(
        [
            '"unbalanced',
            "a OR (b AND",
            "NEAR(x y)",
            "col:term",
            "x*",
            "^start",
            "-- DROP TABLE notes; --",
            "src/auth.ts:42 (TOKEN_TTL)",
            "SELECT * FROM passages",
            "日本語のテキスト",
            "émigré café",
            "\x00\x01",
            "def f(x): return x['k'] // 2",
            "{}[]()<>|&;$`",
            "AND",
            "OR",
            "NOT",
        ]
    )
)
def test_hostile_queries_never_raise(home: Path, query: str) -> None:
    seed(home)
    index = open_index(str(home / "state"), str(home / "memory"))
    index.refresh()
    index.search(query)
    inject_prompt(Home(str(home)), index, "acme-api", None, query, 3000)
    index.close()
    fts = fts_query(query)
    if fts:
        db = sqlite3.connect(":memory:")
        db.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        db.execute("SELECT * FROM t WHERE t MATCH ?", (fts,)).fetchall()


def test_non_english_text_is_searchable(home: Path) -> None:
    seed(
        home,
        {
            "general/umzug.md": (
                "Umzug",
                "general",
                "Die Datenbank zieht am Montag nach Frankfurt um.\n",
            )
        },
    )
    index = open_index(str(home / "state"), str(home / "memory"))
    index.refresh()
    assert [h.path for h in index.search("Wann zieht die Datenbank nach Frankfurt?")] == [
        "general/umzug.md"
    ]
    index.close()


def test_passages_split_long_notes_at_headings_and_items() -> None:
    body = (
        "Intro.\n\n## One\n\n"
        + "".join(f"- item {i} " + "x" * 200 + "\n" for i in range(10))
        + "\n## Two\n\nLast.\n"
    )
    parts = passages(body)
    assert parts[0] == ("", "Intro.")
    assert all(len(t) <= 1000 for _, t in parts)
    assert {h for h, _ in parts} == {"", "One", "Two"}


# -- each client's exact output, validated against the contracts --------------------------------


def test_claude_output_shapes(home: Path, project: str) -> None:
    seed(home)
    start = json.loads(
        run_hook(
            "claude", {"session_id": "c", "hook_event_name": "SessionStart", "cwd": project}
        ).stdout
    )
    assert set(start) == {"hookSpecificOutput"} and set(start["hookSpecificOutput"]) == {
        "hookEventName",
        "additionalContext",
    }
    assert len(start["hookSpecificOutput"]["additionalContext"]) <= 10_000  # Claude Code's cap
    prompt = json.loads(run_hook("claude", prompt_payload("TOKEN_TTL pnpm", project, "c2")).stdout)
    assert prompt["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    for event in ("Stop", "SessionEnd", "PostToolUse", "PreCompact"):
        proc = run_hook("claude", {"session_id": "c", "hook_event_name": event, "cwd": project})
        assert proc.stdout == b""


def test_codex_output_shapes(home: Path, project: str) -> None:
    seed(home)
    base = {"session_id": "x", "cwd": project, "model": "gpt-5.5", "turn_id": "t"}
    start = json.loads(
        run_hook("codex", {**base, "hook_event_name": "SessionStart", "source": "startup"}).stdout
    )
    assert start["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    fresh = {**base, "session_id": "x2"}  # in "x" the pitfall was already given at session start
    prompt = json.loads(
        run_hook(
            "codex", {**fresh, "hook_event_name": "UserPromptSubmit", "prompt": "TOKEN_TTL failure"}
        ).stdout
    )
    assert prompt["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    # Stop accepts only JSON or nothing: nothing
    assert (
        run_hook("codex", {**base, "hook_event_name": "Stop", "last_assistant_message": "x"}).stdout
        == b""
    )


def test_cursor_output_shapes(home: Path, project: str) -> None:
    seed(home)
    base = {
        "conversation_id": "cc",
        "generation_id": "g",
        "workspace_roots": [project],
        "cursor_version": "3.12.17",
    }
    start = json.loads(
        run_hook("cursor", {**base, "hook_event_name": "sessionStart", "session_id": "cc"}).stdout
    )
    assert (
        set(start) == {"additional_context"}
        and "Use pnpm, never npm" in start["additional_context"]
    )
    prompt = json.loads(
        run_hook(
            "cursor", {**base, "hook_event_name": "beforeSubmitPrompt", "prompt": "TOKEN_TTL"}
        ).stdout
    )
    assert prompt == {"continue": True}  # Cursor cannot inject per prompt
    assert (
        run_hook("cursor", {**base, "hook_event_name": "stop", "status": "completed"}).stdout == b""
    )


def test_inject_and_search_commands(home: Path, project: str) -> None:
    import subprocess
    import sys

    seed(home)

    def wikimem(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "wikimem", *args], capture_output=True, text=True, check=True
        ).stdout

    text = wikimem("inject", "session-start", "--cwd", project)
    assert "### profile/preferences.md — Preferences" in text
    out = json.loads(
        wikimem("inject", "prompt", "--cwd", project, "--prompt", "TOKEN_TTL", "--client", "codex")
    )
    assert "TOKEN_TTL" in out["hookSpecificOutput"]["additionalContext"]
    assert json.loads(
        wikimem("inject", "prompt", "--cwd", project, "--prompt", "TOKEN_TTL", "--client", "cursor")
    ) == {"continue": True}
    results = json.loads(wikimem("search", "rollback", "--json"))
    assert results[0]["path"] == "general/deploys.md" and results[0]["section"] == "Rollback"
    assert not (home / "state" / "sessions").exists() or not list(
        (home / "state" / "sessions").iterdir()
    )


def test_an_odd_front_matter_value_does_not_turn_injection_off(home: Path, project: str) -> None:
    seed(home)
    (home / "memory" / "profile" / "units.md").write_text(
        "---\ntitle: Units\nkind: profile\nexponent: ²\n---\n- Metric.\n"
    )
    start = run_hook(
        "claude", {"session_id": "u", "hook_event_name": "SessionStart", "cwd": project}
    )
    assert (
        "Use pnpm, never npm" in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    )


SCOPED = {
    "projects/acme-api/facts.md": (
        "acme-api facts",
        "project",
        "- **Metrics collector port**: The metrics collector runs on port 9300 (was 9102 until "
        "2026-11-30). ([[projects/acme-api/sessions/2026-11-30-0199a2b3-3fa2c1|codex 2026-11-30]])\n"
        "- Releases are cut with `make release` from main. (claude 2026-11-20)\n",
    ),
    "projects/acme-api/sessions/2026-11-28-proj-session-1-aaaaaa.md": (
        "acme-api session",
        "session",
        "- **Asked:** by the way, the metrics collector runs on port 9102 here\n",
    ),
    "projects/acme-api/sessions/2026-11-29-proj-session-2-bbbbbb.md": (
        "acme-api session",
        "session",
        "- **Asked:** the grafana dashboards for the collector are under ops/grafana\n",
    ),
    "projects/beta-web/facts.md": (
        "beta-web facts",
        "project",
        "- Releases are tagged by CI after the changelog check. (codex 2026-11-21)\n",
    ),
}


def test_a_prompt_is_given_only_its_projects_notes_unless_it_names_another(
    home: Path, project: str
) -> None:
    seed(home, {**NOTES, **SCOPED})
    proc = run_hook("claude", prompt_payload("how are releases cut?", project, "s-scope"))
    text = context_of(proc)
    assert "make release" in text
    assert "changelog check" not in text and "beta-web" not in text  # no cross-project bleed
    named = context_of(
        run_hook("claude", prompt_payload("how does beta-web cut releases?", project, "s-named"))
    )
    assert "changelog check" in named


def test_living_claims_come_first_and_stale_history_is_not_offered(
    home: Path, project: str
) -> None:
    seed(home, {**NOTES, **SCOPED})
    # the person said it in codex that day, as this machine recorded it (wikimem.wiki.origins)
    from wikimem.wiki import origins

    facts = "projects/acme-api/facts.md"
    said = origins.code(origins.PERSON, "codex", "2026-11-30")
    lines = SCOPED[facts][2].splitlines()
    origins.save(str(home / "state"), {facts: {str(origins.key(lines[0])): said}})
    text = context_of(
        run_hook(
            "claude",
            prompt_payload("which port does the metrics collector use?", project, "s-port"),
        )
    )
    assert "port 9300 (was 9102 until 2026-11-30)" in text
    assert "(codex, 2026-11-30)" in text and "[[" not in text  # provenance, compact
    # the line nobody recorded is quoted, whatever its text says
    assert "> - Releases are cut with `make release` from main.\n" in text
    assert "runs on port 9102 here" not in text  # the superseded digest line is not given


def test_digests_answer_when_no_living_note_does(home: Path, project: str) -> None:
    seed(home, {**NOTES, **SCOPED})
    text = context_of(
        run_hook("claude", prompt_payload("where are the grafana dashboards?", project, "s-dash"))
    )
    assert "ops/grafana" in text
    assert "make release" not in text  # a weak match is not given just because it fits


@pytest.mark.parametrize("budget", [700, 1200, 2000, 3000])
def test_a_prompt_that_matches_always_gets_something_within_its_budget(
    home: Path, budget: int
) -> None:
    # Claims carry long provenance links that injection compacts, so a passage costs less than
    # its stored length; the cut of the last passage that did not fit once overshot the budget,
    # and the whole injection was then dropped (a 40-claim note answered nothing).
    names = [f"tool{i:02d}" for i in range(40)]
    body = "".join(
        f"- **{n} script**: The {n} script logs to /var/log/dot/{n}.log and reads its settings"
        f" from ~/.config/{n}/config.toml. ([[projects/acme-api/sessions/2026-03-02-proj-"
        f"session-18-1a98fa|claude 2026-03-02]])\n"
        for n in names
    )
    seed(home, {"projects/acme-api/scripts.md": ("Scripts", "project", body)})
    h = Home(str(home))
    index = open_index(h.state_dir, h.memory_dir)
    index.refresh(full=True)
    for n in ("tool39", "tool20", "tool00"):
        text = inject_prompt(h, index, "acme-api", None, f"where does the {n} script log?", budget)
        assert text is not None and len(text) <= budget
        assert f"/var/log/dot/{n}.log" in text


def test_cached_word_counts_follow_the_notes(home: Path) -> None:
    # how many passages hold a word decides whether a prompt's word is worth ranking on; the
    # counts are cached for the prompt hook and must not outlive a change to the notes
    seed(home, {"general/a.md": ("A", "general", "The zebra crossing is on Main Street.\n")})
    h = Home(str(home))
    index = open_index(h.state_dir, h.memory_dir)
    index.refresh(full=True)
    index.search("zebra crossing")
    assert index._document_frequencies(("zebra",)) == {"zebra": 1}
    seed(
        home,
        {f"general/z{i}.md": (f"Z{i}", "general", f"Zebra number {i}.\n") for i in range(5)},
    )
    index.refresh()
    assert index._document_frequencies(("zebra",)) == {"zebra": 6}
    assert index._document_frequencies(("okapi",)) == {"okapi": 0}


def test_another_project_is_reached_by_its_repository_name_without_the_owner(
    home: Path, project: str, tmp_path: Path
) -> None:
    """A home whose billing notes were written from a clone of `git@github.com:acme/billing.git`
    (slug `acme-billing`, as it always was): from another project, "billing" reaches them, and a
    prompt that merely says "api" or "web" reaches no project of that name."""
    from wikimem.dream.runner import run_dream

    billing = str(make_repo(tmp_path / "code" / "billing", "git@github.com:acme/billing.git"))
    said = "remember: the invoice job in billing runs nightly and batches 500 invoices per run"
    run_hook("claude", prompt_payload(said, billing, "s-billing"))
    run_dream(Home(str(home)), backend_name="offline")
    filed = [p.relative_to(home / "memory").as_posix() for p in (home / "memory").rglob("*.md")]
    assert any(p.startswith("projects/acme-billing/") for p in filed), filed  # the slug is kept
    seed(home)
    text = context_of(
        run_hook("claude", prompt_payload("why is the invoice job in billing slow?", project, "s1"))
    )
    assert "500 invoices per run" in text and "projects/acme-billing/" in text
    # the other direction: words of a project's name that are common words name nothing
    web = context_of(
        run_hook("claude", prompt_payload("where do web components live?", project, "s2"))
    )
    assert "acme-web" not in web and "Tailwind" not in web
    named = context_of(
        run_hook(
            "claude", prompt_payload("where do components live in the web repo?", project, "s3")
        )
    )
    assert "Tailwind" in named
