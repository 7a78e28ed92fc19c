"""JSDoc comments: the `/** … */` that documents a declaration or a file, and the types its
tags declare (how JavaScript types parameters and returns)."""

from __future__ import annotations

import re

import tree_sitter as ts

from ...model import Dotted
from ...parsing.treesitter import first_line, last_line
from ...parsing.treesitter import node_text as _text
from .syntax import ELEMENT

__all__ = ["jsdoc", "jsdoc_types", "module_doc"]


def jsdoc(node: ts.Node) -> str | None:
    """The `/** … */` comment right before a declaration (or the statement wrapping it), blank
    lines between them or not, as the TypeScript checker reads JSDoc (express: `*/`, a blank
    line, `function matchLayer(layer, path)`); not a file's leading comment set apart from
    the first statement, which is the file's overview (`module_doc`)."""
    previous = node.prev_sibling
    while previous is not None and previous.type == "decorator":
        previous = previous.prev_sibling
    if previous is None or previous.type != "comment":
        return None
    text = _text(previous)
    if not text.startswith("/**"):
        return None
    parent = previous.parent
    leading = parent is not None and parent.parent is None and previous.prev_sibling is None
    if leading and last_line(previous) < first_line(node) - 1:
        return None
    return _clean_jsdoc(text)


_JSDOC_TAG = re.compile(
    r"@(param|arg|argument|returns?|type)\s*\{([^{}]+)\}\s*(\[?[\w$.]+)?", re.MULTILINE
)
_JSDOC_TYPE = re.compile(r"^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$")


def jsdoc_types(doc: str) -> dict[str, Dotted]:
    """The single class each JSDoc tag names: "param:NAME", "return", "type" -> dotted type
    (`@param {Suite} suite`, `@returns {?Runner}`, `{Foo|null}`, `{(Foo | null)}`,
    `{Promise<Foo>}`); a parameter, return or `@type` of an array type gives its elements'
    class as "param:NAME[]", "return[]", "type[]" (`{Suite[]}`, `{Array<Suite>}`,
    `{Array.<Suite>}`)."""
    found: dict[str, Dotted] = {}
    for match in _JSDOC_TAG.finditer(doc):
        tag, raw, name = match.group(1), match.group(2).strip(), match.group(3)
        if raw.startswith("(") and raw.endswith(")"):  # `{(Option | null | undefined)}`
            raw = raw[1:-1]
        parts = [p.strip().lstrip("?!").rstrip("=") for p in raw.split("|")]
        parts = [p for p in parts if p not in ("null", "undefined", "void", "")]
        if len(parts) != 1:
            continue
        text = parts[0]
        wrapped = re.match(r"^(?:Promise|PromiseLike)<(.+)>$", text)
        if wrapped:
            text = wrapped.group(1).strip()
        suffix = ""
        array = re.match(r"^(?:(.+)\[\]|Array\.?<(.+)>)$", text)
        if array:
            text, suffix = (array.group(1) or array.group(2)).strip(), ELEMENT
        if not _JSDOC_TYPE.match(text) or text in ("Object", "Function", "Array", "string"):
            continue
        dotted = tuple(text.split("."))
        if tag in ("param", "arg", "argument") and name:
            found[f"param:{name.lstrip('[').split('.')[0]}{suffix}"] = dotted
        elif tag.startswith("return"):
            found["return" + suffix] = dotted
        elif tag == "type":
            found["type" + suffix] = dotted
    return found


def _clean_jsdoc(text: str) -> str | None:
    body = text.removeprefix("/**").removesuffix("*/")
    lines = [re.sub(r"^\s*\* ?", "", line).rstrip() for line in body.splitlines()]
    cleaned = "\n".join(lines).strip()
    return cleaned or None


def module_doc(root: ts.Node) -> str | None:
    """A leading `/** … */` comment set apart from the first statement (a file overview)."""
    first = root.named_children[0] if root.named_child_count else None
    if first is None or first.type != "comment" or not _text(first).startswith("/**"):
        return None
    following = first.next_named_sibling
    if following is not None and first_line(following) <= last_line(first) + 1:
        return None  # it documents the declaration that follows
    return _clean_jsdoc(_text(first))
