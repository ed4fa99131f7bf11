"""The text of a lesson: a small part of Markdown, and placeholders filled from numbers.

Lesson texts are written in a few Markdown forms and nothing else (any HTML in them is
shown as typed, never run):

- paragraphs, separated by a blank line;
- ``**bold**``, ``*italic*`` and ```code``` inside a line;
- lists: lines starting with ``- `` (bullets) or ``1. `` (numbered).

>>> to_html("You hold **gem 3**.\\n\\n- one\\n- two")
'<p>You hold <b>gem 3</b>.</p><ul><li>one</li><li>two</li></ul>'
>>> to_html("<script>x</script> `bid 4 3 0`")
'<p>&lt;script&gt;x&lt;/script&gt; <code>bid 4 3 0</code></p>'

Placeholders ``{name}`` or ``{name:spec}`` (a Python format spec such as ``.3f`` or
``.1%``) are filled from a mapping of named numbers; ``{{`` and ``}}`` are literal braces.
Fractions show as ``22/51`` unless a spec asks for a decimal.

>>> from fractions import Fraction
>>> fill("{K} of {N} cards: P = {p} ≈ {p:.3f}", {"K": 6, "N": 36, "p": Fraction(1, 6)})
'6 of 36 cards: P = 1/6 ≈ 0.167'
>>> placeholders("{a} and {b:.1%} but not {{c}}")
[('a', ''), ('b', '.1%')]

Standard library only.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..i18n import _, formatted

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<b>\1</b>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<i>\1</i>"),
]
_BULLET = re.compile(r"^\s*[-•]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.*)$")


def inline(text: str) -> str:
    """One line (or a run of lines) with its inline marks, HTML escaped first."""
    out = html.escape(text, quote=False)
    # Code first, kept apart so that the other marks never apply inside it.
    codes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    out = _INLINE[0][0].sub(keep, out)
    for pattern, repl in _INLINE[1:]:
        out = pattern.sub(repl, out)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], out)


def _list_html(items: list[tuple[str, str]]) -> str:
    tag = items[0][0]
    return f"<{tag}>" + "".join(f"<li>{inline(t)}</li>" for _, t in items) + f"</{tag}>"


def to_html(text: str) -> str:
    """Lesson text (the Markdown forms of the module docstring) as HTML."""
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n", (text or "").strip()):
        items: list[tuple[str, str]] = []  # (list tag, item text)
        para: list[str] = []
        for line in (line for line in block.splitlines() if line.strip()):
            bullet, numbered = _BULLET.match(line), _NUMBERED.match(line)
            found = bullet or numbered
            if found:
                if para:
                    blocks.append(f"<p>{inline(' '.join(para))}</p>")
                    para = []
                tag = "ul" if bullet else "ol"
                if items and items[0][0] != tag:
                    blocks.append(_list_html(items))
                    items = []
                items.append((tag, found.group(1)))
            elif items and line.startswith((" ", "\t")):
                tag, previous = items[-1]
                items[-1] = (tag, previous + " " + line.strip())  # an item's next line
            else:
                if items:
                    blocks.append(_list_html(items))
                    items = []
                para.append(line.strip())
        if para:
            blocks.append(f"<p>{inline(' '.join(para))}</p>")
        if items:
            blocks.append(_list_html(items))
    return "".join(blocks)


def placeholders(text: str) -> list[tuple[str, str]]:
    """The ``(name, spec)`` of every placeholder in ``text``; raises ValueError on a
    malformed one (an unclosed brace, ``{}``, a conversion such as ``{x!r}``)."""
    found = []
    for _literal, name, spec, conversion in string.Formatter().parse(text or ""):
        if name is None:
            continue
        if not name or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            # Translators: an error of a lesson's text; {placeholder} is quoted from it.
            raise ValueError(_("placeholder {placeholder}: a name is letters, digits and "
                               "_").format(placeholder="{" + name + "}"))
        if conversion:
            raise ValueError(_("placeholder {placeholder}: no conversions, only a format "
                               "such as {example}").format(
                placeholder="{" + f"{name}!{conversion}" + "}", example="{name:.3f}"))
        found.append((name, spec or ""))
    return found


def format_value(value: Any, spec: str = "") -> str:
    """A number as a lesson shows it: ``spec`` is a Python format spec for its value; the
    decimal mark, the groups and the percent sign are the current language's ("43,2 %")."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if not isinstance(value, int | float | Fraction):
        return format(value, spec) if spec else str(value)
    if spec:
        if isinstance(value, Fraction):
            if value.denominator == 1 and spec[-1:] in "dn,_" and "." not in spec:
                return formatted(format(int(value), spec))
            return formatted(format(float(value), spec))
        return formatted(format(value, spec))
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return formatted(f"{value:.4g}")
    return str(value)


def fill(text: str, values: Mapping[str, Any]) -> str:
    """``text`` with every placeholder replaced by its value (KeyError names a missing
    one; ValueError a spec that does not suit its value)."""
    out = []
    for literal, name, spec, _conversion in string.Formatter().parse(text or ""):
        out.append(literal)
        if name is None:
            continue
        if name not in values:
            raise KeyError(name)
        try:
            out.append(format_value(values[name], spec or ""))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{{{name}:{spec}}}: {exc}") from None
    return "".join(out)


__all__ = ["fill", "format_value", "inline", "placeholders", "to_html"]
