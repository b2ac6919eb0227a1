"""A representative subset of the hostile-input corpus (tests/hostile/*.json), for the
bindings.

core/tests/hostile.rs runs every case through the Rust API. The C and Python binding tests
run a subset chosen by one rule: the FIRST case of each category, where a category is
(corpus file, operation, expected outcome) and the expected outcome is the expected error
code, else "rejected" / "accepted" (overlay cases), else the first expected diagnostic
code, else "ok". Categories whose operation no binding exposes (install_manifest, render,
runtime_name), or whose outcome only the overlay loader produces (LOADER_ONLY), are counted
and reported, not run.

This module selects the cases and builds their inputs exactly as
core/tests/hostile/input.rs does (base manifests patched by JSON pointers, generated big
values), then turns each into the binding call that runs it:

* used as a module by bindings/uniffi/tests/bindings/test_hostile.py;
* run as a script (`python3 hostile_subset.py OUT [--small]`) it writes the cases for
  tests/c/test_hostile.c in a length-prefixed record format: each record is
  `<key> <byte length>\\n<bytes>\\n`, a case starts with a `case` record.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "hostile")

# The corpus files, in the order core/tests/hostile.rs runs them.
FILES = [
    "parse.json", "validate.json", "axes.json", "overlay.json", "scope.json", "plan.json",
    "install_manifest.json", "surface.json", "render.json", "generated.json",
]

# Operations the C and uniffi bindings expose.
BOUND_OPS = {"parse", "validate", "overlay", "scope", "plan", "surface", "shadow"}

# Outcomes of the corpus's `validate` operation (the loader's per-capability check for a
# third-party manifest) that the bindings' validate_capability (the peer's
# validateCapability) does not produce: the reserved id prefix is a loader rule, checked
# when an overlay is admitted (overlay.json:reserved-prefix-gsd covers it through the
# bindings' overlay entry points).
LOADER_ONLY = {"reserved_id_prefix"}

DEFAULT_HOST = {"home": "/home/u", "cwd": "/work/p"}


def load(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        return json.load(f)


def outcome(expect):
    """The expected outcome of a case, for its category."""
    if "error" in expect:
        return expect["error"]
    if "rejected" in expect:
        return "rejected"
    if "accepted" in expect:
        return "accepted"
    diagnostics = expect.get("diagnostics") or []
    if diagnostics:
        return diagnostics[0]["code"]
    return "ok"


def select():
    """(selected [(file, case)], skipped categories [(file, op, outcome)], corpus size)."""
    seen = set()
    selected, skipped, total = [], [], 0
    for name in FILES:
        for case in load(name):
            total += 1
            category = (name, case["op"], outcome(case["expect"]))
            if category in seen:
                continue
            seen.add(category)
            if case["op"] in BOUND_OPS and not (
                case["op"] == "validate" and category[2] in LOADER_ONLY
            ):
                selected.append((name, case))
            else:
                skipped.append(category)
    return selected, skipped, total


# --- building inputs (the rules of core/tests/hostile/input.rs) -------------------------

def base36(i):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        out = digits[i % 36] + out
        i //= 36
        if i == 0:
            return out


def template(spec, i):
    return spec.get("template", "{i}").replace("{i}", base36(i))


def generate_text(spec):
    if "parts" in spec:
        return "".join(p["text"] * p.get("repeat", 1) for p in spec["parts"])
    return spec.get("unit", "a") * spec["string"]


def generate(spec):
    if "objectKeys" in spec:
        value = spec.get("value", True)
        return {template(spec, i): value for i in range(spec["objectKeys"])}
    if "array" in spec:
        return [template(spec, i) for i in range(spec["array"])]
    if "string" in spec:
        return generate_text(spec)
    raise ValueError(f"unknown generate spec {spec}")


def materialize(value):
    if isinstance(value, dict) and len(value) == 1 and "generate" in value:
        return generate(value["generate"])
    return value


def unescape(token):
    return token.replace("~1", "/").replace("~0", "~")


def set_pointer(root, pointer, value):
    tokens = [unescape(t) for t in pointer.split("/")[1:]]
    node = root
    for token in tokens[:-1]:
        if isinstance(node, list):
            node = node[int(token)]
        else:
            node = node.setdefault(token, {})
    last = tokens[-1]
    if isinstance(node, list):
        index = int(last)
        if index == len(node):
            node.append(value)
        else:
            node[index] = value
    else:
        node[last] = value


def remove_pointer(root, pointer):
    parent, last = pointer.rsplit("/", 1)
    node = root
    for token in [unescape(t) for t in parent.split("/")[1:]]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    last = unescape(last)
    if isinstance(node, list):
        del node[int(last)]
    else:
        del node[last]


def manifest_value(spec, bases):
    if "manifest" in spec:
        return materialize(spec["manifest"])
    base = spec["base"]
    if base in bases:
        value = json.loads(json.dumps(bases[base]))
    else:
        with open(os.path.join(ROOT, "capabilities", base, "capability.json"), encoding="utf-8") as f:
            value = json.load(f)
    for pointer in spec.get("remove", []):
        remove_pointer(value, pointer)
    for pointer, v in spec.get("set", {}).items():
        set_pointer(value, pointer, materialize(v))
    return value


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def manifest_text(spec, bases):
    if isinstance(spec.get("text"), str):
        return spec["text"]
    if "generateText" in spec:
        return generate_text(spec["generateText"])
    return compact(manifest_value(spec, bases))


def overlays(spec, bases):
    """The case's overlays as [{folder, manifest, fragments: {path: text}}]."""
    out = []
    for o in spec.get("overlays", []):
        folder = o.get("folder")
        if folder is None:
            folder = manifest_value(o, bases)["id"]
        fragments = {}
        for path, text in o.get("fragments", []):
            fragments[path] = text if isinstance(text, str) else generate_text(text["generate"])
        out.append({"folder": folder, "manifest": manifest_text(o, bases), "fragments": fragments})
    return out


