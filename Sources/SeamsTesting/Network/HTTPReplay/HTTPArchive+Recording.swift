import Foundation
import HTTPTypes
import Seams

extension HTTPArchive.Entry {
    /// An entry for one exchange made through a live transport, redacted by `redaction`.
    ///
    /// - Parameters:
    ///   - request: The request as the caller gave it.
    ///   - body: Its body.
    ///   - outcome: The response and body, or the transport error.
    ///   - started: When the request started.
    ///   - duration: How long the exchange took.
    ///   - redaction: What to replace before anything is kept.
    init(
        recording request: HTTPRequest,
        body: Data?,
        outcome: Result<(HTTPResponse, Data), HTTPTransportError>,
        started: Date,
        duration: Duration,
        redaction: HTTPRedaction
    ) {
        let target = redaction.redact(target: request.path ?? "/")
        let url = "\(request.scheme ?? "http")://\(request.authority ?? "")\(target)"
        let requestType = request.headerFields[.contentType]
        let postData = body.map { data -> HTTPArchive.PostData in
            let kept = redaction.redact(body: data, contentType: requestType)
            let (text, encoding) = HTTPArchiveBody.encode(kept, mimeType: requestType ?? "")
            return HTTPArchive.PostData(mimeType: requestType ?? "", text: text, encoding: encoding)
        }
        let archivedRequest = HTTPArchive.Request(
            method: request.method.rawValue,
            url: url,
            headers: redaction.redact(headers: request.headerFields.map(HTTPArchive.NameValue.init)),
            queryString: MockHTTPText.split(target).items.map {
                HTTPArchive.NameValue(name: $0.name, value: $0.value ?? "")
            },
            postData: postData,
            bodySize: body?.count ?? 0
        )
        let archivedResponse: HTTPArchive.Response
        switch outcome {
        case .success(let (response, data)):
            let responseType = response.headerFields[.contentType]
            let kept = redaction.redact(body: data, contentType: responseType)
            let (text, encoding) = HTTPArchiveBody.encode(kept, mimeType: responseType ?? "")
            archivedResponse = HTTPArchive.Response(
                status: response.status.code,
                statusText: response.status.reasonPhrase,
                headers: redaction.redact(headers: response.headerFields.map(HTTPArchive.NameValue.init)),
                content: HTTPArchive.Content(
                    size: kept.count, mimeType: responseType ?? "", text: kept.isEmpty ? nil : text,
                    encoding: kept.isEmpty ? nil : encoding),
                redirectURL: response.headerFields[.location].map(redaction.redact(target:)) ?? ""
            )
        case .failure(let error):
            archivedResponse = HTTPArchive.Response(
                status: 0, statusText: "", headers: [], content: HTTPArchive.Content(size: 0, mimeType: ""),
                error: error.kind.rawValue)
        }
        let milliseconds = Self.milliseconds(duration)
        self.init(
            startedDateTime: Self.timestamp(started),
            time: milliseconds,
            request: archivedRequest,
            response: archivedResponse
        )
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return Double(micros) / 1000
    }

    /// ISO 8601 in UTC with milliseconds: `2026-11-23T11:20:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension HTTPArchive.NameValue {
    init(_ field: HTTPField) {
        self.init(name: field.name.rawName, value: field.value)
    }
}
