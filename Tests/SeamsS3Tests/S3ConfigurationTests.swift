import Foundation
import SeamsS3
import SeamsTesting
import Testing

/// Credentials, region and endpoint found where the AWS tools find them, the files in memory.
@Suite struct S3ConfigurationTests {
    static let home = URL(filePath: "/home/me", directoryHint: .isDirectory)

    /// A file system holding `files` (paths under the home folder) and nothing else.
    static func fileSystem(_ files: [String: String]) throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        try fileSystem.createDirectory(at: home.appending(path: ".aws"), withIntermediateDirectories: true)
        for (path, text) in files { try fileSystem.write(Data(text.utf8), to: home.appending(path: path)) }
        return fileSystem
    }

    static let credentialsFile = """
        # written by aws configure
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = default-secret

        [work]
        aws_access_key_id=AKIDWORK
        aws_secret_access_key=work-secret
        aws_session_token = work-token
        """
    static let configFile = """
        [default]
        region = eu-west-1

        [profile work]
        region = eu-central-1
        s3 =
          endpoint_url = https://s3.work.example
          addressing_style = path

        [profile minio]
        region = us-east-1
        endpoint_url = http://127.0.0.1:9000
        aws_access_key_id = minioadmin
        aws_secret_access_key = minio-secret
        """

    @Test("the environment's keys come first, with its region and endpoint")
    func environment() throws {
        let files = try Self.fileSystem([".aws/credentials": Self.credentialsFile, ".aws/config": Self.configFile])
        let found = try S3Configuration.resolve(
            environment: [
                "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
                "AWS_DEFAULT_REGION": "ap-south-1", "AWS_ENDPOINT_URL": "https://s3.env.example",
            ], home: Self.home, files: files)
        #expect(
            found
                == S3Configuration(
                    credentials: S3Credentials(
                        accessKeyID: "AKIDENV", secretAccessKey: "env-secret", sessionToken: "env-token"),
                    region: "ap-south-1", endpoint: URL(string: "https://s3.env.example")))
        // AWS_REGION wins over AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 over AWS_ENDPOINT_URL.
        let specific = try S3Configuration.resolve(
            environment: [
                "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "S", "AWS_REGION": "us-west-2",
                "AWS_DEFAULT_REGION": "ap-south-1", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:4566",
                "AWS_ENDPOINT_URL": "https://other.example",
            ], home: Self.home, files: files)
        #expect(specific.region == "us-west-2" && specific.endpoint == URL(string: "http://127.0.0.1:4566"))
    }

    @Test("the default profile, then a named one, with a nested s3 endpoint and keys kept in the config file")
    func profiles() throws {
        let files = try Self.fileSystem([".aws/credentials": Self.credentialsFile, ".aws/config": Self.configFile])
        let standard = try S3Configuration.resolve(environment: [:], home: Self.home, files: files)
        #expect(standard.credentials == S3Credentials(accessKeyID: "AKIDDEFAULT", secretAccessKey: "default-secret"))
        #expect(standard.region == "eu-west-1" && standard.endpoint == nil)
        let work = try S3Configuration.resolve(environment: ["AWS_PROFILE": "work"], home: Self.home, files: files)
        #expect(
            work.credentials
                == S3Credentials(accessKeyID: "AKIDWORK", secretAccessKey: "work-secret", sessionToken: "work-token"))
        #expect(work.region == "eu-central-1" && work.endpoint == URL(string: "https://s3.work.example"))
        let minio = try S3Configuration.resolve(environment: ["AWS_PROFILE": "minio"], home: Self.home, files: files)
        #expect(minio.credentials == S3Credentials(accessKeyID: "minioadmin", secretAccessKey: "minio-secret"))
        #expect(minio.endpoint == URL(string: "http://127.0.0.1:9000"))
    }

    @Test("files named by the environment are read instead of ~/.aws")
    func namedFiles() throws {
        let files = try Self.fileSystem([
            "elsewhere-credentials": "[default]\naws_access_key_id = OTHER\naws_secret_access_key = other-secret\n"
        ])
        let found = try S3Configuration.resolve(
            environment: ["AWS_SHARED_CREDENTIALS_FILE": "/home/me/elsewhere-credentials"], home: Self.home,
            files: files)
        #expect(found.credentials.accessKeyID == "OTHER")
    }

    @Test("missing or half keys are errors that say what to set, never half of each source")
    func failures() throws {
        let empty = try Self.fileSystem([:])
        #expect(throws: S3Configuration.Failure.noCredentials(profile: "default")) {
            try S3Configuration.resolve(environment: [:], home: Self.home, files: empty)
        }
        let files = try Self.fileSystem([".aws/credentials": Self.credentialsFile])
        #expect(throws: S3Configuration.Failure.incompleteEnvironment(missing: "AWS_SECRET_ACCESS_KEY")) {
            try S3Configuration.resolve(environment: ["AWS_ACCESS_KEY_ID": "A"], home: Self.home, files: files)
        }
        #expect(throws: S3Configuration.Failure.noCredentials(profile: "nobody")) {
            try S3Configuration.resolve(environment: ["AWS_PROFILE": "nobody"], home: Self.home, files: files)
        }
        let half = try Self.fileSystem([".aws/credentials": "[default]\naws_access_key_id = ONLY\n"])
        #expect(
            throws: S3Configuration.Failure.incompleteProfile(profile: "default", file: "/home/me/.aws/credentials")
        ) {
            try S3Configuration.resolve(environment: [:], home: Self.home, files: half)
        }
        #expect(throws: S3Configuration.Failure.invalidEndpoint("s3.example.com")) {
            try S3Configuration.resolve(
                environment: [
                    "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "S", "AWS_ENDPOINT_URL": "s3.example.com",
                ],
                home: Self.home, files: empty)
        }
        // No error message carries a secret.
        #expect(!"\(S3Configuration.Failure.incompleteProfile(profile: "default", file: "f"))".contains("secret-"))
    }

    @Test("an unreadable file is an error, not an empty profile")
    func unreadable() throws {
        let files = MockFileAccessor()
        files.readError = CocoaError(.fileReadNoPermission)
        #expect(
            performing: { try S3Configuration.resolve(environment: [:], home: Self.home, files: files) },
            throws: { error in
                guard case .unreadable(let file, _) = error as? S3Configuration.Failure else { return false }
                return file == "/home/me/.aws/config"
            })
    }
}
