"""The judge's library: the default books built from the seeds, the user's books, and the database.

Everything lives under one folder (``$JUDGE_HOME``, else the platform's user data folder):

- ``judge.db``: the SQLite database, a cache rebuilt from the sources whenever a source file or the
  readers' version changes. It is always replaced whole (written to a temporary file, then renamed),
  under a lock, so a crash or a second process never sees it half-built.
- ``books/<id>/``: a user book: ``book.json`` (game, title, edition, files) and a copy of each file
  it was loaded from, so the book survives its originals being moved or deleted.

Every change (a load, an unload, a rebuild) happens under the library's write lock
(:mod:`rulebook.lock`), one process at a time; a second waits for the first. A folder is replaced by
renames: the new copy is staged beside the library, the old one set aside as ``books/.old-<id>``
(``.unload-<id>`` when unloading) until judge.db is rebuilt, then moved to ``books/.trash-*`` and
deleted. A process killed anywhere in between leaves those names, and the next writer, holding the
lock, puts them right (:meth:`Library._recover`): a book is never lost.

>>> import tempfile
>>> lib = Library(tempfile.mkdtemp(), seeds=None)
>>> lib.home.is_dir()
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import sqlite_utils
import yaml
from rapidfuzz import process

from rulebook import games, memory, numbers, references, ruling_pairs
from rulebook import lock as write_lock

# The folder and the database's name live in rulebook.home, which lookups import without this module.
from rulebook.home import DB_NAME, default_home  # noqa: E402,F401
from rulebook.model import Document, ReadError, ReadWarning, Rule, Term
from rulebook.readers import READER_VERSION, read_file
from rulebook.readers.rulings import link_revisions
from rulebook.search.query import stemmer, stored_stems
from rulebook.shipped import meaning_model
from rulebook.store import (
    SCHEMA_VERSION,
    Store,
    create_schema,
    delete_book,
    rebuild_fts,
    stored_ruling_pairs,
    write_ruling_pairs,
)

BOOK_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,39}$")
_WORD = re.compile(r"[a-z][a-z'’-]*[a-z]|[a-z]")


class LibraryError(Exception):
    """A request the library refuses (unknown book, bad id, ...); one line for the judge, with the
    names it may have meant (``suggestions``, named in the line as "did you mean")."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = ()):
        super().__init__(message)
        self.suggestions = tuple(suggestions)


# The write locks this process holds, by library folder: a load that rebuilds takes the lock once.
_HELD: dict[str, int] = {}


@dataclass(frozen=True)
class SourceFile:
    path: Path  # where the library reads it (a seed, or the user book's stored copy)
    kind: str | None = None  # rules | glossary | rulings; None: detect
    original: str | None = None  # where the user loaded it from


@dataclass(frozen=True)
class BookSpec:
    id: str
    game: str
    title: str
    edition: str | None
    files: tuple[SourceFile, ...]
    builtin: bool = False

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        h.update(
            f"{SCHEMA_VERSION}|{READER_VERSION}|{ruling_pairs.VERSION}|{stemmer()}|{meaning_model()}|{memory.fingerprint()}|"
            f"{self.id}|{self.game}|{self.title}|{self.edition}".encode()
        )
        for f in self.files:
            h.update(f"|{f.path.name}|{f.kind}|".encode())
            h.update(_sha256(f.path).encode())
        return h.hexdigest()


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


@dataclass
class BuiltBook:
    """A book read from its files, ready to store."""

    spec: BookSpec
    documents: list[Document]
    rules: list[Rule]
    terms: list[Term]
    rulings: list
    warnings: list[ReadWarning] = field(default_factory=list)
    edition: str | None = None
    title: str | None = None

    @property
    def partial(self) -> bool:
        return self.spec.builtin or any(d.truncations for d in self.documents)


