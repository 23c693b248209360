"""Count the words of standard input."""
import sys

__tool_id__ = "word_count"
__tool_type__ = "script"
__version__ = "1.1.0"
__executor_id__ = "python_runtime"
__description__ = "Count the words of standard input"

print(len(sys.stdin.read().split()))
