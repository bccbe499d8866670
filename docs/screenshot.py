"""Screenshot the built documentation's main pages in headless Chromium (a release check).

Not part of the tests or CI: run it by hand before a release, then look at the pictures
(the layout at 1280 px, nothing cut off, light and dark mode)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
    python docs/screenshot.py                      # -> docs/_build/screenshots/*.png
    python docs/screenshot.py --width 1280 --dark getting_started api

It serves ``docs/_build/html`` on a local port (http.server, in a thread), and runs
``chromium --headless --screenshot`` on each page. It needs a Chromium or Chrome binary:
``apt-get install chromium`` (Debian), or pass ``--browser /path/to/chrome``. The
screenshots are for looking at, not for committing (``docs/_build`` is ignored).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGES = ["index", "getting_started", "bootstrap", "gallery", "api",
         "generated/pandas.DataFrame.paired.bootstrap", "friedman", "changelog",
         "notebooks/02_ir_evaluation"]  # fmt: skip
BROWSERS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]


def find_browser(given: str | None) -> str:
    for name in [given] if given else BROWSERS:
        found = shutil.which(name) if name else None
        if found:
            return found
    sys.exit("no Chromium found: apt-get install chromium, or pass --browser PATH")


def serve(root: Path) -> http.server.ThreadingHTTPServer:
    """Serve ``root`` on 127.0.0.1 at a free port, in a daemon thread."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def screenshot(browser: str, url: str, path: Path, width: int, height: int, dark: bool):
    with tempfile.TemporaryDirectory() as profile:  # a fresh profile: no saved theme mode
        command = [
            browser, "--headless=new", "--no-sandbox", "--disable-gpu",
            "--hide-scrollbars", f"--user-data-dir={profile}",
            f"--window-size={width},{height}", "--virtual-time-budget=5000",
            f"--screenshot={path}", url,
        ]  # fmt: skip
        if dark:  # the theme follows the system's colour scheme in its "auto" mode
            command.insert(1, "--force-dark-mode")
            command.insert(1, "--blink-settings=preferredColorScheme=0")
        subprocess.run(command, check=True, capture_output=True, timeout=120)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "pages",
        nargs="*",
        default=PAGES,
        help="pages to shoot, without .html (default: the main pages)",
    )
    parser.add_argument("--html", type=Path, default=HERE / "_build" / "html")
    parser.add_argument("--out", type=Path, default=HERE / "_build" / "screenshots")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=2000)
    parser.add_argument("--dark", action="store_true", help="also shoot each page in dark mode")
    parser.add_argument("--browser", help="a Chromium or Chrome binary")
    args = parser.parse_args(argv)

    if not (args.html / "index.html").is_file():
        sys.exit(f"{args.html} has no index.html: build the docs first (see --help)")
    browser = find_browser(args.browser)
    args.out.mkdir(parents=True, exist_ok=True)
    server = serve(args.html)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for page in args.pages:
            modes = [False, True] if args.dark else [False]
            for dark in modes:
                name = page.replace("/", "_") + ("-dark" if dark else "") + ".png"
                path = args.out / name
                screenshot(browser, f"{base}/{page}.html", path, args.width, args.height, dark)
                print(path)
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
