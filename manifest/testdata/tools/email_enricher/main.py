import sys

from lib.clearbit import lookup


def main() -> int:
    print(lookup(sys.argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
