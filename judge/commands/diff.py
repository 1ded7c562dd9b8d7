"""``judge diff OLD NEW``: what changed between two loaded books of one game (rulebook.diff)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import typer

from judge.books import open_store
from judge.commands.options import JSON
from judge.output import echo, emit_json, fail, pick_format

if TYPE_CHECKING:
    from rulebook.diff import BookDiff

FORMATS = ("text", "markdown", "json")


def diff(
    old: str = typer.Argument(..., help="The older book (see `judge books`), e.g. cr-2025."),
    new: str = typer.Argument(..., help="The newer book of the same game, e.g. cr-2026."),
    section: str = typer.Option(
        None,
        "--section",
        "-s",
        help="Only rules under this number (702, 7, 312.2) in either book; the glossary is left out.",
    ),
    format: str = typer.Option("text", "--format", "-f", help="text, markdown (release notes to post) or json."),
    json_: bool = JSON,
) -> None:
    """The rules added, removed, reworded (word by word) and renumbered between two editions, and the glossary's changes."""
    format = pick_format(format, json_, FORMATS)
    result = diffed(old, new, section)
    if format == "json":
        emit_json(result.to_json())
    elif format == "markdown":
        echo(markdown(result))
    else:
        echo(text(result))


def diffed(old: str, new: str, section: str | None = None) -> BookDiff:
    """The diff ``judge diff`` shows (its ``to_json()`` is what ``--json``
    prints and ``GET /api/diff/OLD/NEW`` answers); :func:`fail` for a wrong book, a wrong pair of books
    (exit 2) or a section in neither book (exit 1)."""
    from rulebook import numbers
    from rulebook.diff import DiffError, diff_books

    if section is not None and not numbers.looks_like_number(section):
        fail(f"--section {section!r} is not a rule number (expected e.g. 702, 7 or 312.2)")
    store = open_store()
    ids = store.book_ids()
    for book in (old, new):
        if book not in ids:
            from rulebook.editions import unknown_book

            error = unknown_book(book, ids)
            fail(str(error), suggestions=error.suggestions)
    try:
        result = diff_books(store, old, new, section)
    except DiffError as exc:
        fail(str(exc))
    if (
        section is not None
        and result.section is not None
        and not any(store.has_rule(b, result.section) for b in (old, new))
    ):
        from rulebook.nearest import nearest_numbers

        near = nearest_numbers(store, section, [new, old])
        fail(
            f"no rule {section} in {old} or {new}" + (f"; nearest: {', '.join(near)}" if near else ""),
            code=1,
            suggestions=near,
        )
    return result


# Text ----------------------------------------------------------------------------------------------
def _label(info: dict) -> str:
    return (
        f"{info['book']}"
        + (f" ({info['edition']})" if info["edition"] else "")
        + (" [excerpt]" if info["partial"] else "")
    )


def summary(d) -> list[str]:
    reworded = sum(1 for r in d.renumbered if r["changed"])
    refs = sum(1 for c in d.changed if c["references_only"])
    lines = [
        f"{len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed"
        + (f" ({refs} only in the rule numbers they cite)" if refs else "")
        + f", {len(d.renumbered)} renumbered ({reworded} of them reworded), {d.unchanged} unchanged"
    ]
    if d.outside_excerpt:
        lines.append(
            f"{d.outside_excerpt} rules of the whole edition are outside the excerpt: not compared, "
            "neither added nor removed"
        )
    if d.terms is not None:
        t = d.terms
        lines.append(
            f"glossary: {len(t.added)} added, {len(t.removed)} removed, {len(t.changed)} changed, "
            f"{len(t.renamed)} renamed, {d.terms_unchanged} unchanged"
            + (f", {d.terms_outside_excerpt} outside the excerpt" if d.terms_outside_excerpt else "")
        )
    return lines


def grouped(renumbered: list[dict]) -> list[tuple[dict, list[dict]]]:
    """Renumbered rules, each with the unreworded sub-rules that moved along with it (701.19a-j under
    701.19 -> 701.23), so release notes say "701.19 -> 701.23 Regenerate, with its 10 sub-rules"."""
    out: list[tuple[dict, list[dict]]] = []
    for r in renumbered:
        if out:
            head, along = out[-1]
            if (
                not r["changed"]
                and r["old"].startswith(head["old"])
                and r["new"].startswith(head["new"])
                and r["old"][len(head["old"]) :] == r["new"][len(head["new"]) :]
                and re.match(r"[a-z.]", r["old"][len(head["old"]) :] or "-")
            ):
                along.append(r)
                continue
        out.append((r, []))
    return out


def _first_line(text: str, width: int = 100) -> str:
    line = text.split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"


