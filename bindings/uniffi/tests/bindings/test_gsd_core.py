"""Python tests of the uniffi binding of gsd-core.

Run by scripts/test-bindings.sh: GSD_PY_OUT names the folder holding the generated
gsd_core_uniffi.py next to libgsd_core_uniffi.so. Expected values come from the
specification's tables, not from the library's own output.
"""

import copy
import os
import sys
import threading
import unittest

sys.path.insert(0, os.environ.get("GSD_PY_OUT", "target/uniffi-py"))

import gsd_core_uniffi as gsd  # noqa: E402  (the path is set just above)

# The 19 first-party runtimes, sorted (design document, runtime list).
RUNTIME_IDS = [
    "antigravity", "augment", "claude", "cline", "codebuddy", "codex", "copilot", "cursor",
    "hermes", "kilo", "kimi", "kimi-code", "opencode", "pi", "qwen", "trae", "vscode",
    "windsurf", "zcode",
]

# The stable code table (core/src/error.rs): spelling -> C status number.
CODE_TABLE = {
    "NULL_ARGUMENT": 1, "INVALID_UTF8": 2, "PANIC": 3, "INVALID_ARGUMENT": 4,
    "UNKNOWN_RUNTIME": 100, "NO_CONFIG_HOME": 101, "INVALID_SCOPE": 102,
    "DESTINATION_OUTSIDE_CONFIG_HOME": 103, "INVALID_HOST": 104, "INVALID_DESCRIPTOR": 105,
    "MANIFEST_TOO_LARGE": 200, "MANIFEST_TOO_DEEP": 201, "MANIFEST_INVALID_JSON": 202,
    "MANIFEST_INVALID": 203,
}


def camel(name):
    """UNKNOWN_RUNTIME -> UnknownRuntime (the GsdError variant of a code)."""
    return "".join(part.capitalize() for part in name.split("_"))


class RegistryTest(unittest.TestCase):
    def setUp(self):
        self.registry = gsd.Registry.first_party()

    def test_first_party_lists_the_19_runtimes(self):
        self.assertEqual(self.registry.runtime_ids(), RUNTIME_IDS)

    def test_first_party_has_no_diagnostics(self):
        self.assertEqual(self.registry.diagnostics(), [])

    def test_runtime_manifest_is_the_capability(self):
        import json

        manifest = json.loads(self.registry.runtime_manifest_json("claude"))
        self.assertEqual(manifest["id"], "claude")
        self.assertEqual(manifest["role"], "runtime")
        # spec 14.1: claude's configHome is dot-home `.claude` with CLAUDE_CONFIG_DIR
        home = manifest["runtime"]["configHome"]
        self.assertEqual((home["kind"], home["name"], home["env"]),
                         ("dot-home", ".claude", ["CLAUDE_CONFIG_DIR"]))

    def test_unknown_runtime_is_its_own_exception_type(self):
        with self.assertRaises(gsd.GsdError.UnknownRuntime) as caught:
            self.registry.runtime_manifest_json("nope")
        self.assertIsInstance(caught.exception, gsd.GsdError)
        self.assertEqual(caught.exception.message,
                         "unknown runtime 'nope' — not present in the capability registry")
        # gemini is registered, as a reviewer (spec: the first-party reviewers): named as such.
        with self.assertRaises(gsd.GsdError.UnknownRuntime) as caught:
            self.registry.runtime_manifest_json("gemini")
        self.assertEqual(caught.exception.message, "'gemini' is a reviewer capability, not a runtime")

    def test_version(self):
        self.assertRegex(gsd.version(), r"^\d+\.\d+\.\d+$")


HOST = gsd.Host(home="/home/u", cwd="/work/p")


