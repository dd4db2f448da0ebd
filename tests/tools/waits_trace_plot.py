#!/usr/bin/env python3
"""Draws an addscope waits trace (ADDSCOPE_WAITS_TRACE, Chrome trace-event
JSON) as a picture with gnuplot: one row per host thread and per device
stream, host calls and kernels as boxes (waiting calls red, kernels blue,
the device's idle gaps orange, the rest grey), and an arrow from each kernel
(or idle gap) to the call that waited for it (or was blamed for it).

  python3 tests/tools/waits_trace_plot.py TRACE.json OUT.png [--from S --to S]

Needs python3 and gnuplot (pngcairo); standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def read_trace(path):
    """The Trace Event Format's array form, whose closing ']' may be
    missing (a program killed before the tool could close it: the tool
    writes whole events, one per line, but a write cut by SIGKILL can end
    in the middle of the last one: that line is dropped)."""
    with open(path) as f:
        text = f.read().rstrip()
    if text.endswith("]"):
        return json.loads(text)
    try:
        return json.loads(text.rstrip(",") + "\n]")
    except ValueError:
        head = text[:text.rfind("\n")].rstrip().rstrip(",")
        return json.loads(head + "\n]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("png")
    ap.add_argument("--from", dest="t0", type=float, default=None,
                    help="start of the window, seconds on the trace clock")
    ap.add_argument("--to", dest="t1", type=float, default=None)
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    try:
        ev = read_trace(a.trace)
    except (OSError, ValueError) as e:
        sys.exit(f"waits_trace_plot: cannot read trace {a.trace}: {e}")

    names = {}  # (pid, tid) -> track name
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e.get("tid", 0))] = e["args"]["name"]
    slices = [e for e in ev if e.get("ph") == "X"]
    flows = {}
    for e in ev:
        if e.get("ph") in ("s", "f"):
            flows.setdefault(e["id"], {})[e["ph"]] = e
    if not slices:
        sys.exit("waits_trace_plot: the trace has no slices")
    t0 = a.t0 * 1e6 if a.t0 is not None else min(e["ts"] for e in slices)
    t1 = a.t1 * 1e6 if a.t1 is not None else max(e["ts"] + e["dur"] for e in slices)
    scale = 1e-3  # plot in ms

    tracks = sorted({(e["pid"], e.get("tid", 0)) for e in slices})
    row = {t: i for i, t in enumerate(reversed(tracks))}
    waited = set()
    for f in flows.values():
        if "f" in f:
            waited.add((f["f"]["pid"], f["f"].get("tid", 0), f["f"]["ts"]))

    # Nesting depth of each slice on its track (calls inside calls).
    depth = {}
    for key in tracks:
        stack = []
        for e in sorted((e for e in slices if (e["pid"], e.get("tid", 0)) == key),
                        key=lambda e: (e["ts"], -e["dur"])):
            while stack and stack[-1]["ts"] + stack[-1]["dur"] < e["ts"]:
                stack.pop()
            depth[id(e)] = len(stack)
            stack.append(e)

    # The call that waited: the innermost slice holding a flow's end (its
    # region around it did not wait).
    innermost = set()
    for (pid, tid, ts) in waited:
        best = None
        for e in slices:
            if (e["pid"], e.get("tid", 0)) == (pid, tid) and e["ts"] <= ts <= e["ts"] + e["dur"]:
                if best is None or depth.get(id(e), 0) > depth.get(id(best), 0):
                    best = e
        if best is not None:
            innermost.add(id(best))

    tmp = tempfile.mkdtemp(prefix="waits_plot_")
    boxes = {"wait": [], "kernel": [], "call": [], "idle": []}
    labels = []
    for e in sorted(slices, key=lambda e: depth.get(id(e), 0)):
        b, d = e["ts"], e["dur"]
        if b + d < t0 or b > t1:
            continue
        key = (e["pid"], e.get("tid", 0))
        y = row[key]
        if e["pid"] >= 100 and e["name"].startswith("idle:"):
            kind = "idle"
        elif e["pid"] >= 100:
            kind = "kernel"
        elif e.get("args", {}).get("wait_us") or id(e) in innermost:
            kind = "wait"
        else:
            kind = "call"
        x0 = (max(b, t0) - t0) * scale
        x1 = (min(b + d, t1) - t0) * scale
        dep = depth.get(id(e), 0)
        h = max(0.08, 0.35 - 0.12 * dep)
        boxes[kind].append(f"{x0} {x1} {y - h} {y + h}")
        if dep == 0 and (x1 - x0) > 0.06 * (t1 - t0) * scale:
            text = e["name"] if len(e["name"]) < 48 else e["name"][:45] + "..."
            labels.append((0.5 * (x0 + x1), y + h + 0.12, text))
    arrows = []
    for f in flows.values():
        if "s" not in f or "f" not in f:
            continue
        s, g = f["s"], f["f"]
        if not (t0 <= s["ts"] <= t1 or t0 <= g["ts"] <= t1):
            continue
        arrows.append(((s["ts"] - t0) * scale, row[(s["pid"], s.get("tid", 0))],
                       (g["ts"] - t0) * scale, row[(g["pid"], g.get("tid", 0))]))
    for kind, lines in boxes.items():
        with open(os.path.join(tmp, kind + ".dat"), "w") as f:
            f.write("\n".join(lines) + ("\n" if lines else ""))

    ytics = ", ".join(f'"{names.get(t, t)}" {row[t]}' for t in tracks)
    gp = [
        "set terminal pngcairo size 1400,%d font 'DejaVu Sans,11'" % (160 + 70 * len(tracks)),
        f"set output '{a.png}'",
        f"set title '{a.title or os.path.basename(a.trace)}' noenhanced",
        "set xlabel 'ms'",
        f"set xrange [0:{1.02 * (t1 - t0) * scale}]",
        f"set yrange [-0.8:{len(tracks) - 0.2}]",
        f"set ytics ({ytics}) noenhanced",
        "set grid xtics",
        "set key outside top center horizontal maxcols 4 width -2",
        "set style fill solid 0.85 border -1",
    ]
    for i, (x, y, t) in enumerate(labels):
        t = t.replace("'", "")
        gp.append(f"set label {i + 1} '{t}' at {x},{y} center font ',9' noenhanced")
    for i, (x0, y0, x1, y1) in enumerate(arrows):
        gp.append(f"set arrow {i + 1} from {x0},{y0} to {x1},{y1} "
                  "head filled lw 2 lc rgb '#d62728' front")
    plots = []
    style = {"call": ("#b0b0b0", "host call"), "kernel": ("#1f77b4", "kernel (device time)"),
             "wait": ("#d62728", "call that waited"),
             "idle": ("#ffbf66", "device idle (its cause above)")}
    for kind in ("call", "wait", "kernel", "idle"):
        path = os.path.join(tmp, kind + ".dat")
        if os.path.getsize(path):
            c, t = style[kind]
            plots.append(f"'{path}' using 1:3:1:2:3:4 with boxxyerror lc rgb '{c}' title '{t}'")
    gp.append("plot " + ", ".join(plots))
    script = os.path.join(tmp, "plot.gp")
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
    r = subprocess.run(["gnuplot", script], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"waits_trace_plot: gnuplot failed:\n{r.stderr}")
    print(f"waits_trace_plot: wrote {a.png} ({len(tracks)} tracks, "
          f"{sum(len(v) for v in boxes.values())} boxes, {len(arrows)} arrows)")


if __name__ == "__main__":
    main()
