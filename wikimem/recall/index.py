"""The search index (docs/recall.md): SQLite FTS5 with BM25 over notes split into sections.

Contract:
  - Derived from memory/ alone, in `state/index.sqlite3`; deleted or corrupt, it is rebuilt.
  - Each note is split at its headings, and long sections at paragraph and list-item
    boundaries, into passages of at most ~`PASSAGE_CHARS`, so a long note contributes its best
    part. Title, tags and path words weigh more than body text. A digest turn's `**About:**`
    line (what a model dream said the turn is about) is a field of its own, found by and never
    given: the passage's text is the turn without it.
  - `refresh(paths=..., dirs=..., full=...)` is incremental: only notes whose size or mtime
    changed are re-read. The cheap check (`full=False`) stats the directories (a note created,
    deleted, renamed or atomically replaced changes its directory) plus any directories named;
    `full=True` stats every note (for `wikimem search`). Work stops at `deadline`, leaving the
    rest for the next call, so a hook is never held up by a large first build.
  - `search(query, ...)` builds a safe FTS query from any text (quotes, slashes, parentheses,
    non-English text, code) and never raises on it.
  - Vetted (`wikimem.wiki.vetting`): a note reached memory/ by sync, a plain `git pull`, a copy
    or a hand edit as well as through the gate, so each is indexed as the gate's content rules
    allow: one over `gate.max_note_bytes` is not read (a row without passages), secrets are
    redacted in what is stored, and a pin this machine did not see the person set is not
    honoured. What was held back is kept in `notes.held` (`held()` lists it for `status` and
    `doctor`; session start reads it with `vetted()`).
  - Under load (docs/reliability.md): the database is in WAL mode, so readers never wait for a
    writer. A reader's writes are optional: `refresh` takes the write lock up front
    (`BEGIN IMMEDIATE`), waits for it no longer than its deadline allows, and when another
    process holds it, returns False and leaves the work to that process or the next call: the
    search then runs on what is indexed. "Database is locked" is never taken for corruption
    (only a damaged file is deleted and rebuilt), and a failed transaction is rolled back only
    when one is open, so the real error is the one reported.

Hook-path module: standard library only.
"""

from __future__ import annotations

import os
import sqlite3
import time

from wikimem.recall import ranking
from wikimem.sync.markers import as_shown
from wikimem.wiki import confirmations, notemeta, pins, plainfile, vetting
from wikimem.wiki.notemeta import TOP_FOLDERS
from wikimem.wiki.redacted import redacted_away

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from wikimem.wiki.origins import Book

