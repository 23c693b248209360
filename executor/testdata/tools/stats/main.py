import json
import os
import sys

args = json.load(sys.stdin)
nums = args["numbers"]
if not nums:
    print("no numbers given", file=sys.stderr)
    sys.exit(3)
print(json.dumps({"sum": sum(nums), "mean": sum(nums) / len(nums), "cwd": os.path.basename(os.getcwd())}))