def read_book(
    spec: BookSpec, progress: Callable[[str], None] | None = None, already_read: dict[str, Document] | None = None
) -> BuiltBook:
    """Read every file of a book and merge them: one rule per number, one term per headword.

    ``already_read`` maps a file's sha256 to its document, when the caller has just read it.
    """
    documents = []
    for f in spec.files:
        if progress:
            progress(f.path.name)
        cached = (already_read or {}).get(_sha256(f.path))
        documents.append(cached if cached is not None else read_file(f.path, game=spec.game, kind=f.kind))
    rules: dict[str, Rule] = {}
    terms: dict[str, Term] = {}
    rulings = []
    warnings: list[ReadWarning] = []
    for doc in documents:
        warnings.extend(doc.warnings)
        for rule in doc.rules:
            rules[rule.number] = _merge_rule(rules.get(rule.number), rule)
        for term in doc.terms:
            key = term.term.lower()
            if key in terms:
                warnings.append(
                    ReadWarning(
                        term.source,
                        term.line,
                        f"glossary term {term.term!r} defined twice; "
                        f"kept the first ({terms[key].source}:{terms[key].line})",
                    )
                )
                continue
            terms[key] = term
        rulings.extend(doc.rulings)
    ordered = sorted(rules.values(), key=lambda r: numbers.sort_key(r.number))
    rulings = link_revisions(rulings, spec.game)  # a later FAQ's revisions of earlier rulings and rules
    edition = spec.edition or next((d.edition for d in documents if d.edition), None)
    title = spec.title or next((d.title for d in documents if d.title), None) or spec.id
    return BuiltBook(spec, documents, ordered, list(terms.values()), rulings, warnings, edition, title)


def _merge_rule(old: Rule | None, new: Rule) -> Rule:
    """Outline and detail of the same rule: the later file's text wins, the outline's count stays."""
    if old is None:
        return new
    return replace(
        new,
        title=new.title or old.title,
        text=new.text if len(new.text) >= len(old.text) else old.text,
        examples=new.examples or old.examples,
        expected_children=new.expected_children if new.expected_children is not None else old.expected_children,
    )


def _vocabulary(book: BuiltBook) -> Counter:
    words: Counter = Counter()
    for rule in book.rules:
        words.update(_WORD.findall(f"{rule.title or ''} {rule.text} {' '.join(rule.examples)}".lower()))
    for term in book.terms:
        words.update(_WORD.findall(f"{term.term} {term.definition}".lower()))
    for ruling in book.rulings:
        words.update(_WORD.findall(f"{ruling.question} {ruling.answer}".lower()))
    return words


def _derive(book: BuiltBook):
    """References, term uses and (Riftbound) terms defined by rules: the graph's raw material."""
    derived = [
        t
        for t in references.derive_terms(book.rules, book.spec.game)
        if t.term.lower() not in {x.term.lower() for x in book.terms}
    ]
    terms = book.terms + derived
    refs = references.resolve_book(book.spec.id, book.spec.game, book.rules, terms, book.rulings, book.partial)
    uses = references.uses(book.rules, terms)
    return derived, refs, uses


def write_book(db, book: BuiltBook, position: int) -> None:
    spec = book.spec
    delete_book(db, spec.id)
    db["books"].insert(
        {
            "id": spec.id,
            "game": spec.game,
            "title": book.title,
            "edition": book.edition,
            "builtin": int(spec.builtin),
            "partial": int(book.partial),
            "fingerprint": spec.fingerprint(),
            "position": position,
        }
    )
    db["sources"].insert_all(
        {
            "book": spec.id,
            "name": d.source.name,
            "kind": d.source.kind,
            "sha256": d.source.sha256,
            "path": f.original or (f"seeds/{f.path.name}" if spec.builtin else str(f.path)),
            "position": i,
        }
        for i, (d, f) in enumerate(zip(book.documents, spec.files))
    )
    db["rules"].insert_all(
        {
            "book": spec.id,
            "number": r.number,
            "parent": r.parent,
            "title": r.title,
            "text": r.text,
            "examples": json.dumps(list(r.examples), ensure_ascii=False),
            "source": r.source,
            "line": r.line,
            "expected_children": r.expected_children,
            "sort": numbers.sort_text(r.number),
            "depth": numbers.depth(r.number),
            "stems": stored_stems(r.title, r.text, r.examples),
        }
        for r in book.rules
    )
    derived, refs, uses = _derive(book)
    db["terms"].insert_all(
        {
            "book": spec.id,
            "term": t.term,
            "definition": t.definition,
            "source": t.source,
            "line": t.line,
            "obsolete": int(t.obsolete),
            "recovered": int(t.headword_recovered),
            "derived_from": t.source[len("rule ") :] if t in derived and t.source.startswith("rule ") else None,
        }
        for t in book.terms + derived
    )
    db["rulings"].insert_all(
        {
            "book": spec.id,
            "id": r.id,
            "topic": r.topic,
            "question": r.question,
            "answer": r.answer,
            "source": r.source,
            "line": r.line,
            "form": r.form,
            "faq": r.faq,
            "published": r.published,
            "revises_rule": r.revises_rule,
        }
        for r in book.rulings
    )
    db["revisions"].insert_all(
        {"book": spec.id, "ruling": r.id, "revises": earlier} for r in book.rulings for earlier in r.revises
    )
    db["warnings"].insert_all(
        {"book": spec.id, "source": w.source, "line": w.line, "reason": w.reason} for w in book.warnings
    )
    db["truncations"].insert_all(
        {"book": spec.id, "source": t.source, "line": t.line, "missing": t.missing, "after": t.after}
        for d in book.documents
        for t in d.truncations
    )
    db["refs"].insert_all(
        {
            "book": spec.id,
            "from_kind": r.from_kind,
            "from_id": r.from_id,
            "raw": r.raw,
            "target": r.target,
            "target_kind": r.target_kind,
            "cited_title": r.cited_title,
            "actual_title": r.actual_title,
            "outcome": r.outcome,
            "reason": getattr(r, "reason", ""),
            "source": r.source,
            "line": r.line,
        }
        for r in refs
    )
    db["uses"].insert_all({"book": spec.id, "rule": rule, "term": term} for rule, term in uses)
    db["vocab"].insert_all({"book": spec.id, "word": w, "count": n} for w, n in _vocabulary(book).items())
    try:
        from rulebook.meaning_rows import book_rows
    except ImportError:  # no NumPy: search ranks by words alone
        return
    meaning = book_rows(book.rules, spec.game)
    if meaning is not None:
        db["meaning"].insert({"book": spec.id, **meaning})


