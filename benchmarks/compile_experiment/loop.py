"""Reproduce bench_audit's two 'evidence built once' rows; print audits/s (best of 5)."""
import sys, os, time
root = os.environ.get("RK_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(root, "benchmarks"))
if os.environ.get("RK_NOPATH") != "1":
    sys.path.insert(0, root)
from bench_audit import _evidence, _answer
import rulekit.scan.figures as F
from rulekit.audit import audit
from rulekit.sweep import SweepSettings

def best(action, windows=5, seconds=0.4):
    best_rate = 0.0
    for _ in range(windows):
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(20):
                action()
            count += 20
        best_rate = max(best_rate, count / (time.perf_counter() - start))
    return best_rate

print("figures from", F.__file__)
settings = SweepSettings()
for chars, posts in ((300, 5), (1500, 45)):
    ev = _evidence(posts)
    text = _answer(ev, chars)
    index = settings.index(ev, "en_US")
    assert audit(text, index).decision.decision == "answer"
    print(f"{len(text)} chars / {posts} posts: {best(lambda: audit(text, index)):,.0f} audits/s")