# 9: digests indexed turn by turn, claim subjects a field of their own, lines whose content
# redaction took away and lines held from agents (by who brought them) are no passages
SCHEMA_VERSION = "9"
ROWS_PER_NOTE = 1000  # passage rowid = note id * ROWS_PER_NOTE + ordinal
PASSAGE_CHARS = 900
TURN_CHARS = 2 * PASSAGE_CHARS  # a digest turn longer than this is cut like a paragraph
DIGEST_TURNS = "Turns"  # the section of a session digest that holds its turns
COMMON = 0.5  # a word in more passages than this share has no BM25 weight: no evidence
MIN_COMMON_ROWS = 3
MAX_PROJECTS = 10000  # projects listed, whatever is in the index
ROW_BUDGET = 4000  # passages a query may have to rank, whatever the size of the wiki
BUSY_WRITE_MS = 5000  # longest wait for the write lock without a deadline (dream, search)
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each else few
    for from further get got had has have having he her here hers him his how i if in into is
    it its itself just let like me more most my myself no nor not now of off on once only or
    other our ours out over own please same she should so some such than that the their theirs
    them then there these they this those through to too under until up use used using very via
    was we were what when where which while who whom why will with would you your yours
    yourself yes ok okay hi hey thanks thank tell show give make know want need one two also
    still may might must shall""".split()
)


class Index:
    def __init__(
        self,
        path: str,
        memory_dir: str,
        busy_ms: int = 200,
        max_note_bytes: int = vetting.DEFAULT_MAX_BYTES,
    ) -> None:
        self.path = path
        self.memory_dir = memory_dir
        self.max_note_bytes = max_note_bytes
        # the pins this machine honours, read once per refresh that meets a pinned note
        self._pins: frozenset[str] | None = None
        self._pins_read = False
        self._confirmations: frozenset[str] | None = None  # read when a note is indexed
        self._book: Book | None = None  # who brought which line: read when indexing
        self.db = self._open(busy_ms)
        # the last `selective_terms` answer's words and their weights (`ranking.idf`), by stem
        self.term_weights: dict[str, float] = {}
        self.kept_terms: list[str] = []
        self._projects: list[str] | None = None  # `projects()`, once per opening

    def _open(self, busy_ms: int) -> sqlite3.Connection:
        for attempt in (0, 1):
            db = None
            try:
                db = sqlite3.connect(self.path, timeout=busy_ms / 1000, isolation_level=None)
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                if self._version(db) != self.schema:
                    self._create(db, self.schema)
                return db
            except sqlite3.OperationalError:
                # busy or locked: another process is creating or writing it; not corruption
                if db is not None:
                    db.close()
                raise
            except sqlite3.DatabaseError:
                if db is not None:
                    db.close()
                if attempt:
                    raise
                self._remove_files()  # corrupt: rebuild from memory/, which is the truth
        raise AssertionError("unreachable")

    def _remove_files(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(self.path + suffix)
            except FileNotFoundError:
                pass

    @staticmethod
    def _version(db: sqlite3.Connection) -> str | None:
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.OperationalError:
            return None
        return str(row[0]) if row else None

    @property
    def schema(self) -> str:
        # The size limit is part of what a note's row says (held back or not): another limit
        # in config.toml means another index, rebuilt.
        return f"{SCHEMA_VERSION}/{self.max_note_bytes}"

    @classmethod
    def _create(cls, db: sqlite3.Connection, schema: str) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            if cls._version(db) != schema:  # another process may have just made it
                cls._create_tables(db, schema)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    @staticmethod
    def _create_tables(db: sqlite3.Connection, schema: str) -> None:
        for statement in """
            DROP TABLE IF EXISTS notes; DROP TABLE IF EXISTS dirs; DROP TABLE IF EXISTS passages;
            DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS df;
            CREATE TABLE df (term TEXT PRIMARY KEY, doc INTEGER);
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE notes (
                id INTEGER PRIMARY KEY, path TEXT UNIQUE, mtime_ns INTEGER, size INTEGER,
                title TEXT, kind TEXT, tags TEXT, pinned INTEGER, updated TEXT, project TEXT,
                chars INTEGER, held TEXT NOT NULL DEFAULT '');
            CREATE INDEX notes_project ON notes (project);
            CREATE TABLE dirs (path TEXT PRIMARY KEY, mtime_ns INTEGER);
            CREATE VIRTUAL TABLE passages USING fts5(
                path UNINDEXED, ordinal UNINDEXED, title, tags, pathwords, heading, subjects, body,
                about,
                tokenize = 'porter unicode61 remove_diacritics 2')
            """.split(";"):
            if statement.strip():
                db.execute(statement)  # executescript would COMMIT the open transaction
        db.execute("INSERT INTO meta VALUES ('schema', ?)", (schema,))

    def close(self) -> None:
        self.db.close()

    # -- keeping it fresh ----------------------------------------------------------------------

    def refresh(
        self,
        *,
        full: bool = False,
        paths: Iterable[str] = (),
        dirs: Iterable[str] = (),
        deadline: float | None = None,
    ) -> bool:
        """Bring the index up to date; False when the deadline cut the work short."""
        known_dirs = dict(self.db.execute("SELECT path, mtime_ns FROM dirs").fetchall())
        walked = dict(self._walk_dirs(full, known_dirs))
        changed = {d: m for d, m in walked.items() if full or known_dirs.get(d) != m}
        vanished = set(known_dirs) - set(walked)
        to_scan = set(changed) | {d for d in dirs if _exists_dir(self.memory_dir, d)}
        stale: list[str] = list(paths)
        gone: list[str] = []
        for rel_dir in to_scan | vanished:
            known = self._known_in(rel_dir)
            on_disk = dict(self._notes_in(rel_dir)) if rel_dir in to_scan else {}
            stale.extend(rel for rel, stamp in on_disk.items() if known.get(rel) != stamp)
            gone.extend(rel for rel in known if rel not in on_disk)
        if not stale and not gone and not changed and not vanished:
            return True  # the common case on the hot path: nothing to write, no transaction
        self._projects = None
        complete = True
        self._pins_read = False  # a person may have pinned or unpinned since the last refresh
        self._confirmations = None
        self._book = None
        if not self._begin_write(deadline):
            return False  # another process is writing: search what is there
        try:
            for rel in gone:
                self._drop(rel)
            for rel in dict.fromkeys(stale):
                if deadline is not None and time.monotonic() > deadline:
                    complete = False  # the rest next time; directories stay marked as changed
                    break
                try:
                    self._index_note(rel)
                except (ValueError, TypeError, UnicodeError):
                    self._drop(rel)  # one odd note must not take search down for all the others
            self.db.execute("DELETE FROM meta WHERE key = 'passages'")
            self.db.execute("CREATE TABLE IF NOT EXISTS df (term TEXT PRIMARY KEY, doc INTEGER)")
            self.db.execute("DELETE FROM df")  # document frequencies change with the passages
            if complete:
                self.db.executemany("INSERT OR REPLACE INTO dirs VALUES (?, ?)", changed.items())
                self.db.executemany("DELETE FROM dirs WHERE path = ?", [(d,) for d in vanished])
            self.db.execute("COMMIT")
        except sqlite3.OperationalError:
            self._rollback()
            return False  # a busy or full disk mid-way: nothing half-done, try again later
        except BaseException:
            self._rollback()
            raise
        return complete

    def _begin_write(self, deadline: float | None) -> bool:
        """Take the write lock now, waiting at most until shortly before `deadline`."""
        wait_ms = BUSY_WRITE_MS
        if deadline is not None:
            wait_ms = int(max(0.0, min(wait_ms / 1000, deadline - time.monotonic())) * 1000)
        self.db.execute(f"PRAGMA busy_timeout = {wait_ms}")
        try:
            self.db.execute("BEGIN IMMEDIATE")
            return True
        except sqlite3.OperationalError:
            return False

    def _rollback(self) -> None:
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.OperationalError:
                pass  # SQLite rolled it back itself

    def _known_in(self, rel_dir: str) -> dict[str, str]:
        """Indexed notes directly in rel_dir: {path: "mtime:size"} (a range scan on the path)."""
        prefix = rel_dir + "/"
        rows = self.db.execute(
            "SELECT path, mtime_ns || ':' || size FROM notes WHERE path >= ? AND path < ?",
            (prefix, rel_dir + "0"),  # "0" sorts right after "/"
        ).fetchall()
        return {p: stamp for p, stamp in rows if "/" not in p[len(prefix) :]}

    def _walk_dirs(self, full: bool, known_dirs: dict[str, int]) -> Iterator[tuple[str, int]]:
        """(dir relative to memory/, mtime) of every note directory. Only known directories are
        stat-ed unless `full`; a new directory shows up as a change of its parent."""
        if not full and known_dirs:
            queue = list(known_dirs)
            for top in TOP_FOLDERS:
                if top not in known_dirs:
                    queue.append(top)
        else:
            queue = list(TOP_FOLDERS)
        done: set[str] = set()
        while queue:
            rel_dir = queue.pop()
            if rel_dir in done:
                continue
            done.add(rel_dir)
            try:
                mtime = os.stat(os.path.join(self.memory_dir, rel_dir)).st_mtime_ns
            except OSError:
                continue
            yield rel_dir, mtime
            if full or known_dirs.get(rel_dir) != mtime:
                try:
                    with os.scandir(os.path.join(self.memory_dir, rel_dir)) as it:
                        for entry in it:
                            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(
                                "."
                            ):
                                queue.append(f"{rel_dir}/{entry.name}")
                except OSError:
                    continue

    def _notes_in(self, rel_dir: str) -> Iterator[tuple[str, str]]:
        try:
            with os.scandir(os.path.join(self.memory_dir, rel_dir)) as it:
                for entry in it:
                    if (
                        entry.name.endswith(".md")
                        and not entry.name.startswith(".")
                        and entry.is_file(follow_symlinks=False)
                    ):
                        st = entry.stat(follow_symlinks=False)
                        yield f"{rel_dir}/{entry.name}", f"{st.st_mtime_ns}:{st.st_size}"
        except OSError:
            return

    def _drop(self, rel: str) -> None:
        # By rowid range: `path` is not indexed in the FTS table, and a scan per note would make
        # a large rebuild quadratic.
        row = self.db.execute("SELECT id FROM notes WHERE path = ?", (rel,)).fetchone()
        if row is None:
            return
        first = int(row[0]) * ROWS_PER_NOTE
        self.db.execute(
            "DELETE FROM passages WHERE rowid BETWEEN ? AND ?", (first, first + ROWS_PER_NOTE - 1)
        )
        self.db.execute("DELETE FROM notes WHERE id = ?", (row[0],))

    def _confirmed(self) -> frozenset[str]:
        if self._confirmations is None:
            self._confirmations = confirmations.confirmed(os.path.dirname(self.path))
        return self._confirmations

    def _origins(self) -> Book:
        if self._book is None:
            from wikimem.wiki.origins import Book

            self._book = Book(os.path.dirname(self.path))
        return self._book

    def _pin_honoured(self, rel: str) -> bool:
        if not self._pins_read:
            self._pins = pins.honoured(os.path.dirname(self.path))
            self._pins_read = True
        # no list yet: a home from before there was one, whose pins are trusted until it is made
        return self._pins is None or rel in self._pins

    def _index_note(self, rel: str) -> None:
        full_path = os.path.join(self.memory_dir, rel)
        try:
            st: os.stat_result | None = os.lstat(full_path)
        except OSError:
            st = None
        text = None
        if st is not None and st.st_size > self.max_note_bytes:
            if not plainfile.is_plain(self.memory_dir, rel):
                st = None  # over the limit is held back below, unread; a link is never a note
        elif st is not None:
            text = plainfile.read_text(self.memory_dir, rel, limit=self.max_note_bytes)
            try:
                st = os.lstat(full_path) if text is not None else None
            except OSError:
                st = None
        if st is None:
            # gone, a link (its target is never indexed), or grown meanwhile (the next refresh)
            self._drop(rel)
            return
        reading = vetting.vet(text, st.st_size, self.max_note_bytes, self._pin_honoured(rel))
        meta, body = reading.meta, reading.body
        # A sync conflict not yet settled is indexed (and so found and given) as its newer
        # side, said so: never its markers, never the older side's words.
        body = as_shown(body)
        from wikimem.wiki.holds import safe_title  # (only when indexing: not on a prompt's way)

        title = safe_title(str(meta.get("title") or ""), rel)
        tags = " ".join(notemeta.as_list(meta.get("tags")))
        parts = rel[:-3].split("/")
        project = parts[1] if parts[0] == "projects" and len(parts) >= 3 else ""
        kind = str(meta.get("kind") or ("session" if "/sessions/" in rel else parts[0].rstrip("s")))
        self._drop(rel)
        cursor = self.db.execute(
            "INSERT INTO notes (path, mtime_ns, size, title, kind, tags, pinned, updated, project,"
            " chars, held) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rel,
                st.st_mtime_ns,
                st.st_size,
                title,
                kind,
                tags,
                1 if reading.pinned else 0,
                str(meta.get("updated") or ""),
                project,
                len(body),
                reading.held,
            ),
        )
        first = int(cursor.lastrowid or 0) * ROWS_PER_NOTE
        pathwords = " ".join(p.replace("-", " ") for p in parts)
        book = self._origins()
        rows = [
            (
                first + ordinal,
                rel,
                ordinal,
                title,
                tags,
                pathwords,
                heading,
                claim_subjects(passage),
                passage,
                about,
            )
            for ordinal, (heading, passage, about) in enumerate(
                split_passages(
                    body,
                    self._confirmed(),
                    digest=kind == "session",
                    origin=book.of(rel),
                )[:ROWS_PER_NOTE]
            )
        ]
        self.db.executemany(
            "INSERT INTO passages (rowid, path, ordinal, title, tags, pathwords, heading,"
            " subjects, body, about) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )

    # -- reading -------------------------------------------------------------------------------

    def notes(
        self, where: str = "", args: tuple[object, ...] = ()
    ) -> list[tuple[str, str, str, int, str, str]]:
        """(path, title, kind, pinned, updated, project) rows."""
        sql = "SELECT path, title, kind, pinned, updated, project FROM notes"
        rows = self.db.execute(sql + (f" WHERE {where}" if where else ""), args).fetchall()
        return [(str(p), str(t), str(k), int(pin), str(u), str(pr)) for p, t, k, pin, u, pr in rows]

    def held(self) -> list[tuple[str, str]]:
        """(path, held) of every note the vetting held something back from, by path."""
        rows = self.db.execute("SELECT path, held FROM notes WHERE held != '' ORDER BY path")
        return [(str(p), str(h)) for p, h in rows]

    def vetted(self, rel: str) -> tuple[str, str] | None:
        """("mtime_ns:size", held) of the note as it was last vetted, or None if it never was."""
        row = self.db.execute(
            "SELECT mtime_ns || ':' || size, held FROM notes WHERE path = ?", (rel,)
        ).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def selective_terms(self, query: str) -> list[str]:
        """The query's words that can tell passages apart, rarest first.

        Words are stemmed by FTS5 itself (through a scratch table), then looked up in the
        index's vocabulary: absent words are dropped, words in more than `COMMON` of all
        passages say nothing and are dropped too, and the rest are kept, rarest first, while the
        passages they match stay within `ROW_BUDGET`: ranking is then bounded however large the
        wiki, and a prompt made only of common words injects nothing. The kept words' weights
        (`ranking.idf`, by `ranking.stem`) are left in `term_weights` for the line scores."""
        self.term_weights = {}
        self.kept_terms = []
        words = query_terms(query)
        if not words:
            return []
        db = self.db
        db.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.q USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        db.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.q_terms USING fts5vocab(temp, q, 'instance')"
        )
        db.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, passages, 'row')"
        )
        db.execute("DELETE FROM temp.q")
        db.executemany("INSERT INTO temp.q (rowid, x) VALUES (?, ?)", list(enumerate(words)))
        stems: dict[str, int] = {}
        for term, row in db.execute("SELECT term, doc FROM temp.q_terms"):
            stems.setdefault(str(term), int(row))
        if not stems:
            return []
        df = self._document_frequencies(tuple(stems))
        total = self.passage_count()
        common = max(MIN_COMMON_ROWS, int(COMMON * total))
        ranked = sorted((n, stems[t]) for t, n in df.items() if 0 < n <= common)
        kept: list[str] = []
        rows = 0
        for n, word_index in ranked:
            if kept and rows + n > ROW_BUDGET:
                break
            kept.append(words[word_index])
            key = ranking.stem(words[word_index])
            self.term_weights[key] = max(self.term_weights.get(key, 0.0), ranking.idf(total, n))
            rows += n
        self.kept_terms = kept
        return kept

    def _document_frequencies(self, terms: tuple[str, ...]) -> dict[str, int]:
        """How many passages hold each term. FTS5's vocabulary computes it by reading the term's
        whole posting list, ~1 ms per common word on a large wiki, so answers are kept in a
        small `df` table that every write to the index empties. Filling it takes the write lock
        only if it is free at once; otherwise the numbers are computed and not kept."""
        db = self.db
        marks = ",".join("?" * len(terms))
        try:
            known = {
                str(t): int(n)
                for t, n in db.execute(f"SELECT term, doc FROM df WHERE term IN ({marks})", terms)
            }
        except sqlite3.Error:  # an index made before the cache existed
            known = {}
        missing = tuple(t for t in terms if t not in known)
        if not missing:
            return known
        waited = db.execute("PRAGMA busy_timeout").fetchone()[0]
        db.execute("PRAGMA busy_timeout = 0")
        try:
            db.execute("BEGIN IMMEDIATE")  # no writer can change the index while we count
            counted = self._count_terms(missing)
            db.execute("CREATE TABLE IF NOT EXISTS df (term TEXT PRIMARY KEY, doc INTEGER)")
            db.executemany("INSERT OR REPLACE INTO df VALUES (?, ?)", list(counted.items()))
            db.execute("COMMIT")
        except sqlite3.Error:  # busy, read-only, full, damaged: count without keeping
            self._rollback()
            counted = self._count_terms(missing)
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(waited)}")
        return {**known, **counted}

    def _count_terms(self, terms: tuple[str, ...]) -> dict[str, int]:
        marks = ",".join("?" * len(terms))
        rows = self.db.execute(
            f"SELECT term, doc FROM temp.vocab WHERE term IN ({marks})", terms
        ).fetchall()
        found = {str(t): int(n) for t, n in rows}
        return {t: found.get(t, 0) for t in terms}

    def passage_count(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'passages'").fetchone()
        if row is None:
            count = int(self.db.execute("SELECT count(*) FROM passages").fetchone()[0])
            try:  # a cache only: a reader never waits for a writer to store it
                self.db.execute("PRAGMA busy_timeout = 0")
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('passages', ?)", (str(count),))
            except sqlite3.OperationalError:
                pass
            return count
        return int(row[0])

    def search(
        self,
        query: str,
        limit: int = 20,
        project: str | None = None,
        *,
        scoped: bool = False,
        named: Iterable[str] = (),
        terms: list[str] | None = None,
    ) -> list[Hit]:
        """Best passages for `query`, ranked by `wikimem.recall.ranking.score`: the current
        `project`'s and the `named` projects' ranked higher. With `scoped`, only what a session
        in `project` may be given (`wikimem.recall.scope`): shared notes, the project's own, and
        those of projects in `named`. `terms`: the query's `selective_terms`, when the caller
        has them already (their weights then come from that call)."""
        if terms is None:
            terms = self.selective_terms(query)
        if not terms:
            return []
        owners = [p for p in dict.fromkeys([project or "", *named]) if p]
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        where = "passages MATCH ?"
        args: list[object] = [match]
        if scoped:
            where += " AND (n.project = ''" + "".join(" OR n.project = ?" for _ in owners) + ")"
            args.extend(owners)
        sql = (
            "SELECT p.path, p.ordinal, p.heading, p.body, bm25(passages, "
            + ", ".join(str(w) for w in ranking.BM25_WEIGHTS)
            + ") AS score, n.title, n.kind, n.project, n.updated "
            f"FROM passages p JOIN notes n ON n.path = p.path WHERE {where} ORDER BY score LIMIT ?"
        )
        args.append(max(limit * 4, 40))
        try:
            rows = self.db.execute(sql, args).fetchall()
        except sqlite3.OperationalError:
            return []
        hits = [Hit(*row) for row in rows]
        rescore(hits, self.term_weights, set(owners))
        return hits[:limit]

    def passage(self, path: str, ordinal: int) -> tuple[str, str] | None:
        """(heading, text) of a note's passage by its place in the note, or None."""
        if not 0 <= ordinal < ROWS_PER_NOTE:
            return None
        row = self.db.execute(
            "SELECT heading, body FROM passages WHERE rowid ="
            " (SELECT id FROM notes WHERE path = ?) * ? + ?",
            (path, ROWS_PER_NOTE, ordinal),
        ).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def projects(self) -> list[str]:
        """Every project slug with a note in the wiki (through the index on `project`: one
        step per project, not per note)."""
        if self._projects is None:
            found: list[str] = []
            row = self.db.execute("SELECT min(project) FROM notes WHERE project > ''").fetchone()
            while row is not None and row[0] is not None and len(found) < MAX_PROJECTS:
                found.append(str(row[0]))
                row = self.db.execute(
                    "SELECT min(project) FROM notes WHERE project > ?", (found[-1],)
                ).fetchone()
            self._projects = found
        return list(self._projects)


