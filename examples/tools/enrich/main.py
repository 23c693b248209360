import sys

print({"email": sys.argv[1], "company": sys.argv[1].split("@")[-1]})
