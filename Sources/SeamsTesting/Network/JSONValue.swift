import Foundation

/// A JSON document as a value, so two bodies compare by structure: key order, white space and
/// number spelling (`1` and `1.0`) don't matter; `true` and `1` differ.
enum JSONValue: Hashable, Sendable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data`, or `nil` when it is not JSON.
    init?(parsing data: Data) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        self = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Compact JSON with sorted keys.
    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): Self.quoted(value)
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }
                .map { Self.quoted($0.key) + ":" + $0.value.description }
                .joined(separator: ",") + "}"
        }
    }

    /// The first place where `self` and `other` differ, as a path such as `$.items[2].name`.
    func firstDifference(from other: JSONValue, at path: String = "$") -> String? {
        switch (self, other) {
        case (.array(let lhs), .array(let rhs)):
            if lhs.count != rhs.count { return "\(path) has \(rhs.count) elements, expected \(lhs.count)" }
            for (index, pair) in zip(lhs, rhs).enumerated() {
                if let difference = pair.0.firstDifference(from: pair.1, at: "\(path)[\(index)]") {
                    return difference
                }
            }
            return nil
        case (.object(let lhs), .object(let rhs)):
            for key in Set(lhs.keys).union(rhs.keys).sorted() {
                guard let expected = lhs[key] else { return "\(path).\(key) is not expected" }
                guard let actual = rhs[key] else { return "\(path).\(key) is missing" }
                if let difference = expected.firstDifference(from: actual, at: "\(path).\(key)") {
                    return difference
                }
            }
            return nil
        default:
            return self == other ? nil : "\(path) is \(other), expected \(self)"
        }
    }

    private static func quoted(_ string: String) -> String {
        let data = (try? JSONEncoder().encode(string)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
