import SwiftDiagnostics

/// Every error `@Mockable` reports; each says what is unsupported and what to do instead.
enum MockableDiagnostic: String, DiagnosticMessage {
    case notAProtocol
    case subscriptRequirement
    case opaqueParameter
    case rethrowsRequirement
    case parameterPack
    case genericInitializer
    case protocolWhereClause
    case unknownInheritance
    case reservedName
    case untypedProperty
    case sendableArgumentNotLiteral
    case nonSendableMockOfSendableProtocol
    case staticSelfInNonSendableMock

    var message: String {
        switch self {
        case .notAProtocol:
            "@Mockable applies only to a protocol"
        case .subscriptRequirement:
            "@Mockable does not support generic subscripts, nor 'some' or variadic subscript parameters; use a method such as 'value(at:)'"
        case .opaqueParameter:
            "@Mockable takes 'some P' only as a whole parameter of a method (not in an initializer, nor nested as in '[some P]'); name a generic parameter or take 'any P'"
        case .rethrowsRequirement:
            "@Mockable supports 'rethrows' with exactly one throwing closure parameter (not 'inout', not optional); declare 'throws' or 'throws(E)' otherwise"
        case .parameterPack:
            "@Mockable takes a parameter pack ('each T') only as whole parameters ('_ values: repeat each T', recorded as an array) of a method with no other generic parameter or 'where' clause, whose result does not name the pack, and in a Sendable mock only with 'each T: Sendable'; otherwise take an array of Sendable values"
        case .genericInitializer:
            "@Mockable does not support generic initializer requirements (a mock's initializer records one type); take concrete or 'any' types"
        case .protocolWhereClause:
            "@Mockable carries into the mock a 'where' requirement on 'Self', on the protocol's associated types, or 'ID == T' for 'Identifiable'; not this one"
        case .unknownInheritance:
            "@Mockable cannot mock the requirements of this inherited protocol; a protocol may inherit 'Sendable', 'Actor', 'AnyObject', 'Equatable', 'Hashable', 'Comparable', 'Identifiable', 'CustomStringConvertible', 'CustomDebugStringConvertible', 'Encodable', 'Decodable', 'Codable', 'Error' and other @Mockable protocols"
        case .reservedName:
            "@Mockable reserves the names 'stubs', 'staticStubs', 'resetMock' and 'mockInherited' for the mock's own API"
        case .untypedProperty:
            "@Mockable needs a type annotation on every property requirement"
        case .sendableArgumentNotLiteral:
            "@Mockable's 'sendable:' takes the literal 'true' or 'false'"
        case .staticSelfInNonSendableMock:
            "@Mockable(sendable: false) cannot keep a static requirement that names 'Self' (an operator, 'Comparable'): static state is shared behind a lock, which needs a Sendable mock; drop 'sendable: false'"
        case .nonSendableMockOfSendableProtocol:
            "@Mockable(sendable: false) writes a mock that is not Sendable, which a 'Sendable', 'Actor' or '@MainActor' protocol cannot have; make the argument and result types Sendable and drop 'sendable: false'"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "SeamsMacros", id: rawValue)
    }

    var severity: DiagnosticSeverity { .error }
}