def builtin_specs(seeds: Path) -> list[BookSpec]:
    """The default books the seeds' ``manifest.yaml`` describes."""
    manifest = yaml.safe_load((seeds / "manifest.yaml").read_text(encoding="utf-8"))
    return [
        BookSpec(
            b["id"],
            b["game"],
            b["title"],
            str(b.get("edition") or "") or None,
            tuple(SourceFile(seeds / s["file"], s.get("kind")) for s in b["sources"]),
            builtin=True,
        )
        for b in manifest["books"]
    ]


class Library:
    """The books a judge has, and the database built from them."""

    def __init__(
        self, home: str | Path | None = None, seeds: Path | None = None, notify: Callable[[str], None] | None = None
    ):
        self.home = Path(home) if home else default_home()
        self.home.mkdir(parents=True, exist_ok=True)
        self.seeds = seeds
        self.db_path = self.home / DB_NAME
        self.notify = notify  # told what the judge should know: a wait for another process, a book left empty
        self.damaged: str | None = None  # why judge.db cannot be read, when stale() found it damaged
        self._just_read: dict[str, Document] = {}  # sha256 -> document, so `load` reads each file once

    # Which books there should be -------------------------------------------------------------------
    def builtin_specs(self) -> list[BookSpec]:
        return builtin_specs(self.seeds) if self.seeds is not None else []

    def user_specs(self) -> list[BookSpec]:
        specs = []
        for meta in sorted((self.home / "books").glob("*/book.json")):
            if meta.parent.name.startswith("."):  # a folder set aside or being replaced, not a book
                continue
            try:
                data = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            files = tuple(
                SourceFile(meta.parent / f["stored"], f.get("kind"), f.get("original")) for f in data["files"]
            )
            specs.append(BookSpec(data["id"], data["game"], data.get("title") or "", data.get("edition"), files))
        return specs

    def specs(self) -> list[BookSpec]:
        return self.builtin_specs() + self.user_specs()

    # The database ----------------------------------------------------------------------------------
    def open(self) -> Store:
        """The store, brought up to date with the books' sources first."""
        self.sync()
        return Store(self.db_path)

    def stale(self, specs: list[BookSpec]) -> list[BookSpec | None] | None:
        """The books whose stored copy is out of date (a None among them: a stored book to drop); None
        when the whole file must be rebuilt."""
        self.damaged = None
        if not self.db_path.exists():
            return None
        try:
            store = Store(self.db_path)
            try:
                # Damage (bytes overwritten, a truncated copy) is found by SQLite's own check of every
                # page (about 1 ms a megabyte, only when the sources' stamp is not recorded): a damaged
                # cache is built again, never read.
                checked = store.query("PRAGMA quick_check(1)")
                if checked and next(iter(checked[0].values())) != "ok":
                    said = str(next(iter(checked[0].values()))).replace("*** in database main ***", "")
                    self.damaged = " ".join(said.split())  # one line
                    return None
                version = store.query("SELECT value FROM meta WHERE key = 'schema_version'")
                stored = {r["id"]: r["fingerprint"] for r in store.query("SELECT id, fingerprint FROM books")}
            finally:
                store.close()
        except sqlite3.DatabaseError as exc:  # not a database, malformed
            self.damaged = str(exc)
            return None
        except Exception:
            return None
        if not version or version[0]["value"] != SCHEMA_VERSION:
            return None
        wanted = {s.id: s for s in specs}
        changed: list[BookSpec | None] = [s for s in specs if stored.get(s.id) != s.fingerprint()]
        if set(stored) - set(wanted):
            changed.append(None)  # a book to drop
        return changed

    def sync(self, progress: Callable[[str], None] | None = None) -> list[str]:
        """Rebuild what is out of date; returns the ids rebuilt. Cheap when nothing changed."""
        if self.stale(self.specs()) == []:
            return []
        with self.locked("rebuilding the library"):
            specs = self.specs()  # as they are now: another process may have loaded or unloaded a book
            stale = self.stale(specs)  # or done the work while we waited
            if stale == []:
                return []
            return self._rebuild(specs, stale, progress)

    def _rebuild(self, specs: list[BookSpec], stale: list[BookSpec | None] | None, progress) -> list[str]:
        if stale is None and self.damaged is not None and self.notify:
            self.notify(f"note: {self.db_path} was damaged ({self.damaged}); building it again from the books' sources")
        for left in self.home.glob(".judge-*.db"):  # a builder killed outright (we hold the lock: none runs)
            left.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".judge-", suffix=".db", dir=self.home)
        os.close(fd)
        tmp_path = Path(tmp)
        try:
            if stale is not None:
                shutil.copyfile(self.db_path, tmp_path)
            else:
                tmp_path.unlink()
            db = sqlite_utils.Database(tmp_path)
            # The file is private until it replaces judge.db, so a crash costs nothing but a retry:
            # no journal or fsync is needed while writing it.
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")
            create_schema(db)
            try:
                from rulebook.vectors import store_word_pieces
            except ImportError:  # no NumPy: search ranks by words alone
                pass
            else:
                store_word_pieces(db)
            wanted = {s.id for s in specs}
            for row in list(db.query("SELECT id FROM books")):
                if row["id"] not in wanted:
                    delete_book(db, row["id"])
            todo = specs if stale is None else [s for s in stale if s is not None]
            rebuilt = []
            with db.conn:
                for spec in todo:
                    try:
                        book = self._read(spec, progress)
                    except ReadError as exc:
                        if spec.builtin:
                            raise
                        write_unreadable(db, spec, exc, position=specs.index(spec))
                        if self.notify:
                            self.notify(
                                f"warning: book {spec.id!r} no longer reads ({exc}); its files are kept "
                                f"but it holds nothing: load it again from a good file, or unload it"
                            )
                    else:
                        write_book(db, book, position=specs.index(spec))
                    rebuilt.append(spec.id)
                for i, spec in enumerate(specs):
                    db.execute("UPDATE books SET position = ? WHERE id = ?", [i, spec.id])
                db.table("meta").upsert({"key": "reader_version", "value": READER_VERSION}, pk="key")
            rebuild_fts(db)
            db.conn.commit()
            self._match_rulings(db, tmp_path, progress)
            db.conn.close()
            with open(tmp_path, "rb+") as written:  # on disk before it takes judge.db's name
                os.fsync(written.fileno())
            os.replace(tmp_path, self.db_path)
            return rebuilt
        finally:
            if tmp_path.exists():
                tmp_path.unlink()

    @staticmethod
    def _match_rulings(db, path: Path, progress) -> None:
        # After the books are written: the pairs read them through a Store (a book rebuilt or dropped
        # lost its pairs in delete_book, so what is missing is exactly what changed).
        store = Store(path)
        try:
            made = ruling_pairs.make_pairs(store, stored_ruling_pairs(db), progress)
        finally:
            store.close()
        with db.conn:
            write_ruling_pairs(db, made)

    def _read(self, spec: BookSpec, progress) -> BuiltBook:
        # A stored user book that no longer reads (a reader that now refuses what it once read, such
        # as a web page): the caller keeps going without it, saying so; its stored files are untouched.
        return read_book(spec, progress, self._just_read)

    @contextlib.contextmanager
    def locked(self, action: str, book: str | None = None) -> Iterator[None]:
        """Hold the library's write lock (:mod:`rulebook.lock`) for ``action`` (``"load"``, ...).

        Waits for another process that holds it, telling ``notify`` when the wait lasts, and raises
        :class:`LibraryError` when it lasts longer than ``$JUDGE_LOCK_TIMEOUT`` (300 s). Re-entrant
        within a process: a load's rebuild does not wait for the load. The first to take it puts
        right what a process killed while holding it left (:meth:`_recover`).
        """
        key = str(self.home.resolve())
        if _HELD.get(key):
            _HELD[key] += 1
            try:
                yield
            finally:
                _HELD[key] -= 1
            return
        try:
            held = write_lock.WriteLock(self.home, action, book, notify=self.notify).__enter__()
        except write_lock.Busy as exc:
            raise LibraryError(str(exc)) from None
        _HELD[key] = 1
        try:
            self._recover()
            yield
        finally:
            del _HELD[key]
            held.release()

    def _recover(self) -> None:
        """Put right what a process killed while changing the library left (call holding the lock):
        a folder set aside by a load or unload goes back when its book's folder is missing and is
        deleted otherwise; staging folders and trash are deleted (a half-written database is deleted
        by the next rebuild)."""
        for staging in self.home.glob(".load-*"):
            shutil.rmtree(staging, ignore_errors=True)
        books = self.home / "books"
        if not books.is_dir():
            return
        for aside in sorted(books.iterdir()):
            name = aside.name
            if name.startswith(".trash-"):
                shutil.rmtree(aside, ignore_errors=True)
                continue
            book_id = next((name[len(p) :] for p in (".old-", ".unload-") if name.startswith(p)), None)
            if book_id is None:
                continue
            target = books / book_id
            if (target / "book.json").exists():
                _discard(aside)
            else:
                if target.exists():
                    shutil.rmtree(target, ignore_errors=True)
                aside.rename(target)

    # User books -------------------------------------------------------------------------------------
    def load(
        self,
        paths: list[Path],
        book_id: str,
        game: str | None = None,
        edition: str | None = None,
        title: str | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> BuiltBook:
        """Read ``paths`` into the user book ``book_id`` (replacing a user book of that id).

        The files are read first; only when all of them read is anything stored, so a bad file
        loses nothing the judge had.
        """
        if not BOOK_ID.match(book_id):
            raise LibraryError(f"book id {book_id!r}: expected lower-case letters, digits, '.', '_' or '-'")
        if any(s.id == book_id for s in self.builtin_specs()):
            raise LibraryError(f"book id {book_id!r} is a default book; choose another id")
        if game is not None and game not in games.names():
            raise LibraryError(str(games.UnknownGame(game, ())))
        with self.locked("load", book_id):
            return self._load(paths, book_id, game, edition, title, progress)

    def _load(
        self,
        paths: list[Path],
        book_id: str,
        game: str | None,
        edition: str | None,
        title: str | None,
        progress: Callable[[str], None] | None,
    ) -> BuiltBook:
        docs = []
        for p in paths:
            if progress:
                progress(str(p))
            docs.append(read_file(p, game=game))
            self._just_read[docs[-1].source.sha256] = docs[-1]
        games = {d.game for d in docs}
        if game is None and len(games) > 1:
            raise LibraryError(
                f"the files are of different games ({', '.join(sorted(games))}): load them "
                "as separate books or pass --game"
            )
        game = game or docs[0].game
        spec_files = []
        staging = Path(tempfile.mkdtemp(prefix=f".load-{book_id}-", dir=self.home))
        try:
            names: set[str] = set()
            for p, doc in zip(paths, docs):
                name = _unique(Path(p).name, names)
                shutil.copyfile(p, staging / name)
                spec_files.append({"stored": name, "kind": doc.kind, "original": str(Path(p).resolve())})
            meta: dict[str, Any] = {
                "id": book_id,
                "game": game,
                "title": title or next((d.title for d in docs if d.title), None) or book_id,
                "edition": edition
                or next((d.edition for d in docs if d.edition), None)
                or next((d for d in map(date_in_name, paths) if d), None),
                "files": spec_files,
            }
            (staging / "book.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
            target = self.home / "books" / book_id
            target.parent.mkdir(exist_ok=True)
            old = None
            if target.exists():
                old = target.with_name(f".old-{book_id}")
                shutil.rmtree(old, ignore_errors=True)  # none should be: _recover ran as the lock was taken
                target.rename(old)
            try:
                staging.rename(target)
                self.sync(progress)
            except BaseException:  # Ctrl-C too: the library is left as it was before the load
                shutil.rmtree(target, ignore_errors=True)
                if old is not None:
                    old.rename(target)
                raise
            if old is not None:
                _discard(old)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        spec = next(s for s in self.user_specs() if s.id == book_id)
        return BuiltBook(
            spec,
            docs,
            [r for d in docs for r in d.rules],
            [t for d in docs for t in d.terms],
            [r for d in docs for r in d.rulings],
            [w for d in docs for w in d.warnings],
            meta["edition"],
            meta["title"],
        )

    def unload(self, book_id: str) -> None:
        if any(s.id == book_id for s in self.builtin_specs()):
            raise LibraryError(f"{book_id!r} is a default book built from the seeds; it cannot be unloaded")
        with self.locked("unload", book_id):
            self._unload(book_id)

    def _unload(self, book_id: str) -> None:
        target = self.home / "books" / book_id
        if not (target / "book.json").exists():
            ids = [s.id for s in self.user_specs()]
            guess = process.extractOne(book_id, ids, score_cutoff=50) if ids else None
            hint = f' (did you mean "{guess[0]}"?)' if guess else ""
            raise LibraryError(
                f"no user book {book_id!r}{hint}; user books: {', '.join(ids) or 'none'}", (guess[0],) if guess else ()
            )
        aside = target.with_name(f".unload-{book_id}")
        target.rename(aside)
        try:
            self.sync()
        except BaseException:  # Ctrl-C too: the book stays
            aside.rename(target)
            raise
        _discard(aside)


def _discard(folder: Path) -> None:
    """Delete a folder set aside: renamed to ``.trash-*`` first, so that a process killed while
    deleting it leaves trash (deleted by the next writer), never half a book that looks set aside."""
    trash = Path(tempfile.mkdtemp(prefix=".trash-", dir=folder.parent))
    trash.rmdir()
    folder.rename(trash)
    shutil.rmtree(trash, ignore_errors=True)


def write_unreadable(db, spec: BookSpec, exc: ReadError, position: int) -> None:
    """A stored user book whose files no longer read: kept in the books table with its sources and
    the reason as a warning, but holding nothing, so the rest of the library still builds and the
    judge sees it in ``judge books`` (its files stay under ``books/<id>/``)."""
    delete_book(db, spec.id)
    db["books"].insert(
        {
            "id": spec.id,
            "game": spec.game,
            "title": spec.title or spec.id,
            "edition": spec.edition,
            "builtin": 0,
            "partial": 1,
            "fingerprint": spec.fingerprint(),
            "position": position,
        }
    )
    db["sources"].insert_all(
        {
            "book": spec.id,
            "name": f.path.name,
            "kind": f.kind or "rules",
            "sha256": _sha256(f.path),
            "path": f.original or str(f.path),
            "position": i,
        }
        for i, f in enumerate(spec.files)
    )
    db["warnings"].insert(
        {
            "book": spec.id,
            "source": Path(exc.path).name if exc.path else "",
            "line": exc.line or 0,
            "reason": f"no longer reads, so the book holds nothing: {exc.message}",
        }
    )


def _unique(name: str, taken: set[str]) -> str:
    stem, suffix, n = Path(name).stem, Path(name).suffix, 2
    candidate = name
    while candidate in taken or candidate == "book.json":
        candidate = f"{stem}-{n}{suffix}"
        n += 1
    taken.add(candidate)
    return candidate


_NAME_DATE = r"(?<!\d)((?:19|20)\d\d)[-_ .]?(0[1-9]|1[0-2])[-_ .]?(0[1-9]|[12]\d|3[01])(?!\d)"


def date_in_name(path: str | Path) -> str | None:
    """The date a publisher's file name carries (``MagicCompRules 20250207.txt``,
    ``MagicCompRules_20100716.txt``, ``core-rules-2026-03-30.txt``), for a text that states none.

    >>> date_in_name("MagicCompRules 20250207.txt"), date_in_name("rules-2026-03-30.txt"), date_in_name("cr.txt")
    ('2025-02-07', '2026-03-30', None)
    """
    m = re.search(_NAME_DATE, Path(path).name)
    return f"{m[1]}-{m[2]}-{m[3]}" if m else None