class PlanTest(unittest.TestCase):
    """Values from the specification: config homes (14.1/14.2), layouts (14.4), scopes (2)."""

    def setUp(self):
        self.registry = gsd.Registry.first_party()

    def plan(self, runtime, scope, **extra):
        request = gsd.PlanRequest(runtime=runtime, scope=scope, host=HOST, **extra)
        return self.registry.resolve_install_plan(request)

    def test_claude_global_plan(self):
        plan = self.plan("claude", "global", commands=["help"], agents=["gsd-executor"])
        self.assertEqual(plan.runtime, "claude")
        self.assertEqual(plan.scope, gsd.ResolvedScope(
            id=gsd.Scope.GLOBAL, config_home="/home/u/.claude", settings_file="settings.json",
            consent_required=False, host_precedence_rank=2,
            provenance_json='{"source":"default"}'))
        self.assertEqual(plan.command_style, "slash-hyphen")
        self.assertEqual(plan.sandbox_tier, "none")
        self.assertEqual(plan.support_tier, 1)
        # claude global: skills (flat, gsd- prefix, Claude skill converter), then agents
        self.assertEqual(plan.placements, [
            gsd.Placement(kind="skills", stem="help", source="commands/gsd/help.md",
                          destination="/home/u/.claude/skills/gsd-help/SKILL.md",
                          converter="convertClaudeCommandToClaudeSkill"),
            gsd.Placement(kind="agents", stem="gsd-executor", source="agents/gsd-executor.md",
                          destination="/home/u/.claude/agents/gsd-executor.md", converter=None),
        ])
        self.assertEqual(plan.triggers, [gsd.Trigger(
            trigger="gsd-help", kind="skills", scope=gsd.Scope.GLOBAL, dest_path="skills/gsd-help",
            registration="direct", router_trigger=None, shadowed_by=None)])
        self.assertEqual(plan.diagnostics, [])

    def test_claude_local_plan_installs_commands(self):
        plan = self.plan("claude", "local", commands=["help"])
        self.assertEqual(plan.scope.config_home, "/work/p/.claude")
        self.assertEqual(plan.scope.settings_file, "settings.local.json")
        self.assertTrue(plan.scope.consent_required)
        self.assertEqual([p.destination for p in plan.placements],
                         ["/work/p/.claude/commands/gsd-help.md"])

    def test_env_override_moves_the_config_home(self):
        host = gsd.Host(home="/home/u", cwd="/work/p", env={"CLAUDE_CONFIG_DIR": "~/alt"})
        scope = self.registry.resolve_scope("claude", "global", host, None)
        self.assertEqual(scope.config_home, "/home/u/alt")

    def test_unknown_runtime_raises_unknown_runtime(self):
        with self.assertRaises(gsd.GsdError.UnknownRuntime):
            self.plan("gemini", "global")

    def test_bad_scope_raises_invalid_scope(self):
        with self.assertRaises(gsd.GsdError.InvalidScope) as caught:
            self.plan("claude", "GLOBAL")
        self.assertEqual(caught.exception.message,
                         "id must be one of 'global' | 'local', got \"GLOBAL\"")
        with self.assertRaises(gsd.GsdError.InvalidScope):
            self.registry.resolve_trigger_surface("claude", ["project"], [], [], {})

    def test_vscode_has_no_config_home(self):
        with self.assertRaises(gsd.GsdError.NoConfigHome):
            self.registry.resolve_scope("vscode", "global", HOST, None)

    def test_global_skill_shadows_local_command(self):
        triggers = self.registry.resolve_trigger_surface("claude", ["local", "global"], ["help"], [], {})
        winner = gsd.Trigger(trigger="gsd-help", kind="skills", scope=gsd.Scope.GLOBAL,
                             dest_path="skills/gsd-help", registration="direct",
                             router_trigger=None, shadowed_by=None)
        self.assertIn(winner, triggers)
        losers = [t for t in triggers if t.shadowed_by is not None]
        self.assertEqual([(t.kind, t.scope) for t in losers], [("commands", gsd.Scope.LOCAL)])
        self.assertEqual(losers[0].shadowed_by, gsd.ShadowedBy(kind="skills", scope=gsd.Scope.GLOBAL))


class ValidationTest(unittest.TestCase):
    def test_shipped_manifest_is_valid(self):
        manifest = gsd.Registry.first_party().runtime_manifest_json("codex")
        self.assertEqual(gsd.validate_capability(manifest, "codex"),
                         gsd.Validation(valid=True, errors=[], warnings=[]))

    def test_non_object_is_one_error(self):
        result = gsd.validate_capability("[]", "x")
        self.assertFalse(result.valid)
        self.assertEqual([d.message for d in result.errors], ["capability must be a JSON object"])
        self.assertEqual(result.errors[0].severity, gsd.Severity.ERROR)

    def test_bounds_raise(self):
        with self.assertRaises(gsd.GsdError.ManifestTooLarge):
            gsd.validate_capability("{" + " " * (8 * 1024 * 1024), "x")
        with self.assertRaises(gsd.GsdError.ManifestTooDeep):
            gsd.validate_capability("[" * 200, "x")
        with self.assertRaises(gsd.GsdError.ManifestInvalidJson):
            gsd.validate_capability('{"id": }', "x")

    def test_rejected_overlay_becomes_a_diagnostic(self):
        base = gsd.Registry.first_party()
        next_registry = base.with_overlays([gsd.Overlay(folder="my-tool", manifest="[]")])
        codes = [d.code for d in next_registry.diagnostics()]
        self.assertIn("overlay_rejected", codes)
        self.assertEqual(base.diagnostics(), [])
        self.assertEqual(next_registry.runtime_ids(), RUNTIME_IDS)


