"""What ``import chesskit`` costs a kernel: time and memory, against a bare interpreter and
against ``import chess``; then the first real use (a board and an explained move).

Run: .venv/bin/python benchmarks/bench_import.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys

PROBE = """
import resource, time
t = time.perf_counter()
{code}
elapsed = time.perf_counter() - t
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
CASES = {
    "bare interpreter": "pass",
    "import chess": "import chess",
    "import chesskit": "import chesskit",
    "first use": ("import chesskit as ck\nck.board('start')\n"
                  "ck.explain_move('start', 'Bh6').message"),
}


def measure(code: str, runs: int = 7) -> tuple[float, float]:
    """Median seconds and median peak RSS (MB) of ``code`` in fresh interpreters."""
    times, peaks = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", PROBE.format(code=code)],
                             capture_output=True, text=True, check=True).stdout.split()
        times.append(float(out[0]))
        peaks.append(int(out[1]) / 1024)
    return statistics.median(times), statistics.median(peaks)


def main() -> None:
    base_time, base_peak = measure("pass")
    print(f"{'case':<18} {'seconds':>8} {'peak MB':>8} {'+MB vs bare':>12}")
    for name, code in CASES.items():
        seconds, peak = (base_time, base_peak) if code == "pass" else measure(code)
        print(f"{name:<18} {seconds:8.3f} {peak:8.1f} {peak - base_peak:12.1f}")
    print("targets: import chesskit adds under 60 MB and under 0.5 s")


if __name__ == "__main__":
    main()
