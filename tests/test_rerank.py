"""What a prompt is given beyond BM25's order: passages covering the whole question, digest
turns given with the turns after them (the answer follows the question), generated text that is
never an answer."""

from __future__ import annotations

from pathlib import Path

from tests.test_recall import NOTES, seed
from wikimem.home import Home
from wikimem.recall import rerank
from wikimem.recall.index import Hit, open_index, passages
from wikimem.recall.inject import prompt as inject_prompt
from wikimem.recall.inject import relevant


def digest_body(turns: list[tuple[str, str]]) -> str:
    items = "".join(f"- **Asked:** {q}\n  **Answered:** {a}\n" for q, a in turns)
    return f"Claude Code session in acme-api.\n\n## Turns\n\n<!-- wikimem:turns -->\n{items}<!-- /wikimem:turns -->\n"


FILLER = [
    (f"look at the logging of module {name}", f"module {name} logs through structlog already")
    for name in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")
]
# the question is asked at the end of the first passage; the answer comes in the next turns
FLAKY = [
    (
        "why do the payments checks flake on CI?",
        "let me look at the CI runs of the payments checks",
    ),
    ("any luck?", "yes: the sandbox rate limit is 25 requests per second, we send 40"),
]


def index_of(home: Path) -> tuple[Home, object]:
    h = Home(str(home))
    index = open_index(h.state_dir, h.memory_dir)
    index.refresh(full=True)
    return h, index


def test_the_answer_in_the_turns_after_the_match_is_given(home: Path) -> None:
    # A fixed cut into passages put the question at the end of one passage and its answer at
    # the start of the next; the passage that matches must read on into it.
    body = digest_body(FILLER[:7] + FLAKY + FILLER[7:])
    ordinals = [i for i, (_, text) in enumerate(passages(body)) if "payments checks flake" in text]
    assert ordinals and "25 requests per second" not in passages(body)[ordinals[0]][1]
    seed(
        home, {**NOTES, "projects/acme-api/sessions/2026-11-20-bbbb2222.md": ("S", "session", body)}
    )
    h, index = index_of(home)
    text = inject_prompt(h, index, "acme-api", None, "why do the payments checks flake?", 1400)
    assert text is not None and len(text) <= 1400
    assert "payments checks flake" in text and "25 requests per second" in text


def test_no_turn_is_given_twice(home: Path) -> None:
    body = digest_body(FILLER[:7] + FLAKY + FILLER[7:])
    seed(
        home, {**NOTES, "projects/acme-api/sessions/2026-11-20-bbbb2222.md": ("S", "session", body)}
    )
    h, index = index_of(home)
    # "payments" matches the first passage, and "sandbox" the second, into which the first reads
    text = inject_prompt(h, index, "acme-api", None, "payments checks sandbox rate limit", 8000)
    assert text is not None
    assert text.count("the sandbox rate limit is 25") == 1
    assert text.count("why do the payments checks flake") == 1


def test_living_notes_are_given_as_they_are(home: Path) -> None:
    body = "".join(f"- **Tool {i}**: tool {i} lives in bin/tool{i}.\n" for i in range(30))
    seed(home, {**NOTES, "projects/acme-api/facts.md": ("Facts", "project", body)})
    h, index = index_of(home)
    text = inject_prompt(h, index, "acme-api", None, "where does tool 17 live?", 3000)
    assert text is not None and "bin/tool17." in text
    first = next(t for _, t in passages(body) if "tool17" in t)
    # the passage, whole (quoted: nobody recorded these lines as the person's): a claim line
    # stands alone, nothing to read on to
    assert "\n".join(f"> {ln}" for ln in first.split("\n")) in text


def hit(path: str, score: float, body: str) -> Hit:
    found = Hit(path, 0, "", body, -score, path, "session", "acme-api", "")
    return found


def test_a_question_about_two_things_gets_a_passage_for_each() -> None:
    hits = [
        hit("projects/a/sessions/1.md", 10.0, "redis redis upgrade of the redis cluster"),
        hit("projects/a/sessions/2.md", 9.8, "redis eviction policy is allkeys-lru"),
        hit("projects/a/sessions/3.md", 9.5, "redis maxmemory is 4 GB"),
        hit("projects/a/sessions/4.md", 6.0, "kafka retention is 7 days"),
    ]
    order = [h.path[-4:] for h in rerank.cover(hits, rerank.term_weights(hits, ["redis", "kafka"]))]
    assert order[:2] == ["1.md", "4.md"]  # the only passage about kafka comes second, not last
    assert sorted(order) == ["1.md", "2.md", "3.md", "4.md"]  # nothing lost
    # one word asked about: relevance alone decides
    assert [h.path[-4:] for h in rerank.cover(hits, rerank.term_weights(hits, ["redis"]))] == [
        "1.md",
        "2.md",
        "3.md",
        "4.md",
    ]


def test_generated_links_and_notices_are_not_answers(home: Path) -> None:
    overview = (
        "Project **acme-api**.\n<!-- Kept by `wikimem dream`; write freely outside the marked"
        " parts. -->\n\n<!-- wikimem:activity -->\nSessions recorded: 3 (Claude Code 3); last"
        " active 2026-11-20.\n<!-- /wikimem:activity -->\n\n## Notes\n\n<!-- wikimem:links -->\n"
        "recent sessions: [[projects/acme-api/sessions/2026-11-20-aaaa1111]]\n"
        "<!-- /wikimem:links -->\n"
    )
    seed(
        home, {**NOTES, "projects/acme-api/overview.md": ("acme-api overview", "project", overview)}
    )
    assert all("recent sessions" not in t for _, t in passages(overview))
    h, index = index_of(home)
    assert inject_prompt(h, index, "acme-api", None, "where can I write freely?", 3000) is None
    recent = inject_prompt(h, index, "acme-api", None, "which recent sessions were there?", 3000)
    assert "recent sessions:" not in (recent or "")
    assert "Sessions recorded: 3" in (
        inject_prompt(h, index, "acme-api", None, "how many sessions were recorded?", 3000) or ""
    )


