"""Time radon's cyclomatic complexity (what `radon cc` computes) on files,
in process, so that Python's start-up is not counted.

Usage: python3 bench/radon-cc.py SECONDS FILE...
Prints "FILE NS_PER_RUN" per file: the mean time of radon.complexity.cc_visit
over the file's source, run repeatedly for about SECONDS seconds.
"""
import sys
import time

from radon.complexity import cc_visit


def main():
    secs = float(sys.argv[1])
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        cc_visit(src)  # warm up
        runs, start = 0, time.perf_counter()
        while True:
            cc_visit(src)
            runs += 1
            elapsed = time.perf_counter() - start
            if elapsed >= secs:
                break
        print(path, int(elapsed / runs * 1e9))


if __name__ == "__main__":
    main()
