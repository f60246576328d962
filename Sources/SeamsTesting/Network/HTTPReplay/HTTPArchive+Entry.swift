extension HTTPArchive {
    /// One exchange: the request, the response (or the transport error), and its timings.
    public struct Entry: Codable, Hashable, Sendable {
        /// When the request started, ISO 8601 with milliseconds.
        public var startedDateTime: String
        /// The whole exchange, in milliseconds.
        public var time: Double
        /// The request.
        public var request: Request
        /// The response; status 0 with ``Response/error`` when none arrived.
        public var response: Response
        /// The phases of ``time``.
        public var timings: Timings

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - startedDateTime: When the request started, ISO 8601.
        ///   - time: The whole exchange, in milliseconds.
        ///   - request: The request.
        ///   - response: The response.
        ///   - timings: The phases; all of `time` as waiting unless given.
        public init(
            startedDateTime: String, time: Double, request: Request, response: Response, timings: Timings? = nil
        ) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.timings = timings ?? Timings(wait: time)
        }

        private enum CodingKeys: String, CodingKey { case startedDateTime, time, request, response, cache, timings }

        /// Reads an entry; `cache` and fields of other tools are read past.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
            time = try container.decodeIfPresent(Double.self, forKey: .time) ?? 0
            request = try container.decode(Request.self, forKey: .request)
            response = try container.decode(Response.self, forKey: .response)
            timings = try container.decodeIfPresent(Timings.self, forKey: .timings) ?? Timings(wait: time)
        }

        /// Writes the entry with an empty `cache`, as HAR 1.2 requires.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(startedDateTime, forKey: .startedDateTime)
            try container.encode(time, forKey: .time)
            try container.encode(request, forKey: .request)
            try container.encode(response, forKey: .response)
            try container.encode([String: String](), forKey: .cache)
            try container.encode(timings, forKey: .timings)
        }
    }

    /// `request`: method, URL, header fields, query items and body.
    public struct Request: Codable, Hashable, Sendable {
        /// The method, such as `GET`.
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// `HTTP/1.1` when written here.
        public var httpVersion: String
        /// The header fields the caller gave, in order.
        public var headers: [NameValue]
        /// The query items of ``url``, in order.
        public var queryString: [NameValue]
        /// The body, or `nil` for none.
        public var postData: PostData?
        /// The body's length in bytes (0 for none).
        public var bodySize: Int

        /// Creates a request.
        ///
        /// - Parameters:
        ///   - method: The method.
        ///   - url: The absolute URL.
        ///   - headers: The header fields.
        ///   - queryString: The query items.
        ///   - postData: The body.
        ///   - bodySize: The body's length.
        public init(
            method: String,
            url: String,
            headers: [NameValue],
            queryString: [NameValue],
            postData: PostData?,
            bodySize: Int
        ) {
            self.method = method
            self.url = url
            httpVersion = "HTTP/1.1"
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.bodySize = bodySize
        }

        private enum CodingKeys: String, CodingKey {
            case method, url, httpVersion, cookies, headers, queryString, postData, headersSize, bodySize
        }

        /// Reads a request; `cookies` are read past (the `Cookie` header field carries them).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            url = try container.decode(String.self, forKey: .url)
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([NameValue].self, forKey: .headers) ?? []
            queryString = try container.decodeIfPresent([NameValue].self, forKey: .queryString) ?? []
            postData = try container.decodeIfPresent(PostData.self, forKey: .postData)
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        }

        /// Writes the request with empty `cookies` and `headersSize` -1 (unknown).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
            try container.encode(url, forKey: .url)
            try container.encode(httpVersion, forKey: .httpVersion)
            try container.encode([NameValue](), forKey: .cookies)
            try container.encode(headers, forKey: .headers)
            try container.encode(queryString, forKey: .queryString)
            try container.encodeIfPresent(postData, forKey: .postData)
            try container.encode(-1, forKey: .headersSize)
            try container.encode(bodySize, forKey: .bodySize)
        }
    }

    /// `postData`: a request body as text, or as base64 when `_encoding` is `base64`.
    ///
    /// HAR 1.2 has no encoding for request bodies; `_encoding` is this package's extension (HAR
    /// allows fields that start with `_`), and `encoding` is read too. A body that a browser
    /// stored only as `params` of a form is rebuilt as `name=value&…`.
    public struct PostData: Codable, Hashable, Sendable {
        /// The body's media type, or empty.
        public var mimeType: String
        /// The body: text, or base64 when ``encoding`` is `base64`.
        public var text: String
        /// `base64`, or `nil` for text.
        public var encoding: String?

        /// Creates a body.
        ///
        /// - Parameters:
        ///   - mimeType: The media type.
        ///   - text: The text or base64.
        ///   - encoding: `base64`, or `nil`.
        public init(mimeType: String, text: String, encoding: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        private struct Param: Decodable {
            let name: String
            let value: String?
        }

        private enum CodingKeys: String, CodingKey {
            case mimeType, text, params
            case encoding = "_encoding"
            case plainEncoding = "encoding"
        }

        /// Reads a body.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            encoding =
                try container.decodeIfPresent(String.self, forKey: .encoding)
                ?? container.decodeIfPresent(String.self, forKey: .plainEncoding)
            if let text = try container.decodeIfPresent(String.self, forKey: .text) {
                self.text = text
            } else {
                let params = try container.decodeIfPresent([Param].self, forKey: .params) ?? []
                text = HTTPArchiveBody.formText(params.map { ($0.name, $0.value ?? "") })
            }
        }

        /// Writes the body.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mimeType, forKey: .mimeType)
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(encoding, forKey: .encoding)
        }
    }

    /// `response`: status, header fields and body; or status 0 and ``error`` when no response came.
    public struct Response: Codable, Hashable, Sendable {
        /// The status code, or 0 when the exchange failed.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// `HTTP/1.1` when written here.
        public var httpVersion: String
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location` header's value, or empty.
        public var redirectURL: String
        /// The body's length in bytes.
        public var bodySize: Int
        /// Why no response arrived: an `Seams.HTTPTransportError.Kind` name such as
        /// `cannotConnect` when written here, or a browser's code such as
        /// `net::ERR_CONNECTION_REFUSED`. `_error` in the file, as browsers write it.
        public var error: String?

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - status: The status code, or 0.
        ///   - statusText: The reason phrase.
        ///   - headers: The header fields.
        ///   - content: The body.
        ///   - redirectURL: The `Location`, or empty.
        ///   - error: Why no response arrived, or `nil`.
        public init(
            status: Int,
            statusText: String,
            headers: [NameValue],
            content: Content,
            redirectURL: String = "",
            error: String? = nil
        ) {
            self.status = status
            self.statusText = statusText
            httpVersion = "HTTP/1.1"
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            bodySize = content.size
            self.error = error
        }

        private enum CodingKeys: String, CodingKey {
            case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize
            case error = "_error"
        }

        /// Reads a response; `cookies` are read past (the `Set-Cookie` header field carries them).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Int.self, forKey: .status)
            statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([NameValue].self, forKey: .headers) ?? []
            content = try container.decodeIfPresent(Content.self, forKey: .content) ?? Content(size: 0, mimeType: "")
            redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
            error = try container.decodeIfPresent(String.self, forKey: .error)
        }

        /// Writes the response with empty `cookies` and `headersSize` -1 (unknown).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(statusText, forKey: .statusText)
            try container.encode(httpVersion, forKey: .httpVersion)
            try container.encode([NameValue](), forKey: .cookies)
            try container.encode(headers, forKey: .headers)
            try container.encode(content, forKey: .content)
            try container.encode(redirectURL, forKey: .redirectURL)
            try container.encode(-1, forKey: .headersSize)
            try container.encode(bodySize, forKey: .bodySize)
            try container.encodeIfPresent(error, forKey: .error)
        }
    }

    /// `content`: a response body as text, or as base64 when ``encoding`` is `base64`.
    public struct Content: Codable, Hashable, Sendable {
        /// The body's length in bytes.
        public var size: Int
        /// The body's media type, or empty.
        public var mimeType: String
        /// The body, or `nil` when the tool did not keep it (replayed as empty).
        public var text: String?
        /// `base64`, or `nil` for text.
        public var encoding: String?

        /// Creates a body.
        ///
        /// - Parameters:
        ///   - size: The length in bytes.
        ///   - mimeType: The media type.
        ///   - text: The text or base64.
        ///   - encoding: `base64`, or `nil`.
        public init(size: Int, mimeType: String, text: String? = nil, encoding: String? = nil) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        private enum CodingKeys: String, CodingKey { case size, mimeType, text, encoding }

        /// Reads a body; `compression` and fields of other tools are read past.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            size = try container.decodeIfPresent(Int.self, forKey: .size) ?? 0
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text)
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        }
    }
}
