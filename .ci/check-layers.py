#!/usr/bin/env python3
"""Checks that the folders of Sources/Containment are layers.

Each top-level folder is a layer; a file may name only the types declared in
its own layer or a layer below it. The order, bottom first, is LAYERS below
(CONCURRENCY.md, "Layers", says what each one holds). A type is found by
its name: every `class`/`struct`/`enum`/`actor`/`protocol`/`typealias`
declared in the library, outside comments and string literals; a name
declared in two layers is ignored (it is not a reference to one place).

Exit status 1, with each upward reference (file, name, the layer it belongs
to), if any file names a type of a layer above its own, or if a folder is
not in LAYERS.
"""
import collections
import os
import re
import sys

LAYERS = [
    "Support",  # generic pieces: back-links, out-of-line storage, the broadcaster
    "Vocabulary",  # the contract's values: ids, events, policies, options, errors
    "Tree",  # controllers, nodes, links, views, windows; each feature's per-controller state
    "Transactions",  # transactions, their contexts and handles, hierarchical exclusion
    "Delivery",  # the gateway into user code, hooks, appearance passes, event delivery
    "Verbs",  # containment, the children-change engine, transitions, presentation, scopes
    "Containers",  # navigation, tab bar, split view, delegation
    "Supervision",  # services and readiness on top of a tree
]
ROOT = os.path.join(os.path.dirname(__file__), "..", "Sources", "Containment")
TYPE = re.compile(r"\b(?:class|struct|enum|actor|protocol|typealias)\s+([A-Z]\w*)")


def clean(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def layer_of(rel):
    parts = rel.split(os.sep)
    return None if len(parts) == 1 else parts[0]


files = {}
for directory, _, names in os.walk(ROOT):
    for name in names:
        if name.endswith(".swift"):
            path = os.path.join(directory, name)
            files[os.path.relpath(path, ROOT)] = clean(open(path, encoding="utf-8").read())

findings = []
declared = collections.defaultdict(set)
for rel, text in files.items():
    layer = layer_of(rel)
    if layer is not None and layer not in LAYERS:
        findings.append(f"{rel}: folder '{layer}' is not a layer (add it to LAYERS in {sys.argv[0]})")
    for match in TYPE.finditer(text):
        declared[match.group(1)].add(layer)

rank = {layer: index for index, layer in enumerate(LAYERS)}
for rel, text in sorted(files.items()):
    layer = layer_of(rel)
    if layer not in rank:
        continue
    for name in sorted(set(re.findall(r"[A-Za-z_]\w*", text))):
        owners = declared.get(name)
        if not owners or len(owners) != 1:
            continue
        (owner,) = owners
        if owner in rank and rank[owner] > rank[layer]:
            findings.append(f"{rel}: names '{name}' of layer {owner}, above its own layer {layer}")

if findings:
    print("check-layers: upward references (a layer may use only the layers below it):")
    for finding in findings:
        print("  " + finding)
    sys.exit(1)
print(f"check-layers: {len(files)} files in {len(LAYERS)} layers, no upward reference")
