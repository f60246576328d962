#!/usr/bin/env python3
"""Benchmark, not a test: `seams-sync watch` against a timer running `seams-sync sync` every
second, side by side on one tree, with a local container.

    Benchmarks/watch-bench.py                       # 100,000 files in 1,000 folders, 100 edits
    FILES=1000000 FOLDERS=10000 Benchmarks/watch-bench.py
    LOAD=1 Benchmarks/watch-bench.py                # with one busy loop (the other core busy)
    CONTAINER=webdav Benchmarks/watch-bench.py      # the container a WebDAV collection: `rclone serve
                                                    # webdav` on loopback ($SEAMS_RCLONE, else rclone)
    WORK=/tmp/wb Benchmarks/watch-bench.py          # the tree kept in WORK: made and synced on the first
                                                    # run only, so a second run (say with LOAD=1) starts
                                                    # at the edits (with CONTAINER=webdav, the served
                                                    # folder is kept too and served again)
    PREPARE=1 WORK=/tmp/wb Benchmarks/watch-bench.py  # only make and sync the kept tree, then stop (a
                                                    # 1M tree's first WebDAV upload takes about 30 min)
    TIMER_EDITS=20 Benchmarks/watch-bench.py        # fewer edits for the timer than EDITS (at 1M with
                                                    # WebDAV, each of its syncs lists the server whole)
    UNISON=1 Benchmarks/watch-bench.py              # also Unison `-repeat 1` into a folder of its own
                                                    # (`-repeat watch` needs unison-fsmonitor, which
                                                    # Debian's unison 2.52 does not ship)

For each of the two, in turn: latency from a save (a file rewritten in a random folder) to the
file complete in the container, p50 and p95 over EDITS edits (a new edit starts once the last one
arrived, after a pause of 0.3 to 0.6 s); CPU time (user + system, from /proc) of the watcher or of
the timer's runs per edit; CPU used by IDLE (60) idle seconds. Goals (issue 30): one-file edit in
the million-file tree reaches the container in under 1 s at p95, under 50 ms of CPU; idle CPU
under 1%.
"""
import os, random, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build/release/seams-sync"))
FILES = int(os.environ.get("FILES", "100000"))
FOLDERS = int(os.environ.get("FOLDERS", "1000"))
EDITS = int(os.environ.get("EDITS", "100"))
TIMER_EDITS = int(os.environ.get("TIMER_EDITS", str(EDITS)))
IDLE = float(os.environ.get("IDLE", "60"))
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_of(pids):
    """User + system seconds of the processes and their reaped children."""
    total = 0.0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / TICKS
        except FileNotFoundError:
            pass
    return total


