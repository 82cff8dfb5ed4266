#!/usr/bin/env python3
"""commands.py README BIN - every swstress command in the README's code
blocks (indented lines) parses: its command is one of `BIN help
--list=commands` and each --option one of `BIN help --list=options CMD`
(issue #27: the README's commands run). Prints one line per problem,
exit 1 when there is one."""
import re
import shlex
import subprocess
import sys

readme, binary = sys.argv[1], sys.argv[2]


def listing(*what):
    out = subprocess.run([binary, "help"] + list(what), capture_output=True, text=True).stdout
    return set(w.split()[0] for w in out.split() if w) if what[0] == "--list=commands" else \
        set(line.split()[0] for line in out.splitlines() if line.strip())


commands = listing("--list=commands")
bad, n = [], 0
for lineno, line in enumerate(open(readme), 1):
    if not re.match(r"(    |\t)", line):
        continue
    code = line.split("#", 1)[0].strip()
    try:
        words = shlex.split(code.replace("…", "x"))
    except ValueError:
        continue
    # swstress first, or launched by mpiexec (not "createdb -O swstress")
    at = [i for i, w in enumerate(words) if re.search(r"(^|/)swstress$", w)
          and (i == 0 or words[0] in ("mpiexec", "mpirun", "srun"))]
    if not at or at[0] + 1 >= len(words):
        continue
    n += 1
    cmd = words[at[0] + 1]
    if cmd not in commands:
        bad.append("%s:%d: swstress %s: no such command" % (readme, lineno, cmd))
        continue
    opts = listing("--list=options", cmd)
    for w in words[at[0] + 2:]:
        if w == "--":
            break
        if w.startswith("--") and w.split("=", 1)[0] not in opts:
            bad.append("%s:%d: swstress %s %s: no such option" % (readme, lineno, cmd, w.split("=", 1)[0]))
if n == 0:
    bad.append("%s: no swstress command in a code block" % readme)
for b in bad:
    print(b)
print("%d commands" % n, file=sys.stderr)
sys.exit(1 if bad else 0)