class SurfaceTest(unittest.TestCase):
    def test_nothing_installed_is_not_shadowed(self):
        import json

        registry = gsd.Registry.first_party()
        surfaces = json.loads(registry.installed_surfaces_json("claude", HOST, "{}"))
        self.assertEqual([s["installed"] for s in surfaces["surfaces"][0]["scopes"]], [False, False])
        report = json.loads(registry.shadow_report_json("claude", HOST, "{}"))
        # spec 9: no counted trigger -> not_shadowed, shadowed false
        self.assertEqual((report["reason"], report["shadowed"]), ("not_shadowed", False))
        with self.assertRaises(gsd.GsdError.InvalidArgument):
            registry.installed_surfaces_json("claude", HOST, "{")

    def test_an_unreadable_manifest_is_said(self):
        import json

        registry = gsd.Registry.first_party()
        facts = json.dumps({"homes": {"/home/u/.claude": {"manifestUnreadable": "a FIFO, not a regular file"},
                                      "/work/p/.claude": {}}})
        surfaces = json.loads(registry.installed_surfaces_json("claude", HOST, facts))
        self.assertFalse(surfaces["surfaces"][0]["scopes"][0]["installed"])
        self.assertEqual(surfaces["diagnostics"], [{
            "code": "install_manifest_unreadable",
            "severity": "warning",
            "field": "gsd-file-manifest.json",
            "message": "the install manifest cannot be read (a FIFO, not a regular file); "
                       "read as not installed",
            "detail": {"configHome": "/home/u/.claude", "reason": "a FIFO, not a regular file"},
        }])


class ErrorCodeTableTest(unittest.TestCase):
    def test_the_table_matches_the_c_numbers(self):
        table = {entry.name: entry.status for entry in gsd.error_codes()}
        self.assertEqual(table, CODE_TABLE)

    def test_every_code_raises_its_own_variant(self):
        for entry in gsd.error_codes():
            with self.subTest(code=entry.name):
                variant = getattr(gsd.GsdError, camel(entry.name))
                with self.assertRaises(variant) as caught:
                    gsd.raise_error_code(entry.name, "detail for " + entry.name)
                self.assertEqual(caught.exception.message, "detail for " + entry.name)
                # no other variant matches: the classes are distinct
                others = [getattr(gsd.GsdError, camel(n)) for n in CODE_TABLE if n != entry.name]
                self.assertFalse(any(isinstance(caught.exception, o) for o in others))

    def test_an_unknown_code_name_is_invalid_argument(self):
        with self.assertRaises(gsd.GsdError.InvalidArgument):
            gsd.raise_error_code("NOT_A_CODE", "x")



