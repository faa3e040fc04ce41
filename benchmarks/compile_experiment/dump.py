"""Dump every sweep case's audit result and every scan case's mentions (full repr), for a
pure-vs-compiled identity diff. RK_ROOT = tree to import rulekit from; tests from the worktree."""
import sys, os, json, dataclasses, warnings
root = os.environ["RK_ROOT"]
sys.path.insert(0, root)
TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests")
sys.path.insert(1, TESTS)
OUT = os.path.abspath(sys.argv[1])
os.chdir(TESTS)
import rulekit.scan.figures as F
print("figures from", F.__file__, file=sys.stderr)
import test_sweep_cases as T
from rulekit.scan import scan
out = open(OUT, "w")
n = 0
for case in T.load_cases():
    try:
        r = T.run(case)
        rec = json.dumps(r.to_dict(), sort_keys=True, default=str)
    except Exception as exc:
        rec = "EXC " + type(exc).__name__ + ": " + str(exc)[:200]
    out.write(case.id if hasattr(case, "id") else repr(case)[:80]); out.write("\t" + rec + "\n"); n += 1
    # the scan of the same text in its locale, full mentions with context words
    try:
        ms = scan(case.text, case.locale or "en_US")
        out.write("  scan\t" + repr([(dataclasses.astuple(m), m.before, m.after) for m in ms]) + "\n")
    except Exception as exc:
        out.write("  scan\tEXC " + type(exc).__name__ + "\n")
print(n, "cases", file=sys.stderr)
