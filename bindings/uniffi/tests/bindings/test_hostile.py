"""A representative subset of the hostile-input corpus through the uniffi binding.

tests/c/hostile_subset.py selects the cases (the first of each category: corpus file,
operation, expected outcome) and builds their inputs; the C test (tests/c/test_hostile.c)
runs the same subset. The expectations are the case file's own, checked as
core/tests/hostile.rs checks them: the error code (the exception type), expected
diagnostics (code, severity, capability, field), absent codes, counts, validity,
accepted / rejected overlays, values at JSON pointers; and for every case no crash and no
raw control, bidi or zero-width character in any message or field. (GsdError carries no
field name, so the `field` of an expected error is checked by the C test only.)
"""

import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.environ.get("GSD_PY_OUT", "target/uniffi-py"))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "tests", "c"))

import gsd_core_uniffi as gsd  # noqa: E402  (the paths are set just above)
import hostile_subset  # noqa: E402


# A character no message may carry raw (the set core/tests/hostile.rs checks): C0/C1
# controls, DEL, bidi controls, zero-width characters and the BOM.
FORBIDDEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u200b-\u200d\u2060-\u2064\ufeff]")


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def code_class(code):
    """UNKNOWN_RUNTIME -> GsdError.UnknownRuntime."""
    return getattr(gsd.GsdError, "".join(p.capitalize() for p in code.split("_")))


def view(value):
    """A JSON view of a binding value, shaped as the core serializes it: records become
    objects with camelCase keys, `*_json` fields are parsed under the name without the
    suffix, enums become their wire spelling."""
    if isinstance(value, (gsd.Scope, gsd.Severity)):
        return value.name.lower()
    if isinstance(value, list):
        return [view(v) for v in value]
    if isinstance(value, dict):
        return {k: view(v) for k, v in value.items()}
    if hasattr(value, "__dict__"):
        out = {}
        for key, v in vars(value).items():
            if key.endswith("_json"):
                out[camel(key[:-5])] = None if v is None else json.loads(v)
            else:
                out[camel(key)] = view(v)
        return out
    return value


def pointer(document, path):
    node = document
    for token in path.split("/")[1:]:
        token = hostile_subset.unescape(token)
        if isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return KeyError
            node = node[int(token)]
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            return KeyError
    return node


class Observed:
    def __init__(self):
        self.error = None
        self.diagnostics = []
        self.value = None
        self.accepted = []


def registry_of(call):
    base = gsd.Registry.first_party()
    overlays = [gsd.Overlay(folder=o["folder"], manifest=o["manifest"], fragments=o["fragments"])
                for o in call.get("overlays", [])]
    registry = base.with_overlays(overlays) if overlays else base
    return registry, registry.diagnostics(), registry.third_party_ids()


def host_of(host):
    return gsd.Host(home=host["home"], cwd=host["cwd"], env=host.get("env", {}),
                    existing_paths=host.get("existingPaths", []))


def plan_request(request):
    profile = request.get("profile")
    return gsd.PlanRequest(
        runtime=request["runtime"], scope=request.get("scope", "global"),
        host=host_of(request["host"]), explicit_dir=request.get("explicitDir"),
        commands=request.get("commands", []), agents=request.get("agents", []),
        router_stems=request.get("routerStems", []),
        child_to_routers=request.get("childToRouters", {}),
        profile=None if profile is None else gsd.ProfileSelection(
            skills=profile.get("skills"), agents=profile.get("agents")))


def run(call):
    """Runs one binding call, collecting what it produced."""
    o = Observed()
    try:
        kind = call["call"]
        if kind == "validate":
            result = gsd.validate_capability(call["manifest"], call["folder"])
            o.diagnostics = result.errors + result.warnings
            o.value = view(result)
            return o
        if kind in ("surface", "shadow"):
            request = call["request"]
            registry = gsd.Registry.first_party()
            facts = json.dumps(request["facts"])
            if kind == "surface":
                o.value = json.loads(registry.installed_surfaces_json(
                    request.get("runtime"), host_of(request["host"]), facts))
                o.diagnostics = [gsd.Diagnostic(
                    code=d["code"], severity=getattr(gsd.Severity, d["severity"].upper()),
                    capability_id=d.get("capabilityId"), field=d.get("field"),
                    message=d["message"], detail_json=None) for d in o.value["diagnostics"]]
            else:
                o.value = json.loads(registry.shadow_report_json(
                    request["runtime"], host_of(request["host"]), facts))
            return o
        registry, o.diagnostics, o.accepted = registry_of(call)
        request = call.get("request")
        if kind == "scope":
            o.value = view(registry.resolve_scope(
                request["runtime"], request["scope"], host_of(request["host"]),
                request.get("explicitDir")))
        elif kind == "plan":
            plan = registry.resolve_install_plan(plan_request(request))
            o.diagnostics = o.diagnostics + plan.diagnostics
            o.value = view(plan)
        elif kind == "plans":
            plan_set = registry.resolve_install_plans(plan_request(request), request["scopes"])
            o.diagnostics = o.diagnostics + plan_set.diagnostics + [
                d for plan in plan_set.plans for d in plan.diagnostics]
            o.value = view(plan_set)
    except gsd.GsdError as error:
        o.error = error
    return o


