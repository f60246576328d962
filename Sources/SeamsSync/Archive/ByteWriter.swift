import Foundation

/// Appends little-endian fields to a buffer of its own, which becomes the `Data` it returns
/// without a copy (at a million entries the archive is tens of megabytes).
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = malloc(self.capacity)!
    }

    deinit {
        free(base)
    }

    /// The bytes written so far.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// The bytes, handed to a `Data` that frees them.
    consuming func finish() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }

    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        capacity = max(capacity * 2, count + more)
        base = realloc(base, capacity)!
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
    }

    mutating func append(_ raw: [UInt8]) {
        raw.withUnsafeBytes { append($0) }
    }

    /// Writes `value` over bytes already written at `offset`, as ``append(_:)-(FixedWidthInteger)`` wrote them.
    mutating func overwrite(_ value: some FixedWidthInteger, at offset: Int) {
        precondition(offset >= 0 && offset + MemoryLayout.size(ofValue: value) <= count, "inside what was written")
        withUnsafeBytes(of: value.littleEndian) {
            (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
        }
    }

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }

    mutating func append(string: String) {
        var text = string
        text.withUTF8 { utf8 in
            append(UInt32(utf8.count))
            append(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends `value` as a varint: seven bits a byte, low bits first, the high bit set on every
    /// byte but the last.
    mutating func append(varint value: UInt64) {
        reserve(10)
        var rest = value
        while rest >= 0x80 {
            base.storeBytes(of: UInt8(truncatingIfNeeded: rest) | 0x80, toByteOffset: count, as: UInt8.self)
            count += 1
            rest >>= 7
        }
        base.storeBytes(of: UInt8(truncatingIfNeeded: rest), toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends `value` zigzag-encoded as a varint (small negative numbers stay short).
    mutating func append(zigzag value: Int64) {
        append(varint: UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
}
