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
}