DIGEST = "projects/acme-api/sessions/2026-11-20-bbbb2222.md"


def test_reading_on_never_brings_back_a_value_a_newer_claim_replaced(home: Path) -> None:
    facts = "- The sandbox rate limit is 50 requests per second (was 25 until 2026-11-30).\n"
    body = digest_body(FILLER[:7] + FLAKY + FILLER[7:])
    seed(
        home,
        {
            **NOTES,
            DIGEST: ("S", "session", body),
            "projects/acme-api/facts.md": ("Facts", "project", facts),
        },
    )
    h, index = index_of(home)
    text = inject_prompt(h, index, "acme-api", None, "why do the payments checks flake?", 3000)
    assert text is not None and "payments checks flake" in text
    assert "rate limit is 25" not in text


def test_a_turn_given_once_in_a_session_is_not_given_again(home: Path) -> None:
    seed(home, {**NOTES, DIGEST: ("S", "session", digest_body(FILLER[:7] + FLAKY + FILLER[7:]))})
    h, index = index_of(home)
    first = inject_prompt(h, index, "acme-api", "s1", "why do the payments checks flake?", 3000)
    assert first and "the sandbox rate limit is 25" in first  # read on into the next passage
    second = inject_prompt(h, index, "acme-api", "s1", "sandbox rate limit requests", 3000)
    assert "the sandbox rate limit is 25" not in (second or "")


def test_turns_a_window_left_out_are_still_given_later_in_the_session(home: Path) -> None:
    seed(home, {**NOTES, DIGEST: ("S", "session", digest_body(FILLER[:7] + FLAKY + FILLER[7:]))})
    h, index = index_of(home)
    first = inject_prompt(h, index, "acme-api", "s1", "why do the payments checks flake?", 3000)
    assert first and "module alpha logs" not in first  # before the window, and not needed then
    second = inject_prompt(h, index, "acme-api", "s1", "how does module alpha log?", 3000)
    assert "module alpha logs through structlog" in (second or "")


def test_a_turn_read_on_into_by_a_given_passage_is_not_lost(home: Path) -> None:
    turns = [
        ("payments checks are slow", "they run 200 tests"),
        *FILLER[:6],
        ("is kafka needed for the kafka checks? kafka", "checking the kafka kafka setup now"),
        ("and?", "the sandbox answers 429 above 25 requests per second"),
        *FILLER[6:],
    ]
    seed(home, {**NOTES, DIGEST: ("S", "session", digest_body(turns))})
    h, index = index_of(home)
    first = inject_prompt(h, index, "acme-api", "s1", "payments checks slow", 3000)
    second = inject_prompt(h, index, "acme-api", "s1", "kafka setup and the sandbox answer", 3000)
    assert "429 above 25" in (first or "") + (second or "")


def test_digests_wait_when_the_best_living_note_answers_as_well(home: Path) -> None:
    # coverage may put a weaker living note first; the rule compares the best of each
    def mk(path: str, score: float, body: str, kind: str) -> Hit:
        return Hit(path, 0, "", body, -score, path, kind, "acme-api", "")

    hits = [
        mk("projects/acme-api/redis.md", 10.0, "redis maxmemory 4 GB", "project"),
        mk("projects/acme-api/sessions/d.md", 9.0, "we looked at redis", "session"),
        mk("projects/acme-api/stack.md", 4.0, "redis kafka zookeeper broker", "project"),
    ]
    seed(home)
    h, index = index_of(home)
    index.search = lambda *a, **k: list(hits)  # type: ignore[method-assign]
    index.selective_terms = lambda q: q.split()  # type: ignore[method-assign]
    got = relevant(h, index, "acme-api", "redis kafka zookeeper broker", 1.0, 40)
    assert [g.path for g in got] and all("/sessions/" not in g.path for g in got)


def test_a_links_block_left_open_by_a_hand_edit_hides_only_itself() -> None:
    body = "Intro.\n\n## Notes\n\n<!-- wikimem:links -->\n- [[a]]\n\n## Deploy\n\nWe deploy with fly.\n"
    assert passages(body) == [("", "Intro."), ("Deploy", "We deploy with fly.")]


def test_a_long_sessions_record_stays_small(home: Path) -> None:
    from wikimem.recall.given import MAX_TURNS, load_given, save_given

    h = Home(str(home))
    many = [f"{i:016x}" for i in range(MAX_TURNS * 3)]
    save_given(h, "long-session", {"notes": [], "passages": [], "turns": many})
    kept = load_given(h, "long-session")["turns"]
    assert kept == many[-MAX_TURNS:]  # the most recent ones


def test_a_damaged_session_record_still_lets_prompts_inject(home: Path) -> None:
    from wikimem.recall.given import _record_path

    seed(home)
    h, index = index_of(home)
    record = Path(_record_path(h, "s-damaged"))
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(
        '{"notes": [1, ["x"], "profile/about.md"], "passages": [["a"], [1, 2], "x",'
        ' ["general/deploys.md", 0]], "turns": [["t"], {"a": 1}, "0123abcd"]}'
    )
    text = inject_prompt(h, index, "acme-api", "s-damaged", "how do we roll back a deploy?", 3000)
    assert text is not None and "make rollback" in text
