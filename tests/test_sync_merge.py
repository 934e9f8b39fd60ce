"""Merging two versions of a note: by field, by line, both kept and flagged where they clash."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from wikimem.sync.claims import Claim, parse_claim, same_subject
from wikimem.sync.merge import flagged, has_markers, merge_note
from wikimem.sync.reconcile import settle_body
from wikimem.wiki.notes import parse_note

PATH = "projects/acme-api/commands.md"


def note(
    body: str,
    *,
    title: str = "Commands",
    tags: str = "[build]",
    created: str = "2026-11-01",
    updated: str = "2026-11-20T10:00:00Z",
    sources: str = "[claude:aaaa1111]",
    pinned: str = "false",
    extra: str = "",
) -> str:
    return (
        f"---\ntitle: {title}\nkind: project\ntags: {tags}\ncreated: {created}\n"
        f"updated: {updated}\nsources: {sources}\npinned: {pinned}\n{extra}---\n{body}"
    )


BASE_BODY = "- Build with `make build`.\n- Test with `make test`.\n- Lint with `make lint`.\n"


def test_edits_to_different_lines_are_both_kept() -> None:
    base = note(BASE_BODY)
    ours = note(BASE_BODY.replace("make build", "make build -j4"))
    theirs = note(BASE_BODY.replace("make lint", "ruff check ."))
    merged = merge_note(PATH, base, ours, theirs)
    assert merged.text is not None and not merged.conflict
    parsed = parse_note(PATH, merged.text)
    assert "make build -j4" in parsed.body and "ruff check ." in parsed.body
    assert not flagged(parsed) and not has_markers(merged.text)


def test_the_same_line_changed_on_both_sides_keeps_both_between_markers_and_flags_it() -> None:
    base = note(BASE_BODY)
    ours = note(BASE_BODY.replace("make test", "make test-fast"), updated="2026-11-21T00:00:00Z")
    theirs = note(BASE_BODY.replace("make test", "pytest -q"), updated="2026-11-22T00:00:00Z")
    merged = merge_note(PATH, base, ours, theirs, ("laptop", "desktop"))
    assert merged.conflict and merged.text is not None
    parsed = parse_note(PATH, merged.text)
    assert flagged(parsed)
    # each marker says whose version it is and when that version was changed
    assert (
        "<<<<<<< laptop 2026-11-21T00:00:00Z\n- Test with `make test-fast`.\n=======\n"
        in parsed.body
    )
    assert "- Test with `pytest -q`.\n>>>>>>> desktop 2026-11-22T00:00:00Z\n" in parsed.body
    assert "make build" in parsed.body and "make lint" in parsed.body  # the rest merged once
    assert parsed.body.count("make build") == 1


def test_front_matter_is_merged_field_by_field() -> None:
    base = note(BASE_BODY, tags="[build, old]", sources="[claude:aaaa1111]")
    ours = note(
        BASE_BODY,
        title="Build commands",
        tags="[build, old, ci]",
        sources="[claude:aaaa1111, codex:bbbb2222]",
        created="2026-11-01",
        updated="2026-11-25T00:00:00Z",
        extra="owner: alice\n",
    )
    theirs = note(
        BASE_BODY,
        tags="[build, make]",  # removed "old", added "make"
        sources="[claude:aaaa1111, cursor:cccc3333]",
        created="2026-10-15",
        updated="2026-11-23T00:00:00Z",
        pinned="true",
    )
    merged = merge_note(PATH, base, ours, theirs)
    assert merged.text is not None and not merged.conflict
    parsed = parse_note(PATH, merged.text)
    assert parsed.title == "Build commands"  # only ours changed it
    assert parsed.tags == ("build", "ci", "make")  # union, minus what theirs removed
    assert parsed.sources == ("claude:aaaa1111", "codex:bbbb2222", "cursor:cccc3333")
    assert parsed.created == "2026-10-15" and parsed.updated == "2026-11-25T00:00:00Z"
    assert parsed.pinned is True
    assert parsed.extra == (("owner", "owner: alice"),)  # a person's key survives


def test_a_title_changed_on_both_sides_goes_to_the_side_updated_last_whoever_merges() -> None:
    base = note(BASE_BODY)
    older = note(BASE_BODY, title="Make targets", updated="2026-11-21T00:00:00Z")
    newer = note(BASE_BODY, title="Build and test", updated="2026-11-22T00:00:00Z")
    one = merge_note(PATH, base, older, newer)
    other = merge_note(PATH, base, newer, older)
    assert one.text == other.text  # the same note on both machines
    assert one.text is not None and parse_note(PATH, one.text).title == "Build and test"


def test_an_edit_survives_a_delete_on_the_other_side() -> None:
    base = note(BASE_BODY)
    edited = note(BASE_BODY + "- Release with `make ship`.\n")
    merged = merge_note(PATH, base, None, edited)
    assert merged.text == edited and merged.kept_edit
    assert merge_note(PATH, base, edited, None).text == edited
    assert merge_note(PATH, base, None, base).text is None  # unchanged there: the delete stands


def test_the_same_note_added_on_both_machines_is_merged_not_duplicated() -> None:
    ours = note("- Build with `make build`.\n- Deploy on Tuesdays.\n", sources="[claude:a1]")
    theirs = note("- Build with `make build`.\n- Staging is on port 5433.\n", sources="[codex:b2]")
    merged = merge_note(PATH, None, ours, theirs)
    assert merged.text is not None and not merged.conflict
    parsed = parse_note(PATH, merged.text)
    assert parsed.body == (
        "- Build with `make build`.\n- Deploy on Tuesdays.\n- Staging is on port 5433.\n"
    )
    assert parsed.sources == ("claude:a1", "codex:b2")
    assert merge_note(PATH, None, theirs, ours).text == merged.text.replace(
        "[claude:a1, codex:b2]", "[codex:b2, claude:a1]"
    )  # the same body whichever machine merges


def test_neighbouring_claims_edited_on_two_machines_are_both_kept() -> None:
    base = note(BASE_BODY)
    ours = note(BASE_BODY.replace("make build", "make all"))
    theirs = note(BASE_BODY.replace("make test", "pytest -q"))  # the very next line
    merged = merge_note(PATH, base, ours, theirs)
    assert merged.text is not None and not merged.conflict
    assert "make all" in merged.text and "pytest -q" in merged.text


def test_claims_appended_on_both_sides_are_kept_unless_they_claim_one_subject_differently() -> None:
    base = note(BASE_BODY)
    ours = note(BASE_BODY + "- **Deploy day**: Tuesday. ([[s/a|claude 2026-11-20]])\n")
    theirs = note(BASE_BODY + "- **Staging port**: 5433. ([[s/b|codex 2026-11-21]])\n")
    merged = merge_note(PATH, base, ours, theirs)
    assert merged.text is not None and not merged.conflict
    assert "Deploy day" in merged.text and "Staging port" in merged.text

    clash = note(BASE_BODY + "- **Deploy day**: Thursday. ([[s/b|codex 2026-11-21]])\n")
    merged = merge_note(PATH, base, ours, clash, ("a", "b"))
    assert merged.conflict and merged.text is not None
    assert "<<<<<<< a" in merged.text and "Tuesday" in merged.text and "Thursday" in merged.text
    settled = settle_body(parse_note(PATH, merged.text).body)
    assert settled is not None and "Thursday (was Tuesday until 2026-11-21)" in settled
    assert "Deploy day**: Tuesday" not in settled  # kept as what it was, no longer current


def test_one_subject_claimed_in_two_places_is_flagged_and_settled_to_the_newer_claim() -> None:
    base = note("- **Port**: 9102. ([[s/a|claude 2026-11-01]])\n- Other.\n")
    ours = note("- **Port**: 9300. ([[s/b|codex 2026-11-30]])\n- Other.\n")
    theirs = note(
        "- **Port**: 9102. ([[s/a|claude 2026-11-01]])\n- Other.\n"
        "- **Port**: 9200. ([[s/c|claude 2026-11-25]])\n"
    )
    merged = merge_note(PATH, base, ours, theirs)
    assert merged.conflict and merged.text is not None  # flagged, though no line clashed
    parsed = parse_note(PATH, merged.text)
    assert flagged(parsed) and not has_markers(parsed.body)
    assert settle_body(parsed.body) == (
        "- **Port**: 9300 (was 9200 until 2026-11-30). ([[s/b|codex 2026-11-30]])\n- Other.\n"
        "\n<!-- wikimem:was 2026-11-30 9200. -->\n"
    )


def test_a_side_that_is_not_a_valid_note_is_kept_whole_in_a_flagged_valid_note() -> None:
    base = note(BASE_BODY)
    ours = note(BASE_BODY.replace("make test", "make check"))
    broken = "---\ntitle: [unclosed\n---\n- Test with `tox`.\n"
    merged = merge_note(PATH, base, ours, broken)
    assert merged.conflict and merged.text is not None
    parsed = parse_note(PATH, merged.text)  # valid: the good side's front matter
    assert flagged(parsed) and "title: [unclosed" in parsed.body and "make check" in parsed.body


def test_files_that_are_not_notes_keep_both_sides_lines_without_markers() -> None:
    merged = merge_note(".gitignore", "a\n", "a\nb\n", "a\nc\n")
    assert merged.text is not None and not has_markers(merged.text)
    assert "b" in merged.text and "c" in merged.text


def test_claims_have_a_subject_a_text_and_a_date_and_one_subject_is_found_three_ways() -> None:
    line = (
        "- **Metrics collector port**: The metrics collector runs on port 9300 (was 9102 until "
        "2026-11-30). ([[projects/acme-api/sessions/2026-11-30-0199a2b3-3fa2c1|codex 2026-11-30]])"
    )
    claim = parse_claim(line)
    assert claim is not None
    assert claim.subject == "metrics collector port" and claim.date == "2026-11-30"
    assert claim.text.endswith("(was 9102 until 2026-11-30).")
    assert parse_claim("# Ops") is None and parse_claim("plain prose") is None

    def c(text: str) -> Claim:
        parsed = parse_claim(text)
        assert parsed is not None
        return parsed

    same_bold = c("- **Metrics collector port**: 9200. ([[x|claude 2026-11-02]])")
    assert same_subject(claim, same_bold)
    restated = c("- Deploys go out on Tuesdays. ([[x|claude 2026-11-02]])")
    assert same_subject(restated, c("- Deploys go out on Tuesdays. ([[y|codex 2026-11-09]])"))
    assert same_subject(  # the dream's supersession: a package manager replaces another
        c("- Use pnpm in every JavaScript repository. ([[x|claude 2026-11-02]])"),
        c("- Use npm in every JavaScript repository. ([[y|codex 2026-10-02]])"),
    )
    assert not same_subject(restated, c("- Never commit anything under data/raw/."))


def test_offline_settlement_keeps_the_newer_claim_and_lines_from_either_side() -> None:
    body = (
        "# Ops\n"
        "<<<<<<< laptop\n"
        "- **Metrics port**: 9102. ([[s/a|claude 2026-11-20]])\n"
        "- Deploys go out on Tuesdays. ([[s/a|claude 2026-11-20]])\n"
        "=======\n"
        "- **Metrics port**: 9300. ([[s/b|codex 2026-11-30]])\n"
        "- Deploys go out on Tuesdays. ([[s/c|codex 2026-11-25]])\n"
        "- Staging is on port 5433. ([[s/b|codex 2026-11-30]])\n"
        ">>>>>>> desktop\n"
        "- Tail line.\n"
    )
    settled = settle_body(body)
    assert settled == (  # the newer claim current, the other kept as what it was until then
        "# Ops\n"
        "- **Metrics port**: 9300 (was 9102 until 2026-11-30). ([[s/b|codex 2026-11-30]])\n"
        "- Deploys go out on Tuesdays. ([[s/c|codex 2026-11-25]])\n"
        "- Staging is on port 5433. ([[s/b|codex 2026-11-30]])\n"
        "- Tail line.\n"
        "\n<!-- wikimem:was 2026-11-30 9102. -->\n"
    )
    assert settle_body("<<<<<<< a\nx\n>>>>>>> b\n") is None  # malformed: left for a person


lines = st.lists(
    st.text(alphabet=string.ascii_letters + " `-*", min_size=0, max_size=12).map(
        lambda s: f"- {s}"
    ),
    max_size=6,
)


@settings(max_examples=40, deadline=None)
@given(base=lines, ours=lines, theirs=lines)
def test_any_merge_is_a_valid_note_and_markers_never_come_without_the_flag(
    base: list[str], ours: list[str], theirs: list[str]
) -> None:
    def text(body: list[str], title: str) -> str:
        return note("".join(line + "\n" for line in body), title=title)

    merged = merge_note(PATH, text(base, "B"), text(ours, "O"), text(theirs, "T"))
    assert merged.text is not None
    parsed = parse_note(PATH, merged.text)
    assert flagged(parsed) == merged.conflict
    if has_markers(parsed.body):
        assert flagged(parsed)
    settled = settle_body(parsed.body)
    assert settled is not None and not has_markers(settled)
