"""python -m cards.dataformat FILE...: check card data files without touching a database."""

import sys
from pathlib import Path

from .loader import load_files


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m cards.dataformat FILE...", file=sys.stderr)
        return 2
    files, errors = load_files(Path(arg) for arg in argv)
    for error in errors:
        print(error, file=sys.stderr)
    for parsed in files:
        print(f"{parsed.path}: set {parsed.set_code!r}, {len(parsed.cards)} valid cards")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
