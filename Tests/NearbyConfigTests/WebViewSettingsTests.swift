import NearbyConfig
import Testing

/// `[web]`: the web view's token.
@Suite struct WebViewSettingsTests {
    @Test func theTokenIsReadAndNeverShownInTheSummary() throws {
        let config = try ConfigurationFile.parse("[web]\ntoken = \"0123456789abcdef-secret\"\n", source: "test.toml")
        #expect(config.web == WebViewSettings(token: "0123456789abcdef-secret"))
        #expect(config.summary.contains("web: token set") && !config.summary.contains("secret"))
        #expect(NearbyConfiguration().summary.contains("web: token not set"))
        // A flag wins over the file.
        var flags = NearbyConfiguration()
        flags.web.token = "from-the-command-line"
        #expect(config.overridden(by: flags).web.token == "from-the-command-line")
        #expect(config.overridden(by: NearbyConfiguration()).web.token == "0123456789abcdef-secret")
    }

    @Test func unknownKeysAndWrongTypesAreErrorsWithTheirLine() {
        do {
            _ = try ConfigurationFile.parse("[web]\nlisten = \"0.0.0.0:80\"\ntoken = 42\n", source: "test.toml")
            Issue.record("expected errors")
        } catch {
            #expect(error.issues.map(\.line) == [2, 3], "\(error)")
            #expect(error.issues.map(\.key) == ["web.listen", "web.token"], "\(error)")
        }
    }

    @Test func theExampleLeavesTheTokenUnset() throws {
        #expect(try ConfigurationFile.parse(ConfigurationFile.example, source: "example").web.token == nil)
        #expect(ConfigurationFile.example.contains("[web]") && ConfigurationFile.example.contains("# token = "))
    }
}
