"""Reads drill.sh's RESULT lines (one per run) on stdin; prints min / median / max of each
figure over the runs, and the runs' other fields as they are."""

import statistics
import sys

runs = []
for line in sys.stdin:
    if line.startswith("RESULT "):
        runs.append(dict(field.split("=", 1) for field in line.split()[1:]))
if not runs:
    sys.exit("no RESULT line")
print(f"{len(runs)} runs")
for key in runs[0]:
    values = [run.get(key) for run in runs]
    try:
        numbers = sorted(float(value) for value in values)
    except (TypeError, ValueError):
        print(f"  {key}: {' '.join(str(value) for value in values)}")
        continue
    print(
        f"  {key}: min {numbers[0]:g}  median {statistics.median(numbers):g}  max {numbers[-1]:g}"
        f"  (runs: {' '.join(str(value) for value in values)})"
    )
