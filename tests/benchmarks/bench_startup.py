"""Cold start benchmark (PRODUCT.md §7): start to an idle main window with a large campaign
loaded, against a bare PySide6 QMainWindow started in the same run. Bar: at most 1.5x.
A script, not a test: ``python tests/benchmarks/bench_startup.py``.

Each measurement is a fresh process, from launch until the event loop first goes idle with the
window shown (``--quit-when-idle``). Runs alternate between the two so both see the same machine
state; medians of 7.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from figures import emit
from large_campaign import large_campaign_file

BAR = 1.5
RUNS = 7
BARE = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
w = QMainWindow()
w.resize(1400, 900)
w.show()
QTimer.singleShot(0, app.quit)
app.exec()
"""


def _time(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=120)
    return (time.perf_counter() - t0) * 1000


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        path = large_campaign_file(home)
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(home / "home")}
        app_cmd = [sys.executable, "-m", "d100gui", "--open", str(path), "--quit-when-idle"]
        bare_cmd = [sys.executable, "-c", BARE]
        _time(bare_cmd, env)  # warm the file cache for both
        _time(app_cmd, env)
        bare, app = [], []
        for _ in range(RUNS):
            bare.append(_time(bare_cmd, env))
            app.append(_time(app_cmd, env))
        size = path.stat().st_size
    b, a = statistics.median(bare), statistics.median(app)
    print(f"Cold start, median of {RUNS} runs (campaign file {size / 1e6:.1f} MB, 2,000 areas)")
    print(f"  bare QMainWindow  {b:7.0f} ms")
    print(f"  d100gui           {a:7.0f} ms   ratio {a / b:.2f} (bar {BAR})")
    ok = a / b <= BAR
    print("PASS" if ok else "FAIL")
    emit("startup", "bare QMainWindow, median", b, "ms", "")
    emit("startup", "d100gui with the large campaign, median", a, "ms", "")
    emit("startup", "cold start ratio", a / b, "x", f"<= {BAR}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
