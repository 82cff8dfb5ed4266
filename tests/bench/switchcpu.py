#!/usr/bin/python3
# switchcpu.py SECONDS MBps NS_SRC IP_DST NS_DST - kernel CPU per MB of one TCP
# stream through the emulated fabric (NS_SRC to NS_DST) against the sender's
# own loopback (RESULTS.md §15 set 6). Root, with tests/fabric/fabric.sh up:
#   python3 tests/bench/switchcpu.py 10 2.3 swsN00 10.77.0.5 swsN04
import os, socket, subprocess, sys, time
secs, rate, nsa, ipb, nsb = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
def stat():
    f = open('/proc/stat').readline().split()[1:]
    v = [int(x) for x in f]
    return {'user': v[0] + v[1], 'system': v[2], 'idle': v[3] + v[4], 'irq': v[5], 'softirq': v[6]}
def run(src_ns, dst_ns, ip):
    port = 45000 + int(time.time()) % 1000
    sink = subprocess.Popen(['ip', 'netns', 'exec', dst_ns, '/usr/bin/python3', '-c',
        'import socket;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(("0.0.0.0",%d));s.listen(1);c,_=s.accept()\nn=0\nwhile True:\n d=c.recv(1<<20)\n if not d: break\n n+=len(d)\nprint(n)' % port],
        stdout=subprocess.PIPE)
    time.sleep(0.5)
    src = subprocess.Popen(['ip', 'netns', 'exec', src_ns, '/usr/bin/python3', '-c',
        'import socket,time\ns=socket.create_connection(("%s",%d))\nb=bytes(65536)\nt0=time.time();n=0\nwhile time.time()-t0<%f:\n  s.sendall(b);n+=65536\n  d=t0+n/(%f*1e6)-time.time()\n  d>0 and time.sleep(d)\ns.close()' % (ip, port, secs, rate)])
    a = stat(); t = time.time(); src.wait(); out = sink.communicate()[0]; b = stat(); t = time.time() - t
    n = int(out or 0)
    d = {k: b[k] - a[k] for k in a}
    return n, t, d
for name, (s, dns, ip) in [('fabric', (nsa, nsb, ipb)), ('loopback', (nsa, nsa, '127.0.0.1'))]:
    n, t, d = run(s, dns, ip)
    mb = n / 1e6
    print('%-8s %.1f MB in %.1f s (%.2f MB/s): jiffies user %d system %d softirq %d irq %d; kernel (system+softirq) %.2f ms/MB, softirq %.2f ms/MB'
          % (name, mb, t, mb / t, d['user'], d['system'], d['softirq'], d['irq'], (d['system'] + d['softirq']) * 10 / mb, d['softirq'] * 10 / mb))
