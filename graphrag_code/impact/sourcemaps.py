"""Source maps (version 3) as Node keeps them beside V8 coverage (`source-map-cache` of a
`NODE_V8_COVERAGE` file, written when source maps are enabled: tsx, `--enable-source-maps`):
an offset of the code V8 ran, back to a line of the source it was compiled from, so that
TypeScript run through V8 maps onto the graph's `.ts` files.

    mappings  `;`-separated generated lines of `,`-separated segments, each Base64 VLQ
              fields relative to the previous: generated column, source, original line,
              original column (https://sourcemaps.info/spec.html)
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from ..errors import InvalidArgumentError

__all__ = ["SourceMap", "decode_mappings"]

_BASE64 = {c: i for i, c in enumerate(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)}  # fmt: skip
# (generated column, source index, original line): 0-based, one tuple per mapped segment
Segment = tuple[int, int, int]


def _vlq(segment: str) -> list[int]:
    values: list[int] = []
    value = shift = 0
    for char in segment:
        digit = _BASE64.get(char)
        if digit is None:
            raise InvalidArgumentError(f"a source map segment that is not Base64 VLQ: {segment!r}")
        value |= (digit & 31) << shift
        if digit & 32:
            shift += 5
            continue
        values.append(-(value >> 1) if value & 1 else value >> 1)
        value = shift = 0
    return values


def decode_mappings(mappings: str) -> list[list[Segment]]:
    """Each generated line's mapped segments, in column order (segments of one field, which
    map to no source, are left out)."""
    lines: list[list[Segment]] = []
    source = line = column = 0
    for text in mappings.split(";"):
        found: list[Segment] = []
        generated = 0
        for segment in text.split(","):
            if not segment:
                continue
            fields = _vlq(segment)
            generated += fields[0]
            if len(fields) >= 4:
                source += fields[1]
                line += fields[2]
                column += fields[3]
                found.append((generated, source, line))
        lines.append(sorted(found))
    return lines


@dataclass(frozen=True)
class SourceMap:
    """One script's map: its generated lines' lengths (UTF-16 code units, as V8's offsets
    count), its decoded mappings and its sources as URLs."""

    line_starts: Sequence[int]
    lines: Sequence[Sequence[Segment]]
    sources: Sequence[str]

    @classmethod
    def from_cache(cls, url: str, entry: Mapping[str, Any]) -> SourceMap | None:
        """From an entry of Node's `source-map-cache`; None without the line lengths Node
        adds or the mappings."""
        data = entry.get("data") or {}
        lengths = entry.get("lineLengths")
        if not isinstance(lengths, list) or not isinstance(data.get("mappings"), str):
            return None
        starts = [0]
        for length in lengths:
            starts.append(starts[-1] + int(length) + 1)  # Node splits on line breaks
        root = str(data.get("sourceRoot") or "")
        if root and not root.endswith("/"):
            root += "/"
        sources = [urljoin(url, root + str(source)) for source in data.get("sources") or ()]
        return cls(starts, decode_mappings(data["mappings"]), sources)

    def original(self, offset: int) -> tuple[str, int] | None:
        """The source and 1-based line of the generated code at `offset`: the last segment at
        or before its column on its line; None where nothing maps there."""
        line = bisect.bisect_right(self.line_starts, offset) - 1
        if not 0 <= line < len(self.lines):
            return None
        column = offset - self.line_starts[line]
        segments = self.lines[line]
        at = bisect.bisect_right(segments, (column, 1 << 62, 1 << 62)) - 1
        if at < 0:
            return None
        _, source, original = segments[at]
        if not 0 <= source < len(self.sources):
            return None
        return self.sources[source], original + 1

    def original_range(self, start: int, end: int) -> tuple[str, int, int] | None:
        """A generated range [start, end) as (source, first line, last line), where both ends
        map into one source in order; else None (helpers a compiler added map nowhere)."""
        first, last = self.original(start), self.original(end - 1)
        if first is None or last is None or first[0] != last[0] or last[1] < first[1]:
            return None
        return first[0], first[1], last[1]