class Hit:
    __slots__ = (
        "base",
        "bm25",
        "body",
        "heading",
        "kind",
        "line",
        "ordinal",
        "path",
        "project",
        "score",
        "title",
        "updated",
    )

    def __init__(
        self,
        path: str,
        ordinal: int,
        heading: str,
        body: str,
        bm25: float,
        title: str,
        kind: str,
        project: str,
        updated: str,
    ) -> None:
        self.path = path
        self.ordinal = int(ordinal)
        self.heading = heading
        self.body = body
        self.bm25 = float(bm25)
        self.score = -self.bm25
        self.line = 0.0  # the best line's score (`ranking.line_score`), once ranked
        self.base = self.score  # the score without it
        self.title = title
        self.kind = kind
        self.project = project
        self.updated = updated

    def excerpt(self, body: str) -> Hit:
        """This hit with its text cut down (the passage did not fit whole)."""
        part = Hit(
            self.path,
            self.ordinal,
            self.heading,
            body,
            self.bm25,
            self.title,
            self.kind,
            self.project,
            self.updated,
        )
        part.score = self.score
        part.line = self.line
        part.base = self.base
        return part


def rescore(hits: list[Hit], weights: dict[str, float], owners: set[str]) -> None:
    """Score `hits` (from BM25) with `ranking.score` and sort them, best first: a digest turn's
    best line against `weights`, its project among `owners`, its age against the newest digest.
    (A living note's passage is given whole, so its lines do not rank it apart.)"""
    lines = [
        [ln for ln in h.body.split("\n") if ln.strip()] if "/sessions/" in h.path else []
        for h in hits
    ]
    count = sum(len(ls) for ls in lines)
    average = sum(len(ln) for ls in lines for ln in ls) / count if count else 1.0
    days = [ranking.day_number(ranking.digest_day(h.path) or "") for h in hits]
    newest = max((d for d in days if d is not None), default=None)
    for hit, its_lines, day in zip(hits, lines, days, strict=True):
        best = max((ranking.line_score(ln, weights, average) for ln in its_lines), default=0.0)
        age = float(newest - day) if newest is not None and day is not None else 0.0
        hit.line = best
        hit.score = ranking.score(-hit.bm25, best, hit.project in owners, age)
        hit.base = ranking.score(-hit.bm25, 0.0, hit.project in owners, age)
    hits.sort(key=lambda h: -h.score)


