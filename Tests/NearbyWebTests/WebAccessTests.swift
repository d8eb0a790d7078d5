import Testing
@testable import NearbyWeb

/// Who may read the view: the token, and the Host check without one.
@Suite struct WebAccessTests {
    let token = "s3cret-token_0123456789"

    @Test func theTokenComesInTheQueryOrAsABearer() throws {
        let access = WebAccess(token: token, address: try WebAddress(parsing: "0.0.0.0:8080"))
        #expect(access.check(query: "token=\(token)", authorization: nil, host: "evil.example") == .allowed)
        #expect(access.check(query: "a=1&token=\(token)&b=2", authorization: nil, host: nil) == .allowed)
        #expect(access.check(query: nil, authorization: "Bearer \(token)", host: nil) == .allowed)
        #expect(access.check(query: nil, authorization: "bearer  \(token)", host: nil) == .allowed)
        #expect(access.check(query: nil, authorization: nil, host: "127.0.0.1:8080") == .unauthorized)
        #expect(access.check(query: "token=\(token)x", authorization: nil, host: nil) == .unauthorized)
        #expect(access.check(query: "token=\(token.dropLast())", authorization: nil, host: nil) == .unauthorized)
        #expect(access.check(query: "tok=\(token)", authorization: "Basic \(token)", host: nil) == .unauthorized)
        #expect(access.check(query: "token=%7", authorization: nil, host: nil) == .unauthorized)
    }

    @Test func withoutATokenOnlyLoopbackHostNamesAreAnswered() throws {
        let access = WebAccess(token: nil, address: try WebAddress(parsing: "8080"))
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080", "127.0.0.1", "localhost"] {
            #expect(access.check(query: nil, authorization: nil, host: host) == .allowed, "\(host)")
        }
        // DNS rebinding: a foreign name pointing at 127.0.0.1.
        #expect(access.check(query: nil, authorization: nil, host: "evil.example:8080") == .foreignHost("evil.example:8080"))
        #expect(access.check(query: nil, authorization: nil, host: "127.0.0.1:9999") == .foreignHost("127.0.0.1:9999"))
        #expect(access.check(query: nil, authorization: nil, host: nil) == .allowed)
    }

    @Test func percentDecodingAndComparison() {
        #expect(WebAccess.percentDecoded("a%20b+c") == "a b c")
        #expect(WebAccess.percentDecoded("%zz") == nil)
        #expect(WebAccess.parameter("token", in: "x=1&token=a%2Db") == "a-b")
        #expect(WebAccess.parameter("token", in: "tokenx=1") == nil)
        #expect(WebAccess.equal(Array("abc".utf8), Array("abc".utf8)))
        #expect(!WebAccess.equal(Array("abc".utf8), Array("abd".utf8)))
        #expect(!WebAccess.equal(Array("abc".utf8), Array("abcd".utf8)))
    }
}
