// `Seams` is `SeamsCore` (every protocol, the live file system, folders and bookmarks) plus the
// live network transport on `URLSession`. The transport is kept out of `SeamsCore` because on
// Linux it links FoundationNetworking and libcurl: a program that needs only the file-system
// seams (such as `seams-sync`) imports `SeamsCore`, starts faster and can link the Swift
// libraries statically. `import Seams` gives both, as one module.
@_exported public import SeamsCore
