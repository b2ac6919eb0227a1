"""Multi-scope install plans (Registry.resolve_install_plans) through the uniffi binding.

The set's plans are cross-checked against the single-scope plans (they must be equal
records); the cross-scope shadowing facts come from the specification (a global skill
beats the local command of the same trigger, #2218), as core/tests/plan_resolve.rs and the
peer parity test (core/tests/peer_resolve.rs) assert them.
"""

import os
import sys
import unittest

sys.path.insert(0, os.environ.get("GSD_PY_OUT", "target/uniffi-py"))

import gsd_core_uniffi as gsd  # noqa: E402  (the path is set just above)

HOST = gsd.Host(home="/home/u", cwd="/work/p")
INVENTORY = {"commands": ["help", "plan-phase"], "agents": ["gsd-executor"]}


def request(runtime="claude", scope="global", **extra):
    fields = dict(INVENTORY)
    fields.update(extra)
    return gsd.PlanRequest(runtime=runtime, scope=scope, host=HOST, **fields)


class PlanSetTest(unittest.TestCase):
    def setUp(self):
        self.registry = gsd.Registry.first_party()

    def single(self, scope):
        return self.registry.resolve_install_plan(request(scope=scope))

    def test_the_set_holds_the_single_scope_plans(self):
        # scopes in any order, duplicates ignored; request.scope is not used
        plan_set = self.registry.resolve_install_plans(request(scope="local"),
                                                       ["local", "global", "local"])
        self.assertEqual(plan_set.plans, [self.single("global"), self.single("local")])
        self.assertEqual([p.scope.id for p in plan_set.plans], [gsd.Scope.GLOBAL, gsd.Scope.LOCAL])

    def test_global_skills_shadow_local_commands_across_scopes(self):
        plan_set = self.registry.resolve_install_plans(request(), ["global", "local"])
        winner = gsd.ShadowedBy(kind="skills", scope=gsd.Scope.GLOBAL)
        losers = [(t.trigger, t.kind, t.scope, t.dest_path, t.shadowed_by)
                  for t in plan_set.triggers if t.shadowed_by is not None]
        self.assertEqual(losers, [
            ("gsd-help", "commands", gsd.Scope.LOCAL, "commands/gsd-help.md", winner),
            ("gsd-plan-phase", "commands", gsd.Scope.LOCAL, "commands/gsd-plan-phase.md", winner),
        ])
        winners = [(t.trigger, t.kind, t.scope) for t in plan_set.triggers if t.shadowed_by is None]
        self.assertEqual(winners, [("gsd-help", "skills", gsd.Scope.GLOBAL),
                                   ("gsd-plan-phase", "skills", gsd.Scope.GLOBAL)])
        self.assertEqual([(d.code, d.severity, d.message) for d in plan_set.diagnostics], [
            ("trigger_shadowed", gsd.Severity.WARNING,
             "trigger 'gsd-help' of local commands is shadowed by global skills"),
            ("trigger_shadowed", gsd.Severity.WARNING,
             "trigger 'gsd-plan-phase' of local commands is shadowed by global skills"),
        ])
        # each scope alone sees no shadowing (one trigger kind per scope for claude)
        for plan in plan_set.plans:
            self.assertEqual([t for t in plan.triggers if t.shadowed_by is not None], [])
            self.assertEqual(plan.diagnostics, [])

    def test_one_scope_and_no_scope(self):
        plan_set = self.registry.resolve_install_plans(request(), ["global"])
        self.assertEqual(plan_set.plans, [self.single("global")])
        self.assertEqual(plan_set.diagnostics, [])
        empty = self.registry.resolve_install_plans(request(), [])
        self.assertEqual((empty.plans, empty.triggers, empty.diagnostics), ([], [], []))

    def test_failures_raise_their_own_types(self):
        with self.assertRaises(gsd.GsdError.InvalidScope) as caught:
            self.registry.resolve_install_plans(request(), ["global", "Local"])
        self.assertEqual(caught.exception.message,
                         "id must be one of 'global' | 'local', got \"Local\"")
        with self.assertRaises(gsd.GsdError.UnknownRuntime):
            self.registry.resolve_install_plans(request(runtime="gemini"), ["global"])
        with self.assertRaises(gsd.GsdError.NoConfigHome):
            self.registry.resolve_install_plans(request(runtime="vscode"), ["local"])
        with self.assertRaises(gsd.GsdError.InvalidHost):
            relative = gsd.PlanRequest(runtime="claude", scope="global",
                                       host=gsd.Host(home="/home/u", cwd="rel"))
            self.registry.resolve_install_plans(relative, ["global"])
        with self.assertRaises(gsd.GsdError.InvalidArgument):
            self.registry.resolve_install_plans(request(commands=["../x"]), ["global", "local"])

    def test_two_scopes_in_one_folder_are_refused(self):
        # A project at the home directory: its local .claude is the global one.
        at_home = gsd.PlanRequest(runtime="claude", scope="global",
                                  host=gsd.Host(home="/home/u", cwd="/home/u"), **INVENTORY)
        with self.assertRaises(gsd.GsdError.InvalidArgument) as caught:
            self.registry.resolve_install_plans(at_home, ["local", "global"])
        self.assertEqual(caught.exception.message,
                         "the global and local scopes both resolve to \"/home/u/.claude\" "
                         "(host.cwd holds the global config directory), so both plans would "
                         "install into one folder; plan one scope")
        # One scope of it is a plan like any other.
        self.assertEqual(len(self.registry.resolve_install_plans(at_home, ["local"]).plans), 1)


if __name__ == "__main__":
    unittest.main()
