"""Source maps as Node keeps them beside V8 coverage, decoded offline (issue 54)."""

from __future__ import annotations

import pytest

from graphrag_code.errors import InvalidArgumentError
from graphrag_code.impact.sourcemaps import SourceMap, decode_mappings


def test_segments_are_relative_to_the_previous_and_columns_restart_each_line() -> None:
    # "AAAA": column 0 -> source 0, line 0; "EAAE": column +2, line +0; ";" a new line;
    # "AACA": column 0 (restarted), line +1; "GAAG,C": a segment of one field is left out
    assert decode_mappings("AAAA,EAAE;AACA,C;;GAAG") == [
        [(0, 0, 0), (2, 0, 0)], [(0, 0, 1)], [], [(3, 0, 1)],
    ]  # fmt: skip
    assert decode_mappings("gBAAA") == [[(16, 0, 0)]]  # a continuation digit: 16
    with pytest.raises(InvalidArgumentError, match="Base64 VLQ"):
        decode_mappings("A!AA")


def test_offsets_map_to_the_source_line_of_the_segment_at_or_before_them() -> None:
    entry = {  # two generated lines of 10 and 20 code units; the first maps nowhere
        "lineLengths": [10, 20],
        "data": {"mappings": ";EAAA,KACA,KACA", "sources": ["../src/a.ts"], "sourceRoot": ""},
    }
    mapped = SourceMap.from_cache("file:///repo/dist/a.js", entry)
    assert mapped is not None
    assert mapped.sources == ["file:///repo/src/a.ts"]
    assert mapped.original(11) is None  # line 2, column 0: before its first segment
    assert mapped.original(13) == ("file:///repo/src/a.ts", 1)
    assert mapped.original(19) == ("file:///repo/src/a.ts", 2)
    assert mapped.original_range(13, 25) == ("file:///repo/src/a.ts", 1, 3)
    assert mapped.original_range(3, 25) is None  # begins in code that maps nowhere
    assert SourceMap.from_cache("file:///x.js", {"data": {"mappings": ""}}) is None
