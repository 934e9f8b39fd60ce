"""Standalone entry for installed hook commands: `python -I -S .../wikimem/hookentry.py <client>`.

`-I -S` skips `site` and the user's environment, saving about a quarter of the interpreter's
start-up on every agent event; the package's parent directory is put on sys.path by
hand because `-I` leaves it off. Only the standard library is importable from here, which is the
point.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

if __name__ == "__main__":
    try:
        from wikimem.capture.hook import main

        main(sys.argv[1:])
    except BaseException:  # main() fails open itself; this is the last line of defence
        pass
    # Leave without the interpreter's shutdown: it can only print (a warning about an object
    # the deadline's alarm left half made, say) and cost time. Everything was written with
    # os.write or flushed already.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    os._exit(0)
