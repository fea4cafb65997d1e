"""Plain paths are read without the JVM exactly as Hadoop's ``Path`` reads them.

Every text is given to both: :func:`plain_path` either declines it or gives the scheme, the
normalised text and the root flag that the JVM's ``org.apache.hadoop.fs.Path`` gives.
"""

from __future__ import annotations

import random
from typing import List

import pytest

from pyflink_compat.datastream._paths import plain_path
from pyflink_compat.util.java_classes import java_class

WRITTEN = [
    "file:///tmp/x", "file:///tmp/x/", "file:/tmp/x", "file:/", "file:///", "file://",
    "hdfs://namenode:8020/flink/checkpoints", "hdfs://namenode/", "hdfs://namenode",
    "hdfs://name-node.example.com:9000/a/b/c/", "s3a://bucket/path/to/dir", "s3://b",
    "FILE:///Tmp/X", "viewfs://cluster/x", "/tmp/x", "/", "tmp/x", "x", "tmp/x/", "./x",
    "/tmp/./x", "/tmp/../x", "/tmp//x", "file:tmp", "file:relative/x", "a.b+c-d:/x",
    "1file:/x", "file:///tmp/x~y_z-1.2", "file:///tmp/a b", "file:///tmp/%41", "//host/x",
    "hdfs://user@host/x", "hdfs://host:port/x", "file:///tmp/x/.", "file:///tmp/x/..",
    "file:///.hidden/x", "file:///tmp/x.", "file:///tmp/...", "~/x", "-", ".", "..",
]
ALPHABET = "abcXYZ019_.~-/:+%@ "


def _generated(count: int) -> List[str]:
    rng = random.Random(20261123)
    texts = []
    for _ in range(count):
        head = rng.choice(["", "file:", "file://", "file:///", "hdfs://nn:8020", "s3a://b", "/"])
        texts.append(head + "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12))))
    return texts


@pytest.mark.parametrize("texts", [WRITTEN, _generated(600)], ids=["written", "generated"])
def test_a_plain_path_reads_as_hadoop_reads_it(spark, texts):
    hadoop_path = java_class("org.apache.hadoop.fs.Path")
    read_here = 0
    for text in texts:
        plain = plain_path(text)
        if plain is None:
            continue
        read_here += 1
        j_path = hadoop_path(text)  # a plain path never fails in Hadoop
        assert (plain.scheme, plain.text, plain.root) == (
            j_path.toUri().getScheme(), j_path.toString(), j_path.isRoot()), text
    assert read_here >= 15  # the common forms are read here
