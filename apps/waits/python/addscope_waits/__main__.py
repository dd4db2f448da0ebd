"""python -m addscope_waits [addscope-waits options] [--] SCRIPT.py [ARGS]

Runs SCRIPT.py with this Python under the waits tool: the options are the
launcher's (addscope-waits --help); the script starts at '--', else at the
first argument that ends in .py. After '--', '-m MODULE' or '-c CODE' also
work.
"""
import sys

from . import LAUNCHER, _exec

USAGE = ("usage: python -m addscope_waits [addscope-waits options] [--] "
         "SCRIPT.py [ARGS]")


def split(argv):
    """(launcher options, the Python command line) of argv."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    for i, a in enumerate(argv):
        if not a.startswith("-") and a.endswith(".py"):
            return argv[:i], argv[i:]
    return argv, []


def run(argv):
    options, script = split(argv)
    if not script:
        if any(o in ("-h", "--help", "--version") for o in options):
            if "--version" not in options:
                print(USAGE + "\n\nThe options (of addscope-waits):", flush=True)
            return _exec(LAUNCHER, options)
        sys.stderr.write("python -m addscope_waits: no script given (no '--' "
                         "and no argument ending in .py); " + USAGE + "\n")
        return 2
    return _exec(LAUNCHER, options + ["--", sys.executable] + script)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
