"""What a file's linking consulted, kept as hashes (`linking/consulted.py`)."""

from __future__ import annotations

import pickle
import subprocess
import sys

from graphrag_code.linking.consulted import ConsultedKeys, key_hash, key_hashes
from graphrag_code.linking.flowkeys import FLOWS_KEY


def test_keys_are_found_and_changes_meet_them_whichever_way_is_used() -> None:
    keys = [f"{FLOWS_KEY}pkg.mod{i}.f/x" for i in range(100)] + ["pkg.core"]
    consulted = ConsultedKeys.of(keys + keys[:10])  # repeats count once
    assert len(consulted) == 101
    assert "pkg.core" in consulted
    assert f"{FLOWS_KEY}pkg.mod7.f/x" in consulted
    assert "pkg.other" not in consulted
    assert list(consulted.hashes) == sorted(consulted.hashes)
    # a few changes are looked up one by one, many are intersected: the same answers
    assert consulted.meets(key_hashes(["pkg.other", "pkg.core"]))
    assert not consulted.meets(key_hashes(["pkg.other"]))
    many = key_hashes([f"{FLOWS_KEY}elsewhere{i}" for i in range(500)])
    assert not consulted.meets(many)
    assert consulted.meets(many | key_hashes([keys[42]]))
    assert not consulted.meets(frozenset())
    assert not ConsultedKeys().meets(key_hashes(["pkg.core"]))


def test_hashes_are_the_same_in_another_process_and_pickle_small() -> None:
    """Stable across processes and runs (the state keeps them), unlike salted `hash()`;
    8 bytes a key when pickled."""
    keys = [
        f"{FLOWS_KEY}homeassistant.components.sensor{i}.Sensor.native_value/float"
        for i in range(2_000)
    ]
    other = subprocess.run(
        [sys.executable, "-c", "from graphrag_code.linking.consulted import key_hash; "
         "print(key_hash('pkg.core'), key_hash('ünïcode.módulo'))"],
        capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": "123"},
    )  # fmt: skip
    assert other.stdout.split() == [str(key_hash("pkg.core")), str(key_hash("ünïcode.módulo"))]
    consulted = ConsultedKeys.of(keys)
    blob = pickle.dumps(consulted, protocol=pickle.HIGHEST_PROTOCOL)
    assert len(blob) < 8 * len(keys) + 200
    assert pickle.loads(blob) == consulted
    assert len(pickle.dumps(frozenset(keys), protocol=pickle.HIGHEST_PROTOCOL)) > 8 * len(blob)
