#!/usr/bin/env python3
"""run.sh's e2e runs (one JSON line a run) as a table: per case, engine
and variant (new: with the self-crossing check; chk: --solids-checked;
base: 2c57d1c), the medians of the wall (the whole process) and of
--stats' stages; the check's cost (new - chk) against the wall, and new
against the base.  Every run's exit status and records checked alike."""
import json
import statistics
import sys

runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
med = statistics.median
bad = [r for r in runs if r["rc"] != 0 or not r["stats"]]
for r in bad:
    print("FAILED: case %s engine %s %s round %d: rc %d"
          % (r["case"], r["engine"], r["variant"], r["round"], r["rc"]))
runs = [r for r in runs if r not in bad]
if not runs:
    sys.exit("no run")
names = {"new": "new (check)", "chk": "new --solids-checked",
         "base": "base 2c57d1c"}
cases = sorted({r["case"] for r in runs})
engines = [e for e in ("cpu", "gpu") if any(r["engine"] == e for r in runs)]
print("medians of %d rounds, seconds; compute = prepare + upload + "
      "intersect + download + exact + unique (--stats)"
      % max(r["round"] for r in runs))
for c in cases:
    one = [r for r in runs if r["case"] == c][0]["stats"]
    print("\ncase (%s): %d points, %d triangles, %d records"
          % (c, one["points"], one["triangles"], one["contacts"]["total"]))
    print("%-6s %-22s %7s %7s %7s %7s %7s %7s  %s" % (
        "engine", "variant", "wall", "read", "compute", "write", "close",
        "prepare", "walls of the rounds"))
    for e in engines:
        m = {}
        for v in ("new", "chk", "base"):
            rs = sorted((r for r in runs if r["case"] == c and
                         r["engine"] == e and r["variant"] == v),
                        key=lambda r: r["round"])
            if not rs:
                continue
            s = [r["stats"]["seconds"] for r in rs]
            comp = [x["prepare"] + x["upload"] + x["intersect"] +
                    x["download"] + x["exact"] + x["unique"] for x in s]
            m[v] = dict(wall=med(r["wall"] for r in rs),
                        read=med(x["read"] for x in s), compute=med(comp),
                        write=med(x["write"] for x in s),
                        close=med(x["close"] for x in s),
                        prepare=med(x["prepare"] for x in s),
                        hash={r["hash"] for r in rs if r["hash"]},
                        recs={json.dumps(r["stats"]["contacts"]) for r in rs},
                        eng={r["stats"]["engine"] for r in rs})
            print("%-6s %-22s %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f  %s%s" % (
                e, names[v], m[v]["wall"], m[v]["read"], m[v]["compute"],
                m[v]["write"], m[v]["close"], m[v]["prepare"],
                " ".join("%.3f" % r["wall"] for r in rs),
                "" if m[v]["eng"] == {e} else "  ENGINE %s" % m[v]["eng"]))
        if "new" in m and "chk" in m:
            n, k = m["new"], m["chk"]
            line = ("%-6s the check: read %+.3f s, compute %+.3f s (%+.1f%%), "
                    "wall %+.3f s (%+.1f%% of the wall without it)" % (
                        e, n["read"] - k["read"], n["compute"] - k["compute"],
                        100 * (n["compute"] - k["compute"]) / k["compute"],
                        n["wall"] - k["wall"],
                        100 * (n["wall"] - k["wall"]) / k["wall"]))
            if "base" in m:
                b = m["base"]
                line += ("; new / base: wall %.3f, compute %.3f"
                         % (n["wall"] / b["wall"], n["compute"] / b["compute"]))
            print(line)
        hs = set().union(*(x["hash"] for x in m.values()))
        rc = set().union(*(x["recs"] for x in m.values()))
        print("%-6s records: %s" % (
            e, "identical in every variant (%s)" % ",".join(sorted(hs))
            if len(hs) == 1 and len(rc) == 1 else
            "DIFFERENT: hashes %s, counts %s" % (sorted(hs), sorted(rc))))
    allh = {r["hash"] for r in runs if r["case"] == c and r["hash"]}
    print("both engines: %s" % ("the same records" if len(allh) == 1
                                else "DIFFERENT hashes %s" % sorted(allh)))
