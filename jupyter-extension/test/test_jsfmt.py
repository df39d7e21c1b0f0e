"""The text forms behind the shared cache keys, checked against Node itself."""

from __future__ import annotations

import json
import subprocess

from dchub_jupyterlab.api.jsfmt import cyrb53, encode_uri_component, form_encode, js_json, js_number

TEXTS = ["", "galata-pro-key-0001", "héllo 😀", "x" * 300, "dch_live_0123456789abcdef"]
NUMBERS = [200, 0.1, 1e21, 1e-7, 1.2345678901234568e20, -77.49, 1.5e-6, 1e-6, 100.0, 2**53 + 2, -0.0, 5e-324]
PAIRS = [["a b", "x~y*z!é'"], ["k", "1,2"], ["iso", "PJM,ISO-NE"]]
VALUE = {"a": 1.0, "b": [1e21, 0.5, "é\u2028", None, True], "c": {"d": -77.49}}

SCRIPT = """
const [texts, numbers, pairs, value] = JSON.parse(process.argv[1]);
function fp(t){let h1=0xdeadbeef,h2=0x41c6ce57;for(let i=0;i<t.length;i++){const c=t.charCodeAt(i);h1=Math.imul(h1^c,2654435761);h2=Math.imul(h2^c,1597334677);}
h1=Math.imul(h1^(h1>>>16),2246822507)^Math.imul(h2^(h2>>>13),3266489909);h2=Math.imul(h2^(h2>>>16),2246822507)^Math.imul(h1^(h1>>>13),3266489909);
return (4294967296*(2097151&h2)+(h1>>>0)).toString(36);}
console.log(JSON.stringify({fp: texts.map(fp), num: numbers.map(String), form: new URLSearchParams(pairs).toString(),
  uri: texts.map(encodeURIComponent), json: JSON.stringify(value)}));
"""


def test_same_text_as_javascript():
    arg = json.dumps([TEXTS, NUMBERS, PAIRS, VALUE])
    js = json.loads(subprocess.run(["node", "-e", SCRIPT, arg], capture_output=True, text=True, check=True).stdout)
    assert [cyrb53(t) for t in TEXTS] == js["fp"]
    assert [js_number(float(n)) if isinstance(n, float) else js_number(n) for n in NUMBERS] == js["num"]
    assert form_encode([tuple(p) for p in PAIRS]) == js["form"]
    assert [encode_uri_component(t) for t in TEXTS] == js["uri"]
    assert js_json(VALUE) == js["json"]


def test_ages_worded_as_core_words_them():
    """format_age against core's own formatAge (core/dist), so a stale tool answer reads the same in both."""
    from pathlib import Path

    from dchub_jupyterlab.api.jsfmt import format_age

    core = Path(__file__).resolve().parents[2] / "core" / "dist" / "index.js"
    ages = [0, 499, 500, 44_600, 59_499, 59_500, 60_000, 3_599_000, 3_600_000, 11_100_000, 86_400_000, 172_799_000, 172_800_000, 9e8]
    script = f"import('{core.as_uri()}').then(c => console.log(JSON.stringify(JSON.parse(process.argv[1]).map(c.formatAge))))"
    js = json.loads(subprocess.run(["node", "-e", script, json.dumps(ages)], capture_output=True, text=True, check=True).stdout)
    assert [format_age(a) for a in ages] == js
