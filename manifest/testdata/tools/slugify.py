#!/usr/bin/env python3
"""
tool_id: slugify
tool_type: script
version: 1.0.0
description: Turn a title into a URL slug
executor: python_runtime
parameters:
  - name: title
    type: string
    required: true
    description: The title to turn into a slug
"""
import re
import sys

__tool_category__ = "text"


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


if __name__ == "__main__":
    print(slugify(sys.argv[1]))
