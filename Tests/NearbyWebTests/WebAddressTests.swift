import Testing
@testable import NearbyWeb

/// `--web [ADDRESS:]PORT` and the token rules.
@Suite struct WebAddressTests {
    @Test func aPortAloneListensOnLoopback() throws {
        let address = try WebAddress(parsing: "8080")
        #expect(address.host == "127.0.0.1" && address.port == 8080 && address.isLoopback && address.description == "127.0.0.1:8080")
        #expect(try WebAddress(parsing: "0").port == 0)
    }

    @Test func explicitAddresses() throws {
        let any = try WebAddress(parsing: "0.0.0.0:9000")
        #expect(any.host == "0.0.0.0" && !any.isLoopback && any.isUnspecified)
        let lan = try WebAddress(parsing: "192.168.1.20:80")
        #expect(!lan.isLoopback && !lan.isUnspecified)
        #expect(try WebAddress(parsing: "127.0.0.2:80").isLoopback)
        #expect(try WebAddress(parsing: "localhost:80").host == "127.0.0.1")
        let v6 = try WebAddress(parsing: "[::1]:8080")
        #expect(v6.host == "::1" && v6.isLoopback && v6.description == "[::1]:8080")
        let v6any = try WebAddress(parsing: "[::]:8080")
        #expect(!v6any.isLoopback && v6any.isUnspecified)
    }

    @Test(arguments: ["", "http", "8080x", "70000", "-1", "host.example:80", "::1:80", "[::1]", "[::1]8080", "1.2.3:80", "256.1.1.1:80", "127.0.0.1:"])
    func badAddressesAreRefusedWithTheForms(_ text: String) {
        #expect {
            try WebAddress(parsing: text)
        } throws: { error in
            guard let error = error as? WebError, error.code == .invalidAddress else { return false }
            return error.description.contains("8080") || error.description.contains("IP address") || error.description.contains("1-65535")
        }
    }

    @Test func aHostNameIsNotAccepted() {
        #expect(throws: WebError.self) { try WebAddress(parsing: "example.org:8080") }
    }

    @Test func tokens() throws {
        try WebAccess.validate(token: "0123456789abcdef")
        try WebAccess.validate(token: "A-Za-z0-9._~" + String(repeating: "x", count: 20))
        for bad in ["short", String(repeating: "x", count: 257), "0123456789abcdef ", "0123456789abcdef&a=b", "0123456789abcdéf00", "0123456789abcdef\"<"] {
            #expect(throws: WebError.self, "\(bad)") { try WebAccess.validate(token: bad) }
        }
    }

    @Test func anAddressOtherMachinesReachNeedsAToken() throws {
        let any = try WebAddress(parsing: "0.0.0.0:8080")
        #expect {
            try WebSettings(address: any, token: nil)
        } throws: { error in
            guard let error = error as? WebError else { return false }
            return error.code == .tokenRequired && error.description.contains("--web-token") && error.description.contains("0.0.0.0:8080")
        }
        #expect(try WebSettings(address: any, token: "0123456789abcdef0123").token == "0123456789abcdef0123")
        #expect(try WebSettings(address: WebAddress(parsing: "8080"), token: nil).token == nil)
        #expect(throws: WebError.self) { try WebSettings(address: WebAddress(parsing: "8080"), token: "bad token") }
    }

    @Test("the token comes from --web-token, else NEARBY_WEB_TOKEN (empty: unset), else [web] token; a bad one names where it came from")
    func tokenResolution() throws {
        let good = "0123456789abcdef0123", other = "fedcba9876543210fedc"
        let fromFlag = try WebSettings.resolve(listen: "0.0.0.0:0", token: good, environment: ["NEARBY_WEB_TOKEN": other], configured: other)
        #expect(fromFlag.token == good && fromFlag.address.port == 0)
        #expect(try WebSettings.resolve(listen: "8080", token: nil, environment: ["NEARBY_WEB_TOKEN": other], configured: good).token == other)
        #expect(try WebSettings.resolve(listen: "8080", token: nil, environment: ["NEARBY_WEB_TOKEN": ""], configured: good).token == good)
        #expect(try WebSettings.resolve(listen: "8080", token: nil, environment: [:], configured: nil).token == nil)
        func failure(token: String?, environment: [String: String], configured: String?, listen: String = "8080") -> WebError? {
            do {
                _ = try WebSettings.resolve(listen: listen, token: token, environment: environment, configured: configured)
                return nil
            } catch {
                return error
            }
        }
        let flag = failure(token: "short", environment: ["NEARBY_WEB_TOKEN": good], configured: good)
        #expect(flag?.code == .invalidToken && flag?.description.hasPrefix("--web-token: ") == true)
        #expect(failure(token: nil, environment: ["NEARBY_WEB_TOKEN": "short"], configured: good)?.description.hasPrefix("NEARBY_WEB_TOKEN: ") == true)
        #expect(failure(token: nil, environment: [:], configured: "short")?.description.hasPrefix("configuration file, [web] token: ") == true)
        let open = failure(token: nil, environment: [:], configured: nil, listen: "0.0.0.0:8080")
        #expect(open?.code == .tokenRequired && open?.description.hasPrefix("--web 0.0.0.0:8080") == true, "no origin for a missing token")
        #expect(failure(token: nil, environment: [:], configured: nil, listen: "x:y")?.code == .invalidAddress)
    }
}
