"""Python tests of the uniffi binding of gsd-core.

Run by scripts/test-bindings.sh: GSD_PY_OUT names the folder holding the generated
gsd_core_uniffi.py next to libgsd_core_uniffi.so. Expected values come from the
specification's tables, not from the library's own output.
"""

import os
import sys
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
            self.registry.runtime_manifest_json("gemini")
        self.assertIsInstance(caught.exception, gsd.GsdError)
        self.assertEqual(caught.exception.message,
                         "unknown runtime 'gemini' — not present in the capability registry")

    def test_version(self):
        self.assertRegex(gsd.version(), r"^\d+\.\d+\.\d+$")


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


if __name__ == "__main__":
    unittest.main()