def serve_webdav(folder, port_file=None):
    """`rclone serve webdav` of `folder` on a free loopback port, with a user and password: the
    server process and the container URL. With `port_file` (a kept tree), the port is the one
    written there, so the pair's state still names the same container."""
    rclone = os.environ.get("SEAMS_RCLONE") or shutil.which("rclone")
    if not rclone:
        sys.exit("CONTAINER=webdav needs rclone (SEAMS_RCLONE or on PATH)")
    if port_file and os.path.exists(port_file):
        port = int(open(port_file).read())
    else:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port_file:
            open(port_file, "w").write(str(port))
    server = subprocess.Popen(
        [rclone, "serve", "webdav", folder, "--addr", f"127.0.0.1:{port}", "--user", "seams", "--pass", "bench"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        sys.exit("rclone serve webdav did not start")
    os.environ.update(SEAMS_WEBDAV_USER="seams", SEAMS_WEBDAV_PASSWORD="bench")
    return server, f"http://127.0.0.1:{port}/"


def make_tree(local):
    per = FILES // FOLDERS
    for f in range(FOLDERS):
        folder = os.path.join(local, f"d{f // 100}", f"f{f}")
        os.makedirs(folder, exist_ok=True)
        for i in range(per):
            with open(os.path.join(folder, f"n{i}.txt"), "w") as out:
                out.write(f"{f}-{i}\n")


def edits(local, container, count, seed, cpu):
    rng = random.Random(seed)
    latencies = []
    first = cpu()
    for n in range(count):
        time.sleep(rng.uniform(0.3, 0.6))
        f = rng.randrange(FOLDERS)
        rel = os.path.join(f"d{f // 100}", f"f{f}", f"n{rng.randrange(FILES // FOLDERS)}.txt")
        text = f"edit {seed} {n} {rng.random()} {time.time()}\n"  # new bytes on every run of a kept tree
        start = time.monotonic()
        with open(os.path.join(local, rel), "w") as out:
            out.write(text)
        target = os.path.join(container, rel)
        while True:
            try:
                if open(target).read() == text:
                    break
            except FileNotFoundError:
                pass
            time.sleep(0.002)
            if time.monotonic() - start > 120:
                sys.exit(f"edit {n} did not arrive in 120 s")
        latencies.append(time.monotonic() - start)
    time.sleep(1)  # the last sync's commit
    return latencies, (cpu() - first) / count


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    kept = os.environ.get("WORK")
    if os.environ.get("PREPARE") == "1" and not kept:
        sys.exit("PREPARE=1 needs WORK, where the tree is kept")
    work = kept or tempfile.mkdtemp(prefix="seams-watch-bench.")
    ready = bool(kept) and os.path.exists(os.path.join(work, "ready"))
    load = None
    if os.environ.get("LOAD") == "1":
        load = subprocess.Popen(["sh", "-c", "while :; do :; done"])
        print("load: one busy loop (the other core busy)", file=sys.stderr)
    server = None
    try:
        local, container, state = (os.path.join(work, x) for x in ("local", "container", "state"))
        os.makedirs(container, exist_ok=ready)
        target = container
        if os.environ.get("CONTAINER") == "webdav":
            server, target = serve_webdav(container, os.path.join(work, "port") if kept else None)
            print(f"container: {target} (rclone serve webdav of {container})", file=sys.stderr)
        print(f"tree: {FILES} files in {FOLDERS} folders", file=sys.stderr)
        pair = [local, target, "--state-dir", state]
        if not ready:
            make_tree(local)
            subprocess.run([BIN, "sync", *pair], check=True, stdout=subprocess.DEVNULL)
            if kept:
                open(os.path.join(work, "ready"), "w").close()
        if os.environ.get("PREPARE") == "1":
            print(f"prepared: {work}", file=sys.stderr)
            return
        start = time.monotonic()
        subprocess.run([BIN, "sync", *pair], check=True, stdout=subprocess.DEVNULL)
        whole = time.monotonic() - start
        rows = {}

        # seams-sync watch
        watch = subprocess.Popen([BIN, "watch", *pair, "--json"], stdout=subprocess.PIPE, text=True)
        watch.stdout.readline()  # the first sync
        time.sleep(1)
        rows["watch"] = edits(local, container, EDITS, 1, lambda: cpu_of([watch.pid]))
        time.sleep(1)
        idle_before = cpu_of([watch.pid])
        time.sleep(IDLE)
        rows["watch"] += ((cpu_of([watch.pid]) - idle_before) / IDLE,)
        watch.send_signal(signal.SIGTERM)
        watch.wait()

        # a timer: `seams-sync sync` every second
        timer = subprocess.Popen(
            ["sh", "-c", f"while :; do '{BIN}' sync '{local}' '{target}' --state-dir '{state}' >/dev/null; sleep 1; done"])
        rows["timer"] = edits(local, container, TIMER_EDITS, 2, lambda: cpu_of([timer.pid]))
        idle_before = cpu_of([timer.pid])
        time.sleep(IDLE)
        rows["timer"] += ((cpu_of([timer.pid]) - idle_before) / IDLE,)
        timer.kill()
        timer.wait()

        # Unison polling every second, into a folder of its own (local containers only)
        if os.environ.get("UNISON") == "1" and not server:
            other = os.path.join(work, "unison-container")
            os.makedirs(other)
            env = dict(os.environ, UNISON=os.path.join(work, "unison-home"))
            flags = ["-batch", "-auto", "-times", "-silent", "-confirmbigdel=false"]
            subprocess.run(["unison", local, other, *flags], check=True, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            unison = subprocess.Popen(["unison", local, other, *flags, "-repeat", "1"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(2)
            rows["unison -repeat 1"] = edits(local, other, EDITS, 3, lambda: cpu_of([unison.pid]))
            idle_before = cpu_of([unison.pid])
            time.sleep(IDLE)
            rows["unison -repeat 1"] += ((cpu_of([unison.pid]) - idle_before) / IDLE,)
            unison.kill()
            unison.wait()

        print(f"one whole `sync` with nothing to do: {whole:.3f} s")
        print(f"{'':17} {'p50 s':>8} {'p95 s':>8} {'CPU/edit ms':>12} {'idle CPU %':>11}")
        for name, (lat, cpus, idle) in rows.items():
            print(f"{name:17} {pct(lat, 50):8.3f} {pct(lat, 95):8.3f} {cpus * 1000:12.1f} {idle * 100:11.2f}")
        w, t = rows["watch"], rows["timer"]
        print(f"watch / timer: p50 {pct(w[0], 50) / pct(t[0], 50):.2f}x, p95 {pct(w[0], 95) / pct(t[0], 95):.2f}x, "
              f"CPU per edit {w[1] / max(t[1], 1e-9):.2f}x")
    finally:
        if load:
            load.kill()
        if server:
            server.kill()
        if not kept:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
