#!/bin/sh
# launcher.sh - Hydra "ssh" launcher for the emulated fabric.
#
#   mpiexec -hosts swsN00,... -launcher ssh -launcher-exec tests/fabric/launcher.sh \
#           -iface swbrM ...
#
# Hydra calls it like ssh: [options] HOST COMMAND...  (options such as -x).
# It runs COMMAND (Hydra's proxy) inside network namespace HOST, in a private
# UTS namespace whose host name is HOST, so every rank sees its own host.
while [ $# -gt 0 ]; do
	case $1 in
	-[bcDEeFIiJLlmOoPpQRSWw]) shift 2 ;; # ssh options that take a value
	-*) shift ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "launcher.sh: usage: launcher.sh [ssh options] HOST COMMAND..." >&2; exit 255; }
host=$1; shift
case $host in
*[!A-Za-z0-9_.-]*) echo "launcher.sh: bad host name '$host'" >&2; exit 255 ;;
esac
ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$host" ||
	{ echo "launcher.sh: no namespace '$host' (is the fabric up?)" >&2; exit 255; }
# Hydra's command line is meant for a remote shell: it contains shell quoting.
exec ip netns exec "$host" unshare --uts sh -c "hostname $host; exec $*"
