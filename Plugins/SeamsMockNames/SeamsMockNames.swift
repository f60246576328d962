import Foundation
import PackagePlugin

/// Gives the mocks that `@Mockable` writes for `…Providing` protocols the seed's names:
/// `MockFileAccessor` for `FileAccessorProviding` (the macro itself names it
/// `MockFileAccessorProviding`; Swift lets a macro at global scope add only a fixed prefix or
/// suffix to a name). Apply it to the target that declares the protocols:
///
/// ```swift
/// .testTarget(
///     name: "MyAppTests",
///     dependencies: [.product(name: "SeamsMacros", package: "seams")],
///     plugins: [.plugin(name: "SeamsMockNames", package: "seams")]
/// )
/// ```
@main
struct SeamsMockNames: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? any SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "SeamsMockNames.swift")
        return [
            .buildCommand(
                displayName: "Naming the @Mockable mocks of \(target.name)",
                executable: try context.tool(named: "seams-mock-names").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
