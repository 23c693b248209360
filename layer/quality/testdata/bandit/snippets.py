# A corpus of Python snippets for the differential test against bandit:
# each line or block is one pattern, positive or negative.
import hashlib
import marshal
import os
import pickle
import subprocess

import requests
import yaml


def shells(cmd, user):
    subprocess.Popen(cmd, shell=True)
    subprocess.run("ls " + user, shell=True)
    subprocess.call(["ls", user], shell=False)
    subprocess.check_output(cmd, shell=True)
    subprocess.run(["git", "status"])
    os.system("rm -rf " + user)
    os.popen("cat " + user)
    os.system("ls")
    subprocess.getoutput(cmd)


def evals(expr, code, model):
    eval(expr)
    exec(code)
    model.eval()
    result = eval("1 + 2")
    ast_value = __import__("ast").literal_eval(expr)
    return result, ast_value


def loads(blob, stream):
    pickle.loads(blob)
    pickle.load(stream)
    marshal.loads(blob)
    yaml.load(stream)
    yaml.load(stream, Loader=yaml.SafeLoader)
    yaml.safe_load(stream)
    yaml.load(stream, yaml.FullLoader)


def tls(url, session):
    requests.get(url, verify=False)
    requests.post(url, data={}, verify=False)
    requests.get(url, verify=True)
    requests.get(url)


def hashes(data, password):
    hashlib.md5(data)
    hashlib.sha1(data).hexdigest()
    hashlib.sha256(data)
    hashlib.md5(password.encode()).hexdigest()
    hashlib.new("md5", data)


def secrets(user, password="changeme-Very-Secret1"):
    login(user, password="hunter2-Secret")
    connect(host="db", passwd="p4ssw0rd!")
    token = get_token()
    return token


def sql(cursor, name, table):
    cursor.execute("SELECT * FROM users WHERE name = '%s'" % name)
    cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")
    cursor.execute("SELECT * FROM users WHERE name = %s", (name,))
    cursor.execute(f"DELETE FROM {table} WHERE id = 1")
    cursor.execute("UPDATE users SET name = '{}'".format(name))
