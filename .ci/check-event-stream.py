#!/usr/bin/env python3
"""Checks `event-stream-consumer --json` (issue 4): every line is JSON, and the
ordered (path, event) sequence is exactly the scripted scenario's."""
import json, sys

EXPECTED = """
App subscribed
App viewDidLoad
App viewWillAppear
App viewIsAppearing
App viewDidAppear
App childAdded
App/Feed willMove
App/Feed viewDidLoad
App/Feed viewWillAppear
App/Feed viewIsAppearing
App/Feed viewDidAppear
App/Feed didMove
App childAdded
App/Profile willMove
App/Profile didMove
App/Profile viewDidLoad
App transitionBegan
App/Feed viewWillDisappear
App/Profile viewWillAppear
App/Profile viewIsAppearing
App/Feed viewDidDisappear
App/Profile viewDidAppear
App transitionEnded
App/Feed willMove
App childRemoved
App/Feed didMove
App childAdded
App/Panes willMove
App/Panes viewDidLoad
App/Panes viewWillAppear
App/Panes viewIsAppearing
App/Panes viewDidAppear
App/Panes didMove
App/Panes childAdded
App/Panes/Left willMove
App/Panes/Left viewDidLoad
App/Panes/Left didMove
App/Panes childAdded
App/Panes/Right willMove
App/Panes/Right viewDidLoad
App/Panes/Right didMove
App/Panes/Left viewWillAppear
App/Panes/Left viewIsAppearing
App/Panes/Left viewDidAppear
App/Panes batchCommitted
App/Panes/Left viewWillDisappear
App/Panes/Right viewWillAppear
App/Panes/Right viewIsAppearing
App/Panes/Left viewDidDisappear
App/Panes/Right viewDidAppear
App/Panes batchCommitted
App/Panes/Left unbalancedAppearanceTransition
App viewWillDisappear
App/Profile viewWillDisappear
App/Panes viewWillDisappear
App viewDidDisappear
App/Profile viewDidDisappear
App/Panes viewDidDisappear
App terminated
""".split("\n")[1:-1]

events = [json.loads(line) for line in sys.stdin if line.strip()]
actual = [f"{e['path']} {e['event']}" for e in events]
if actual != EXPECTED:
    import difflib
    print("\n".join(difflib.unified_diff(EXPECTED, actual, "expected", "actual", lineterm="")))
    sys.exit("event-stream-consumer --json: unexpected event sequence")
batches = {e["tx"] for e in events if e["event"] == "batchCommitted"}
for tx in batches:
    kinds = [e["event"] for e in events if e["tx"] == tx]
    assert kinds[-1] == "batchCommitted", kinds
print(f"event-stream-consumer --json: {len(events)} events in the expected order")
