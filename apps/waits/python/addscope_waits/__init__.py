"""addscope-waits from pip: the launcher and libaddscope_waits.so, built by
CMake when the package was installed, live in this package's bin/ and lib/.

  addscope-waits [options] -- PROGRAM [ARGS]        any program
  python -m addscope_waits [options] SCRIPT.py [ARGS]   a Python script
"""
import os
import site
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCHER = os.path.join(HERE, "bin", "addscope-waits")
PLOTTER = os.path.join(HERE, "bin", "addscope-waits-plot")


def _site_packages():
    """This Python's site-packages folders: where pip puts CUPTI
    (nvidia/cuda_cupti/lib, nvidia/cu13/lib, torch/lib). The tool looks
    there too (ADDSCOPE_PYTHON_SITE_PACKAGES), after the folders of what the
    program loaded."""
    folders = []
    try:
        folders += site.getsitepackages()
    except AttributeError:  # an old virtualenv's site module
        pass
    try:
        folders.append(site.getusersitepackages())
    except AttributeError:
        pass
    return [f for f in folders if os.path.isdir(f)]


def _exec(path, args):
    if not os.access(path, os.X_OK):
        sys.stderr.write(f"addscope-waits: '{path}' is missing or not executable: "
                         "this install is broken; reinstall with 'pip install .'\n")
        return 1
    own = os.pathsep.join(_site_packages())
    given = os.environ.get("ADDSCOPE_PYTHON_SITE_PACKAGES")
    if own:
        os.environ["ADDSCOPE_PYTHON_SITE_PACKAGES"] = (
            given + os.pathsep + own if given else own)
    os.execv(path, [path] + args)
    return 1  # not reached


def main():
    """The console script addscope-waits: the launcher itself."""
    return _exec(LAUNCHER, sys.argv[1:])


def plot():
    """The console script addscope-waits-plot: the trace plotter."""
    return _exec(PLOTTER, sys.argv[1:])
