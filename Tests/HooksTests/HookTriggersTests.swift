import Hooks
import Testing

/// Hooks as a command line gives them: triggers plus the command after `--`.
@Suite struct HookTriggersTests {
    @Test func oneHookPerTriggerAllRunningTheCommand() throws {
        let triggers = HookTriggers(enter: ["near", "*"], exit: ["far"], lost: true, found: true, timeout: 5, cooldown: 1)
        let hooks = try #require(try triggers.definitions(command: ["/usr/bin/logger", "nearby"]))
        #expect(hooks.map(\.trigger) == [.enter, .enter, .exit, .lost, .found])
        #expect(hooks.map(\.zone) == ["near", nil, "far", nil, nil])
        #expect(hooks.allSatisfy { $0.run == ["/usr/bin/logger", "nearby"] && $0.timeout == 5 && $0.cooldown == 1 })
        let defaults = try #require(try HookTriggers(lost: true).definitions(command: ["true"]))
        #expect(defaults.first?.timeout == HookDefinition.defaultTimeout && defaults.first?.cooldown == 0)
    }

    @Test func noTriggerAndNoCommandMeansTheConfigurationFilesHooks() throws {
        #expect(!HookTriggers().hasTriggers)
        #expect(try HookTriggers().definitions(command: []) == nil)
    }

    @Test func mismatchesAreNamed() {
        #expect(throws: HookTriggersError.commandWithoutTrigger) { try HookTriggers().definitions(command: ["true"]) }
        #expect(throws: HookTriggersError.settingsWithoutTrigger) { try HookTriggers(timeout: 3).definitions(command: []) }
        #expect(throws: HookTriggersError.noCommand) { try HookTriggers(found: true).definitions(command: []) }
        do {
            _ = try HookTriggers(lost: true, timeout: -1).definitions(command: ["true"])
            Issue.record("a negative timeout was accepted")
        } catch {
            guard case .invalid(let definition, let trigger) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(trigger == .lost && definition.field == "timeout")
        }
    }

    @Test func theHookCommandIsWhatFollowsTheFirstDoubleDash() {
        #expect(HookTriggers.splitCommand(["range", "tag", "--on-enter", "near", "--", "sh", "-c", "echo --", "--"])
            == (["range", "tag", "--on-enter", "near"], ["sh", "-c", "echo --", "--"]))
        #expect(HookTriggers.splitCommand(["demo", "--json"]) == (["demo", "--json"], []))
        #expect(HookTriggers.splitCommand(["--"]) == ([], []))
    }
}
