"""Where a test program's own lines are, for checking the lines the tool
names: the line after the caller's, or the one line of a file that holds a
text."""
import sys


def line_after():
    """The line after the caller's."""
    return sys._getframe(1).f_lineno + 1


def line_of(path, text):
    """The one line of the file at `path` that holds `text` (an edit of the
    file moves the check with it)."""
    with open(path, encoding="utf-8") as f:
        hits = [n for n, line in enumerate(f, 1) if text in line]
    if len(hits) != 1:
        raise SystemExit(f"{path}: {text!r} is on lines {hits}; allowed: "
                         "exactly one")
    return hits[0]
