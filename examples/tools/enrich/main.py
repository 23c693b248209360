import json
import sys

print(json.dumps({"email": sys.argv[1], "company": sys.argv[1].split("@")[-1]}))
