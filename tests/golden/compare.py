"""Compare recorded golden values with the numbers the calls give now, before re-recording.

``python tests/golden/compare.py [REV]`` reads ``values.json`` as recorded at the git
revision ``REV`` (the working tree's file without it) and prints how many columns changed
and the largest relative change of a number (relative to the number, or for numbers near 0
to 1e-12 times the largest magnitude of its column); a change of anything that is not a
number, or a relative change above 1e-12, is listed as a problem and the exit status is 1.
A change of summation order moves numbers by about 1e-15; a change of a rule or a stream
moves them far more, and is a decision to name in the changelog.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from calls import VALUES, compute

TOLERANCE = 1e-12


def _leaves(a, b):
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            yield from _leaves(x, y)
    else:
        yield a, b


def _number(x) -> float | None:
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def compare(old: dict, new: dict) -> tuple[int, float, list]:
    changed, worst, problems = 0, 0.0, []
    for name, columns in old.items():
        for column, was in columns.items():
            now = new.get(name, {}).get(column)
            if was == now:
                continue
            changed += 1
            leaves = list(_leaves(was, now))
            sizes = [abs(v) for v in map(_number, (a for a, _ in leaves))
                     if v is not None and math.isfinite(v)]  # fmt: skip
            scale = max(sizes, default=1.0)
            for a, b in leaves:
                fa, fb = _number(a), _number(b)
                if a == b or (fa is not None and fb is not None and fa == fb):
                    continue
                if fa is None or fb is None or not (math.isfinite(fa) and math.isfinite(fb)):
                    problems.append((name, column, a, b))
                    continue
                rel = abs(fa - fb) / max(abs(fa), TOLERANCE * scale, 1e-300)
                worst = max(worst, rel)
                if rel > TOLERANCE:
                    problems.append((name, column, a, b, rel))
    return changed, worst, problems


def main(argv: list[str]) -> int:
    if argv:
        path = VALUES.relative_to(Path.cwd()) if VALUES.is_relative_to(Path.cwd()) else VALUES
        text = subprocess.run(["git", "show", f"{argv[0]}:{path.as_posix()}"], check=True,
                              capture_output=True, text=True).stdout  # fmt: skip
    else:
        text = VALUES.read_text()
    changed, worst, problems = compare(json.loads(text), json.loads(json.dumps(compute())))
    print(f"columns changed: {changed}; largest relative change of a number: {worst:.3g}")
    for problem in problems:
        print("problem:", *problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
