#!/usr/bin/env python3
"""Peak memory of large transfers (issue 10's ceilings), measured with wait4's rusage.

Usage: bench-memory.py BIN [SIZE_MIB]   (default 1024)

nginx on loopback serves a SIZE_MIB file and swallows uploads. Each row is one run of the
release binary; curl's own figure for the same download is the reference. Not a test: a
benchmark, run by `make bench`.
"""
import os, shutil, subprocess, sys, tempfile, time

CEILING_MIB = 30
binary = os.path.abspath(sys.argv[1])
size_mib = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
port = 18291
work = tempfile.mkdtemp(prefix="moya-bench-memory-")
os.chmod(work, 0o755)  # nginx's workers run as another user
www = os.path.join(work, "www")
os.makedirs(www)
big = os.path.join(www, "big.bin")
with open(big, "wb") as f:
    f.truncate(size_mib << 20)
for i in range(16):
    with open(os.path.join(www, f"part{i}.bin"), "wb") as f:
        f.truncate(128 << 20)

conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as f:
    f.write(f"""worker_processes 1; daemon on; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 1024; }}
http {{ access_log off; client_body_temp_path {work}/body;
  server {{ listen 127.0.0.1:{port}; root {www}; default_type application/octet-stream;
    location /upload {{ client_max_body_size 0; return 200 "ok"; }} }} }}
""")
nginx = shutil.which("nginx") or "/usr/sbin/nginx"
subprocess.run([nginx, "-c", conf], check=True)

targets = os.path.join(work, "mem.yaml")
with open(targets, "w") as f:
    f.write(f"""api: mem
baseURL: http://127.0.0.1:{port}
validation: successCodes
timeout: 600
cases:
  big:
    path: /big.bin
    sample: {{text: x}}
  download:
    path: /big.bin
    task: {{download: "downloaded.bin"}}
    sample: {{text: x}}
  upload:
    method: POST
    values: [{{file: file}}]
    path: /upload
    task: {{upload: "{{file}}"}}
    sample: ok
  dataFile:
    method: POST
    path: /upload
    task: {{dataFile: "www/big.bin"}}
    sample: ok
""")
    for i in range(16):
        f.write(f"""  part{i}:
    path: /part{i}.bin
    sample: {{text: x}}
""")


def peak(command, stdout=subprocess.DEVNULL, stdin=None):
    """Runs `command`; returns (exit status, seconds, peak RSS in MiB)."""
    start = time.monotonic()
    # In the work folder: a target file writes and reads only below it.
    process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE, stdin=stdin, cwd=work)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    err = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        print(f"   ! {' '.join(command)} exited {process.returncode}: {err.strip()[:300]}")
    if command[1:2] == ["check"]:
        print("   check said: " + (err.strip().splitlines() or [""])[-1])
    return process.returncode, elapsed, usage.ru_maxrss / 1024


def remove(path):
    if os.path.exists(path):
        os.remove(path)


rows = []
try:
    base = [binary, "call", "mem"]
    t = ["--targets", targets]
    out = os.path.join(work, "out.bin")
    rows.append(("curl -sf URL > /dev/null (reference)", *peak(["curl", "-sf", f"http://127.0.0.1:{port}/big.bin"])))
    rows.append((f"{size_mib} MiB body to stdout", *peak(base + ["big"] + t)))
    rows.append((f"{size_mib} MiB body to -o FILE", *peak(base + ["big", "-o", out] + t)))
    remove(out)
    # Issue 47: the envelope names the file; the body streams to it, never held.
    rows.append((f"{size_mib} MiB --format json -o FILE", *peak(base + ["big", "--format", "json", "-o", out] + t)))
    remove(out)
    rows.append((f"{size_mib} MiB download", *peak(base + ["download", "--force"] + t)))
    remove(os.path.join(work, "downloaded.bin"))
    rows.append((f"{size_mib} MiB upload", *peak(base + ["upload", big] + t)))
    rows.append((f"{size_mib} MiB dataFile upload", *peak(base + ["dataFile"] + t)))
    # Issue 46: an upload case streamed from a pipe (`-`), chunked, no temporary file.
    feeder = subprocess.Popen(["head", "-c", str(size_mib << 20), "/dev/zero"], stdout=subprocess.PIPE)
    rows.append((f"{size_mib} MiB upload piped to -", *peak(base + ["upload", "-"] + t, stdin=feeder.stdout)))
    feeder.stdout.close()
    feeder.wait()
    rows.append(("check --live --jobs 16, 16 x 128 MiB", *peak([binary, "check", "mem", "--live", "--jobs", "16",
                                                              "--only", "part*"] + t)))
finally:
    subprocess.run(["kill", open(os.path.join(work, "nginx.pid")).read().strip()])
    shutil.rmtree(work, ignore_errors=True)

print(f"{'run':44s} {'exit':>4s} {'seconds':>8s} {'peak RSS':>10s}  ceiling {CEILING_MIB} MiB")
failed = False
for name, status, seconds, rss in rows:
    verdict = "" if name.endswith("(reference)") else ("  ok" if rss < CEILING_MIB and status == 0 else "  OVER")
    failed |= verdict == "  OVER"
    print(f"{name:44s} {status:4d} {seconds:8.2f} {rss:7.1f} MiB{verdict}")
sys.exit(1 if failed else 0)
