import Foundation
import HTTPTypes
import SeamsTesting
import Testing

@Suite("HTTPRequestMatcher")
struct HTTPRequestMatcherTests {
    static let request = HTTPRequest(
        method: .post, scheme: "https", authority: "api.example.test", path: "/v1/items?page=2&tag=a&tag=b",
        headerFields: [.contentType: "application/json", .accept: "application/json"]
    )
    static let body = Data(#"{"name": "lamp", "price": 12, "tags": ["new"]}"#.utf8)

    @Test(
        "says why each criterion misses",
        arguments: [
            (HTTPRequestMatcher(method: .get), ["method is POST, expected GET"]),
            (HTTPRequestMatcher(path: "/v1/item"), ["path is /v1/items, expected /v1/item"]),
            (HTTPRequestMatcher(query: ["page": "3"]), ["query item page is 2, expected 3"]),
            (HTTPRequestMatcher(query: ["sort": "name"]), ["query item sort missing, expected name"]),
            (
                HTTPRequestMatcher(headers: [.authorization: "Bearer x"]),
                ["header Authorization missing, expected Bearer x"]
            ),
            (
                HTTPRequestMatcher(headers: [.accept: "text/html"]),
                ["header Accept is application/json, expected text/html"]
            ),
            (
                HTTPRequestMatcher(body: .empty),
                [#"body is '{"name": "lamp", "price": 12, "tags": ["new"]}', expected none"#]
            ),
            (
                HTTPRequestMatcher(body: .json(#"{"name": "lamp", "price": 13, "tags": ["new"]}"#)),
                ["JSON body differs: $.price is 12, expected 13"]
            ),
            (
                HTTPRequestMatcher(body: .json(#"{"name": "lamp", "price": 12}"#)),
                ["JSON body differs: $.tags is not expected"]
            ),
            (
                HTTPRequestMatcher(body: .json(#"{"name": "lamp", "price": 12, "tags": []}"#)),
                ["JSON body differs: $.tags has 1 elements, expected 0"]
            ),
            (
                HTTPRequestMatcher(body: .exact(Data("lamp".utf8))),
                [#"body is '{"name": "lamp", "price": 12, "tags": ["new"]}', expected 'lamp'"#]
            ),
            (
                HTTPRequestMatcher(method: .put, path: "/"),
                ["method is POST, expected PUT", "path is /v1/items, expected /"]
            ),
        ])
    func misses(matcher: HTTPRequestMatcher, reasons: [String]) {
        #expect(matcher.mismatches(Self.request, body: Self.body) == reasons)
    }

    @Test(
        "matches when every criterion holds",
        arguments: [
            HTTPRequestMatcher(),
            HTTPRequestMatcher(method: .post, path: "/v1/items", query: ["tag": "b", "page": "2"]),
            HTTPRequestMatcher(headers: [.contentType: "application/json"]),
            HTTPRequestMatcher(body: .json(#"{"tags":["new"],"price":12.0,"name":"lamp"}"#)),
            HTTPRequestMatcher(body: .exact(body)),
        ])
    func matches(matcher: HTTPRequestMatcher) {
        #expect(matcher.mismatches(Self.request, body: Self.body).isEmpty)
    }

    @Test("JSON true and 1 differ; a body that is not JSON is named")
    func jsonStrictness() {
        let matcher = HTTPRequestMatcher(body: .json(#"{"on": true}"#))
        #expect(
            matcher.mismatches(Self.request, body: Data(#"{"on": 1}"#.utf8)) == [
                "JSON body differs: $.on is 1, expected true"
            ])
        #expect(matcher.mismatches(Self.request, body: Data("on".utf8)) == ["body is not JSON: 'on'"])
    }
}