def matches(d, want):
    return ((want["code"] == "*" or want["code"] == d.code)
            and ("field" not in want or want["field"] == d.field)
            and ("capability" not in want or want["capability"] == d.capability_id)
            and ("severity" not in want or want["severity"] == d.severity.name.lower()))


def problems_of(case, bases):
    """Runs a case; returns the broken expectations (empty when it held)."""
    o = run(hostile_subset.call_of(case, bases))
    expect, problems = case["expect"], []
    texts = [d.message for d in o.diagnostics] + [d.field for d in o.diagnostics if d.field]
    if o.error is not None:
        texts.append(o.error.message)
    for text in texts:
        bad = FORBIDDEN.search(text)
        if bad:
            problems.append(f"raw U+{ord(bad.group()):04X} in {text!r}")
    if "error" in expect:
        if not isinstance(o.error, code_class(expect["error"])):
            problems.append(f"expected {expect['error']}, got {o.error!r}")
    elif o.error is not None:
        problems.append(f"unexpected error {type(o.error).__name__}: {o.error.message}")
    for want in expect.get("diagnostics", []):
        if not any(matches(d, want) for d in o.diagnostics):
            problems.append(f"missing diagnostic {want}; got "
                            f"{[(d.code, d.field) for d in o.diagnostics]}")
    for code in expect.get("absentCodes", []):
        if any(d.code == code for d in o.diagnostics):
            problems.append(f"diagnostic {code} must not appear")
    if "diagnosticCount" in expect and len(o.diagnostics) != expect["diagnosticCount"]:
        problems.append(f"{len(o.diagnostics)} diagnostics, {expect['diagnosticCount']} expected")
    if "maxDiagnostics" in expect and len(o.diagnostics) > expect["maxDiagnostics"]:
        problems.append(f"{len(o.diagnostics)} diagnostics, at most {expect['maxDiagnostics']}")
    if "valid" in expect:
        errors = [d for d in o.diagnostics if d.severity == gsd.Severity.ERROR]
        if expect["valid"] != (not errors):
            problems.append(f"valid should be {expect['valid']}: {[d.code for d in errors]}")
    if "maxMessageChars" in expect:
        longest = max([len(t) for t in texts] or [0])
        if longest > expect["maxMessageChars"]:
            problems.append(f"a message is {longest} characters")
    for needle in expect.get("messageContains", []):
        if not any(needle in t for t in texts):
            problems.append(f"no message contains {needle!r}")
    for id_ in expect.get("accepted", []):
        if id_ not in o.accepted:
            problems.append(f"overlay {id_} should be accepted; accepted {o.accepted}")
    for id_ in expect.get("rejected", []):
        if id_ in o.accepted:
            problems.append(f"overlay {id_} should be rejected")
        if not any(d.code == "overlay_rejected" and d.capability_id == id_ for d in o.diagnostics):
            problems.append(f"no overlay_rejected summary for {id_}")
    for path, want in expect.get("values", {}).items():
        got = pointer(o.value, path)
        if got != want:
            problems.append(f"value at {path} is {got!r}, expected {want!r}")
    for path, prefix in expect.get("valuePrefixes", {}).items():
        got = pointer(o.value, path)
        if not (isinstance(got, str) and got.startswith(prefix)):
            problems.append(f"value at {path} is {got!r}, expected prefix {prefix!r}")
    return problems


class HostileSubsetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bases = hostile_subset.load("bases.json")
        cls.selected, cls.skipped, cls.total = hostile_subset.select()

    def test_every_selected_case_holds(self):
        for name, case in self.selected:
            with self.subTest(case=f"{name}:{case['name']}"):
                self.assertEqual(problems_of(case, self.bases), [])

    def test_the_subset_covers_every_bound_category(self):
        # one case per category; the categories left out are the unbound operations
        # and the loader-only validate outcome, nothing else
        ops = {case["op"] for _, case in self.selected}
        self.assertEqual(ops, hostile_subset.BOUND_OPS)
        self.assertGreaterEqual(len(self.selected), 30)
        for _, op, outcome in self.skipped:
            self.assertTrue(op not in hostile_subset.BOUND_OPS
                            or outcome in hostile_subset.LOADER_ONLY, (op, outcome))
        self.assertEqual(self.total, sum(len(hostile_subset.load(f)) for f in hostile_subset.FILES))

    def test_the_checker_reports_wrong_expectations(self):
        _, case = self.selected[0]
        wrong = dict(case, expect={"error": "MANIFEST_TOO_DEEP"})
        self.assertNotEqual(problems_of(wrong, self.bases), [])
        wrong = dict(case, expect={"diagnostics": [{"code": "no_such_code"}]})
        self.assertNotEqual(problems_of(wrong, self.bases), [])


if __name__ == "__main__":
    unittest.main()
