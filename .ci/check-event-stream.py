#!/usr/bin/env python3
"""Checks `event-stream-consumer --json`: every line is JSON, the ordered
(path, event) sequence is exactly the scripted scenario's, and time never
goes backwards (`terminated` included)."""
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
App childAdded
App/Nav willMove
App/Nav viewDidLoad
App/Nav viewWillAppear
App/Nav viewIsAppearing
App/Nav viewDidAppear
App/Nav didMove
App/Nav childAdded
App/Nav/Inbox willMove
App/Nav/Inbox viewDidLoad
App/Nav transitionBegan
App/Nav/Inbox viewWillAppear
App/Nav/Inbox viewIsAppearing
App/Nav/Inbox viewDidAppear
App/Nav/Inbox didMove
App/Nav transitionEnded
App/Nav childAdded
App/Nav/Message willMove
App/Nav/Message viewDidLoad
App/Nav transitionBegan
App/Nav/Inbox viewWillDisappear
App/Nav/Message viewWillAppear
App/Nav/Message viewIsAppearing
App/Nav/Inbox viewDidDisappear
App/Nav/Message viewDidAppear
App/Nav/Message didMove
App/Nav transitionEnded
App/Nav/Message willMove
App/Nav transitionBegan
App/Nav/Message viewWillDisappear
App/Nav/Inbox viewWillAppear
App/Nav/Inbox viewIsAppearing
App/Nav childRemoved
App/Nav/Message viewDidDisappear
App/Nav/Inbox viewDidAppear
App/Nav/Message didMove
App/Nav transitionEnded
App/Nav childAdded
App/Nav/Message willMove
App/Nav transitionBegan
App/Nav/Inbox viewWillDisappear
App/Nav/Message viewWillAppear
App/Nav/Message viewIsAppearing
App/Nav/Inbox viewDidDisappear
App/Nav/Message viewDidAppear
App/Nav/Message didMove
App/Nav transitionEnded
App/Nav transitionBegan
App/Nav/Message viewWillDisappear
App/Nav/Inbox viewWillAppear
App/Nav/Inbox viewIsAppearing
App/Nav/Inbox viewWillDisappear
App/Nav/Inbox viewDidDisappear
App/Nav/Message viewWillAppear
App/Nav/Message viewIsAppearing
App/Nav/Message viewDidAppear
App/Nav transitionEnded
App/Nav willMove
App childRemoved
App/Nav viewWillDisappear
App/Nav/Message viewWillDisappear
App/Nav viewDidDisappear
App/Nav/Message viewDidDisappear
App/Nav didMove
App childAdded
App/Tabs willMove
App/Tabs viewDidLoad
App/Tabs viewWillAppear
App/Tabs viewIsAppearing
App/Tabs viewDidAppear
App/Tabs didMove
App/Tabs childAdded
App/Tabs childAdded
App/Tabs/Home willMove
App/Tabs/Settings willMove
App/Tabs/Home viewDidLoad
App/Tabs transitionBegan
App/Tabs/Home viewWillAppear
App/Tabs/Home viewIsAppearing
App/Tabs/Home viewDidAppear
App/Tabs/Home didMove
App/Tabs/Settings didMove
App/Tabs transitionEnded
App/Tabs/Settings viewDidLoad
App/Tabs transitionBegan
App/Tabs/Home viewWillDisappear
App/Tabs/Settings viewWillAppear
App/Tabs/Settings viewIsAppearing
App/Tabs/Home viewDidDisappear
App/Tabs/Settings viewDidAppear
App/Tabs transitionEnded
App/Tabs/Settings presented
App/Tabs/Settings/Sheet viewDidLoad
App/Tabs/Settings/Sheet viewWillAppear
App/Tabs/Settings/Sheet viewIsAppearing
App/Tabs/Settings/Sheet viewDidAppear
App/Tabs/Settings/Sheet viewWillDisappear
App/Tabs/Settings/Sheet viewDidDisappear
App/Tabs/Settings dismissed
App presented
App/Flow viewDidLoad
App viewWillDisappear
App/Profile viewWillDisappear
App/Panes viewWillDisappear
App/Tabs viewWillDisappear
App/Tabs/Settings viewWillDisappear
App/Flow viewWillAppear
App/Flow viewIsAppearing
App/Flow viewDidAppear
App viewDidDisappear
App/Profile viewDidDisappear
App/Panes viewDidDisappear
App/Tabs viewDidDisappear
App/Tabs/Settings viewDidDisappear
App/Flow viewWillDisappear
App viewWillAppear
App/Profile viewWillAppear
App/Panes viewWillAppear
App/Tabs viewWillAppear
App/Tabs/Settings viewWillAppear
App viewIsAppearing
App/Profile viewIsAppearing
App/Panes viewIsAppearing
App/Tabs viewIsAppearing
App/Tabs/Settings viewIsAppearing
App/Flow viewDidDisappear
App viewDidAppear
App/Profile viewDidAppear
App/Panes viewDidAppear
App/Tabs viewDidAppear
App/Tabs/Settings viewDidAppear
App dismissed
App viewWillDisappear
App/Profile viewWillDisappear
App/Panes viewWillDisappear
App/Tabs viewWillDisappear
App/Tabs/Settings viewWillDisappear
App viewDidDisappear
App/Profile viewDidDisappear
App/Panes viewDidDisappear
App/Tabs viewDidDisappear
App/Tabs/Settings viewDidDisappear
App/Tabs/Settings viewDidTearDown
App/Tabs/Home viewDidTearDown
App/Tabs viewDidTearDown
App/Panes/Right viewDidTearDown
App/Panes/Left viewDidTearDown
App/Panes viewDidTearDown
App/Profile viewDidTearDown
App viewDidTearDown
App terminated
""".split("\n")[1:-1]

events = [json.loads(line) for line in sys.stdin if line.strip()]
actual = [f"{e['path']} {e['event']}" for e in events]
if actual != EXPECTED:
    import difflib
    print("\n".join(difflib.unified_diff(EXPECTED, actual, "expected", "actual", lineterm="")))
    sys.exit("event-stream-consumer --json: unexpected event sequence")
backwards = [(before, after) for before, after in zip(events, events[1:]) if after["t"] < before["t"]]
for before, after in backwards[:10]:
    print(f"{after['t']}s {after['path']} {after['event']} comes after {before['t']}s {before['path']} {before['event']}")
if backwards:
    sys.exit(f"event-stream-consumer --json: time goes backwards {len(backwards)} times")
if events[-1]["t"] <= 0:
    sys.exit("event-stream-consumer --json: the last event has no time of its own")
batches = {e["tx"] for e in events if e["event"] == "batchCommitted"}
for tx in batches:
    kinds = [e["event"] for e in events if e["tx"] == tx]
    assert kinds[-1] == "batchCommitted", kinds
print(f"event-stream-consumer --json: {len(events)} events in the expected order, time never going back")
