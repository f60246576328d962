#!/usr/bin/env python3
"""The mutation suite: each mutation of the engine or of the power model must be caught.

Every `*.patch` here is a bug an engineer could plausibly write (a flush left out, a check
skipped, a power model that keeps too much). For each one this script applies the patch, builds
the tests, runs the crash suites (CrashConsistencyTests and WebDAVCrashTests, stopping at the first
violation; a patch with a line `# suites: S3CrashTests` runs those instead), and reverts the patch. A mutation the suites do not catch survives; the script prints
the score and exits 1 if any survived (2 if a patch no longer applies or builds).

    python3 Tests/Mutations/run.py                 # every mutation
    python3 Tests/Mutations/run.py --only 03 11    # the mutations whose names start so
    python3 Tests/Mutations/run.py --list          # what each mutation does

Every fix of a durability bug adds its mutation here: the bug as a patch against the fixed code
(`git diff > Tests/Mutations/NN-name.patch` on the broken change, description lines first, each
starting with `#`).
"""
import argparse
import os
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SUITES = "CrashConsistencyTests|WebDAVCrashTests"


def description(patch):
    lines = [line[1:].strip() for line in patch.read_text().splitlines() if line.startswith("#")]
    return " ".join(line for line in lines if not line.startswith("suites:"))


def suites(patch):
    """The suites a patch names on a `# suites: A|B` line, or the default crash suites."""
    for line in patch.read_text().splitlines():
        if line.startswith("# suites:"):
            return line.split(":", 1)[1].strip()
    return SUITES


def git(*args, check=True):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=check)


def run(command, log, env=None):
    with open(log, "w") as out:
        return subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env).returncode


def main():
    parser = argparse.ArgumentParser(description="Runs the crash suites against each mutation.")
    parser.add_argument("--only", nargs="*", help="mutations whose file names start with these")
    parser.add_argument("--list", action="store_true", help="list the mutations and stop")
    parser.add_argument("--check", action="store_true",
                        help="check that every mutation still applies to the code as it is, and stop")
    parser.add_argument("--logs", default=os.environ.get("MUTATION_LOGS", "/tmp/seams-mutations"))
    args = parser.parse_args()
    patches = sorted(HERE.glob("*.patch"))
    if args.only:
        patches = [p for p in patches if any(p.name.startswith(prefix) for prefix in args.only)]
    if args.list or not patches:
        for patch in patches:
            print(f"{patch.stem}: {description(patch)}")
        return 0 if patches else 2
    if args.check:
        stale = [p.stem for p in patches if git("apply", "--check", str(p), check=False).returncode != 0]
        for name in stale:
            print(f"mutation {name}: does not apply (regenerate it against the code as it is)", flush=True)
        print(f"mutations: {len(patches) - len(stale)} of {len(patches)} apply", flush=True)
        return 2 if stale else 0
    logs = pathlib.Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, SEAMS_CRASH_FAIL_FAST="1")
    caught, survived, broken = [], [], []
    for patch in patches:
        started = time.time()
        if git("apply", "--check", str(patch), check=False).returncode != 0:
            print(f"mutation {patch.stem}: does not apply (regenerate it against the code as it is)", flush=True)
            broken.append(patch.stem)
            continue
        git("apply", str(patch))
        try:
            if run(["swift", "build", "--build-tests"], logs / f"{patch.stem}.build.log") != 0:
                print(f"mutation {patch.stem}: does not build (see {logs}/{patch.stem}.build.log)", flush=True)
                broken.append(patch.stem)
                continue
            status = run(["swift", "test", "--skip-build", "--filter", suites(patch)], logs / f"{patch.stem}.test.log", env)
        finally:
            git("apply", "-R", str(patch))
        seconds = time.time() - started
        if status != 0:
            caught.append(patch.stem)
            print(f"mutation {patch.stem}: caught ({seconds:.0f} s)", flush=True)
        else:
            survived.append(patch.stem)
            print(f"mutation {patch.stem}: SURVIVED ({seconds:.0f} s): {description(patch)}", flush=True)
    total = len(caught) + len(survived)
    print(f"mutation score: {len(caught)} of {total} caught by the crash suites"
          + (f"; {len(broken)} did not apply or build: {', '.join(broken)}" if broken else ""))
    if survived:
        print("survived: " + ", ".join(survived))
    return 2 if broken else (1 if survived else 0)


if __name__ == "__main__":
    sys.exit(main())
