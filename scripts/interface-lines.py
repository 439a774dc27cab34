#!/usr/bin/env python3
# Usage: python3 scripts/interface-lines.py [REV]   (issue 34: the interface crates must shrink)
"""Lines of the interface crates (issue 34's measure): .rs, .js, .html, .css
under raum-notation, raum-cli, raum-server, without tests (tests/ dirs,
tests.rs files, trailing #[cfg(test)] mod tests blocks) or vendored code."""
import subprocess, sys
rev = sys.argv[1] if len(sys.argv) > 1 else None
def files():
    if rev:
        out = subprocess.run(['git','ls-tree','-r','--name-only',rev,'--','crates/raum-notation','crates/raum-cli','crates/raum-server'],capture_output=True,text=True).stdout.split()
    else:
        out = subprocess.run(['git','ls-files','--cached','--others','--exclude-standard','--','crates/raum-notation','crates/raum-cli','crates/raum-server'],capture_output=True,text=True).stdout.split()
    return [f for f in out if f.endswith(('.rs','.js','.html','.css')) and '/tests/' not in f and '/vendor/' not in f and not f.endswith('tests.rs')]
def text(f):
    if rev: return subprocess.run(['git','show',f'{rev}:{f}'],capture_output=True,text=True).stdout
    try: return open(f).read()
    except FileNotFoundError: return ''
total=0
for f in files():
    lines=text(f).split('\n')
    if f.endswith('.rs'):
        for i,l in enumerate(lines):
            if l.strip()=='#[cfg(test)]' and i+1<len(lines) and lines[i+1].strip().startswith('mod tests'):
                lines=lines[:i]; break
    total+=len(lines)
print(total)
