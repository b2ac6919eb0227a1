"""A panic inside the library reaches Python as uniffi's InternalError, and the process lives.

Needs a library built with the `test-panic` feature (scripts/test-bindings.sh builds one and
points GSD_PY_OUT at the module generated from it); kept out of test_*.py discovery so the
release-library run does not look for test_panic().
"""

import os
import sys
import unittest

sys.path.insert(0, os.environ.get("GSD_PY_OUT", "target/uniffi-py-panic"))

import gsd_core_uniffi as gsd  # noqa: E402  (the path is set just above)


class PanicTest(unittest.TestCase):
    def test_panic_is_internal_error_and_the_library_still_works(self):
        with self.assertRaises(gsd.InternalError):
            gsd.test_panic()
        with self.assertRaises(gsd.InternalError):
            gsd.test_panic()
        self.assertIn("claude", gsd.Registry.first_party().runtime_ids())


if __name__ == "__main__":
    unittest.main()
