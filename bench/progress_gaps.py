#!/usr/bin/python3
"""progress_gaps.py -- how long GDAL's terminal progress bar stands still.

usage: progress_gaps.py [-n RUNS] -- COMMAND ARGS...

Runs COMMAND (an `exactgeo ... -progress` run) RUNS times (default 1),
reads its output byte by byte as it comes (standard output, where GDAL's
terminal bar is printed, and standard error, merged) and stamps each step
of the bar (a digit group or a dot per 2.5 %: "0...10...20" ... "100 -
done.").  Prints, per run: the wall time, the time to the
first step, the longest gap between two printed steps and where it ended
(the bar's value there), the time from the last step to the exit; then
the median of the longest gaps.  Exit 1 when a run fails or its bar never
reaches 100.  A benchmark, not a test.
"""
import os
import statistics
import subprocess
import sys
import time


def one(cmd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    fd = p.stdout.fileno()
    steps = []          # (time, percent reached)
    pct, digits, text = 0.0, "", b""
    while True:
        b = os.read(fd, 1)
        if not b:
            break
        t = time.monotonic() - t0
        text += b
        c = b.decode("latin-1")
        if b"100 - done." in text[:-1]:
            continue     # the bar is over; the rest is the summary
        if c.isdigit():
            digits += c
            continue
        if digits:       # "10", "20", ... ended: that step was printed
            pct = float(digits)
            steps.append((t, pct))
            digits = ""
        if c == ".":
            pct += 2.5
            steps.append((t, pct))
    rc = p.wait()
    t1 = time.monotonic() - t0
    done = b"100 - done." in text
    if not steps:
        return rc, t1, None, None, None, None, done, text
    gap, at = 0.0, 0.0
    for (ta, _), (tb, pb) in zip(steps, steps[1:]):
        if tb - ta > gap:
            gap, at = tb - ta, pb
    return rc, t1, steps[0][0], gap, at, t1 - steps[-1][0], done, text


def main():
    a = sys.argv[1:]
    runs = 1
    if a[:1] == ["-n"]:
        runs, a = int(a[1]), a[2:]
    if a[:1] == ["--"]:
        a = a[1:]
    gaps, bad = [], 0
    for r in range(runs):
        rc, wall, first, gap, at, tail, done, text = one(a)
        if rc or not done:
            bad = 1
            sys.stdout.write("run %d: exit %d, done %s: %s\n"
                             % (r + 1, rc, done, text[-300:].decode("latin-1")))
            continue
        gaps.append(gap)
        print("run %d: wall %.2f s, first step %.2f s, longest gap %.2f s "
              "(ending at %.1f %%), last step to exit %.2f s"
              % (r + 1, wall, first, gap, at, tail))
    if gaps:
        print("median longest gap: %.2f s over %d runs"
              % (statistics.median(gaps), len(gaps)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