def text(d) -> str:
    out = [f"{_label(d.old)} -> {_label(d.new)}" + (f", rules under {d.section}" if d.section else "")]
    out += [f"  {line}" for line in summary(d)]
    if d.added:
        out += ["", f"Added ({len(d.added)})"]
        out += [f"  {a['number']}  {a['text']}".replace("\n", "\n      ") for a in d.added]
    if d.removed:
        out += ["", f"Removed ({len(d.removed)})"]
        out += [f"  {r['number']}  {r['text']}".replace("\n", "\n      ") for r in d.removed]
    if d.changed:
        out += ["", f"Changed ({len(d.changed)})"]
        for c in d.changed:
            note = "only the rule numbers it cites, " if c["references_only"] else ""
            out.append(f"  {c['number']}  ({note}similarity {c['similarity']:.2f}, {c['confidence']} confidence)")
            out.append(f"      {c['diff']}")
    if d.renumbered:
        out += ["", f"Renumbered ({len(d.renumbered)})"]
        for head, along in grouped(d.renumbered):
            what = _first_line(head.get("text") or head["new_text"], 60)
            tail = f", with {len(along)} sub-rule{'s' if len(along) != 1 else ''}" if along else ""
            sure = f"similarity {head['similarity']:.2f}, {head['confidence']} confidence"
            if head["changed"]:
                note = "only the rule numbers it cites changed" if head["references_only"] else "reworded"
                out.append(f"  {head['old']} -> {head['new']}  {note}{tail} ({sure})")
                out.append(f"      {head['diff']}")
            else:
                out.append(f"  {head['old']} -> {head['new']}  {what}{tail} ({sure})")
    t = d.terms
    if t is not None and (t.added or t.removed or t.changed or t.renamed):
        out += ["", "Glossary"]
        for a in t.added:
            out.append(f"  added: {a['term']}: {a['definition']}")
        for r in t.removed:
            out.append(f"  removed: {r['term']}: {r['definition']}")
        for r in t.renamed:
            out.append(f"  renamed: {r['old']} -> {r['new']}" + (f": {r['diff']}" if r["changed"] else ""))
        for c in t.changed:
            out.append(f"  changed: {c['term']}: {c['diff']}")
    return "\n".join(out)


# Markdown: release notes ---------------------------------------------------------------------------
_MD = re.compile(r"([\\`*_~|<>#])")


def _md(text: str) -> str:
    return _MD.sub(r"\\\1", text)


def _md_diff(diff: str) -> str:
    """``[-old-]{+new+}`` as ~~old~~ **new**, the rest escaped."""
    out = []
    for piece in re.split(r"(\[-.*?-\]|\{\+.*?\+\})", diff, flags=re.S):
        if not piece:
            continue
        if piece.startswith("[-") and piece.endswith("-]"):
            out.append(f"~~{_md(piece[2:-2])}~~")
        elif piece.startswith("{+") and piece.endswith("+}"):
            out.append((" " if out and out[-1].endswith("~~") else "") + f"**{_md(piece[2:-2])}**")
        else:
            out.append(_md(piece))
    return "".join(out)


def _md_text(text: str) -> str:
    return "<br>".join(_md(line) for line in text.split("\n"))


def markdown(d) -> str:
    new_name = d.new["title"] or d.new["book"]
    edition = f" {d.new['edition']}" if d.new["edition"] else ""
    out = [
        f"# What changed in {_md(new_name)}{_md(edition)}",
        "",
        f"Compared with {_md(_label(d.old))}: {_md(_label(d.new))}"
        + (f", rules under {d.section} only" if d.section else "")
        + ". "
        + "Removed words are ~~struck through~~, new words are **bold**.",
        "",
    ]
    out += [f"- {_md(line)}" for line in summary(d)]
    if d.added:
        out += ["", f"## New rules ({len(d.added)})", ""]
        out += [f"- **{a['number']}** {_md_text(a['text'])}" for a in d.added]
    if d.changed:
        out += ["", f"## Changed rules ({len(d.changed)})", ""]
        for c in d.changed:
            note = " _(only the rule numbers it cites)_" if c["references_only"] else ""
            out.append(f"- **{c['number']}**{note} {_md_diff(c['diff'])}")
    if d.removed:
        out += ["", f"## Removed rules ({len(d.removed)})", ""]
        out += [f"- **{r['number']}** {_md_text(r['text'])}" for r in d.removed]
    if d.renumbered:
        out += [
            "",
            f"## Renumbered rules ({len(d.renumbered)})",
            "",
            "| old | new | rule | words | confidence |",
            "|---|---|---|---|---|",
        ]
        reworded = []
        for head, along in grouped(d.renumbered):
            what = _first_line(head.get("text") or head["new_text"], 60)
            tail = f" (with {len(along)} sub-rule{'s' if len(along) != 1 else ''})" if along else ""
            words = ("cited numbers" if head["references_only"] else "reworded") if head["changed"] else "same"
            out.append(f"| {head['old']} | {head['new']} | {_md(what)}{tail} | {words} | {head['confidence']} |")
            if head["changed"]:
                reworded.append(head)
        if reworded:
            out += ["", f"### Renumbered and reworded ({len(reworded)})", ""]
            out += [f"- **{r['old']} → {r['new']}** {_md_diff(r['diff'])}" for r in reworded]
    t = d.terms
    if t is not None and (t.added or t.removed or t.changed or t.renamed):
        out += ["", "## Glossary", ""]
        out += [f"- New: **{_md(a['term'])}**: {_md(a['definition'])}" for a in t.added]
        out += [f"- Removed: **{_md(r['term'])}**" for r in t.removed]
        out += [
            f"- Renamed: **{_md(r['old'])}** → **{_md(r['new'])}**"
            + (f": {_md_diff(r['diff'])}" if r["changed"] else "")
            for r in t.renamed
        ]
        out += [f"- Changed: **{_md(c['term'])}**: {_md_diff(c['diff'])}" for c in t.changed]
    return "\n".join(out)
