#!/usr/bin/env python3
"""nagios_status.py - read what Nagios recorded for one service, and
compare it with what the plugin printed.

  nagios_status.py show STATUS_DAT HOST SERVICE
      the servicestatus block, trimmed to the fields the tests read
  nagios_status.py compare STATUS_DAT HOST SERVICE PLUGIN_STDOUT EXIT
      one line per finding; exit 0 when Nagios has the state EXIT, the
      status line, the long text and every perfdata item (label, value,
      unit, thresholds, min, max) of PLUGIN_STDOUT, else 1

Perfdata is split as the plugin API (and Nagios) does: after the first
"|" of the first line, and everything after the first "|" of a later
line. Each item must match the plugin guidelines' grammar; the items are
counted on the raw text too (every "'label'=" or "label="), so an item
that the grammar rejects cannot go unnoticed.
"""
import re
import sys

FIELDS = ("host_name", "service_description", "has_been_checked", "check_type", "current_state",
          "state_type", "last_check", "plugin_output", "long_plugin_output", "performance_data")
# 'label'=value[UOM];[warn];[crit];[min];[max] (Nagios plugin guidelines)
NUM = r"-?[0-9]+(?:\.[0-9]+)?"
RANGE = r"@?(?:~|" + NUM + r")?:?(?:" + NUM + r")?"
ITEM = re.compile(r"^('[^'=]+'|[^' =]+)=(" + NUM + r"|U)(s|ms|us|%|B|KB|MB|TB|c)?"
                  r"(?:;(" + RANGE + r")?(?:;(" + RANGE + r")?(?:;(" + NUM + r")?(?:;(" + NUM + r")?)?)?)?)?$")


def service(path, host, desc):
    block, cur = None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.strip() == "servicestatus {":
                cur = {}
            elif cur is not None and line.strip() == "}":
                if cur.get("host_name") == host and cur.get("service_description") == desc:
                    block = cur
                cur = None
            elif cur is not None and "=" in line:
                k, v = line.strip().split("=", 1)
                cur[k] = v
    return block


def split_plugin(text):
    """(status line, long text, perfdata) as the plugin API defines them."""
    lines = text.rstrip("\n").split("\n")
    first, _, perf = lines[0].partition("|")
    long_lines, in_perf = [], False
    for line in lines[1:]:
        if in_perf:
            perf += " " + line
        elif "|" in line:
            head, _, tail = line.partition("|")
            if head:
                long_lines.append(head)
            perf += " " + tail
            in_perf = True
        else:
            long_lines.append(line)
    return first.strip(), "\n".join(long_lines), perf


def items(perf):
    """The perfdata items: label=value... separated by spaces (labels may hold spaces in quotes)."""
    return re.findall(r"(?:'[^']*'|[^' =]+)=\S*", perf)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "show":
        b = service(*sys.argv[2:5])
        if not b:
            print("no servicestatus block for %s/%s" % (sys.argv[3], sys.argv[4]))
            return 1
        print("servicestatus {")
        for k in FIELDS:
            v = b.get(k, "")
            if len(v) > 160:
                v = v[:157] + "..."
            print("\t%s=%s" % (k, v))
        print("\t}")
        return 0
    if len(sys.argv) != 7 or sys.argv[1] != "compare":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, host, desc, out, want = sys.argv[2:7]
    b = service(path, host, desc)
    if not b:
        print("no servicestatus block for %s/%s in %s" % (host, desc, path))
        return 1
    with open(out, encoding="utf-8") as f:
        status, long_text, perf = split_plugin(f.read())
    bad = []
    if b.get("current_state") != want:
        bad.append("current_state=%s, the plugin exited %s" % (b.get("current_state"), want))
    # Nagios turns ';' into ':' in the status line (not in the long text or perfdata)
    if b.get("plugin_output") != status.replace(";", ":"):
        bad.append("plugin_output %r is not the status line %r" % (b.get("plugin_output"), status))
    # a "| perfdata" line after the long text ends it with an empty line in Nagios
    nag_long = b.get("long_plugin_output", "").replace("\\n", "\n").rstrip("\n")
    # a rank's pid (in mpiexec's banner about a killed rank) differs from run to run
    pid = re.compile(r"\bPID [0-9]+")
    if pid.sub("PID N", nag_long) != pid.sub("PID N", long_text):
        bad.append("long_plugin_output (%d lines) differs from the long text (%d lines): %r" %
                   (nag_long.count("\n") + bool(nag_long), long_text.count("\n") + bool(long_text), nag_long[:200]))
    mine, theirs = items(perf), items(b.get("performance_data", ""))
    raw = len(re.findall(r"(?:'[^']*'|[^' =]+)=", perf))
    wellformed = [i for i in theirs if ITEM.match(i)]
    if raw != len(mine):
        bad.append("the plugin printed %d perfdata labels, %d items" % (raw, len(mine)))
    if len(wellformed) != len(mine):
        bad.append("Nagios has %d well-formed perfdata items of the %d the plugin printed" % (len(wellformed), len(mine)))
        bad.extend("  malformed in Nagios: %s" % i for i in theirs if not ITEM.match(i))
    if theirs != mine:
        missing = [i for i in mine if i not in theirs]
        bad.append("perfdata differs: %d items in Nagios, %d printed; first missing: %s" %
                   (len(theirs), len(mine), missing[:3]))
    for line in bad:
        print(line)
    if not bad:
        print("state %s, %d perfdata items, %d long-text lines" % (want, len(mine), long_text.count("\n") + bool(long_text)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
