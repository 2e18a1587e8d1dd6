"""Writes reference ratios from CPython's difflib for toolscore's SequenceMatcher port.

Run: python3 scripts/generate-difflib-vectors.py > src/matchers/fixtures/difflib-vectors.json
"""
import difflib
import json
import random
import sys

rng = random.Random(20261121)
cases = [
    ("", ""), ("a", ""), ("", "b"), ("abcd", "bcde"), ("what is ML", "what is machine learning"),
    ("python tutorial", "Python tutorials"), ("café naïve", "cafe naive"), ("🔍find", "find🔍"),
    ("𝒜𝒷𝒸", "𝒜x𝒸"), ("bbcabcc", "bac"), ("caccbab", "baacaac"), ("tab\there", "tab here"),
]
alphabets = ["ab", "abc", "abcd ", "xyz🙂é", "the quick brown fox "]
for _ in range(400):
    alphabet = rng.choice(alphabets)
    la, lb = rng.randint(0, 40), rng.randint(0, 40)
    cases.append(("".join(rng.choice(alphabet) for _ in range(la)),
                  "".join(rng.choice(alphabet) for _ in range(lb))))
# Long strings: b of 200+ characters triggers the auto-junk rule.
for _ in range(60):
    alphabet = rng.choice(alphabets)
    la, lb = rng.randint(150, 450), rng.randint(190, 450)
    a = "".join(rng.choice(alphabet) for _ in range(la))
    b = "".join(rng.choice(alphabet) for _ in range(lb))
    cases.append((a, b))
    cases.append((b, a))
words = "select from where order by limit the weather in paris tomorrow".split()
for _ in range(40):
    a = " ".join(rng.choice(words) for _ in range(rng.randint(30, 80)))
    b = " ".join(rng.choice(words) for _ in range(rng.randint(30, 80)))
    cases.append((a, b))

out = [{"a": a, "b": b, "ratio": difflib.SequenceMatcher(None, a, b).ratio()} for a, b in cases]
json.dump(out, sys.stdout, ensure_ascii=False)
sys.stdout.write("\n")
