#!/usr/bin/env python3
"""docs-defaults.py [IOBISECT]: the defaults the docs state are the program's.

A default stated in the docs a user reads is written `NAME` ... (default:
VALUE), NAME an option (`--boots N`, its command the backticked text's
first word or the command of the table row it is in) or a job key
(`machine.pin`). Each is compared with what the program prints from its
tables: `iobisect help CMD` (an option's "(default: V" or "(default V") and
`iobisect help job --markdown` (the key table's default column). A
default written another way, "(default V)", is refused too, so none goes
unchecked. Prints one line per mismatch and a closing line:

  docs-defaults: N defaults, N as the program's, N not
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["docs/commands.md", "docs/job.md", "docs/clocks.md"]


def run(binary, *args):
    env = dict(os.environ, IOBISECT_DATA=ROOT, LC_ALL="C")
    out = subprocess.run([binary, *args], capture_output=True, text=True,
                         env=env)
    if out.returncode != 0:
        sys.exit("docs-defaults: 'iobisect %s' failed: %s"
                 % (" ".join(args), out.stderr.strip()))
    return out.stdout


def key_defaults(binary):
    keys = {}
    for line in run(binary, "help", "job", "--markdown").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"`[^`]+`", cells[0]):
            keys[cells[0].strip("`")] = cells[2]
    return keys


def option_defaults(binary):
    commands = []
    for line in run(binary, "help").splitlines():
        m = re.match(r"  ([a-z]+) ", line)
        if m:
            commands.append(m.group(1))
    opts = {}
    for cmd in commands:
        for line in run(binary, "help", cmd).splitlines():
            m = re.match(r"\s+(--[\w-]+)\b.*?\(default:? ([^;)]*)", line)
            if m:
                opts[(cmd, m.group(1))] = m.group(2).strip()
    return commands, opts


def main():
    binary = os.path.realpath(sys.argv[1] if len(sys.argv) > 1
                              else os.path.join(ROOT, "iobisect"))
    keys = key_defaults(binary)
    commands, opts = option_defaults(binary)
    if not keys or not opts:
        sys.exit("docs-defaults: the program printed no defaults")
    stated = re.compile(r"`([^`]+)`[^`(]*\(default: ([^)]+)\)")
    loose = re.compile(r"\(default [^:]|\(default\)")
    n = wrong = loose_forms = 0
    for doc in DOCS:
        fence = False
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            lines = f.read().splitlines()
        for no, line in enumerate(lines, 1):
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            where = "%s:%d" % (doc, no)
            if loose.search(line):
                print("%s: write a default as (default: VALUE)" % where)
                loose_forms += 1
            row = re.match(r"\| `(?:iobisect )?([a-z]+)", line)
            for name, value in stated.findall(line):
                n += 1
                value = value.strip()
                words = name.replace("iobisect ", "").split()
                opt = next((w for w in words if w.startswith("--")), None)
                if opt:
                    cmd = words[0] if words[0] in commands else (
                        row.group(1) if row else None)
                    want = opts.get((cmd, opt))
                    what = "%s %s" % (cmd, opt)
                else:
                    want = keys.get(name.strip('"'))
                    what = name
                if want is None:
                    print("%s: `%s` states a default, but no option or "
                          "job key of that name has one" % (where, name))
                    wrong += 1
                elif want != value:
                    print("%s: %s's default is %s in the docs, %s in the "
                          "program" % (where, what, value, want))
                    wrong += 1
    print("docs-defaults: %d defaults, %d as the program's, %d not"
          % (n, n - wrong, wrong + loose_forms))
    return 1 if wrong or loose_forms else 0


if __name__ == "__main__":
    sys.exit(main())