def call_of(case, bases):
    """The binding call that runs a case: a dict with `call` and its arguments."""
    op, spec = case["op"], case["input"]
    host = spec.get("host", DEFAULT_HOST)
    if op in ("parse", "validate"):
        text = manifest_text(spec, bases)
        folder = spec.get("folder")
        if folder is None:
            try:
                parsed = json.loads(text)
                folder = parsed.get("id") if isinstance(parsed, dict) else None
            except (ValueError, RecursionError):
                folder = None
            if not isinstance(folder, str):
                folder = "x"
        return {"call": "validate", "manifest": text, "folder": folder}
    if op == "overlay":
        return {"call": "overlays", "overlays": overlays(spec, bases)}
    if op == "scope":
        request = {"runtime": spec["runtime"], "scope": spec.get("scope", "global"), "host": host}
        if "explicitDir" in spec:
            request["explicitDir"] = spec["explicitDir"]
        return {"call": "scope", "overlays": overlays(spec, bases), "request": request}
    if op == "plan":
        request = dict(spec["request"])
        request.setdefault("scope", "global")
        for key in ("commands", "agents"):
            if key in request:
                request[key] = materialize(request[key])
        request.setdefault("host", DEFAULT_HOST)
        if "scopes" in spec:
            request.pop("scope")
            request["scopes"] = spec["scopes"]
            return {"call": "plans", "overlays": overlays(spec, bases), "request": request}
        return {"call": "plan", "overlays": overlays(spec, bases), "request": request}
    if op in ("surface", "shadow"):
        request = {"host": host, "facts": spec.get("facts", {})}
        if "runtime" in spec:
            request["runtime"] = spec["runtime"]
        return {"call": op, "request": request}
    raise ValueError(f"operation {op} has no binding call")


# --- the C record file -----------------------------------------------------------------

def value_needle(pointer, value):
    """A substring the compact JSON result must contain for `pointer` to hold `value`."""
    last = unescape(pointer.rsplit("/", 1)[1])
    if last.isdigit():
        return compact(value)
    return compact(last) + ":" + compact(value)


def c_records(name, case, bases):
    call = call_of(case, bases)
    expect = case["expect"]
    records = [("case", name + ":" + case["name"]), ("call", call["call"])]
    if call["call"] == "validate":
        records += [("manifest", call["manifest"]), ("folder", call["folder"])]
    if call.get("overlays"):
        records.append(("overlays", compact(call["overlays"])))
    if "request" in call:
        records.append(("request", compact(call["request"])))
    if "error" in expect:
        records.append(("error", expect["error"]))
        if "field" in expect:
            records.append(("field", expect["field"]))
    for want in expect.get("diagnostics", []):
        needles = []
        if want["code"] != "*":
            needles.append('{"code":' + compact(want["code"]) + ",")
        for key, json_key in (("severity", "severity"), ("capability", "capabilityId"), ("field", "field")):
            if key in want:
                needles.append(compact(json_key) + ":" + compact(want[key]))
        records.append(("diag", "\n".join(needles)))
    for code in expect.get("absentCodes", []):
        records.append(("absent", '"code":' + compact(code)))
    if "diagnosticCount" in expect:
        records.append(("count", str(expect["diagnosticCount"])))
    if "maxDiagnostics" in expect:
        records.append(("max", str(expect["maxDiagnostics"])))
    if "valid" in expect:
        records.append(("valid", "true" if expect["valid"] else "false"))
    for id_ in expect.get("accepted", []):
        records.append(("accepted", compact(id_)))
    for id_ in expect.get("rejected", []):
        records.append(("rejected", compact(id_)))
    for pointer, value in expect.get("values", {}).items():
        records.append(("value", value_needle(pointer, value)))
    for pointer, prefix in expect.get("valuePrefixes", {}).items():
        records.append(("value", value_needle(pointer, prefix)[:-1]))
    for needle in expect.get("messageContains", []):
        records.append(("contains", needle))
    if "maxMessageChars" in expect:
        records.append(("maxchars", str(expect["maxMessageChars"])))
    return records


def write_c_cases(path, small=False):
    """Writes the subset; `small` leaves out generated.json (the big inputs), for the runs
    under sanitizers and valgrind."""
    bases = load("bases.json")
    selected, skipped, total = select()
    if small:
        selected = [(name, case) for name, case in selected if name != "generated.json"]
    with open(path, "wb") as out:
        for name, case in selected:
            for key, text in c_records(name, case, bases):
                data = text.encode("utf-8")
                out.write(f"{key} {len(data)}\n".encode("ascii") + data + b"\n")
        count = str(len(selected)).encode("ascii")
        out.write(b"total %d\n" % len(count) + count + b"\n")
    return selected, skipped, total


if __name__ == "__main__":
    small = "--small" in sys.argv[2:]
    chosen, left, size = write_c_cases(sys.argv[1], small)
    print(f"hostile subset{' (without generated.json)' if small else ''}: {len(chosen)} of "
          f"{size} cases (first per category); categories not run: {len(left)} "
          f"({', '.join(sorted({f'{op}:{out}' if op == 'validate' else op for _, op, out in left}))})")