class SurfaceFactsTest(unittest.TestCase):
    """facts_json: objects only, the value at fault named, caller text escaped."""

    def setUp(self):
        self.registry = gsd.Registry.first_party()

    def refusal(self, facts):
        with self.assertRaises(gsd.GsdError.InvalidArgument) as caught:
            self.registry.installed_surfaces_json("claude", HOST, facts)
        return caught.exception.message

    def test_arrays_are_never_read_by_position(self):
        prefix = "facts_json is not valid SurfaceFacts JSON: "
        self.assertEqual(self.refusal("[]"), prefix + "invalid type: sequence, expected struct SurfaceFacts")
        self.assertEqual(
            self.refusal('{"homes": {"/h/.claude": [false, false, "{}"]}}'),
            prefix + 'homes["/h/.claude"]: invalid type: sequence, expected struct ConfigHomeFacts',
        )
        self.assertEqual(
            self.refusal('{"homes": {"/h/.claude": {"manifest": 5}}}'),
            prefix + 'homes["/h/.claude"].manifest: invalid type: integer `5`, expected a string',
        )

    def test_deep_text_is_refused_before_it_is_read_even_on_a_small_stack(self):
        # Read on a thread with a 64 KiB stack: text nested to serde_json's own limit (128)
        # took some 140 KiB before the 32-level bound was checked first.
        prefix = "facts_json is not valid SurfaceFacts JSON: "
        outcome = {}

        def read(facts):
            try:
                self.registry.installed_surfaces_json("claude", HOST, facts)
                outcome[facts] = None
            except gsd.GsdError.InvalidArgument as e:
                outcome[facts] = e.message

        deep = ['{"homes":' + "[" * depth + "]" * depth + "}" for depth in (31, 127)]
        deep.append("[" * 100_000)
        old = threading.stack_size(64 * 1024)
        try:
            for facts in deep:
                thread = threading.Thread(target=read, args=(facts,))
                thread.start()
                thread.join()
        finally:
            threading.stack_size(old)
        too_deep = prefix + "it nests arrays/objects deeper than 32 levels"
        self.assertEqual(outcome[deep[1]], too_deep)
        self.assertEqual(outcome[deep[2]], too_deep)
        # 32 levels (the member's 31 and the object's) are read, and the member named
        self.assertEqual(outcome[deep[0]], prefix + "homes: invalid type: sequence, expected a map")

    def test_every_deep_manifest_is_refused_on_a_64_kib_stack(self):
        # docs/uniffi.md promises 64 KiB for every call: the manifest readers too.
        deep = "[" * 100_000
        outcome = {}

        def calls():
            try:
                gsd.validate_capability(deep, "x")
            except gsd.GsdError.ManifestTooDeep:
                outcome["validate"] = "too deep"
            rejected = self.registry.with_overlays([gsd.Overlay(folder="acme", manifest=deep, fragments={})])
            outcome["overlay"] = [d.code for d in rejected.diagnostics()]
            plan = self.registry.resolve_install_plan(
                gsd.PlanRequest(runtime="claude", scope="global", host=HOST, commands=["help"]))
            outcome["plan"] = len(plan.placements)

        old = threading.stack_size(64 * 1024)
        try:
            thread = threading.Thread(target=calls)
            thread.start()
            thread.join()
        finally:
            threading.stack_size(old)
        self.assertEqual(outcome["validate"], "too deep")
        self.assertEqual(outcome["overlay"], ["overlay_manifest_invalid", "overlay_rejected"])
        self.assertEqual(outcome["plan"], 1)

    def test_a_repeated_member_is_refused_at_its_object(self):
        prefix = "facts_json is not valid SurfaceFacts JSON: "
        # json.loads would keep the last "manifest"; the first, mistyped one is not skipped.
        self.assertEqual(
            self.refusal('{"homes": {"/h/.claude": {"manifest": 5, "manifest": "{}"}}}'),
            prefix + 'homes["/h/.claude"]: duplicate field `manifest` at line 1 column 51',
        )
        self.assertEqual(
            self.refusal('{"homes": {}, "homes": {}}'),
            prefix + "duplicate field `homes` at line 1 column 21",
        )

    def test_caller_text_in_the_message_is_escaped(self):
        message = self.refusal('{"homes": {"/h": {"\\u001b]0;pwn\\u0007\\u202e": 1}}}')
        self.assertNotRegex(message, "[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
        self.assertIn("unknown field `\ufffd\ufffd`", message)

    def test_probe_requests_name_the_homes_to_look_at(self):
        probes = self.registry.surface_probe_requests("claude", HOST)
        # Claude's config home at both scopes: HOME/.claude and CWD/.claude.
        self.assertEqual(
            [(p.config_home, p.manifest_path) for p in probes],
            [
                (HOST.home + "/.claude", HOST.home + "/.claude/gsd-file-manifest.json"),
                (HOST.cwd + "/.claude", HOST.cwd + "/.claude/gsd-file-manifest.json"),
            ],
        )
        every = self.registry.surface_probe_requests(None, HOST)
        self.assertTrue(set(p.config_home for p in probes) <= set(p.config_home for p in every))
        with self.assertRaises(gsd.GsdError.UnknownRuntime):
            self.registry.surface_probe_requests("nope", HOST)

    def test_an_error_can_be_rebuilt_from_its_class_name_and_message(self):
        try:
            self.registry.resolve_scope("claude", "GLOBAL", HOST, None)
        except gsd.GsdError as error:
            rebuilt = getattr(gsd.GsdError, type(error).__name__)(error.message)
            self.assertIsInstance(rebuilt, gsd.GsdError.InvalidScope)
            self.assertEqual(rebuilt.message, error.message)
            self.assertEqual(error.message, "id must be one of 'global' | 'local', got \"GLOBAL\"")
        else:
            self.fail("GLOBAL is not a scope")


class GenericProtocolTest(unittest.TestCase):
    """What the module's epilogue adds: copy, pickle, str and repr behave (docs/uniffi.md)."""

    def test_a_registry_copies_as_itself_and_refuses_pickle(self):
        import copy
        import pickle

        registry = gsd.Registry.first_party().with_overlays([])
        # Copies are the object itself: dropping them leaves the registry whole (before,
        # the copy freed the native value a second time).
        for _ in range(50):
            self.assertIs(copy.copy(registry), registry)
            self.assertIs(copy.deepcopy({"r": registry})["r"], registry)
        self.assertEqual(registry.runtime_ids(), RUNTIME_IDS)
        for call in (lambda: pickle.dumps(registry), lambda: pickle.dumps(registry.runtime_ids)):
            with self.assertRaises(TypeError) as caught:
                call()
            self.assertIn("cannot be pickled", str(caught.exception))
        self.assertEqual(registry.runtime_ids(), RUNTIME_IDS)

    def test_records_print_every_field_nested_ones_too(self):
        self.assertEqual(repr(gsd.Host(home="/h", cwd="/w")),
                         "Host(home='/h', cwd='/w', env={}, existing_paths=[])")
        # A manifest that is not an object is one `wrong_type` error at the root (field "",
        # the peer's "capability must be a JSON object"); inside the list it is spelled out.
        validation = gsd.validate_capability("[]", "x")
        self.assertEqual(
            str(validation),
            "Validation(valid=False, errors=[Diagnostic(code='wrong_type', severity=<Severity.ERROR: 0>, "
            "capability_id='x', field='', message='capability must be a JSON object', detail_json=None)], "
            "warnings=[])",
        )

    def test_a_string_that_cannot_cross_fails_before_anything_is_taken(self):
        # The registry reference and the converted arguments leaked when a lone surrogate
        # failed the second (converting) pass: it now fails the first (checking) one.
        registry = gsd.Registry.first_party()
        taken = []
        clone = gsd.Registry._uniffi_clone_handle
        lower = gsd._UniffiFfiConverterString.lower

        def counted_clone(registry):
            taken.append("registry")
            return clone(registry)

        def counted_lower(value):
            taken.append("string")
            return lower(value)

        gsd.Registry._uniffi_clone_handle = counted_clone
        gsd._UniffiFfiConverterString.lower = staticmethod(counted_lower)
        try:
            for call in (
                lambda: registry.resolve_scope("claude", "global", HOST, "/x\ud800"),
                lambda: registry.resolve_scope("claude", "global", gsd.Host(home="/h", cwd="/w", env={"A": "\udce9"}), None),
                lambda: gsd.validate_capability("{}", "\ud800"),
            ):
                with self.assertRaises(UnicodeEncodeError):
                    call()
                self.assertEqual(taken, [])
            # A well-formed call takes both, as before.
            registry.resolve_scope("claude", "global", HOST, None)
            self.assertIn("registry", taken)
        finally:
            gsd.Registry._uniffi_clone_handle = clone
            gsd._UniffiFfiConverterString.lower = staticmethod(lower)

    def test_records_equal_only_records_of_their_class(self):
        import types

        self.assertEqual(gsd.Host(home="/h", cwd="/w"), gsd.Host(home="/h", cwd="/w"))
        self.assertNotEqual(gsd.Host(home="/h", cwd="/w"), gsd.Host(home="/h", cwd="/x"))
        # Another class with the same fields, or any object with those attributes, is not
        # equal either way round; None compares as None.
        shadowed_by = gsd.ShadowedBy(kind="skills", scope=gsd.Scope.GLOBAL)
        look_alike = types.SimpleNamespace(kind="skills", scope=gsd.Scope.GLOBAL)
        self.assertFalse(shadowed_by == look_alike)
        self.assertFalse(look_alike == shadowed_by)
        self.assertTrue(shadowed_by != None)  # noqa: E711  (the comparison itself is tested)
        probes = gsd.Registry.first_party().surface_probe_requests("claude", HOST)
        self.assertNotIn(None, probes)
        # Membership compares by value, not only by identity: a copy is found.
        self.assertIn(copy.copy(probes[0]), probes)
        self.assertIsNot(copy.copy(probes[0]), probes[0])

    def test_an_error_prints_its_message_and_survives_pickle(self):
        import pickle

        with self.assertRaises(gsd.GsdError.InvalidScope) as caught:
            gsd.Registry.first_party().resolve_scope("claude", "GLOBAL", HOST, None)
        error = caught.exception
        message = "id must be one of 'global' | 'local', got \"GLOBAL\""
        self.assertEqual((str(error), error.message, error.args), (message, message, (message,)))
        self.assertEqual(repr(error), "GsdError.InvalidScope(message={!r})".format(message))
        back = pickle.loads(pickle.dumps(error))
        self.assertIs(type(back), gsd.GsdError.InvalidScope)
        self.assertEqual((str(back), back.message, back.args), (message, message, error.args))


if __name__ == "__main__":
    unittest.main()
