"""Break one thing at a time and run the core guards as a fresh clone would
(no ../shared): each mutation must make some guard fail.  Not run in CI.

    python scripts/mutate_guards.py
"""
import subprocess, sys, os, pathlib
ROOT = pathlib.Path(__file__).resolve().parent.parent
MUTATIONS = [
 ("MLAS: functional children's UFeats ignored, same-tokens lane (bulk and identical)", "scorer/conllu/identical.py",
     "                              map(and_, same_base, upos)), ufeats)",
     "                              map(and_, same_base, upos)), repeat(True))"),
 ("MLAS: functional children's UFeats ignored, word-by-word lane", "scorer/conllu/score.py",
     "                or g.ufeats[gc] != s.ufeats[sc]):", "                ):"),
 ("UPOS compared as equal always, same-tokens lane", "scorer/conllu/identical.py",
     "        upos = list(map(eq, g_upos, s_upos))", "        upos = [True] * len(g_upos)"),
 ("LAS: full relation compared (subtypes count), word-by-word lane", "scorer/conllu/score.py",
     "    deprel = g.base[gi] == s.base[si]", "    deprel = g.deprel[gi] == s.deprel[si]"),
 ("Lemmas: gold _ no longer matches anything, same-tokens lane", "scorer/conllu/identical.py",
     '        if "_" in g_lemma:  # a gold LEMMA _ matches anything', '        if False:  # a gold LEMMA _ matches anything'),
 ("ELAS: a path equal without subtypes counts for ELAS", "scorer/conllu/score.py",
     "            if path == system_path:", "            if [p.split(':')[0] for p in path] == [p.split(':')[0] for p in system_path]:"),
 ("Tokens/Sentences: spans with the same start count even with another end", "scorer/conllu/align.py",
     "            correct += gold_ends[gi] == system_ends[si]", "            correct += 1"),
]
env = dict(os.environ, ANNOSCORE_SHARED="/nonexistent")
for name, path, old, new in MUTATIONS:
    p = ROOT / path
    text = p.read_text()
    assert old in text, (name, old)
    p.write_text(text.replace(old, new, 1))
    try:
        done = subprocess.run([str(sys.executable), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/server/engine/test_guards.py", "tests/scorer/test_conllu_bulk.py", "tests/scorer/test_conllu_score.py"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        failed = sorted({line.split("::")[1].split("[")[0] for line in done.stdout.splitlines() if line.startswith("FAILED")})
        print(f"{name}\n   -> {len(failed)} failing: {', '.join(failed) or 'NONE'}\n   {done.stdout.strip().splitlines()[-1]}")
    finally:
        p.write_text(text)
