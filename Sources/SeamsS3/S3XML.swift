import Foundation
import SeamsCore

/// An element of an S3 answer's XML body: its local name (any namespace prefix dropped), its
/// text, and its child elements in order.
///
/// A small tolerant reader, not a general XML parser: S3 bodies (`ListBucketResult`, `Error`,
/// `CopyObjectResult`, `InitiateMultipartUploadResult`…) need element names, text, the five
/// predefined entities and numeric character references; attributes, comments, processing
/// instructions and CDATA-free text are all they hold besides.
struct S3XMLElement: Hashable, Sendable {
    var name: String
    var text = ""
    var children: [S3XMLElement] = []

    /// The first child named `name`.
    func child(_ name: String) -> S3XMLElement? { children.first { $0.name == name } }

    /// Every child named `name`.
    func children(_ name: String) -> [S3XMLElement] { children.filter { $0.name == name } }

    /// The text of the first child named `name`.
    func text(of name: String) -> String? { child(name)?.text }

    /// A body that is not well-formed enough to read.
    struct Malformed: Error, Hashable, Sendable {
        var reason: String
    }

    /// The root element of `body`.
    static func parse(_ body: Data) throws(Malformed) -> S3XMLElement {
        let bytes = [UInt8](body)
        var stack: [S3XMLElement] = []
        var root: S3XMLElement?
        var index = 0
        var text: [UInt8] = []
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                text.append(bytes[index])
                index += 1
                continue
            }
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                throw Malformed(reason: "a tag is not closed")
            }
            let tag = bytes[(index + 1)..<close]
            index = close + 1
            guard let first = tag.first else { throw Malformed(reason: "an empty tag") }
            if first == UInt8(ascii: "?") || first == UInt8(ascii: "!") { continue }  // declaration, comment
            if first == UInt8(ascii: "/") {
                guard var element = stack.popLast() else { throw Malformed(reason: "a closing tag with no element") }
                guard localName(tag.dropFirst()) == element.name else {
                    throw Malformed(reason: "</\(localName(tag.dropFirst()))> closes <\(element.name)>")
                }
                if element.children.isEmpty { element.text = try decode(text) }
                text = []
                if stack.isEmpty {
                    root = element
                } else {
                    stack[stack.count - 1].children.append(element)
                }
                continue
            }
            text = []
            let selfClosing = tag.last == UInt8(ascii: "/")
            let element = S3XMLElement(name: localName(selfClosing ? tag.dropLast() : tag))
            if selfClosing {
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
            } else {
                stack.append(element)
            }
        }
        guard stack.isEmpty, let root else { throw Malformed(reason: "the body ends inside an element") }
        return root
    }

    /// The tag's name without attributes or namespace prefix.
    private static func localName(_ tag: ArraySlice<UInt8>) -> String {
        let name = tag.prefix {
            ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0)
        }
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return String(decoding: local, as: UTF8.self)
    }

    /// The text with its entities and character references replaced.
    private static func decode(_ raw: [UInt8]) throws(Malformed) -> String {
        do throws(XMLEntities.Failure) {
            return try XMLEntities.decode(String(decoding: raw, as: UTF8.self))
        } catch {
            throw Malformed(reason: error.reason)
        }
    }
}
