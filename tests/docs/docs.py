#!/usr/bin/env python3
"""docs.py ROOT HELPFILE - what the documentation promises, checked against
the tree at ROOT: every relative link and image of every *.md file resolves
(the file, and the #anchor to one of its headings as GitHub makes them);
every config key of src/config.c's table is in configs/README.md; every
command of `swstress --help` (its text in HELPFILE) has a row in the
README's command table; the README stays a first page (at most 400 lines).
Prints one line per problem, exit 1 when there is one."""
import os
import re
import sys

README_MAX = 400
root, helpfile = sys.argv[1], sys.argv[2]
bad = []


def md_files():
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("build", "corpus", "seeds")]
        out += [os.path.join(d, f) for f in files if f.endswith(".md")]
    return sorted(out)


def prose(text):
    """The text without fenced or indented code and inline code spans."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    text = re.sub(r"^(    |\t).*$", "", text, flags=re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path):
    seen, out = {}, set()
    for h in re.findall(r"^#+\s+(.*?)\s*#*\s*$", prose(open(path).read()), re.M):
        slug = re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else "%s-%d" % (slug, n))
    # headings with code in them keep the code's text
    for h in re.findall(r"^#+\s+(.*?)\s*$", open(path).read(), re.M):
        out.add(re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-"))
    return out


for f in md_files():
    rel = os.path.relpath(f, root)
    text = prose(open(f).read())
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r"<img [^>]*src=\"([^\"]+)\"", text)
    for t in targets:
        if re.match(r"[a-z]+:", t):
            continue
        path, _, frag = t.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.realpath(dest).startswith(os.path.realpath(root) + os.sep):
            bad.append("%s: link %s: outside the repository" % (rel, t))
        elif not os.path.exists(dest):
            bad.append("%s: link %s: no such file" % (rel, t))
        elif frag and dest.endswith(".md") and frag not in anchors(dest):
            bad.append("%s: link %s: no heading #%s in %s" % (rel, t, frag, os.path.relpath(dest, root)))

keys = re.findall(r'^\s*\{ "([a-z_0-9]+)", "[a-z]+", &T_', open(os.path.join(root, "src/config.c")).read(), re.M)
if not keys:
    bad.append("src/config.c: no config key table found")
conf = open(os.path.join(root, "configs/README.md")).read()
for k in keys:
    if not re.search(r"(^%s\s|`%s[ =`])" % (k, k), conf, re.M):
        bad.append("configs/README.md: config key %s is not documented" % k)

helptext = open(helpfile).read()
block = re.search(r"^commands:\n((?:  \S.*\n)+)", helptext, re.M)
commands = re.findall(r"^  (\S+)", block.group(1), re.M) if block else []
if not commands:
    bad.append("%s: no commands: list in --help" % helpfile)
readme = open(os.path.join(root, "README.md")).read()
for c in commands:
    if not re.search(r"^\| `%s[ `]" % re.escape(c), readme, re.M):
        bad.append("README.md: command %s of --help has no row in the command table" % c)
first = next((x for x in readme.splitlines() if x.strip()), "")
if not first.startswith("# "):
    bad.append("README.md: starts with %r, not its title (a '# ' heading)" % first.strip()[:40])
# the developer's promise: the README's first lines give the two commands
top = readme.splitlines()[:8]
for c in ("make run", "make test"):
    if not any(x.strip().startswith(c + " ") for x in top):
        bad.append("README.md: '%s' is not in its first 8 lines (under the title)" % c)
n = readme.count("\n")
if n > README_MAX:
    bad.append("README.md: %d lines, more than %d (move the detail next to what it describes)" % (n, README_MAX))

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