def claim_subjects(passage: str) -> str:
    """The subjects of a passage's claims (`- **Staging port**: …`), for the `subjects` field."""
    out = []
    for line in passage.split("\n"):
        if line.startswith("- **"):
            end = line.find("**", 4)
            if end > 4 and line[end + 2 : end + 3] == ":":
                out.append(line[4:end])
    return " · ".join(out)


def _dir_of(rel: str) -> str:
    return rel.rsplit("/", 1)[0]


def _exists_dir(memory_dir: str, rel_dir: str) -> bool:
    return os.path.isdir(os.path.join(memory_dir, rel_dir))


def passages(body: str, confirmed: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(heading, text) passages of a note (see `split_passages`)."""
    return [(heading, text) for heading, text, _ in split_passages(body, confirmed)]


def _nobody(line: str) -> str:
    return ""


def split_passages(
    body: str,
    confirmed: frozenset[str] = frozenset(),
    digest: bool = False,
    origin: Callable[[str], str] = _nobody,
) -> list[tuple[str, str, str]]:
    """(heading, text, about) passages: split at headings, then at blank lines and top-level
    list items, packed back together up to PASSAGE_CHARS. Marker comments and the generated
    links block are dropped, and so is every line held from agents (`wikimem.wiki.holds`: who
    brought it is `origin(line)`, this machine's record; by default nobody, not the person).
    In a session digest (`digest`), each turn (a top-level list item: what was asked, done and
    answered) is a passage of its own, so a prompt finds the turn and is given it with its
    neighbours (`wikimem.recall.digests`); a turn's `**About:**` line is taken out of the text
    whole, before any cut, and given as `about` with every piece of its turn: it finds the
    turn, and is never the text a prompt is given."""
    from wikimem.wiki.directives import screen
    from wikimem.wiki.holds import held

    rules = screen(body)  # the instruction rules worth trying on this note's lines at all
    out: list[tuple[str, str, str]] = []
    heading = ""
    blocks: list[tuple[str, str]] = []  # (text, about)

    def flush() -> None:
        if digest and heading == DIGEST_TURNS:
            for block, about in blocks:
                pieces = [block] if len(block) <= TURN_CHARS else _split_long(block)
                out.extend((heading, piece, about) for piece in pieces)
            blocks.clear()
            return
        chunk: list[str] = []
        abouts: list[str] = []
        size = 0
        for block, about in blocks:
            for piece in _split_long(block):
                if chunk and size + len(piece) > PASSAGE_CHARS:
                    out.append((heading, "\n".join(chunk), " · ".join(dict.fromkeys(abouts))))
                    chunk, abouts, size = [], [], 0
                chunk.append(piece)
                if about:
                    abouts.append(about)
                size += len(piece) + 1
        if chunk:
            out.append((heading, "\n".join(chunk), " · ".join(dict.fromkeys(abouts))))
        blocks.clear()

    current: list[str] = []
    about: list[str] = []

    def close() -> None:
        if current:
            blocks.append(("\n".join(current), " · ".join(about)))
        current.clear()
        about.clear()

    navigation = False
    for line in body.split("\n"):
        stripped = line.strip()
        if held(line, origin(line) if rules else "", confirmed, rules):
            continue  # never an answer until the person confirms it
        if redacted_away(line):
            continue  # its content was a secret, now redacted: nothing left to answer with
        if stripped.startswith("<!-- ") and stripped.endswith(" -->"):
            # The generated links block is there for Obsidian's graph: wikilinks to other
            # notes are navigation, not something a prompt should be answered with.
            if stripped in (notemeta.LINKS_OPEN, notemeta.LINKS_CLOSE):
                navigation = stripped == notemeta.LINKS_OPEN
            continue
        is_heading = line.startswith("#") and line.lstrip("#").startswith(" ")
        if navigation and not is_heading:
            continue  # (a links block left open by a hand edit ends at the next heading)
        navigation = False
        if is_heading:
            close()
            flush()
            heading = line.lstrip("#").strip()
            continue
        if digest and current and line.startswith(notemeta.ABOUT_LINE):
            about.append(line[len(notemeta.ABOUT_LINE) :].strip())
            continue
        if (
            not stripped
            or line.startswith(("- ", "* ", "+ "))
            or (line[:1].isdigit() and ". " in line[:5])
        ):
            close()
            if not stripped:
                continue
        current.append(line)
    close()
    flush()
    return [(h, t, a) for h, t, a in out if t.strip()]


def _split_long(block: str) -> list[str]:
    """A paragraph longer than a passage, cut at sentence ends (else spaces) into pieces."""
    pieces = []
    while len(block) > PASSAGE_CHARS:
        window = block[:PASSAGE_CHARS]
        cut = max(window.rfind(". "), window.rfind("\n"))
        if cut < PASSAGE_CHARS // 2:
            cut = window.rfind(" ")
        if cut < PASSAGE_CHARS // 2:
            cut = PASSAGE_CHARS - 1
        pieces.append(block[: cut + 1].rstrip())
        block = block[cut + 1 :].lstrip()
    if block.strip():
        pieces.append(block)
    return pieces


def query_terms(text: str, limit: int = 24) -> list[str]:
    """Distinct content words of any text, in order: letters and digits of every script. "May"
    next to a number is a month ("1 May, 2022", "May 2023"), not the verb the stopwords drop."""
    raw: list[str] = []
    token: list[str] = []
    for ch in text + " ":
        if ch.isalnum():
            token.append(ch)
        elif token:
            raw.append("".join(token))
            token = []
    words: list[str] = []
    for i, original in enumerate(raw):
        word = original.lower()
        month = original == "May" and (
            (i > 0 and raw[i - 1].isdigit()) or (i + 1 < len(raw) and raw[i + 1].isdigit())
        )
        if (
            (len(word) >= 2 or not word.isascii())
            and (word not in STOPWORDS or month)
            and word not in words
        ):
            words.append(word)
            if len(words) >= limit:
                break
    return words


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression: every term quoted (so no text is ever FTS syntax), OR-ed."""
    terms = query_terms(text)
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def open_index(home_state_dir: str, memory_dir: str, max_note_bytes: int | None = None) -> Index:
    """The index of a home's memory/; notes are vetted against `gate.max_note_bytes` (read from
    the home's settings when not given)."""
    os.makedirs(home_state_dir, mode=0o700, exist_ok=True)
    if max_note_bytes is None:
        max_note_bytes = note_limit(os.path.dirname(home_state_dir))
    return Index(os.path.join(home_state_dir, "index.sqlite3"), memory_dir, 200, max_note_bytes)


def note_limit(home_root: str) -> int:
    """`gate.max_note_bytes` of the home at `home_root` (the default when its config cannot be
    read: a broken config.toml is `doctor`'s to report, not a reason to stop searching)."""
    from wikimem.home import Home
    from wikimem.rawconfig import load_raw

    try:
        value = load_raw(Home(home_root))["gate"]["max_note_bytes"]
    except Exception:
        return vetting.DEFAULT_MAX_BYTES
    return int(value) if isinstance(value, int) and value > 0 else vetting.DEFAULT_MAX_BYTES
