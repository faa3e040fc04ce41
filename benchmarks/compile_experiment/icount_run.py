import sys, os
root = os.environ["RK_ROOT"]
sys.path.insert(0, os.path.join(root, "benchmarks")); sys.path.insert(0, root)
from bench_audit import _evidence, _answer
from rulekit.audit import audit
from rulekit.sweep import SweepSettings
chars, posts, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ev = _evidence(posts); text = _answer(ev, chars)
index = SweepSettings().index(ev, "en_US")
for _ in range(20): audit(text, index)
for _ in range(n): audit(text, index)
